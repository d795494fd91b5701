/*
 * Log-linear latency histogram in nanoseconds. Values below 128 are counted
 * exactly; above that each power of two is split into 64 equal buckets, so a
 * value is known to within 1/64 of its power of two and a percentile reported
 * as its bucket's midpoint is within 1/128 (0.78%) of the truth. Values past
 * the last covered power of two (2^41 ns, about 37 minutes) go in the last
 * bucket and min/max stay exact.
 * Two histograms merge by adding buckets.
 *
 * Layout: the HIST_NR_BUCKETS counters are split into HIST_NR_GROUPS groups
 * of HIST_SUB (64) counters; group g holds buckets g*64 .. g*64+63, so values
 * below 128 are groups 0 and 1 and each power of two above is one group. A
 * group is allocated (zeroed, on the heap) the first time a value lands in
 * it; a NULL group counts zero everywhere. The struct itself is a few hundred
 * bytes however wide the values, and memory grows only with the number of
 * distinct powers of two seen (512 bytes each, at most 18 KiB).
 *
 * Ownership: all-zero memory (calloc, memset, hist_init) is a valid empty
 * histogram. A histogram owns its groups: hist_release() frees them, and a
 * struct copy (*a = *b) makes two owners, so copy with hist_copy() or, to
 * move, forget the source with hist_init() after the struct copy. hist_add,
 * hist_merge and hist_copy allocate groups as needed and die if out of
 * memory. Read counters with hist_count_at(), never through the groups.
 */
#ifndef IOBENCH_STATS_HIST_H
#define IOBENCH_STATS_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)            /* 64 buckets per power of two */
#define HIST_EXACT (2u * HIST_SUB)                /* values < 128 are exact */
#define HIST_MAX_MSB 40                           /* last power of two covered */
#define HIST_NR_BUCKETS (HIST_EXACT + (HIST_MAX_MSB - HIST_SUB_BITS) * HIST_SUB)
#define HIST_NR_GROUPS (HIST_NR_BUCKETS / HIST_SUB) /* 36 groups of 64 buckets */

struct hist {
	uint64_t count;
	uint64_t min, max;
	uint64_t *groups[HIST_NR_GROUPS]; /* HIST_SUB counters each, or NULL (all zero) */
};

/* Make h empty without freeing anything (for fresh or moved-from memory). */
void hist_init(struct hist *h);
/* Free h's groups and leave it empty. */
void hist_release(struct hist *h);
/* Make dst (a valid histogram) a deep copy of src, reusing or freeing its groups. */
void hist_copy(struct hist *dst, const struct hist *src);
void hist_add(struct hist *h, uint64_t v);
/* hist_add(h, v) n times, in one step (rebuilding stored bucket counts). */
void hist_add_n(struct hist *h, uint64_t v, uint64_t n);
/* Add src into dst, allocating dst's groups where src has counts. */
void hist_merge(struct hist *dst, const struct hist *src);
/* Count in bucket i (0 when i is out of range or its group was never used). */
uint64_t hist_count_at(const struct hist *h, unsigned i);
/* Same count, min, max and bucket counts (groups are private pointers, so
 * compare this way, never with memcmp). */
bool hist_equal(const struct hist *a, const struct hist *b);
/* How many bucket groups are allocated (for tests and memory checks). */
unsigned hist_nr_groups(const struct hist *h);
unsigned hist_index(uint64_t v);
/* Lowest value of bucket i, and its representative (midpoint) value. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_value(unsigned i);
/* The p-th percentile (0 < p <= 100): value of the first bucket whose
 * cumulative count reaches p/100 * count, clamped to [min, max]. 0 if empty. */
uint64_t hist_percentile(const struct hist *h, double p);

#endif
