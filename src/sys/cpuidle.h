/*
 * CPU idleness for fio's --idle-prof, measured from /proc/stat rather than
 * with fio's idle-priority spinning threads: the share of each CPU's time
 * (and of all CPUs', "system") that was idle or waiting for I/O between two
 * readings; and the "unit work" figures fio prints beside them, here the
 * time one fixed unit of CPU work of iobench's own takes, timed repeatedly.
 */
#ifndef IOBENCH_SYS_CPUIDLE_H
#define IOBENCH_SYS_CPUIDLE_H

#include <stdint.h>

#define CPUIDLE_MAX_CPUS 256

struct cpuidle_snap {
	unsigned nr_cpus;                 /* cpuN lines read (at most CPUIDLE_MAX_CPUS) */
	uint64_t idle[CPUIDLE_MAX_CPUS + 1]; /* [0]: the "cpu" line; [1 + N]: cpuN */
	uint64_t total[CPUIDLE_MAX_CPUS + 1];
};

/* Read /proc/stat: 0 or -errno. */
int cpuidle_read(struct cpuidle_snap *s);
/* Idle percent between a and b: out[0] the system's, out[1 + N] cpuN's,
 * for the CPUs both readings have; returns how many CPUs that is. */
unsigned cpuidle_pct(const struct cpuidle_snap *a, const struct cpuidle_snap *b, double *out);
/* Time one unit of work 100 times: mean in microseconds and standard
 * deviation (microseconds). */
void cpuidle_unit_work(double *mean_us, double *stddev_us);

#endif
