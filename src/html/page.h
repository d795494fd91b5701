/*
 * `iobench report`'s page: selections of runs (the compare
 * model, compare/cmp_model.h, with what the store keeps beside them: the
 * machine around each run and its latency histograms) as one
 * self-contained HTML file (inline CSS and inline SVG plots drawn by
 * gnuplot; no script, nothing fetched), or the same tables as Markdown or
 * aligned text. Each section is one function over the whole input
 * (html/rp_int.h: rp_sections), present when its data exists: summary
 * with compare's verdicts, figures with confidence intervals, latency
 * percentile curves, time series of the monitor, the systems side by
 * side, warnings with their evidence, a sweep's analysis (one panel per
 * factor, the points ranked, the importance shares, the interactions).
 */
#ifndef IOBENCH_HTML_PAGE_H
#define IOBENCH_HTML_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/cmp_engine.h"
#include "compare/cmp_model.h"

struct json_object;

enum page_format {
	PAGE_HTML,
	PAGE_MD,
	PAGE_TXT,
};
/* "html", "md", "txt": 0, or -EINVAL (no message). */
int page_format_parse(const char *s, enum page_format *f);

/* One latency percentile curve: latency (ns) at percentile p (0 < p < 100). */
struct page_curve {
	char *job, *dir;   /* the job and direction (a bonnie phase) */
	size_t n;
	double *pct;
	double *ns;
};

/* What the report knows of one run beyond its figures. */
struct page_run {
	const struct cmp_run *run;  /* in sels[sel].runs */
	size_t sel;
	const char *kind;           /* "run", "quick", "bonnie", "import"; "file" for --from */
	int rep_index;              /* its repetition (0-based), -1 none */
	struct json_object *env;    /* the machine around it (sysinfo, monitor, warnings), or NULL */
	struct page_curve *curves; /* from its histograms; NULL: from its percentile figures */
	size_t nr_curves;
};


/*
 * A sweep's analysis (sweep/sweep_analysis.h), as cmd/report.c
 * takes it from sweep_analyse() over the sweep's stored runs: the page
 * draws it and does not recompute it. Values are in the goal's unit
 * (unit, dir as compare names them), each with its text
 * (sweep_goal_format); conf is the coverage of [lo, hi] (0: one value).
 */
struct page_sweep_level {
	char *name;
	size_t n;
	double mean, lo, hi, conf;
	char *text;                 /* "150.0 MiB/s [140.2 – 159.8 MiB/s]" */
};
struct page_sweep_factor {
	char *name;
	double share;               /* of the goal's variance, 0..1 */
	size_t best;                /* index into levels */
	struct page_sweep_level *levels;
	size_t nr_levels;
};
struct page_sweep_point {
	char *name;                 /* "fs=xfs read_ahead_kb=128" */
	size_t n;
	double median, lo, hi, conf;
	char *text;
};
struct page_sweep_pair {
	const char *a, *b;          /* factor names (in factors) */
	double share;
	bool matters, incomplete;
};
struct page_sweep {
	int64_t id;
	char *design;               /* "full", "race", ...; NULL unknown */
	char *goal;                 /* "write bw" */
	char *state;                /* the sweep's state ("done", ...), or NULL */
	enum cmp_unit unit;
	char *dir;                  /* the goal's direction as stored */
	bool higher_is_better;
	char *why;                  /* not NULL: no analysis, and why (the rest is empty) */
	size_t nr_runs, skipped;
	struct page_sweep_factor *factors;  /* in plan order */
	size_t nr_factors;
	size_t *rank;               /* factor indexes, the largest share first */
	struct page_sweep_point *points;    /* ranked, best first */
	size_t nr_points;
	struct page_sweep_pair *pairs;
	size_t nr_pairs;
	double share_higher, share_noise;
	double interaction_share;   /* the share from which an interaction matters */
	bool balanced, overlap;
	char **notes;
	size_t nr_notes;
};
void page_sweep_release(struct page_sweep *s);

struct page_in {
	const char *title;          /* NULL: made from the selections */
	const char *source;         /* "results database '...'" or "files" */
	const struct cmp_sel *sels;
	size_t nsel;
	const struct page_run *runs; /* every run of every selection, selection order */
	size_t nr_runs;
	const char *gnuplot;        /* the program to run ("gnuplot") */
	const struct page_sweep *sweeps; /* the sweeps the selections are points of */
	size_t nr_sweeps;
};

/*
 * Write the report of in to out in format f. Plots need gnuplot: when it
 * cannot be run, *no_plots is set to why (static text with the install
 * hint), the page says so and the tables are written all the same.
 * 0, or -errno (a write error: the caller checks out).
 */
int page_write(const struct page_in *in, enum page_format f, FILE *out,
		 const char **no_plots);

struct store_hist;
/* The curve of a stored histogram (store/store_hist.h): its percentiles
 * from 50% to the one its count can tell, exact at p50, p90, p99, p99.9
 * and p99.99. */
void page_curve_from_hist(struct page_curve *c, const char *job, const char *dir,
			    const struct store_hist *h);
/* A curve's storage. */
void page_curve_release(struct page_curve *c);

#endif
