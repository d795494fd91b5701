/*
 * What dist_run.c and dist_run_report.c share: one rank's phases as they
 * ran, the root's table of every rank after the reduction, and the run's
 * state (private to iobench-mpi run).
 */
#ifndef IOBENCH_DIST_DIST_RUN_INT_H
#define IOBENCH_DIST_DIST_RUN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dist/dist_run.h"
#include "results/results.h"

struct json_writer;

#define BLOB_MAGIC 0x69626d31u /* "ibm1" */

/* One phase (stonewall batch) as one rank saw it. */
struct phase_row {
	uint32_t group_first, group_last;
	double start, end;                 /* dist_now() after the barrier, at the end */
	uint64_t bytes[DDIR_RWDIR_CNT], ios[DDIR_RWDIR_CNT];
	double sw_at;                      /* --wearout: when the deadline's count was taken; 0 = not */
	uint64_t sw_bytes, sw_ios;         /* ... and the bytes and I/Os done by then */
};

struct rank_row {
	int rank;
	bool answered;
	struct phase_row *phases;
	size_t nr_phases;
	char **jobs, **files;     /* its jobs' names and files (filename=, else the name format) */
	uint32_t nr_jobs;
};

/* The merged latency of a phase and direction (clat, as fio's percentiles). */
struct phase_lat {
	uint64_t count, min, max, p50, p90, p99, p999;
};

struct dist_run {
	struct dist_comm *c;
	struct dist_opts o;
	struct phase_row *phases; /* this rank's, as they ran */
	size_t nr_phases, alloc;
	char **jobs, **files;     /* this rank's jobs as prepare left them */
	size_t nr_jobs;
	/* --ranks-per-job: the root's copies of every job of the list, in its
	 * order (the jobs other ranks run get their spec from here) */
	struct job_spec *all;
	size_t nr_all;
	bool reduced;
	/* the root's, after reduce */
	struct rank_row *ranks;
	char **envs;              /* per rank: its node's environment as JSON, or NULL */
	struct phase_lat (*lat)[DDIR_RWDIR_CNT]; /* per phase of the root */
	int status;
};

/* The hooks' report parts (dist_run_report.c): the MPI block of the root's
 * JSON (under "iobench") and of its normal output. */
void dist_run_json(struct json_writer *w, void *arg);
void dist_run_text(void *arg, FILE *out);

#endif
