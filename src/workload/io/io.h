/*
 * Issuing and completing I/O (workload/io/): the accounting every path
 * reports to, the synchronous issue, the queue of an asynchronous engine,
 * io_submit_mode=offload's threads, sync_file_range=. The replay, the
 * iogen and verify's read-backs above call these.
 */
#ifndef IOBENCH_WORKLOAD_IO_IO_H
#define IOBENCH_WORKLOAD_IO_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/job/job.h"

/* job_account.c: the per-I/O accounting. */
void job_account(struct job *j, struct io_unit *u, uint64_t now, bool async);
void job_account_sync(struct job *j, struct io_unit *u, uint64_t now);
/* A sync's latency from start_ns to now, without counting it as a sync I/O
 * (fio's sync_file_range). */
void job_account_sync_lat(struct job *j, uint64_t start_ns, uint64_t now);
/* syncrange.c: sync_file_range=FLAGS:N; note a write being issued, and call
 * sync_file_range before the next write once N were noted (sync: the
 * engine is synchronous). 0 or -errno. */
void job_sfr_note(struct job *j, struct job_file *f, uint64_t off, uint64_t len);
int job_sfr_before_write(struct job *j, bool sync);
/* Record err (< 0) of u (NULL: the engine failed) as fatal: counted, and
 * the job's error when it is the first. */
void job_fail(struct job *j, const struct io_unit *u, int err);
/* Record err (< 0) of u under the job's error policy (continue_on_error,
 * ignore_error; an EILSEQ is a verify error): 0 when the job may go on,
 * err when it must stop. Either way it is counted, and the first error is
 * the job's error (so the exit status is non-zero). */
int job_io_error(struct job *j, const struct io_unit *u, int err);
/* job_io_error() for a read/write/trim that failed: also counts it as
 * issued (total_ios), as fio does. */
int job_io_failed(struct job *j, struct io_unit *u, int err);

/* syncio.c: one I/O on a synchronous engine, short transfers resubmitted,
 * accounted on success; -ENODATA when the file ends first (verify_run.c
 * uses it). */
int job_sync_issue(struct job *j, struct io_unit *u);
/* The same, with the completion time in *done_ns (the run loop's next now). */
int job_sync_issue_at(struct job *j, struct io_unit *u, uint64_t *done_ns);

/* asyncio.c: queue-depth handling for asynchronous engines. */
int async_init(struct job *j);
void async_release(struct job *j);
struct io_unit *async_get_unit(struct job *j);
void async_put_unit(struct job *j, struct io_unit *u);
int async_issue(struct job *j, struct io_unit *u);
int async_reap(struct job *j, unsigned min);
int async_drain(struct job *j);
/* The same while the caller holds `held` units out of the pool (a replayed
 * sync or close, whose unit the run loop took). */
int async_drain_holding(struct job *j, unsigned held);

/* submitq.c: io_submit_mode=offload. submitq_check() refuses what it does
 * not do yet (at setup); submitq_start() starts iodepth threads (from
 * async_init); async_issue() and async_reap() hand over to submitq_issue()
 * and submitq_reap() when j->subq is set. submitq_stop() ends the threads
 * (nothing in flight) and keeps their CPU use, which submitq_cpu() adds to
 * dc; submitq_free() stops and frees. */
int submitq_check(const struct job *j);
int submitq_start(struct job *j);
int submitq_issue(struct job *j, struct io_unit *u);
int submitq_reap(struct job *j, unsigned min);
void submitq_stop(struct job *j);
struct cpu_usage;
void submitq_cpu(const struct job *j, struct cpu_usage *dc);
void submitq_free(struct job *j);

/* job_results.c: the job's results as they stand at end into *r (a copy of j->res):
 * runtime, CPU use, latency statistics, bw/iops, depth counts; j itself
 * is left as it is (finish_results and the status snapshots use it). */
void job_results_compute(const struct job *j, struct job_result *r, uint64_t end,
			 const struct cpu_usage *cpu0);

#endif
