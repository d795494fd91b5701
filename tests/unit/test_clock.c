/*
 * The measurement clock: every source initialises, reads on CLOCK_MONOTONIC's
 * time base and never goes backwards; the TSC (when this CPU has an invariant
 * one) agrees with CLOCK_MONOTONIC within 0.1% over 200 ms and stays
 * monotonic over a million reads and across CPU migrations; forcing the TSC
 * where it is unusable fails with a reason; clocksource= names parse. Prints
 * the measured cost of one timestamp from each source. A reading compared
 * with CLOCK_MONOTONIC is taken between two monotonic reads, the closest
 * pair of many tries (pair_read), so a preemption between the two clocks'
 * reads on a loaded machine is not taken for a difference between them.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "util/clock.h"
#include "util/timeutil.h"

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* *t from the clock and *m from CLOCK_MONOTONIC at the same moment: the
 * try whose two monotonic reads around clock_ns() are closest */
static void pair_read(const struct clock *c, uint64_t *t, uint64_t *m)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 1000 && best > 20000; i++) {
		uint64_t a = now_ns(), v = clock_ns(c), b = now_ns();
		if (b - a < best) {
			best = b - a;
			*t = v;
			*m = a + (b - a) / 2;
		}
	}
}

static void test_source(enum clock_source src)
{
	struct clock c;
	int ret = clock_init(&c, src);
	CHECK(ret == 0, "clock_init(%s) = %d (%s)", clock_source_name(src), ret, c.why);
	if (ret)
		return;
	CHECK(c.src != CLOCK_SRC_AUTO, "%s resolves to a real source", clock_source_name(src));
	if (src != CLOCK_SRC_AUTO)
		CHECK(c.src == src, "%s is used as asked (got %s)", clock_source_name(src), clock_name(&c));
	/* same time base as now_ns() */
	uint64_t m, t;
	pair_read(&c, &t, &m);
	CHECK(absdiff(t, m) < 50 * NSEC_PER_MSEC, "%s reads %llu, CLOCK_MONOTONIC %llu", clock_name(&c),
	      (unsigned long long)t, (unsigned long long)m);
	/* never backwards over many reads */
	uint64_t prev = clock_ns(&c), back = 0;
	for (int i = 0; i < 200000; i++) {
		uint64_t v = clock_ns(&c);
		back += v < prev;
		prev = v;
	}
	CHECK(back == 0, "%s went backwards %llu times", clock_name(&c), (unsigned long long)back);
	/* a 20 ms sleep measures about 20 ms */
	uint64_t a = clock_ns(&c);
	sleep_until_ns(now_ns() + 20 * NSEC_PER_MSEC);
	uint64_t d = clock_ns(&c) - a;
	CHECK(d >= 19 * NSEC_PER_MSEC && d < 2 * NSEC_PER_SEC, "%s measured a 20 ms sleep as %llu ns",
	      clock_name(&c), (unsigned long long)d);
	double cost = clock_cost_ns(&c);
	CHECK(cost > 0 && cost < 100000, "%s cost %.1f ns", clock_name(&c), cost);
	printf("# clocksource=%-14s one timestamp costs %6.1f ns%s\n", clock_name(&c), cost,
	       src == CLOCK_SRC_AUTO ? " (chosen by auto)" : "");
	if (c.why[0])
		printf("#   auto fell back: %s\n", c.why);
}

