/*
 * A sweep's goal: the one figure a sweep optimises and ranks its points on
 * (`goal = write bw` in a plan, `--goal` of `sweep report`), and how that
 * figure is taken from a stored run as compare's model holds it
 * (compare/cmp_model.h: figures named (job, direction, name) as the store
 * names them).
 *
 * The texts (words separated by blanks, case-insensitive):
 *   DIR bw | DIR iops          DIR: read, write, trim, mixed; randread,
 *                              randwrite, randtrim name read, write, trim
 *                              (the direction such a job does); higher is
 *                              better; fio's "bw_bytes" and "iops", summed
 *                              over the run's jobs, as fio's group
 *                              reporting adds them up
 *   DIR pNN | DIR clat pNN     a completion-latency percentile
 *                              ("clat_ns.p99", "clat_ns.p99.9"); lower is
 *                              better; DIR lat pNN, DIR slat pNN for
 *                              lat_ns/slat_ns (fio keeps those only with
 *                              lat_percentiles / slat_percentiles)
 *   DIR [c|s]lat mean|max      "clat_ns.mean", "lat_ns.max", ...; lower
 *   bonnie PHASE [rate]        PHASE: putc, put_block, rewrite, getc,
 *                              get_block, seeks, seq_create, seq_stat,
 *                              seq_del, ran_create, ran_stat, ran_del;
 *                              its "rate" (KiB/s, seeks/s, files/s);
 *                              higher is better
 *   bonnie PHASE cpu           "cpu_pct"; lower is better
 *   bonnie PHASE latency|p50|p99|max
 *                              "latency_us.max" (latency), ".p50", ".p99";
 *                              lower is better
 *   elapsed                    the run's wall time: the longest job's
 *                              "iobench.runtime_ns" (a timed command is
 *                              stored as a job with that figure); fio's
 *                              own "job_runtime" (ms) where iobench's is
 *                              missing; lower is better
 *
 * Several jobs in one run: bandwidth and IOPS are summed (group reporting);
 * a latency figure is the largest of the jobs that did I/O in that
 * direction (a direction without I/O has 0 there and is skipped): fio's
 * group reporting merges the histograms, which the model does not carry,
 * and the largest per-job percentile is an upper bound of the merged one
 * (at that value every job's distribution has reached the percentile).
 * bonnie: only the "aggregate" jobs (the -c copies add up to it), and the
 * tests of -x (one aggregate each) are repetitions, so their mean; a phase
 * too short to measure (too_short, bonnie++'s "+++++") has no rate or CPU.
 */
#ifndef IOBENCH_SWEEP_SWEEP_GOAL_H
#define IOBENCH_SWEEP_SWEEP_GOAL_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/cmp_engine.h"
#include "compare/cmp_model.h"

enum sweep_goal_kind {
	SWEEP_GOAL_FIO,     /* a figure of a fio direction */
	SWEEP_GOAL_BONNIE,  /* a figure of a bonnie phase */
	SWEEP_GOAL_ELAPSED, /* the run's wall time */
};

enum sweep_goal_combine {
	SWEEP_GOAL_SUM,  /* over the jobs: bw, iops */
	SWEEP_GOAL_MAX,  /* over the jobs that did I/O: latencies, elapsed */
	SWEEP_GOAL_MEAN, /* over bonnie's tests of -x */
};

struct sweep_goal {
	enum sweep_goal_kind kind;
	char dir[32];            /* as stored: "write", "seq_create"; "job" for elapsed */
	char name[48];           /* as stored: "bw_bytes", "clat_ns.p99", "rate" */
	char text[96];           /* canonical: "write bw", "read clat p99", "bonnie seq_create rate" */
	bool higher_is_better;
	enum sweep_goal_combine combine;
	enum cmp_unit unit;      /* for printing (sweep_goal_format) */
};

/*
 * Parse text into *g. 0, or -EINVAL with why (lowercase, naming the word
 * that is wrong and what would do) in why[len].
 */
int sweep_goal_parse(const char *text, struct sweep_goal *g, char *why, size_t len);

/*
 * The goal's figure of run into *out. 0; -ENOENT when the run has no such
 * figure, after printing which goal texts the run does have figures for
 * ("run 12 has no figure for goal 'write bw'; it has: read bw, read iops,
 * read clat p99, elapsed"); quiet keeps that message unprinted.
 */
int sweep_goal_value(const struct sweep_goal *g, const struct cmp_run *run, double *out);
int sweep_goal_value_quiet(const struct sweep_goal *g, const struct cmp_run *run, double *out);

/* The goal texts run has figures for, comma-separated, in buf. */
void sweep_goal_available(const struct cmp_run *run, char *buf, size_t len);

/* A value of the goal's figure with its unit ("150.0 MiB/s", "1.23 ms"). */
void sweep_goal_format(const struct sweep_goal *g, double v, char *buf, size_t len);

/* Is a better than b on the goal (strictly)? */
bool sweep_goal_better(const struct sweep_goal *g, double a, double b);

#endif
