/*
 * The identity and placement of a job's thread, as fio gives its job
 * processes: cgroup (a cgroup v2 threaded group), numa_cpu_nodes,
 * numa_mem_policy, gid and uid. Checked for the whole run before any byte
 * is written, applied in the job's thread after its CPU binding and
 * before it opens its files, undone (the groups the run created removed)
 * when the run's jobs are released.
 */
#ifndef IOBENCH_WORKLOAD_JOBSYS_INT_H
#define IOBENCH_WORKLOAD_JOBSYS_INT_H

#include <stddef.h>

#include "workload/job/job.h"

/* Main thread, with the run's other checks: the NUMA nodes exist, the
 * cgroup can be made (it is created now), cgroup_weight is refused with
 * the reason. 0 or -errno (the message printed). */
int job_sys_check(struct job *j);
/* Main thread, once the job's buffers are mapped: give them the job's
 * memory policy (fio allocates them in the job after setting it). */
int job_sys_buffers(struct job *j);
/* The job's thread, before it opens its files: join the cgroup, bind to
 * the nodes' CPUs, set the memory policy, then setgid and setuid for
 * this thread alone. 0 or -errno with why. */
int job_sys_enter(struct job *j, char *why, size_t whylen);
/* Remove the cgroup the run created (unless cgroup_nodelete), free. */
void job_sys_release(struct job *j);

#endif
