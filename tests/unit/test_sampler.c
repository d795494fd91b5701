/*
 * Interval sampler: no sample before the interval has passed, one sample
 * per update once it has (rate over the time really elapsed, fio's
 * bwavgtime), late updates give one sample rather than several, and time
 * going backwards or a counter going down adds nothing odd.
 */
#include <math.h>

#include "check.h"
#include "stats/sampler.h"

#define SEC 1000000000ULL

int main(void)
{
	struct sampler s;
	sampler_init(&s, SEC, 10 * SEC, 5000);
	CHECK(s.rate.n == 0 && s.last_ns == 10 * SEC && s.last_value == 5000, "init");

	sampler_update(&s, 10 * SEC + SEC / 2, 5500);
	CHECK(s.rate.n == 0 && s.last_value == 5000, "no sample before the interval");

	sampler_update(&s, 11 * SEC, 6000);
	CHECK(s.rate.n == 1 && fabs(s.rate.mean - 1000.0) < 1e-9, "1000 units in 1 s -> %g/s", s.rate.mean);
	CHECK(s.last_ns == 11 * SEC && s.last_value == 6000, "sample point moves to now");

	/* 2.5 intervals late: ONE sample at 3000 units / 2.5 s */
	sampler_update(&s, 13 * SEC + SEC / 2, 9000);
	CHECK(s.rate.n == 2, "a late update adds one sample, not %llu", (unsigned long long)s.rate.n - 1);
	CHECK(fabs(s.rate.max - 1200.0) < 1e-9, "rate over the elapsed time: %g", s.rate.max);
	CHECK(fabs(s.rate.mean - 1100.0) < 1e-9, "mean of samples %g", s.rate.mean);

	sampler_update(&s, 12 * SEC, 99999);
	CHECK(s.rate.n == 2 && s.last_ns == 13 * SEC + SEC / 2, "time going backwards is ignored");

	sampler_update(&s, 15 * SEC, 9000);
	CHECK(s.rate.n == 3 && s.rate.min == 0.0, "an idle interval samples 0/s");

	sampler_update(&s, 16 * SEC, 100);
	CHECK(s.rate.n == 4 && s.rate.min == 0.0 && s.last_value == 100,
	      "a counter that went down samples 0 and restarts from the new value");

	/* exact rate for a sub-second interval, bytes scale */
	struct sampler b;
	sampler_init(&b, SEC / 2, 0, 0);
	for (int i = 1; i <= 10; i++)
		sampler_update(&b, (uint64_t)i * SEC / 4, (uint64_t)i * 1048576);
	CHECK(b.rate.n == 5, "500 ms interval over 2.5 s: %llu samples", (unsigned long long)b.rate.n);
	CHECK(fabs(b.rate.mean - 4.0 * 1048576) < 1e-6 && b.rate.min == b.rate.max, "steady 4 MiB/s");
	return check_done("sampler");
}
