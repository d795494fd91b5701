/*
 * Log-linear latency histogram in nanoseconds. Values below 128 are counted
 * exactly; above that each power of two is split into 64 equal buckets, so a
 * value is known to within 1/64 of its power of two and a percentile reported
 * as its bucket's midpoint is within 1/128 (0.78%) of the truth. Memory is
 * fixed (HIST_NR_BUCKETS counters) however many values are added; values past
 * the last bucket (about 2^40 ns, 18 minutes) go in it and min/max stay exact.
 * Two histograms merge by adding buckets.
 */
#ifndef IOBENCH_STATS_HIST_H
#define IOBENCH_STATS_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)            /* 64 buckets per power of two */
#define HIST_EXACT (2u * HIST_SUB)                /* values < 128 are exact */
#define HIST_MAX_MSB 40                           /* last power of two covered */
#define HIST_NR_BUCKETS (HIST_EXACT + (HIST_MAX_MSB - HIST_SUB_BITS) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max;
	uint64_t buckets[HIST_NR_BUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
void hist_merge(struct hist *dst, const struct hist *src);
unsigned hist_index(uint64_t v);
/* Lowest value of bucket i, and its representative (midpoint) value. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_value(unsigned i);
/* The p-th percentile (0 < p <= 100): value of the first bucket whose
 * cumulative count reaches p/100 * count, clamped to [min, max]. 0 if empty. */
uint64_t hist_percentile(const struct hist *h, double p);

#endif