static void test_tsc(void)
{
	char why[160] = "";
	struct clock c;
	if (!clock_tsc_invariant(why, sizeof(why))) {
		int ret = clock_init(&c, CLOCK_SRC_TSC);
		CHECK(ret == -ENOTSUP && strstr(c.why, "clocksource 'cpu'"), "no TSC here: %d %s", ret, c.why);
		SKIP("the TSC against CLOCK_MONOTONIC", "no invariant TSC on this CPU: %s", why);
		return;
	}
	int ret = clock_init(&c, CLOCK_SRC_TSC);
	CHECK(ret == 0 && c.src == CLOCK_SRC_TSC, "forced TSC works where it is invariant: %d %s", ret, c.why);
	if (ret)
		return;
	printf("# TSC %.3f MHz, mult %llu >> %u, %u CPUs checked, skew %lld ns\n", c.tsc_hz / 1e6,
	       (unsigned long long)c.mult, c.shift, c.tsc_cpus, (long long)c.tsc_skew_ns);
	CHECK(c.tsc_hz > 1e7 && c.tsc_cpus >= 1, "calibrated: %.0f Hz on %u CPUs", c.tsc_hz, c.tsc_cpus);

	/* agrees with CLOCK_MONOTONIC within 0.1% over ~200 ms */
	uint64_t t0, m0, t1, m1;
	pair_read(&c, &t0, &m0);
	sleep_until_ns(m0 + 200 * NSEC_PER_MSEC);
	pair_read(&c, &t1, &m1);
	double ratio = (double)(t1 - t0) / (double)(m1 - m0);
	CHECK(ratio > 0.999 && ratio < 1.001, "TSC/CLOCK_MONOTONIC over 200 ms = %.6f", ratio);
	CHECK(absdiff(t1, m1) < 10 * NSEC_PER_MSEC, "TSC still on the monotonic time base: %llu vs %llu",
	      (unsigned long long)t1, (unsigned long long)m1);

	/* monotonic over a million reads */
	uint64_t prev = clock_ns(&c), back = 0, zero = 0;
	for (int i = 0; i < 1000000; i++) {
		uint64_t v = clock_ns(&c);
		back += v < prev;
		zero += v == prev;
		prev = v;
	}
	CHECK(back == 0, "TSC went backwards %llu times in 1e6 reads", (unsigned long long)back);
	printf("# %llu of 1e6 consecutive TSC reads were equal\n", (unsigned long long)zero);

	/* and across CPU migrations */
	cpu_set_t saved, one;
	sched_getaffinity(0, sizeof(saved), &saved);
	int cpus[CPU_SETSIZE], n = 0;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &saved))
			cpus[n++] = i;
	uint64_t last = clock_ns(&c), mig_back = 0;
	for (int i = 0; n > 1 && i < 2000; i++) {
		CPU_ZERO(&one);
		CPU_SET(cpus[i % n], &one);
		sched_setaffinity(0, sizeof(one), &one);
		uint64_t v = clock_ns(&c);
		mig_back += v < last;
		last = v;
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	CHECK(mig_back == 0, "TSC went backwards %llu times across %d CPUs", (unsigned long long)mig_back, n);
}

static void test_without_tsc(void)
{
	struct clock c;
	int ret = clock_init_without_tsc(&c, CLOCK_SRC_TSC);
	CHECK(ret == -ENOTSUP, "forced TSC without one fails: %d", ret);
	CHECK(strstr(c.why, "clocksource 'cpu' is not usable") != NULL, "with a reason: '%s'", c.why);
	ret = clock_init_without_tsc(&c, CLOCK_SRC_AUTO);
	CHECK(ret == 0 && c.src == CLOCK_SRC_MONOTONIC && !strcmp(clock_name(&c), "clock_gettime"),
	      "auto without TSC falls back to clock_gettime: %d %s", ret, clock_name(&c));
	uint64_t a, b;
	pair_read(&c, &a, &b);
	CHECK(absdiff(a, b) < 50 * NSEC_PER_MSEC, "fallback reads CLOCK_MONOTONIC");
}

static void test_names(void)
{
	enum clock_source s;
	CHECK(clock_source_parse("cpu", &s) == 0 && s == CLOCK_SRC_TSC, "cpu");
	CHECK(clock_source_parse("clock_gettime", &s) == 0 && s == CLOCK_SRC_MONOTONIC, "clock_gettime");
	CHECK(clock_source_parse("gettimeofday", &s) == 0 && s == CLOCK_SRC_GETTIMEOFDAY, "gettimeofday");
	CHECK(clock_source_parse("auto", &s) == 0 && s == CLOCK_SRC_AUTO, "auto");
	CHECK(clock_source_parse("monotonic_raw", &s) == 0 && s == CLOCK_SRC_MONOTONIC_RAW, "raw");
	CHECK(clock_source_parse("tsc", &s) == -EINVAL && clock_source_parse("", &s) == -EINVAL, "bad names");
	for (int i = CLOCK_SRC_AUTO; i <= CLOCK_SRC_GETTIMEOFDAY; i++)
		CHECK(clock_source_parse(clock_source_name((enum clock_source)i), &s) == 0 && (int)s == i,
		      "name of %d round-trips", i);
}

int main(void)
{
	test_names();
	test_without_tsc();
	test_tsc();
	test_source(CLOCK_SRC_AUTO);
	test_source(CLOCK_SRC_MONOTONIC);
	test_source(CLOCK_SRC_MONOTONIC_RAW);
	test_source(CLOCK_SRC_GETTIMEOFDAY);
	if (clock_tsc_invariant(NULL, 0))
		test_source(CLOCK_SRC_TSC);
	printf("# for comparison: now_ns() (timeutil.h) ");
	uint64_t t0 = now_ns(), sink = 0;
	for (int i = 0; i < 1000000; i++)
		sink += now_ns();
	printf("costs %.1f ns%s\n", (double)(now_ns() - t0) / 1e6, sink == 1 ? "!" : "");
	return check_done("test_clock");
}
