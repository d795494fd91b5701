/*
 * Inside the report: the document being written (one output format, the
 * gnuplot state), its building blocks (headings, notes, tables written in
 * the format's own syntax, plots as inline SVG) and the sections, each one
 * function over the whole input, listed once in rp_page.c.
 */
#ifndef IOBENCH_HTML_RP_INT_H
#define IOBENCH_HTML_RP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/cmp_engine.h"
#include "html/page.h"

struct rp_doc {
	FILE *out;
	enum page_format fmt;
	const struct page_in *in;
	struct cmp_result cmp;    /* cmp_tabulate over every selection */
	bool have_cmp;
	const char *gnuplot;
	const char *no_plots;     /* why plots are left out (NULL: they are drawn) */
	unsigned nr_plots;        /* drawn so far (their SVG ids are prefixed by it) */
};

/* A section: writes itself when its data exists. 0 or -errno. */
struct rp_section {
	const char *id;           /* the HTML anchor */
	const char *title;
	bool (*present)(const struct rp_doc *d);
	int (*write)(struct rp_doc *d);
};
extern const struct rp_section rp_sec_summary, rp_sec_figures, rp_sec_latency, rp_sec_series,
	rp_sec_system, rp_sec_warnings, rp_sec_sweep;

/* --- text -------------------------------------------------------------- */

/* The length of the UTF-8 sequence at s (2 to 4 bytes, no overlong form,
 * no surrogate, at most U+10FFFF), or 0 when it is not one. */
size_t rp_utf8_len(const unsigned char *s);
/* s escaped for HTML text and attributes (& < > " ' as entities, control
 * bytes as spaces, invalid UTF-8 as U+FFFD). */
void rp_esc(FILE *out, const char *s);
/* A paragraph of plain text (escaped in HTML); cls is its HTML class or NULL. */
void rp_para(struct rp_doc *d, const char *cls, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A heading of level 2 or 3. */
void rp_heading(struct rp_doc *d, int level, const char *id, const char *text);

/* --- tables ------------------------------------------------------------ */

enum rp_cell_flags {
	RP_NUM = 1 << 0,     /* right-aligned */
	RP_DIFF = 1 << 1,    /* highlighted: differs from the others */
	RP_GOOD = 1 << 2,    /* a real improvement */
	RP_BAD = 1 << 3,     /* a real regression */
	RP_DIM = 1 << 4,     /* no real difference, no value */
};
struct rp_cell {
	char *text;
	unsigned flags;
};
struct rp_table {
	size_t ncol;
	char **head;
	unsigned *head_flags;
	struct rp_cell *cells; /* nrow * ncol */
	size_t nrow, alloc;
	size_t col;            /* next cell of the row being added */
};
/* A table of ncol columns headed by the ncol strings that follow. */
void rp_table_init(struct rp_table *t, size_t ncol, ...);
/* A table of ncol columns whose heads are set one by one. */
void rp_table_init_n(struct rp_table *t, size_t ncol);
void rp_table_head(struct rp_table *t, size_t c, const char *text);
void rp_table_row(struct rp_table *t);
void rp_table_cell(struct rp_table *t, unsigned flags, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Set column c's flags (RP_NUM) in the head and every cell. */
void rp_table_align(struct rp_table *t, size_t c, unsigned flags);
/* Write it: an HTML table, a Markdown table (| a | b |, no blank cell
 * left empty) or aligned text; caption NULL for none. */
void rp_table_write(struct rp_doc *d, struct rp_table *t, const char *caption);
void rp_table_release(struct rp_table *t);

/* --- plots ------------------------------------------------------------- */

/* A gnuplot script and its data being built (open_memstream). */
struct rp_plot {
	char *buf;
	size_t len;
	FILE *f;
	bool wide;   /* the figure spans the grid's whole width */
};
/* Start a plot of w x h pixels (the terminal and the house style set). */
void rp_plot_begin(struct rp_plot *p, unsigned w, unsigned h);
/* Text as a gnuplot string constant: "..." of letters, digits, a few
 * punctuation bytes and octal escapes, whatever s holds (no backquote,
 * '@', '$', quote or line end reaches gnuplot's command language). Every
 * text of a plot goes through here; datablocks carry numbers only. */
void rp_plot_str(struct rp_plot *p, const char *s);
/* The line "array[i] = <s as rp_plot_str>": tic labels are an array the
 * plot's using spec indexes (xtic(L[int($1)])), never datablock text. */
void rp_plot_text_at(struct rp_plot *p, const char *array, size_t i, const char *s);
/* Run gnuplot on it and put its SVG in the page inside a figure with the
 * caption (HTML only; md and txt draw nothing). A plot gnuplot fails on
 * is said in the page and on stderr, and the report goes on. Releases p. */
int rp_plot_end(struct rp_doc *d, struct rp_plot *p, const char *caption);
/* Can gnuplot be run? Sets d->no_plots (with the install hint) when not. */
void rp_plot_probe(struct rp_doc *d);
/* Drop a plot without drawing it. */
void rp_plot_discard(struct rp_plot *p);
/* Open and close a grid of small plots. */
void rp_grid_begin(struct rp_doc *d);
void rp_grid_end(struct rp_doc *d);

/* A plot axis' unit: values are divided by div and labelled unit. */
struct rp_scale {
	double div;
	const char *unit;
};
/* The axis unit for values of `unit` up to max (the tables say each
 * value's own); dir (the direction or bonnie++ test, may be NULL) tells
 * bonnie's KiB/s tests from its seeks and files. */
struct rp_scale rp_scale_of(enum cmp_unit unit, const char *dir, double max);

/* The colour of selection s (also used by the tables' swatches). */
const char *rp_color(size_t s);

/* --- the model --------------------------------------------------------- */

/* A run's name in legends: "run 12", "A.json", with its selection's label. */
void rp_run_name(const struct rp_doc *d, const struct page_run *r, char *buf, size_t len);
/* A JSON member by a dotted path ("monitor.intervals"), or NULL. */
struct json_object *rp_json_path(struct json_object *o, const char *path);

#endif
