/*
 * job_sched_apply(): the job spec's cpus_allowed/cpumask (less gtod_cpu),
 * policy, nice, prio and prioclass turned into calls of sys/affinity.h on the calling thread,
 * with messages that name the job and the value that failed.
 */
#include "workload/jobsched_int.h"
#include "spec/options_sched.h"
#include "sys/affinity.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int job_sched_apply(const struct job_spec *s, unsigned thread_index, char *why, size_t whylen)
{
	const char *name = s->name ? s->name : "?";
	cpu_set_t allowed, mine;
	char perr[160];
	CPU_ZERO(&mine);
	int ret = job_spec_cpuset(s, &allowed, perr, sizeof(perr));
	if (ret < 0) {
		snprintf(why, whylen, "job '%s': %s", name, perr);
		return ret;
	}
	if (ret > 0 && s->gtod_cpu && s->gtod_cpu < CPU_SETSIZE)
		CPU_CLR(s->gtod_cpu, &allowed); /* fio's gettimeofday CPU is not the job's */
	if (ret > 0) {
		char list[128];
		ret = affinity_for_job(&allowed, s->cpus_allowed_split, thread_index, &mine);
		if (!ret)
			ret = affinity_apply(&mine);
		if (ret) {
			cpuset_format(&mine, list, sizeof(list));
			snprintf(why, whylen, "cannot bind job '%s' to CPU%s %s: %s", name,
				 CPU_COUNT(&mine) == 1 ? "" : "s", list, strerror(-ret));
			return ret;
		}
	}
	if (s->nice && (ret = sched_apply(s->nice, -1, -1))) {
		snprintf(why, whylen, "cannot change the nice value of job '%s' by %d: %s", name, s->nice,
			 strerror(-ret));
		return ret;
	}
	if ((s->ioprio >= 0 || s->ioprio_class >= 0) &&
	    (ret = sched_apply(0, s->ioprio_class, s->ioprio))) {
		snprintf(why, whylen, "cannot set the I/O priority of job '%s' (prioclass %d, prio %d): %s%s",
			 name, s->ioprio_class, s->ioprio, strerror(-ret),
			 ret == -EPERM && s->ioprio_class == 1 ? " (the realtime class needs root)" : "");
		return ret;
	}
	return 0;
}
