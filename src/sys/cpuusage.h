/*
 * CPU use of the calling thread from getrusage(RUSAGE_THREAD): user and
 * system time in nanoseconds, context switches (voluntary + involuntary) and
 * page faults, for fio's usr_cpu/sys_cpu/ctx/majf/minf; and from schedstat
 * the time spent running or waiting to run, which tells a CPU-bound thread
 * on a busy machine (little CPU time, but never asleep) from an idle one.
 */
#ifndef IOBENCH_SYS_CPUUSAGE_H
#define IOBENCH_SYS_CPUUSAGE_H

#include <stdint.h>

struct cpu_usage {
	uint64_t user_ns, sys_ns, ctx, majflt, minflt;
	/* /proc/thread-self/schedstat: time on a CPU and time runnable but
	 * waiting for one (0 when the kernel has no schedstats) */
	uint64_t run_ns, wait_ns;
};

/* Sample the calling thread; returns 0 or -errno. */
int cpu_usage_thread(struct cpu_usage *u);
/* The calling thread's schedstat alone: ns on a CPU and ns waiting for
 * one; -ENOENT (both 0) when the kernel has no schedstats. */
int cpu_sched_thread(uint64_t *run_ns, uint64_t *wait_ns);
/* d = b - a (a is the earlier sample); a field that went backwards gives 0. */
void cpu_usage_delta(const struct cpu_usage *a, const struct cpu_usage *b, struct cpu_usage *d);

#endif
