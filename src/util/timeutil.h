/*
 * Time in nanoseconds from CLOCK_MONOTONIC for deadlines and waits (what
 * the measurements read is the run's calibrated clock, util/clock.h, whose
 * readings are on the same time base), sleeping until an absolute monotonic
 * deadline, and the wall clock for timestamps in reports.
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
/* Wall-clock milliseconds since the epoch (CLOCK_REALTIME). */
uint64_t wall_time_ms(void);

#endif
