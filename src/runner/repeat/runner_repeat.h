/*
 * run's and quick's --repeat (runner_repeat.c), the layer above one run:
 * each repetition is one runner_run (runner/runner.h) inside the repetition loop
 * (repeat.h), shown, stored as a run of its own in one repetition group,
 * and summed up at the end.
 */
#ifndef IOBENCH_RUNNER_REPEAT_RUNNER_REPEAT_H
#define IOBENCH_RUNNER_REPEAT_RUNNER_REPEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runner/repeat/repeat.h"
#include "runner/runner.h"

/* A repeated run's repetitions in the store: each its own run, one group. */
struct runner_rep_store {
	const struct runner_args *ra;
	const struct error_capture *errs; /* the loop's capture, or NULL */
	size_t errs_seen;                 /* its messages given to earlier repetitions */
	int64_t group;                    /* the first repetition's id; 0 before it */
	bool failed;                      /* one was not stored (the exit status becomes 1) */
};
/* Store a repetition that measured something (rep->run) as printed: with
 * the formats printed for it, head and table as runner_stored says, its
 * wall-clock times, status, and the messages the capture got since the
 * previous one; rep_group STORE_NEW_GROUP for the first, then its id. Nothing
 * is done without a store. */
struct repetition;
void runner_store_rep(struct runner_rep_store *s, const struct repetition *rep, unsigned formats,
		      const char *head, const char *table, size_t table_len);
/* runner_run_and_report under --repeat (repeat_wanted(ra->repeat)): every
 * repetition's report in the text formats as it finishes, then the
 * summary; JSON once at the end (runner_repeat_write_json). Refused for
 * iobench-mpi (ra->dist). Returns the exit status. */
int runner_repeat_and_report(const struct job_list *list, const struct runner_args *ra);
struct repeat_outcome;
/* Run the repetitions only, each through runner_run; show(arg, rep) after
 * each, then store(arg, rep) (either may be NULL). Returns the exit status;
 * release *o with repeat_outcome_release. */
int runner_repeat(const struct job_list *list, const struct runner_args *ra,
		  void (*show)(void *arg, const struct repetition *rep),
		  void (*store)(void *arg, const struct repetition *rep), void *arg,
		  struct repeat_outcome *o);
/* The JSON of a repeated run: the last repetition's document (fio's keys
 * as for one run) with "repetitions" (each one's whole document under
 * "result") and "repeat_summary" added under "iobench". */
int runner_repeat_write_json(const struct repeat_outcome *o, bool plus, FILE *out);

#endif
