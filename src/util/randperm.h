/*
 * A keyed pseudo-random permutation of [0, n) in O(1) memory: what fio's
 * random map (a bitmap of blocks done) is for, without the bitmap. Random I/O
 * asks for randperm_at(p, 0), randperm_at(p, 1), ... and so touches every
 * block exactly once per pass, in an order fixed by the seed. Built from a
 * Feistel network over the smallest power of two >= n with cycle-walking for
 * values >= n; a call costs a handful of multiplications.
 */
#ifndef IOBENCH_UTIL_RANDPERM_H
#define IOBENCH_UTIL_RANDPERM_H

#include <stdint.h>

#define RANDPERM_ROUNDS 6

struct randperm {
	uint64_t n;                       /* size of the permuted range */
	unsigned lo_bits;                 /* bits in the low half (high half: same or one more) */
	uint64_t mask[2];                 /* high-half and low-half masks */
	unsigned shift[2];                /* round-function output shift for each half */
	uint64_t key[RANDPERM_ROUNDS];    /* round keys derived from the seed */
	uint64_t mul[RANDPERM_ROUNDS];    /* odd round multipliers derived from the seed */
};

/* Set up a permutation of [0, n) keyed by seed; -EINVAL if n == 0. */
int randperm_init(struct randperm *p, uint64_t n, uint64_t seed);
/* The i-th element of the permutation; i >= n wraps (i % n). */
uint64_t randperm_at(const struct randperm *p, uint64_t i);

#endif
