/*
 * The repetition loop of --repeat N and --repeat auto[:W%] for run, quick
 * and bonnie: before each repetition --drop-caches syncs and drops the page
 * cache; each repetition is the whole workload, run the way a fresh
 * invocation runs it (a read job's file that exists is reused, a write job
 * lays its file out as always, unlink=1 removes it after each); after each
 * the headline figures go into a rep_table (report/repeat_table.h) and the
 * loop stops at the count, or, with auto, when stats/repeat_rule.h says so:
 * every figure's 95% confidence interval of the median within W of it (6
 * repetitions at the earliest: fewer give no 95% interval, see doc/repeat.md), or
 * --max-repeat. A signal stops it after the repetition it interrupted,
 * which is kept, marked, and left out of the summary; an error stops it
 * too. Each repetition, finished or not, is handed on at one place
 * (hand_on in repeat.c), once shown, with its result and wall-clock times,
 * where the results store takes it.
 */
#ifndef IOBENCH_RUNNER_REPEAT_REPEAT_H
#define IOBENCH_RUNNER_REPEAT_REPEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/common_opts.h"
#include "report/repeat_table.h"
#include "bonnie/bonnie.h"
#include "results/results.h"

/* One repetition, as the loop hands it on (and a store call can take it:
 * start/end are wall-clock ms since the epoch, index is 0-based). */
struct repetition {
	size_t index;
	uint64_t start_ms, end_ms;
	int status;                         /* its exit status: 0, 1 or 128+signal */
	bool interrupted;                   /* stopped by a signal: not in the summary */
	struct run_result *run;             /* run and quick (owned by the outcome) */
	const struct bonnie_result *bonnie; /* bonnie (owned by the caller) */
};

enum repeat_stop {
	REPEAT_BY_COUNT,     /* --repeat N done */
	REPEAT_BY_CONVERGED, /* auto: every figure within W */
	REPEAT_BY_MAX,       /* auto: --max-repeat reached */
	REPEAT_BY_SIGNAL,    /* a signal interrupted a repetition */
	REPEAT_BY_ERROR,     /* a repetition failed */
};

struct repeat_driver {
	const struct repeat_opts *opts;
	/* Run repetition rep->index: set rep->run or rep->bonnie, interrupted,
	 * and return its exit status. */
	int (*run_one)(void *arg, struct repetition *rep);
	/* Put a finished repetition's figures into t (rep_figs_add_*). */
	void (*add_figures)(void *arg, struct rep_table *t, const struct repetition *rep);
	/* After each repetition (printing it), or NULL. */
	void (*show)(void *arg, const struct repetition *rep);
	/* After show: the store's hook (see hand_on), or NULL: not stored here. */
	void (*store)(void *store_arg, const struct repetition *rep);
	void *arg, *store_arg;
};

struct repeat_outcome {
	struct repetition *reps;
	size_t nr;
	struct rep_table table;  /* the finished repetitions' figures */
	enum repeat_stop stopped_by;
	char decision[768];      /* why it stopped, one lowercase line */
	char *deciding_figure;   /* auto: the widest figure at the end, or NULL */
	bool automatic;
	double width;            /* auto's W */
	size_t max_reps;         /* auto's maximum */
	size_t asked;            /* --repeat N's N (1 without --repeat) */
	bool drop_caches;
};

/* Does o ask for the repetition loop (any of --repeat, --drop-caches)? */
bool repeat_wanted(const struct repeat_opts *o);
/* Run the loop into *out (release with repeat_outcome_release). Returns
 * the exit status: that of the last repetition, or 1 when the caches
 * could not be dropped or the rule failed. */
int repeat_loop(const struct repeat_driver *d, struct repeat_outcome *out);
/* Frees the outcome's run results (rep->run), not bonnie's. */
void repeat_outcome_release(struct repeat_outcome *o);

/* The summary text: the table, then "repetitions: ..." saying how many ran
 * and why they stopped. */
void repeat_write_text(const struct repeat_outcome *o, FILE *out);

struct json_writer;
/* "repetitions": [ {repetition, start_ms, end_ms, status, interrupted,
 * in_summary, result: <each(w, rep, arg)>} ] and "repeat_summary": {mode,
 * ...} as members of the open object. each writes one value. */
void repeat_write_json(const struct repeat_outcome *o, struct json_writer *w,
		       void (*each)(struct json_writer *w, const struct repetition *rep, void *arg),
		       void *arg);

#endif
