/*
 * --idle-prof's measurement: /proc/stat gives the aggregate and one line
 * per online CPU, the idle share between two readings is within 0-100 for
 * each, a reading compared with itself (no ticks) gives 0, and the unit of
 * work takes a positive time.
 */
#include "sys/cpuidle.h"

#include "check.h"

#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	struct cpuidle_snap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	double pct[CPUIDLE_MAX_CPUS + 1];

	CHECK(a && b, "allocation");
	if (!a || !b)
		return check_done("test_cpuidle");
	CHECK(cpuidle_read(a) == 0, "first reading");
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	CHECK(a->nr_cpus >= (unsigned)online, "%u cpu lines, %ld CPUs online", a->nr_cpus, online);
	CHECK(a->total[0] > 0 && a->idle[0] <= a->total[0], "aggregate line");
	usleep(300000); /* a few USER_HZ ticks */
	CHECK(cpuidle_read(b) == 0, "second reading");
	unsigned n = cpuidle_pct(a, b, pct);
	CHECK(n == a->nr_cpus, "%u CPUs compared", n);
	for (unsigned i = 0; i <= n; i++)
		CHECK(pct[i] >= 0.0 && pct[i] <= 100.0, "cpu %u: %f%%", i, pct[i]);
	CHECK(b->total[0] > a->total[0], "ticks advanced");
	cpuidle_pct(a, a, pct);
	CHECK(pct[0] == 0.0, "no ticks between: 0%%");
	double mean, dev;
	cpuidle_unit_work(&mean, &dev);
	CHECK(mean > 0.0 && dev >= 0.0, "unit work %f us, stddev %f", mean, dev);
	free(a);
	free(b);
	return check_done("test_cpuidle");
}
