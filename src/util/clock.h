/*
 * The measurement clock: the cheapest accurate timestamp this machine offers.
 * On x86_64 with an invariant TSC that agrees across every allowed CPU, that
 * is rdtsc scaled to nanoseconds by a multiply and a shift calibrated against
 * CLOCK_MONOTONIC; otherwise clock_gettime(CLOCK_MONOTONIC). fio's
 * `clocksource=` values force one: cpu (TSC), clock_gettime, gettimeofday.
 *
 * A struct clock holds the choice and its calibration; clock_init() fills it
 * once and any number of threads may then call clock_ns() on it read-only.
 * Every source returns nanoseconds on CLOCK_MONOTONIC's time base as it was at
 * clock_init() (an offset is applied), so readings are comparable with
 * now_ns() at start; they drift from it by the source's rate error (TSC:
 * about 1e-6; gettimeofday: whatever NTP steps the wall clock by), so use
 * clock_ns() for intervals and now_ns() for deadlines.
 */
#ifndef IOBENCH_UTIL_CLOCK_H
#define IOBENCH_UTIL_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

enum clock_source {
	CLOCK_SRC_AUTO = 0,          /* TSC when invariant and calibrated, else MONOTONIC */
	CLOCK_SRC_TSC,               /* fio's clocksource=cpu */
	CLOCK_SRC_MONOTONIC,         /* fio's clocksource=clock_gettime */
	CLOCK_SRC_MONOTONIC_RAW,     /* clock_gettime(CLOCK_MONOTONIC_RAW) */
	CLOCK_SRC_GETTIMEOFDAY,      /* fio's clocksource=gettimeofday (1 us resolution) */
};

struct clock {
	enum clock_source src;  /* what clock_ns() reads; never AUTO after clock_init() */
	clockid_t clockid;      /* MONOTONIC or MONOTONIC_RAW */
	int64_t offset_ns;      /* added to clock_gettime/gettimeofday readings */
	/* TSC: ns = ns_base + ((tsc - tsc_base) * mult) >> shift */
	uint64_t tsc_base;
	uint64_t ns_base;
	uint64_t mult;
	unsigned shift;
	double tsc_hz;          /* calibrated TSC frequency, 0 when not TSC */
	int64_t tsc_skew_ns;    /* largest TSC offset seen between two CPUs */
	unsigned tsc_cpus;      /* CPUs the cross-CPU check ran on */
	char why[160];          /* why TSC was refused (AUTO fallback or error), else "" */
};

/*
 * Choose and calibrate the clock. AUTO takes the TSC when it is usable and
 * falls back to CLOCK_MONOTONIC (c->why says why); TSC forced on a machine
 * where it is unusable returns -ENOTSUP with the reason in c->why. The TSC
 * path takes about 60 ms (calibration) plus a migration to each allowed CPU.
 * Returns 0 or -errno.
 */
int clock_init(struct clock *c, enum clock_source want);

/* clock_init() on a machine without a usable TSC, for tests of the
 * fallback and of the error a forced clocksource=cpu gives there. */
int clock_init_without_tsc(struct clock *c, enum clock_source want);

/* Nanoseconds, see the top of this file. */
static inline uint64_t clock_ns(const struct clock *c)
{
#if defined(__x86_64__)
	if (c->src == CLOCK_SRC_TSC) {
		int64_t d = (int64_t)(__builtin_ia32_rdtsc() - c->tsc_base);
		return c->ns_base + (uint64_t)(int64_t)(((__int128)d * (__int128)c->mult) >> c->shift);
	}
#endif
	if (c->src == CLOCK_SRC_GETTIMEOFDAY) {
		struct timeval tv;
		gettimeofday(&tv, NULL);
		return (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000ULL +
		       (uint64_t)c->offset_ns;
	}
	struct timespec ts;
	clock_gettime(c->clockid, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec + (uint64_t)c->offset_ns;
}

/* The name of the source in use as clocksource= spells it: "cpu",
 * "clock_gettime", "gettimeofday" or "monotonic_raw". */
const char *clock_name(const struct clock *c);

/* The name of a source as clocksource= spells it ("auto" for AUTO). */
const char *clock_source_name(enum clock_source s);

/*
 * Parse a clocksource= value: fio's gettimeofday, clock_gettime and cpu, and
 * iobench's auto and monotonic_raw. Returns 0 or -EINVAL.
 */
int clock_source_parse(const char *s, enum clock_source *out);

/*
 * Can the TSC be used here at all (x86_64, TSC present, invariant TSC in
 * CPUID 0x80000007 EDX bit 8)? A cheap CPUID check only; clock_init() also
 * calibrates and checks the CPUs agree. On false, why gets the reason.
 */
bool clock_tsc_invariant(char *why, size_t whylen);

/* Mean cost in ns of one clock_ns() call on c, measured over about 20 ms. */
double clock_cost_ns(const struct clock *c);

#endif
