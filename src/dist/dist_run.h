/*
 * `iobench-mpi run`: the dist_hooks (dist/dist.h) of a run on every rank.
 * prepare names each rank's files ($rank, $nranks, $host; --layout,
 * --reorder-read, --fsync, --stonewall), batch_sync is the barrier and
 * the agreement around each phase (a stonewall batch) and times it, and
 * reduce gathers every rank's results to the root, which merges them (sums,
 * histograms bucket by bucket) and computes IOR's figures per phase: start
 * times reduced with MIN, end times with MAX, aggregate bandwidth = all
 * bytes / (max end - min start), and each rank's bandwidth's min, mean,
 * max and standard deviation. The root writes them into the JSON under
 * "iobench"."mpi" and as a block after the normal report.
 */
#ifndef IOBENCH_DIST_DIST_RUN_H
#define IOBENCH_DIST_DIST_RUN_H

#include <stdbool.h>

#include "dist/dist.h"
#include "dist/dist_comm.h"

enum dist_layout { DIST_FILE_PER_RANK, DIST_SHARED_FILE };

struct dist_opts {
	enum dist_layout layout;
	bool interleave;      /* shared file: blocks of bs interleaved as IOR's segments */
	unsigned reorder;     /* --reorder-read K: rank r reads what rank r+K wrote; 0 = its own */
	bool fsync;           /* --fsync: fsync each written file at the end of its job (IOR -e) */
	double stonewall_s;   /* --stonewall SEC: every rank stops at the deadline; 0 = none */
	bool wearout;         /* --wearout: then every rank goes on to the I/O count of the fastest */
	unsigned ranks_per_job; /* --ranks-per-job N: rank r runs only job (r / N) mod J; 0 = all */
};

struct dist_run;

struct dist_run *dist_run_new(struct dist_comm *c, const struct dist_opts *o);
/* The hooks of d for the runner (h->arg is d). */
void dist_run_hooks(struct dist_run *d, struct dist_hooks *h);
/* After the command: a rank that never reached reduce (it failed before
 * its run, or ran nothing: --parse-only) still takes part in the agreement
 * and the gather, so the others hear why instead of waiting. Returns the
 * status to exit with. */
int dist_run_finish(struct dist_run *d, int status);
void dist_run_free(struct dist_run *d);

#endif
