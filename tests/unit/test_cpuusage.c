/*
 * Per-thread CPU usage: burning CPU raises user time, sleeping adds a
 * voluntary context switch, touching new pages adds minor faults, and the
 * delta of two samples is their difference (0 for a field that went back).
 */
#include "sys/cpuusage.h"

#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int main(void)
{
	struct cpu_usage a, b, d;
	volatile uint64_t sink = 0;
	uint64_t t0;
	size_t len = 8u << 20;
	char *mem;

	CHECK(cpu_usage_thread(&a) == 0, "first sample");
	t0 = now_ns();
	while (now_ns() - t0 < 50000000ULL) /* 50 ms of CPU */
		sink += t0 * 3 + 1;
	usleep(2000);
	mem = malloc(len);
	if (mem)
		memset(mem, 1, len);
	CHECK(cpu_usage_thread(&b) == 0, "second sample");
	cpu_usage_delta(&a, &b, &d);
	CHECK(d.user_ns + d.sys_ns >= 30000000ULL, "cpu time %llu ns for 50 ms busy",
	      (unsigned long long)(d.user_ns + d.sys_ns));
	CHECK(d.user_ns <= 5000000000ULL, "user time absurd: %llu", (unsigned long long)d.user_ns);
	CHECK(d.ctx >= 1, "no context switch after usleep");
	CHECK(d.minflt >= 100, "only %llu minor faults for 8 MiB", (unsigned long long)d.minflt);
	CHECK(d.user_ns == b.user_ns - a.user_ns && d.ctx == b.ctx - a.ctx, "delta is b - a");
	cpu_usage_delta(&b, &a, &d);
	CHECK(d.user_ns == 0 && d.ctx == 0 && d.minflt == 0, "backwards gives 0");
	free(mem);
	return check_done("test_cpuusage");
}
