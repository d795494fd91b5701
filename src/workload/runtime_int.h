/*
 * Inside workload/ (the runtime above the sub-folders): the job thread's
 * body, its results, --status-interval's answer, the unit buffers, job
 * control (exec_prerun/postrun, exitall, ioscheduler=).
 */
#ifndef IOBENCH_WORKLOAD_RUNTIME_INT_H
#define IOBENCH_WORKLOAD_RUNTIME_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/job/job.h"

/* --status-interval: one relaxed load where the job checks its limits */
void job_status_answer(struct job *j, uint64_t now);
static inline void job_status_poll(struct job *j, uint64_t now)
{
	if (__builtin_expect(atomic_load_explicit(j->status_req, memory_order_relaxed) !=
			     j->status_seen, 0))
		job_status_answer(j, now);
}

/* buffers.c: unit buffers and their contents. */
int job_buffers_alloc(struct job *j);
void job_buffers_free(struct job *j);
/* bufmem.c: the buffers' memory of mem='s kind (*len rounded up for huge
 * pages), its release (with lockmem's), and lockmem's mlock. */
int job_bufmem_map(struct job *j, size_t *len, void **out);
void job_bufmem_unmap(struct job *j, void *mem, size_t len);
int job_lockmem(struct job *j);
void job_buffer_fill(struct job *j, struct io_unit *u);

/* jobctl.c: exec_prerun/exec_postrun (mode "prerun" or "postrun"): cmd
 * through /bin/sh -c, its stdout and stderr in JOBNAME.MODE.txt (opened
 * through the device guard). 0 when it exited 0, 1 when it failed (said in
 * the notes), -errno after the message when it could not run (the guard
 * refused the file, no /bin/sh). */
/* Before anything runs: exec_prerun and exec_postrun name no block device
 * but the job's own and those --allow-destroy names (sys/dev/devoperand.h);
 * 0, or -EPERM said. */
int job_exec_check(const struct job *j);
/* The same for the run's trigger command, against every job's devices. */
int job_trigger_check(const struct job *jobs, size_t nr, const char *cmd);
int job_exec(struct job *j, const char *cmd, const char *mode);
/* The job has finished: with exitall (any job's) or exitall_on_error and
 * an error, stop the jobs its exit_what names and wake those that sleep. */
void job_exit_others(struct job *j);

/* jobctl.c: ioscheduler= for the jobs from..to of a batch: switch each
 * one's device queue (saving what was in use, once per queue) before they
 * start; *saved (release with job_iosched_restore) holds what to put back.
 * 0, or -errno after the message, with what was switched already put back. */
struct iosched_saved;
/* Before any layout: can job j's ioscheduler= be set (a device under its
 * first file, or its directory while the file is still to be made, whose
 * knob lock no other iobench holds)? 0 or -errno after the message. */
int job_iosched_check(const struct job *j);
int job_iosched_apply(struct job *jobs, size_t from, size_t to, struct iosched_saved **saved);
void job_iosched_restore(struct iosched_saved *saved);

/* jobthread.c: the thread body. */
void *job_thread_main(void *arg);

#endif
