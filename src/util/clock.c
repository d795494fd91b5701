/*
 * Choosing and calibrating the measurement clock (clock.h). The TSC is used
 * only when CPUID says it is invariant, its rate measured against
 * CLOCK_MONOTONIC is plausible and the same over two halves of the
 * calibration, and its offset to CLOCK_MONOTONIC is the same on every CPU
 * this process may run on (checked by migrating the calling thread to each
 * one in turn and restoring its affinity afterwards). Any doubt means
 * CLOCK_MONOTONIC, with the reason kept in c->why.
 */
#include "util/clock.h"
#include "util/array.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define CAL_HALF_NS 2000000ULL      /* two halves of 2 ms each: every run pays this */
#define RATE_TOLERANCE 5e-4         /* the two halves agree within 500 ppm */
#define SKEW_TOLERANCE_NS 2000      /* CPUs agree within 2 us (plus read windows) */
#define COST_RUN_NS 20000000ULL     /* clock_cost_ns() measures for 20 ms */

static const char *const source_names[] = {
	[CLOCK_SRC_AUTO] = "auto",
	[CLOCK_SRC_TSC] = "cpu",
	[CLOCK_SRC_MONOTONIC] = "clock_gettime",
	[CLOCK_SRC_MONOTONIC_RAW] = "monotonic_raw",
	[CLOCK_SRC_GETTIMEOFDAY] = "gettimeofday",
};

const char *clock_source_name(enum clock_source s)
{
	if ((unsigned)s >= ARRAY_SIZE(source_names))
		return "?";
	return source_names[s];
}

const char *clock_name(const struct clock *c)
{
	return clock_source_name(c->src);
}

int clock_source_parse(const char *s, enum clock_source *out)
{
	for (unsigned i = 0; i < ARRAY_SIZE(source_names); i++)
		if (!strcasecmp(s, source_names[i])) {
			*out = (enum clock_source)i;
			return 0;
		}
	return -EINVAL;
}

__attribute__((format(printf, 3, 4)))
static void set_why(char *why, size_t whylen, const char *fmt, ...)
{
	if (!why || !whylen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

static uint64_t read_clock(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Offset that moves readings of `id` onto CLOCK_MONOTONIC's time base. */
static int64_t offset_to_monotonic(enum clock_source src, clockid_t id)
{
	uint64_t best = UINT64_MAX;
	int64_t off = 0;
	for (int i = 0; i < 8; i++) {
		uint64_t t0 = read_clock(CLOCK_MONOTONIC), x;
		if (src == CLOCK_SRC_GETTIMEOFDAY) {
			struct timeval tv;
			gettimeofday(&tv, NULL);
			x = (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000ULL;
		} else {
			x = read_clock(id);
		}
		uint64_t t1 = read_clock(CLOCK_MONOTONIC);
		if (t1 - t0 < best) {
			best = t1 - t0;
			off = (int64_t)(t0 + (t1 - t0) / 2 - x);
		}
	}
	return off;
}

#if defined(__x86_64__)

bool clock_tsc_invariant(char *why, size_t whylen)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(d & (1u << 4))) {
		set_why(why, whylen, "this CPU has no time stamp counter");
		return false;
	}
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8))) {
		set_why(why, whylen, "this CPU has no invariant TSC (CPUID 0x80000007 EDX bit 8)");
		return false;
	}
	return true;
}

/* One TSC reading paired with the CLOCK_MONOTONIC midpoint around it; the
 * narrowest of several tries. Returns the window width in ns. */
static uint64_t paired_read(uint64_t *tsc, uint64_t *ns, int tries)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < tries; i++) {
		uint64_t t0 = read_clock(CLOCK_MONOTONIC);
		uint64_t x = __builtin_ia32_rdtsc();
		uint64_t t1 = read_clock(CLOCK_MONOTONIC);
		if (t1 - t0 < best) {
			best = t1 - t0;
			*tsc = x;
			*ns = t0 + (t1 - t0) / 2;
		}
	}
	return best;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL), .tv_nsec = (long)(ns % 1000000000ULL) };
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* Measure the TSC rate over two halves and set mult/shift/base. */
static int tsc_calibrate(struct clock *c)
{
	uint64_t tsc[3], ns[3];
	for (int i = 0; i < 3; i++) {
		if (i)
			sleep_ns(CAL_HALF_NS);
		paired_read(&tsc[i], &ns[i], 16);
	}
	double r1 = (double)(tsc[1] - tsc[0]) / (double)(ns[1] - ns[0]);
	double r2 = (double)(tsc[2] - tsc[1]) / (double)(ns[2] - ns[1]);
	if (tsc[1] <= tsc[0] || tsc[2] <= tsc[1] || r1 <= 0) {
		set_why(c->why, sizeof(c->why), "the TSC did not advance during calibration");
		return -ENOTSUP;
	}
	double hz = 1e9 * (double)(tsc[2] - tsc[0]) / (double)(ns[2] - ns[0]);
	if (hz < 1e7 || hz > 1e11) {
		set_why(c->why, sizeof(c->why), "calibration gave an implausible TSC rate of %.0f Hz", hz);
		return -ENOTSUP;
	}
	double dev = r2 > r1 ? r2 / r1 - 1 : r1 / r2 - 1;
	if (dev > RATE_TOLERANCE) {
		set_why(c->why, sizeof(c->why), "the TSC rate changed by %.0f ppm during calibration",
			dev * 1e6);
		return -ENOTSUP;
	}
	c->shift = 32;
	c->mult = (uint64_t)(((unsigned __int128)(ns[2] - ns[0]) << c->shift) / (tsc[2] - tsc[0]));
	c->tsc_base = tsc[2];
	c->ns_base = ns[2];
	c->tsc_hz = hz;
	return 0;
}

