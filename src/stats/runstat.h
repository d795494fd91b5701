/*
 * Running min/max/mean/stddev with Welford's update, mergeable with Chan's
 * parallel formula, in constant memory.
 */
#ifndef IOBENCH_STATS_RUNSTAT_H
#define IOBENCH_STATS_RUNSTAT_H

#include <stdint.h>

struct runstat {
	uint64_t n;
	double min, max;
	double mean;
	double m2; /* sum of squared deviations from the mean */
};

void runstat_init(struct runstat *s);
void runstat_add(struct runstat *s, double v);
void runstat_merge(struct runstat *dst, const struct runstat *src);
double runstat_stddev(const struct runstat *s); /* sample stddev, 0 if n < 2 */
double runstat_min(const struct runstat *s);    /* 0 if empty */
double runstat_max(const struct runstat *s);    /* 0 if empty */

#endif
