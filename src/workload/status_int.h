/*
 * fio's --status-interval: every interval the main thread asks the running
 * jobs for a snapshot of their results so far (one atomic request counter
 * that each job thread reads, relaxed, where it already checks its limits),
 * waits a bounded time for the answers, and hands a run_result built from
 * them (cumulative since the start, as fio's) to a reporting callback.
 * A job that is done gives its final results, one not started yet an empty
 * entry, one that does not answer in time (a long I/O, a sleep) its last
 * snapshot, as fio reads whatever its stats say at that moment.
 */
#ifndef IOBENCH_WORKLOAD_STATUS_INT_H
#define IOBENCH_WORKLOAD_STATUS_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"
#include "spec/jobspec.h"

struct job;
struct log_writer;

/* A job's side: its last snapshot, written by its thread under lock. */
struct job_status {
	pthread_mutex_t lock;
	struct job_result snap;
	bool have;                /* snap holds a snapshot */
	_Atomic unsigned ack;     /* the last request answered */
};

/* Called with each periodic report; r is released after it returns. */
typedef void (*status_report_fn)(void *arg, struct run_result *r);

struct status_ctl {
	uint64_t interval_ns;     /* 0: no periodic reports */
	uint64_t next_ns;
	_Atomic unsigned req;     /* raised once per report; jobs compare it */
	struct job *jobs;
	size_t nr;
	const struct job_kv *global_opts;
	size_t nr_global_opts;
	uint64_t start_ms;
	status_report_fn report;
	void *arg;
	struct log_writer *agg_logs; /* --bandwidth-log: told of each report, or NULL */
};

/* Point every job at ctl's request counter; with an interval and a
 * callback, give each job its snapshot slot. now: the run's start. */
void status_init(struct status_ctl *ctl, struct job *jobs, size_t nr, uint64_t interval_ns,
		 status_report_fn report, void *arg, uint64_t now);
/* Main thread, called often (about every 100 ms): when a report is due,
 * ask, wait for the answers (at most 250 ms), build and report. */
void status_tick(struct status_ctl *ctl, uint64_t now);
void status_release(struct status_ctl *ctl);
/* The job thread's answer (job_status_answer) is declared in runtime_int.h,
 * next to job_status_poll that calls it. */

#endif
