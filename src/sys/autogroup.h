/*
 * The scheduler's autogroup of this process's session (sched(7)): with
 * kernel.sched_autogroup_enabled=1 the CPU is shared fairly between
 * sessions first, then between the tasks of each session. fio runs every job
 * process in a session of its own (setsid), so under CPU load its N jobs get
 * N sessions' share, while threads of one process share one. These calls read
 * and set the autogroup's nice value (/proc/self/autogroup), pick the nice
 * whose weight is that of N sessions, and read how busy this process's
 * threads are. Every function returns 0 or -errno.
 */
#ifndef IOBENCH_SYS_AUTOGROUP_H
#define IOBENCH_SYS_AUTOGROUP_H

/* The autogroup's nice value; -ENOENT when autogroups are off
 * (kernel.sched_autogroup_enabled=0) or the kernel has none. */
int autogroup_nice_get(int *nice);

/* Set it (-20..19); lowering it needs CAP_SYS_NICE (-EPERM otherwise). */
int autogroup_nice_set(int nice);

/* The nice whose scheduler weight is nearest to `sessions` times that of
 * nice 0 (1 -> 0, 5 -> -7, 10 -> -10, 2.5 -> -4), bounded to -20. */
int autogroup_nice_for(double sessions);

/* Time each thread of this process has been running or runnable
 * (/proc/self/task/TID/schedstat: run + wait ns): up to max (tid, ns)
 * pairs; returns how many, or -errno. */
struct task_busy {
	int tid;
	unsigned long long ns;
};
int autogroup_tasks_busy(struct task_busy *out, unsigned max);

/* Parse the text of /proc/PID/autogroup ("/autogroup-49 nice 0\n"). */
int autogroup_parse(const char *text, int *nice);

#endif
