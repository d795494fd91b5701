/*
 * Time in nanoseconds from CLOCK_MONOTONIC, the one clock every measurement
 * uses (a calibrated TSC may replace it later behind the same call), plus
 * sleeping until an absolute monotonic deadline for rate control.
 */
#ifndef IOBENCH_UTIL_TIMEUTIL_H
#define IOBENCH_UTIL_TIMEUTIL_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Sleep until monotonic time `deadline_ns` (returns early on a signal). */
void sleep_until_ns(uint64_t deadline_ns);
/* Wall-clock seconds and milliseconds since the epoch. */
uint64_t wall_time_ms(void);

#endif
