/*
 * getrusage(RUSAGE_THREAD) sampling and differencing for cpuusage.h.
 */
#include "sys/cpuusage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/resource.h>

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
}

int cpu_usage_thread(struct cpu_usage *u)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -errno;
	u->user_ns = tv_ns(&ru.ru_utime);
	u->sys_ns = tv_ns(&ru.ru_stime);
	u->ctx = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
	u->majflt = (uint64_t)ru.ru_majflt;
	u->minflt = (uint64_t)ru.ru_minflt;
	cpu_sched_thread(&u->run_ns, &u->wait_ns);
	return 0;
}

int cpu_sched_thread(uint64_t *run_ns, uint64_t *wait_ns)
{
	char buf[128];
	unsigned long long run, wait;
	*run_ns = *wait_ns = 0;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ENOENT;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return -ENOENT;
	*run_ns = run;
	*wait_ns = wait;
	return 0;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

void cpu_usage_delta(const struct cpu_usage *a, const struct cpu_usage *b, struct cpu_usage *d)
{
	struct cpu_usage r = {
		.user_ns = sub(a->user_ns, b->user_ns),
		.sys_ns = sub(a->sys_ns, b->sys_ns),
		.ctx = sub(a->ctx, b->ctx),
		.majflt = sub(a->majflt, b->majflt),
		.minflt = sub(a->minflt, b->minflt),
		.run_ns = sub(a->run_ns, b->run_ns),
		.wait_ns = sub(a->wait_ns, b->wait_ns),
	};
	*d = r;
}
