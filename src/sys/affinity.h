/*
 * CPU affinity and scheduling of the calling thread, as fio's job options
 * ask for them: cpus_allowed lists ("0-3,6") and cpumask bit masks parsed
 * into a cpu_set_t and checked against the CPUs that exist,
 * cpus_allowed_policy (shared: every job gets the whole set; split: one CPU
 * each, round robin), and nice / prio / prioclass applied to the calling
 * thread only (setpriority and ioprio_set on its thread id). Every function
 * returns 0 or -errno.
 */
#ifndef IOBENCH_SYS_AFFINITY_H
#define IOBENCH_SYS_AFFINITY_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/* CPUs configured on this machine (CPU numbers 0..n-1), at least 1. */
unsigned cpus_configured(void);

/*
 * Parse fio's cpus_allowed syntax: comma-separated CPU numbers and ranges
 * ("0,5,8-15"); empty elements are skipped as fio does. Every CPU must exist.
 * On error returns -EINVAL (or -ERANGE for a CPU that does not exist) and
 * why gets e.g. "CPU 9 does not exist (this machine has CPUs 0-7)".
 */
int cpuset_parse(const char *s, cpu_set_t *out, char *why, size_t whylen);

/*
 * Parse fio's cpumask: a bit mask of CPUs, decimal ("34" = CPUs 1 and 5) or
 * hexadecimal with 0x (any length up to CPU_SETSIZE bits). Errors as above.
 */
int cpumask_parse(const char *s, cpu_set_t *out, char *why, size_t whylen);

/* Write a set as a list ("0-3,6") into buf; "" for an empty set. */
void cpuset_format(const cpu_set_t *set, char *buf, size_t len);

/*
 * The CPUs job number `jobnum` may use under cpus_allowed_policy: with
 * split false (shared) the whole set, with split true only the
 * (jobnum % CPU_COUNT)-th CPU of the set, so jobs beyond the set's size wrap
 * round. fio numbers jobs across the whole run (its thread_number - 1), not
 * per numjobs clone. -EINVAL for an empty set.
 */
int affinity_for_job(const cpu_set_t *allowed, bool split, unsigned jobnum, cpu_set_t *out);

/* Bind the calling thread to set (pthread_setaffinity_np). */
int affinity_apply(const cpu_set_t *set);

/*
 * Scheduling of the calling thread. nice_delta is added to the thread's
 * nice value as nice(2) does (clamped to -20..19; 0 leaves it alone).
 * ioprio_class 0..3 and ioprio 0..7 are applied with ioprio_set; a class of
 * 0 becomes best-effort, as in fio; a negative class with a prio means
 * best-effort too, a negative prio with a class means 0, and both negative
 * leave the I/O priority alone. Classes: 1 realtime (needs root), 2
 * best-effort, 3 idle (linux/ioprio.h). Lowering nice needs root too.
 */
int sched_apply(int nice_delta, int ioprio_class, int ioprio);

/* Read back the calling thread's nice value and I/O priority. */
int sched_read(int *nice, int *ioprio_class, int *ioprio);

#endif
