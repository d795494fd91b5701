/*
 * Applying a job's scheduling options to the thread that runs it: the CPU
 * binding from cpus_allowed or cpumask under cpus_allowed_policy, then nice,
 * prio and prioclass. Call it first thing in the job's thread.
 */
#ifndef IOBENCH_WORKLOAD_JOBSCHED_INT_H
#define IOBENCH_WORKLOAD_JOBSCHED_INT_H

#include <stddef.h>

#include "spec/jobspec.h"

/*
 * Bind and prioritise the calling thread as s asks. thread_index numbers the
 * jobs of the whole run from 0 (fio's thread_number - 1): split policy gives
 * job i the (i % N)-th CPU of the set. A spec with neither cpus_allowed nor
 * cpumask is not bound (split alone does nothing, as in fio). Returns 0, or
 * -errno with why holding e.g. "cannot bind job 'a' to CPU 3: Invalid argument".
 */
int job_sched_apply(const struct job_spec *s, unsigned thread_index, char *why, size_t whylen);

#endif
