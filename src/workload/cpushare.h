/*
 * The CPU share of a batch of jobs, as fio's would have it: fio runs every
 * job (unless `thread`) as a process in a session of its own, and with
 * autogroups on (sched(7)) the scheduler shares the CPU between sessions
 * first, so each of fio's runnable jobs weighs as much as any other busy
 * session. iobench's jobs are threads of one process, in one session: on a
 * loaded machine five CPU-bound jobs got one session's share where fio's got
 * five (seed 003's buffered random write on ext3 ran at a third of fio's
 * speed). While a batch runs, its session's autogroup is given the weight of
 * as many sessions as the process has busy threads, each thread counting as
 * the square of the share of the last interval it spent running or waiting
 * for a CPU (schedstat): one busy all the time is a session, as a busy fio
 * job is; one mostly asleep in its I/O counts little, because the threads
 * of one group that happen to be runnable take the weight of those asleep,
 * which fio's sleeping job processes do not pass on (a weight fixed at five
 * sessions made five direct-I/O jobs 1.5x faster than fio's on a loaded
 * machine). At least one session, at most the sessions fio would use. The
 * old value is put back when the batch ends. Without CAP_SYS_NICE, or
 * without autogroups, nothing changes.
 */
#ifndef IOBENCH_WORKLOAD_CPUSHARE_H
#define IOBENCH_WORKLOAD_CPUSHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/autogroup.h"
#include "workload/job.h"

#define CPUSHARE_MAX_TASKS 256

struct cpushare {
	bool active;       /* the autogroup's nice may be changed */
	bool changed;      /* it was: put `saved` back */
	int saved;         /* the nice before the batch */
	int nice;          /* the nice now */
	unsigned sessions; /* sessions fio would run the batch in */
	uint64_t last_ns;  /* time of the last busy sample */
	unsigned nr_tasks;
	struct task_busy tasks[CPUSHARE_MAX_TASKS];
};

/* The sessions fio would run these jobs in: one per process job, one for
 * all `thread` jobs together. */
unsigned cpushare_sessions(const struct job *jobs, size_t n);
/* Before the batch's threads start: the weight of every session, since
 * every job starts runnable. */
void cpushare_begin(struct cpushare *cs, const struct job *jobs, size_t n, uint64_t now_ns);
/* Now and then while it runs: the weight of the threads busy since the last
 * call, as above (at least one session, at most cs->sessions). */
void cpushare_update(struct cpushare *cs, uint64_t now_ns);
void cpushare_end(struct cpushare *cs);

#endif