/* TSC converted by c, minus CLOCK_MONOTONIC, on the current CPU. */
static int64_t tsc_offset_here(const struct clock *c, uint64_t *window)
{
	uint64_t tsc = 0, ns = 0;
	*window = paired_read(&tsc, &ns, 16);
	int64_t d = (int64_t)(tsc - c->tsc_base);
	uint64_t conv = c->ns_base + (uint64_t)(int64_t)(((__int128)d * (__int128)c->mult) >> c->shift);
	return (int64_t)(conv - ns);
}

/*
 * Visit every CPU this thread can be moved to and compare the TSC's offset
 * to CLOCK_MONOTONIC there. The thread's affinity is restored afterwards.
 */
static int tsc_check_cpus(struct clock *c)
{
	cpu_set_t saved, one;
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return -errno;
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	if (conf < 1 || conf > CPU_SETSIZE)
		conf = CPU_SETSIZE;
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int lo_cpu = -1, hi_cpu = -1;
	uint64_t max_window = 0;
	unsigned visited = 0;
	for (int cpu = 0; cpu < conf; cpu++) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue; /* offline or outside our cpuset */
		for (int round = 0; round < 2; round++) {
			uint64_t w;
			int64_t off = tsc_offset_here(c, &w);
			if (w > max_window)
				max_window = w;
			if (off < lo) {
				lo = off;
				lo_cpu = cpu;
			}
			if (off > hi) {
				hi = off;
				hi_cpu = cpu;
			}
		}
		visited++;
	}
	int ret = sched_setaffinity(0, sizeof(saved), &saved) ? -errno : 0;
	if (ret)
		return ret;
	if (!visited) {
		set_why(c->why, sizeof(c->why), "could not run on any CPU to compare their TSCs");
		return -ENOTSUP;
	}
	c->tsc_cpus = visited;
	c->tsc_skew_ns = hi - lo;
	if (hi - lo > SKEW_TOLERANCE_NS + 2 * (int64_t)max_window) {
		set_why(c->why, sizeof(c->why), "the TSC of CPU %d is %lld ns ahead of CPU %d",
			hi_cpu, (long long)(hi - lo), lo_cpu);
		return -ENOTSUP;
	}
	return 0;
}

static int tsc_init(struct clock *c)
{
	if (!clock_tsc_invariant(c->why, sizeof(c->why)))
		return -ENOTSUP;
	int ret = tsc_calibrate(c);
	for (int retry = 0; ret && retry < 2; retry++) /* a preempted read can spoil one */
		ret = tsc_calibrate(c);
	if (!ret)
		ret = tsc_check_cpus(c);
	if (ret)
		return ret;
	c->src = CLOCK_SRC_TSC;
	return 0;
}

#else /* !__x86_64__ */

bool clock_tsc_invariant(char *why, size_t whylen)
{
	set_why(why, whylen, "the TSC clock is only available on x86_64");
	return false;
}

static int tsc_init(struct clock *c)
{
	clock_tsc_invariant(c->why, sizeof(c->why));
	return -ENOTSUP;
}

#endif

static int init_impl(struct clock *c, enum clock_source want, bool allow_tsc)
{
	memset(c, 0, sizeof(*c));
	c->clockid = CLOCK_MONOTONIC;
	switch (want) {
	case CLOCK_SRC_TSC:
	case CLOCK_SRC_AUTO: {
		int ret = -ENOTSUP;
		if (allow_tsc)
			ret = tsc_init(c);
		else
			set_why(c->why, sizeof(c->why), "the TSC is treated as absent");
		if (!ret)
			return 0;
		if (want == CLOCK_SRC_TSC) {
			char reason[sizeof(c->why)];
			memcpy(reason, c->why, sizeof(reason));
			set_why(c->why, sizeof(c->why), "clocksource 'cpu' is not usable: %s", reason);
			c->src = CLOCK_SRC_MONOTONIC; /* usable anyway if the caller goes on */
			return ret;
		}
		c->src = CLOCK_SRC_MONOTONIC;
		c->mult = c->shift = 0;
		c->tsc_hz = 0;
		return 0;
	}
	case CLOCK_SRC_MONOTONIC:
		c->src = want;
		return 0;
	case CLOCK_SRC_MONOTONIC_RAW:
		c->src = want;
		c->clockid = CLOCK_MONOTONIC_RAW;
		c->offset_ns = offset_to_monotonic(want, c->clockid);
		return 0;
	case CLOCK_SRC_GETTIMEOFDAY:
		c->src = want;
		c->clockid = CLOCK_REALTIME;
		c->offset_ns = offset_to_monotonic(want, c->clockid);
		return 0;
	}
	set_why(c->why, sizeof(c->why), "unknown clock source %d", (int)want);
	c->src = CLOCK_SRC_MONOTONIC;
	return -EINVAL;
}

int clock_init(struct clock *c, enum clock_source want)
{
	return init_impl(c, want, true);
}

int clock_init_without_tsc(struct clock *c, enum clock_source want)
{
	return init_impl(c, want, false);
}

double clock_cost_ns(const struct clock *c)
{
	uint64_t sink = 0, n = 0;
	for (int i = 0; i < 1000; i++) /* warm up */
		sink += clock_ns(c);
	uint64_t t0 = read_clock(CLOCK_MONOTONIC), t1;
	do {
		for (int i = 0; i < 1000; i++)
			sink += clock_ns(c);
		n += 1000;
		t1 = read_clock(CLOCK_MONOTONIC);
	} while (t1 - t0 < COST_RUN_NS);
	__asm__ volatile("" : : "r"(sink));
	return (double)(t1 - t0) / (double)n;
}
