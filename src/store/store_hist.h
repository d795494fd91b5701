/*
 * Latency histograms as the store keeps them: the bucket counts of a
 * histogram in a small blob tagged with its layout, so percentiles and
 * merges can be recomputed exactly later, whatever iobench's histogram
 * becomes.
 *
 * Layouts (the "layout" column; a new bucket scheme gets a new number and
 * the old decoders stay):
 *   STORE_HIST_IOBENCH1  stats/hist.h with 64 buckets per power of two up
 *                        to 2^40 ns: the blob is (u32 bucket index, u64
 *                        count) pairs, little-endian, ascending index,
 *                        non-empty buckets only; count, min and max are
 *                        stored beside it.
 *   STORE_HIST_FIO_BINS  fio's json+ "bins" (bucket value in ns -> count):
 *                        (u64 value, u64 count) pairs, ascending value; fio's
 *                        min and max when known.
 */
#ifndef IOBENCH_STORE_STORE_HIST_H
#define IOBENCH_STORE_STORE_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"

enum store_hist_layout {
	STORE_HIST_IOBENCH1 = 1,
	STORE_HIST_FIO_BINS = 2,
};

/* A decoded histogram: n buckets, keys ascending (a bucket index for
 * IOBENCH1, a value in ns for FIO_BINS). */
struct store_hist {
	unsigned layout;
	uint64_t count, min, max;
	size_t n;
	uint64_t *keys;
	uint64_t *counts;
};

/* The IOBENCH1 blob of h (xmalloc'ed, *len bytes; NULL and 0 when h is empty). */
void *store_hist_encode(const struct hist *h, size_t *len);
/* The FIO_BINS blob of n (value, count) pairs, sorted here. */
void *store_hist_encode_bins(uint64_t *values, uint64_t *counts, size_t n, size_t *len);
/* Decode blob (len bytes) of layout into *out (store_hist_release). 0, or
 * -EINVAL (no message) for an unknown layout or a blob that does not fit it. */
int store_hist_decode(unsigned layout, const void *blob, size_t len, uint64_t count, uint64_t min,
		      uint64_t max, struct store_hist *out);
/* The p-th percentile (0 < p <= 100) as the histogram's own tool computes
 * it: IOBENCH1 exactly as hist_percentile(), FIO_BINS as fio does (the
 * first bin whose cumulative count reaches p/100 of the total). 0 if empty. */
uint64_t store_hist_percentile(const struct store_hist *h, double p);
/* IOBENCH1 only: rebuild the stats/hist.h histogram (for merges), 0 or
 * -EINVAL for another layout. dst must be a valid (e.g. zeroed) histogram. */
int store_hist_to_hist(const struct store_hist *h, struct hist *dst);
void store_hist_release(struct store_hist *h);

#endif
