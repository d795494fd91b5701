/*
 * The headline figures of a repeated run (--repeat), one value per
 * finished repetition, and what the summary says about each: median, the
 * 95% confidence interval of the median (stats/median_ci.h), mean, CV,
 * min/max, quartiles and the outliers by Tukey's fences (stats/summary.h),
 * shown, never dropped. Which figures: per job entry and direction the
 * bandwidth (KiB/s), IOPS and completion latency p50 and p99 (ns) for run
 * and quick (repeat_figs.c); per phase bonnie's rate (its unit).
 *
 * The first repetition added fixes the set of figures (the same job list
 * gives the same entries each time); a later one sets them by name, and a
 * figure it lacks counts 0. Interrupted repetitions are not added: their
 * figures cover only part of the work.
 */
#ifndef IOBENCH_REPORT_REPEAT_TABLE_H
#define IOBENCH_REPORT_REPEAT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/median_ci.h"
#include "stats/summary.h"

struct rep_figure {
	char *name;       /* "seq read bw", bonnie "put_block" */
	char *job;        /* job entry name, or the bonnie phase */
	const char *ddir; /* "read", "write", "trim"; NULL for bonnie */
	const char *what; /* "bw", "iops", "clat_p50", "clat_p99"; bonnie "rate" */
	const char *unit; /* "KiB/s", "IO/s", "ns"; bonnie's rate unit */
	double *x;        /* x[i]: the figure in the i-th repetition added */
	bool set;         /* given in the row being added */
};

struct rep_table {
	struct rep_figure *fig;
	size_t nfig;
	size_t n;          /* rows (repetitions) added */
	size_t cap;
	size_t *rep;       /* rep[i]: the repetition (0-based) row i came from */
	bool in_row;
};

void rep_table_init(struct rep_table *t);
void rep_table_release(struct rep_table *t);
/* Start the row of repetition rep; then rep_table_set each figure, then
 * rep_table_end_row. */
void rep_table_begin_row(struct rep_table *t, size_t rep);
/* In the first row a new figure; later, the figure of that job, ddir and
 * what (ignored when the first row did not have it). */
void rep_table_set(struct rep_table *t, const char *job, const char *ddir, const char *what,
		   const char *unit, double v);
void rep_table_end_row(struct rep_table *t);

/* What the summary says about one figure. */
struct rep_figure_summary {
	struct sample_summary s;
	struct median_ci ci;  /* at 95%; [min, max] with its lower confidence below 6 values */
	bool has_ci;          /* a 95% interval exists (n >= 6) */
	double rel_lo, rel_hi; /* (median - lo) / |median|, (hi - median) / |median|; NAN at 0 */
};

/* 0; -EINVAL when the table has no row or a value is not finite. */
int rep_table_summarize(const struct rep_table *t, size_t i, struct rep_figure_summary *out);

/* The summary text: one line per figure (median, CI, CV, min/max, n,
 * outliers by repetition number). */
void rep_table_write_text(const struct rep_table *t, FILE *out);

struct json_writer;
/* "figures": [ {name, job, ddir, figure, unit, n, median, ci_lo, ci_hi,
 * ci_confidence, ci_95, ci_rel_lo_pct, ci_rel_hi_pct, mean, stddev, cv, min,
 * max, q1, q3, values: [{repetition, value, outlier}], outliers: [...]} ]
 * as a member of the open object. */
void rep_table_write_json(const struct rep_table *t, struct json_writer *w);

#endif
