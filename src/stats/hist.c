/*
 * Log-linear latency histogram (fio's scheme). Values below 128 ns have a
 * bucket each. A value v >= 128 with its top bit at position m (2^m <= v <
 * 2^(m+1), m >= 7) falls in one of the 64 equal buckets that split
 * [2^m, 2^(m+1)); each is 2^(m-6) wide. Index = (m - 5) * 64 + the six bits
 * below the top bit, computed with one __builtin_clzll and no loop.
 *
 * Error bound: a bucket is reported by its midpoint, at most half a bucket
 * (2^(m-7)) from any value in it, and every value in it is >= 2^m, so the
 * relative error of a reported value is at most 2^-7 = 1/128 (0.78%).
 * hist_percentile() picks the bucket that holds the exact order statistic, so
 * its answer is within 1/128 of the exact sample percentile; clamping to the
 * exact [min, max] can only move it closer. Values below 128 are exact.
 * Beyond the last covered power of two (2^41 ns, ~36 minutes) values share the
 * last bucket and the bound no longer holds, but min and max stay exact.
 */
#include "stats/hist.h"

#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned hist_index(uint64_t v)
{
	if (v < HIST_EXACT)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (__builtin_expect(msb > HIST_MAX_MSB, 0))
		return HIST_NR_BUCKETS - 1;
	unsigned shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB + (unsigned)((v >> shift) & (HIST_SUB - 1));
}

void hist_add(struct hist *h, uint64_t v)
{
	uint64_t c = h->count++;
	h->buckets[hist_index(v)]++;
	if (v > h->max)
		h->max = v;
	if (v < h->min || c == 0)
		h->min = v;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

uint64_t hist_bucket_low(unsigned i)
{
	if (i < HIST_EXACT)
		return i;
	if (i >= HIST_NR_BUCKETS)
		i = HIST_NR_BUCKETS - 1;
	unsigned shift = i / HIST_SUB - 1;
	uint64_t k = i % HIST_SUB;
	return (HIST_SUB + k) << shift;
}

uint64_t hist_bucket_value(unsigned i)
{
	if (i < HIST_EXACT)
		return i;
	if (i >= HIST_NR_BUCKETS)
		i = HIST_NR_BUCKETS - 1;
	unsigned shift = i / HIST_SUB - 1;
	return hist_bucket_low(i) + (1ULL << (shift - 1));
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	if (h->count == 0)
		return 0;
	if (!(p > 0.0))
		return h->min;
	if (p > 100.0)
		p = 100.0;
	long double threshold = (long double)p / 100.0L * (long double)h->count;
	uint64_t cum = 0;
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++) {
		cum += h->buckets[i];
		if (h->buckets[i] && (long double)cum >= threshold) {
			uint64_t v = hist_bucket_value(i);
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;
}
