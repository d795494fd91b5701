/*
 * Running a list of jobs: clone numjobs, assign reporting groups, lay out
 * files, start each stonewall-separated batch of jobs as threads, show a
 * progress line, honour a stop request, then collect results (merged per
 * group under group_reporting) and disk statistics, for the whole run and
 * for each batch, into a run_result.
 */
#ifndef IOBENCH_WORKLOAD_RUN_H
#define IOBENCH_WORKLOAD_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sys/dev/devguard.h"
#include "spec/jobspec.h"
#include "results/results.h"

/* fio's run-control flags (--eta-interval, --eta-newline, --aux-path,
 * --trigger-file, --trigger-timeout, --trigger); zero: not given. */
struct run_control {
	uint64_t eta_interval_ns;    /* the progress line's period; 0 = 1 s */
	uint64_t eta_newline_ns;     /* start a new progress line this often; 0 = never */
	const char *aux_path;        /* directory of the verify state files; NULL = . */
	const char *trigger_file;    /* when it appears: removed, jobs stopped, trigger run */
	uint64_t trigger_timeout_ns; /* the same this long after the run began */
	const char *trigger_cmd;     /* the command run (sh -c) on a trigger */
	enum idle_prof idle_prof;    /* --idle-prof=system|percpu */
	uint64_t status_interval_ns; /* --status-interval: periodic full reports; 0 = none */
};

struct run_config {
	bool show_progress;          /* progress line on stderr (only on a terminal) */
	bool progress_always;        /* ... on stderr whatever it is (--eta=always) */
	FILE *notes;                 /* where the "Laying out IO file" notes go (fio:
					its normal report); NULL: nowhere */
	volatile sig_atomic_t *stop; /* set asynchronously to stop all jobs */
	struct devguard_allow guard; /* --allow-destroy devices and --readonly, for
					the device guard every write passes */
	/* Called just before a stonewall batch's threads start (end false) and
	 * just after they have all finished (end true), for what watches the
	 * run per batch; NULL = nothing to call. */
	void (*batch_edge)(void *arg, unsigned group_first, unsigned group_last, bool end);
	void *batch_edge_arg;
	/* Called before a batch starts (end false, error 0) and after its end
	 * edge (end true) with the first error of its jobs (a positive errno,
	 * 0 if none) and its "file:offset: text" (or NULL): iobench-mpi's
	 * barrier and agreement between ranks. A negative return stops the
	 * run there (the batch does not start, or no later one does); NULL =
	 * nothing to call. */
	int (*batch_sync)(void *arg, unsigned group_first, unsigned group_last, bool end,
			  int error, const char *msg);
	void *batch_sync_arg;
	/* --wearout (iobench-mpi, IOR's stoneWallingWearOut): a job of the
	 * batch that reaches its runtime deadline waits there; once every job
	 * of the batch waits or has finished, this is called (once per batch,
	 * from the main thread) with each job's I/Os issued and bytes done, in
	 * batch order, and fills targets: a waiting job then goes on until it
	 * has issued that many I/Os (no more than it has: it ends). NULL: the
	 * jobs end at their deadline. */
	void (*wearout)(void *arg, const uint64_t *ios, const uint64_t *bytes, uint64_t *targets,
			size_t n);
	void *wearout_arg;
	bool bandwidth_log;          /* fio's --bandwidth-log: agg-{read,write,trim}_bw.log */
	bool bandwidth_log_json;     /* ... the report has JSON: one last line at the end */
	/* --status-interval's periodic reports (workload/status_int.h): called
	 * with the run so far; NULL = none */
	void (*status_report)(void *arg, struct run_result *r);
	void *status_arg;
	struct run_control ctl;
};

/* Expand numjobs and assign group ids into *out, a list of its own: every
 * spec and the global option echo are copied, so *out is released with
 * job_list_release and *in is left as it was (done by workload_run too;
 * exposed for `--parse-only` style checks and tests). */
void workload_expand(const struct job_list *in, struct job_list *out);

/* Refuse a list whose jobs add up to more than JOB_MAX_THREADS threads
 * (numjobs summed): 0 or -EINVAL after the message. workload_run checks it
 * too, before anything is cloned. */
int workload_check_threads(const struct job_list *l);

/* Run every job; fills *out (release with run_result_release). Returns 0 when
 * all jobs finished without error, -EINTR when stopped, or the first job's
 * negative errno (results so far are in *out in every case). */
int workload_run(const struct job_list *list, const struct run_config *cfg,
		 struct run_result *out);

#endif
