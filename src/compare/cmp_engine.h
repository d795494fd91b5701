/*
 * The compare engine: selections of runs (cmp_model.h) side by side. Per
 * job, direction and figure of the catalogue (cmp_figs.c: bw, iops, clat
 * p50/p99/p99.9, CPU usr/sys of fio-style jobs; rate, CPU and latency of
 * bonnie's phases) each selection after the first gets the ratio of its
 * figure to the first's with the confidence interval of that ratio over
 * the repetitions (stats/ratio_ci.h: Fieller's interval of the ratio of
 * means, or the percentile bootstrap of the ratio of medians), and is a
 * real difference only when the interval excludes 1 (Kalibera & Jones
 * 2013) and, as criterion's noise threshold has it, the ratio is more than
 * the threshold (default 1%) away from 1: on a quiet, rate-limited job an
 * interval can exclude 1 for a difference of 0.1%, which is no change
 * anyone acts on. With a single run on a side no interval can be given; the engine
 * says so and estimates how many runs per side an interval of +-width
 * would take (stats/reps.h), from the run-to-run CV of the side that has
 * repetitions, else from the runs' own per-interval bw/iops samples (a
 * lower bound). It also lists the context keys (host, tool, sysinfo, job
 * options) whose values differ between the selections, or within one; a
 * key missing where its parent is known ("option.seqw.rate" in a run with
 * other options of job seqw) is "(unset)", one whose parent is unknown (no
 * sysinfo in a fio import) is no difference.
 *
 * Values of a direction that did no I/O (io_bytes 0) are not figures; nor
 * are the rate and CPU of bonnie phases too short to measure (too_short,
 * bonnie++'s "+++++"; their latency is), nor bonnie's per-copy jobs (-c),
 * whose sum is the aggregate compared.
 */
#ifndef IOBENCH_COMPARE_CMP_ENGINE_H
#define IOBENCH_COMPARE_CMP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/cmp_model.h"
#include "stats/ratio_ci.h"

enum cmp_method {
	CMP_METHOD_AUTO,      /* Fieller below 5 runs a side, bootstrap of medians from 5 */
	CMP_METHOD_FIELLER,
	CMP_METHOD_BOOTSTRAP,
};
/* "auto", "fieller", "bootstrap": 0, or -EINVAL (no message). */
int cmp_method_parse(const char *s, enum cmp_method *m);

#define CMP_AUTO_BOOTSTRAP_N 5

struct cmp_opts {
	enum cmp_method method;
	double conf;        /* 0.95 */
	double width;       /* the half-width the repetitions estimate aims at: 0.05 */
	double threshold;   /* noise threshold: |ratio - 1| <= it is never real (0.01) */
	uint64_t seed;      /* of the bootstrap */
	unsigned resamples; /* of the bootstrap */
};
#define CMP_OPTS_DEFAULT { .method = CMP_METHOD_AUTO, .conf = 0.95, .width = 0.05, .threshold = 0.01, \
	.seed = 1, .resamples = 10000 }

enum cmp_unit {
	CMP_UNIT_BYTES_S,   /* bytes/s */
	CMP_UNIT_PER_S,     /* iops */
	CMP_UNIT_NS,
	CMP_UNIT_US,
	CMP_UNIT_PCT,
	CMP_UNIT_BONNIE,    /* KiB/s, seeks/s or files/s by the phase */
	CMP_UNIT_OPS,       /* metadata operations/s (iobench-mpi meta) */
	CMP_UNIT_S,         /* seconds (a meta phase's time) */
};

enum cmp_where {
	CMP_FIO_DIR,    /* read, write, trim, mixed */
	CMP_FIO_JOB,    /* direction "job" */
	CMP_BONNIE,     /* a bonnie phase */
	CMP_META,       /* direction "meta": a phase of iobench-mpi meta (the job) */
};

