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
 * Beyond the last covered power of two (2^41 ns, ~37 minutes) values share the
 * last bucket and the bound no longer holds, but min and max stay exact.
 *
 * Storage: bucket i lives in group i / 64 at slot i % 64 (hist.h). hist_add
 * pays one well-predicted NULL test per value; the allocation behind it runs
 * once per group (a few times per job), out of line. Readers skip NULL
 * groups, so percentiles and merges cost what the used groups cost.
 */
#include "stats/hist.h"

#include <stdlib.h>
#include <string.h>

#include "util/assert.h"
#include "util/xmalloc.h"

#define GROUP_BYTES (HIST_SUB * sizeof(uint64_t))

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_release(struct hist *h)
{
	for (unsigned g = 0; g < HIST_NR_GROUPS; g++)
		free(h->groups[g]);
	hist_init(h);
}

/* The slow path of hist_add: the first value in group g. */
static __attribute__((noinline, cold)) uint64_t *group_new(struct hist *h, unsigned g)
{
	IOB_ASSERT(g < HIST_NR_GROUPS && !h->groups[g]);
	h->groups[g] = xcalloc(HIST_SUB, sizeof(uint64_t));
	return h->groups[g];
}

void hist_copy(struct hist *dst, const struct hist *src)
{
	if (dst == src)
		return;
	dst->count = src->count;
	dst->min = src->min;
	dst->max = src->max;
	for (unsigned g = 0; g < HIST_NR_GROUPS; g++) {
		if (!src->groups[g]) {
			free(dst->groups[g]);
			dst->groups[g] = NULL;
			continue;
		}
		if (!dst->groups[g])
			dst->groups[g] = xmalloc(GROUP_BYTES);
		memcpy(dst->groups[g], src->groups[g], GROUP_BYTES);
	}
}

uint64_t hist_count_at(const struct hist *h, unsigned i)
{
	if (i >= HIST_NR_BUCKETS)
		return 0;
	const uint64_t *grp = h->groups[i / HIST_SUB];
	return grp ? grp[i % HIST_SUB] : 0;
}

unsigned hist_index(uint64_t v)
{
	if (v < HIST_EXACT)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	if (__builtin_expect(msb > HIST_MAX_MSB, 0))
		return HIST_NR_BUCKETS - 1;
	unsigned shift = msb - HIST_SUB_BITS;
	unsigned i = (shift + 1) * HIST_SUB + (unsigned)((v >> shift) & (HIST_SUB - 1));
	/* v lies in bucket i: [low(i), low(i + 1)) */
	IOB_ASSERT(i >= HIST_EXACT && i < HIST_NR_BUCKETS);
	IOB_ASSERT(hist_bucket_low(i) <= v &&
		   (i + 1 == HIST_NR_BUCKETS || v < hist_bucket_low(i + 1)));
	return i;
}

void hist_add(struct hist *h, uint64_t v)
{
	unsigned i = hist_index(v);
	IOB_ASSERT(i < HIST_NR_BUCKETS);
	uint64_t *grp = h->groups[i / HIST_SUB];
	if (__builtin_expect(grp == NULL, 0))
		grp = group_new(h, i / HIST_SUB);
	grp[i % HIST_SUB]++;
	uint64_t c = h->count++;
	if (v > h->max)
		h->max = v;
	if (v < h->min || c == 0)
		h->min = v;
}

void hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
	if (!n)
		return;
	unsigned i = hist_index(v);
	uint64_t *grp = h->groups[i / HIST_SUB];
	if (!grp)
		grp = group_new(h, i / HIST_SUB);
	grp[i % HIST_SUB] += n;
	if (v > h->max || h->count == 0)
		h->max = v;
	if (v < h->min || h->count == 0)
		h->min = v;
	h->count += n;
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
	for (unsigned g = 0; g < HIST_NR_GROUPS; g++) {
		const uint64_t *s = src->groups[g];
		if (!s)
			continue;
		uint64_t *d = dst->groups[g];
		if (!d) {
			dst->groups[g] = xmalloc(GROUP_BYTES);
			memcpy(dst->groups[g], s, GROUP_BYTES);
			continue;
		}
		for (unsigned k = 0; k < HIST_SUB; k++)
			d[k] += s[k];
	}
}

uint64_t hist_bucket_low(unsigned i)
{
	if (i < HIST_EXACT)
		return i;
	if (i >= HIST_NR_BUCKETS)
		i = HIST_NR_BUCKETS - 1;
	unsigned shift = i / HIST_SUB - 1;
	IOB_ASSERT(shift >= 1 && shift <= HIST_MAX_MSB - HIST_SUB_BITS);
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
	for (unsigned g = 0; g < HIST_NR_GROUPS; g++) {
		const uint64_t *grp = h->groups[g];
		if (!grp)
			continue; /* all zero: cannot be the first bucket to reach it */
		for (unsigned k = 0; k < HIST_SUB; k++) {
			cum += grp[k];
			IOB_ASSERT(cum <= h->count); /* the buckets add up to count */
			if (grp[k] && (long double)cum >= threshold) {
				uint64_t v = hist_bucket_value(g * HIST_SUB + k);
				if (v < h->min)
					v = h->min;
				if (v > h->max)
					v = h->max;
				return v;
			}
		}
	}
	return h->max;
}

bool hist_equal(const struct hist *a, const struct hist *b)
{
	if (a->count != b->count || a->min != b->min || a->max != b->max)
		return false;
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++)
		if (hist_count_at(a, i) != hist_count_at(b, i))
			return false;
	return true;
}

unsigned hist_nr_groups(const struct hist *h)
{
	unsigned n = 0;
	for (unsigned g = 0; g < HIST_NR_GROUPS; g++)
		n += h->groups[g] != NULL;
	return n;
}
