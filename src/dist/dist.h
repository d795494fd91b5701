/*
 * What the commands see of a distributed run (iobench-mpi): a table of
 * hooks that the runner calls at the run's edges, filled by src/dist/
 * (dist_run.c) and handed to the command by iobench-mpi's main. This
 * header is plain C: the commands include it, never mpi.h, and the plain
 * iobench binary, which never fills it, links no MPI.
 *
 * The order of the calls in one run: prepare (the job list, before
 * anything runs: $rank names, layouts), then batch_sync before and after
 * every stonewall batch (a barrier, and the agreement that every rank did
 * its batch; with --wearout, wearout in between, when the batch's deadline
 * has passed), then reduce (the ranks' results into the root's). Only the
 * root (rank 0) writes the report, logs and the store.
 */
#ifndef IOBENCH_DIST_DIST_H
#define IOBENCH_DIST_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct job_list;
struct run_result;
struct json_writer;
struct bonnie_spec;
struct bonnie_result;

struct dist_hooks {
	void *arg;
	bool root; /* this rank writes the output, the logs and the store */
	/* Adapt this rank's jobs; 0, or -1 after printing why. */
	int (*prepare)(void *arg, struct job_list *list);
	/* workload/run.h's batch_sync */
	int (*batch_sync)(void *arg, unsigned group_first, unsigned group_last, bool end,
			  int error, const char *msg);
	/* After the run (status: the runner's exit status, first_error: this
	 * rank's first error message or NULL): the ranks' results merged into
	 * res on the root; returns the status to exit with. */
	int (*reduce)(void *arg, struct run_result *res, int status, const char *first_error);
	/* The root's additions to the report: members of the JSON's
	 * "iobench" object, and a text block after the normal report. */
	void (*json)(struct json_writer *w, void *arg);
	void (*text)(void *arg, FILE *out);
	/* workload/run.h's wearout (--wearout), or NULL */
	void (*wearout)(void *arg, const uint64_t *ios, const uint64_t *bytes, uint64_t *targets,
			size_t n);
	/* iobench-mpi bonnie (dist_bonnie.c; the run hooks above are NULL
	 * then): before the tests, with the rank's own checks' status (0, or
	 * -1 after printing why), the agreement of all ranks and the rank's
	 * own directory under -d (s->dir is replaced); at each phase's start
	 * (bonnie's before_phase) the barrier of all ranks, -1 when one failed
	 * (the test then stops); after each test (rc: bonnie_run's) every
	 * rank's figures to the root, whose res becomes their aggregate, one
	 * copy per rank; -1 when a rank failed (the root said which). */
	int (*bonnie_prepare)(void *arg, struct bonnie_spec *s, int status);
	int (*bonnie_phase)(void *arg, unsigned phase);
	int (*bonnie_reduce)(void *arg, struct bonnie_result *res, int rc);
};

#endif
