/*
 * /proc/stat's per-CPU lines for --idle-prof (cpuidle.h), and the timed
 * unit of work: a fixed number of rounds of a 64-bit xorshift, on the
 * monotonic clock.
 */
#include "sys/cpuidle.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

int cpuidle_read(struct cpuidle_snap *s)
{
	FILE *f = fopen("/proc/stat", "re");
	if (!f)
		return -errno;
	memset(s, 0, sizeof(*s));
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3))
			continue;
		unsigned idx = 0;
		const char *p = line + 3;
		if (*p != ' ') {
			unsigned n;
			if (sscanf(p, "%u", &n) != 1 || n >= CPUIDLE_MAX_CPUS)
				continue;
			idx = n + 1;
			if (n + 1 > s->nr_cpus)
				s->nr_cpus = n + 1;
		}
		p += strcspn(p, " ");
		uint64_t v[10] = { 0 };
		int got = sscanf(p, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
				 " %" SCNu64 " %" SCNu64 " %" SCNu64, &v[0], &v[1], &v[2], &v[3], &v[4],
				 &v[5], &v[6], &v[7]);
		if (got < 4)
			continue;
		/* user nice system idle iowait irq softirq steal (guest is in user) */
		s->idle[idx] = v[3] + v[4];
		for (int i = 0; i < 8; i++)
			s->total[idx] += v[i];
	}
	fclose(f);
	return s->total[0] ? 0 : -ENODATA;
}

static double pct(uint64_t ia, uint64_t ib, uint64_t ta, uint64_t tb)
{
	if (tb <= ta || ib < ia)
		return 0.0;
	double v = 100.0 * (double)(ib - ia) / (double)(tb - ta);
	return v > 100.0 ? 100.0 : v;
}

unsigned cpuidle_pct(const struct cpuidle_snap *a, const struct cpuidle_snap *b, double *out)
{
	unsigned n = a->nr_cpus < b->nr_cpus ? a->nr_cpus : b->nr_cpus;
	for (unsigned i = 0; i <= n; i++)
		out[i] = pct(a->idle[i], b->idle[i], a->total[i], b->total[i]);
	return n;
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void cpuidle_unit_work(double *mean_us, double *stddev_us)
{
	enum { REPS = 100, ROUNDS = 1000 };
	double t[REPS], sum = 0, sq = 0;
	volatile uint64_t sink;
	for (int r = 0; r < REPS; r++) {
		uint64_t x = 0x9e3779b97f4a7c15ull + (uint64_t)r;
		double t0 = now_us();
		for (int i = 0; i < ROUNDS; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		sink = x;
		t[r] = now_us() - t0;
		sum += t[r];
	}
	(void)sink;
	double mean = sum / REPS;
	for (int r = 0; r < REPS; r++)
		sq += (t[r] - mean) * (t[r] - mean);
	*mean_us = mean;
	*stddev_us = sqrt(sq / (REPS - 1));
}