struct cmp_figdef {
	const char *name;   /* as stored: "bw_bytes", "clat_ns.p99.9", "rate" */
	const char *label;  /* as shown: "bw", "clat p99.9" */
	enum cmp_unit unit;
	enum cmp_where where;
	bool higher_better;
};

/* The catalogue entry for figure name of direction dir, or NULL. */
const struct cmp_figdef *cmp_figdef_find(const char *dir, const char *name);
/* Order of a direction in the table: read, write, trim, mixed, job, bonnie's phases, meta. */
int cmp_dir_rank(const char *dir);
/* Is dir one of bonnie's phases (putc ... ran_del)? */
bool cmp_dir_is_bonnie(const char *dir);
/* A figure's value with its unit: "150.0 MiB/s", "1.23 ms", "12.5%". */
void cmp_format_value(char *buf, size_t len, const struct cmp_figdef *d, const char *dir, double v);

enum cmp_status {
	CMP_BASE,       /* the first selection's cell */
	CMP_INTERVAL,   /* a ratio with its interval */
	CMP_SINGLE,     /* a ratio, no interval: a single run on a side */
	CMP_UNBOUNDED,  /* Fieller: the baseline is not significantly above 0 */
	CMP_UNDEFINED,  /* the baseline is 0 */
	CMP_MISSING,    /* this or the first selection has no value */
};

struct cmp_cell {
	size_t n;
	double *x;            /* the values, n of them */
	double mean, median, min, max;
	double cv;            /* stddev / |mean|; NAN below 2 values */
	double center;        /* what the row's method compares: mean or median */
	enum cmp_status status;
	struct ratio_ci ci;   /* INTERVAL (ci.ratio also for SINGLE, UNBOUNDED) */
	bool real;            /* INTERVAL: ci.real and beyond the noise threshold */
	bool noise;           /* INTERVAL: ci.real but within the noise threshold */
	size_t reps_needed;   /* SINGLE: runs per side for +-width; 0 unknown */
	double cv_used;       /* SINGLE: the CV that estimate assumed; NAN none */
	bool cv_within_run;   /* ... taken from within-run samples (a lower bound) */
};

struct cmp_row {
	char *job;
	char *dir;
	const struct cmp_figdef *def;
	enum ratio_method method;   /* the interval's method in this row */
	enum ratio_stat stat;       /* means (Fieller) or medians */
	struct cmp_cell *cells;     /* one per selection */
};

struct cmp_ctxdiff {
	char *key;
	char **values;  /* one per selection: its value(s) ("a | b"), NULL if absent */
};

struct cmp_result {
	const struct cmp_sel *sels;
	size_t nsel;
	struct cmp_opts opts;
	struct cmp_row *rows;
	size_t nr_rows;
	bool one_job;           /* every row is of one job: verdicts leave its name out */
	struct cmp_ctxdiff *diffs;
	size_t nr_diffs;
};

/*
 * Compare sels[1..nsel) to sels[0] (nsel >= 2; sels must outlive *out).
 * 0; -EINVAL (with a message) for bad options or fewer than 2 selections,
 * or a selection without runs; -ENOMEM.
 */
int cmp_compute(const struct cmp_sel *sels, size_t nsel, const struct cmp_opts *o,
		struct cmp_result *out);
/* The same for nsel >= 1 (the report draws one selection too): with one
 * selection the rows hold its cells alone, no ratio. */
int cmp_tabulate(const struct cmp_sel *sels, size_t nsel, const struct cmp_opts *o,
		 struct cmp_result *out);
void cmp_result_release(struct cmp_result *r);

/* The one-line verdict of row r's cell s >= 1:
 * "xfs: 1.42× ext4 write bw (1.35–1.50), real". */
void cmp_verdict(const struct cmp_result *res, size_t r, size_t s, char *buf, size_t len);

/* The side-by-side table, the verdicts, then the context differences. */
int cmp_report_normal(const struct cmp_result *res, FILE *out);
/* The same as one JSON document. */
int cmp_report_json(const struct cmp_result *res, FILE *out);

#endif
