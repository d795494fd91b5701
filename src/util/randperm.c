/*
 * Keyed permutation of [0, n) for random I/O without a random map.
 *
 * Let 2^b be the smallest power of two >= n. A value in [0, 2^b) is split
 * into a high half H of ceil(b/2) bits and a low half L of floor(b/2) bits,
 * and RANDPERM_ROUNDS Feistel rounds alternate H ^= F(L), L ^= F(H). Each
 * round is undone by repeating it, so, whatever F is, the network permutes
 * [0, 2^b). Values that land at or above n go through it again (cycle-
 * walking): following the permutation's cycle from a point below n always
 * reaches the next point below n, so this restricts it to a permutation of
 * [0, n). As 2^b < 2n, a call costs fewer than two network passes on average
 * (a balanced network over 4^k >= n would need up to four).
 *
 * F is keyed multiply-shift hashing: the top bits of (x ^ key) * odd
 * multiplier, which depend on every bit of x. Six rounds (three per half)
 * give orders with no visible structure: few fixed points, displacement
 * ~n/3, no runs of neighbours (see tests/unit/test_randperm.c).
 */
#include "util/randperm.h"

#include <errno.h>

#include "util/assert.h"
#include "util/rand.h"

static inline uint64_t feistel(const struct randperm *p, uint64_t v)
{
	unsigned c = p->lo_bits;
	/* the network permutes [0, 2^b): both halves' masks cover it */
	uint64_t dom = (p->mask[0] << c) | p->mask[1];
	IOB_ASSERT(v <= dom && p->n - 1 <= dom);
	uint64_t half[2] = { v >> c, v & p->mask[1] };
	for (int i = 0; i < RANDPERM_ROUNDS; i++) {
		int dst = i & 1, src = dst ^ 1;
		uint64_t f = ((half[src] ^ p->key[i]) * p->mul[i]) >> p->shift[dst];
		half[dst] ^= f & p->mask[dst];
	}
	IOB_ASSERT(half[0] <= p->mask[0] && half[1] <= p->mask[1]);
	uint64_t r = (half[0] << c) | half[1];
	IOB_ASSERT(r <= dom);
	return r;
}

int randperm_init(struct randperm *p, uint64_t n, uint64_t seed)
{
	if (n == 0)
		return -EINVAL;
	unsigned b = n > 1 ? 64u - (unsigned)__builtin_clzll(n - 1) : 0;
	unsigned w[2] = { (b + 1) / 2, b / 2 };
	p->n = n;
	p->lo_bits = w[1];
	for (int h = 0; h < 2; h++) {
		p->mask[h] = w[h] ? (~0ULL >> (64 - w[h])) : 0;
		p->shift[h] = w[h] ? 64 - w[h] : 63;
	}
	uint64_t x = seed ^ 0x6a09e667f3bcc908ULL;
	for (int i = 0; i < RANDPERM_ROUNDS; i++) {
		p->key[i] = splitmix64(&x);
		p->mul[i] = splitmix64(&x) | 1;
	}
	return 0;
}

uint64_t randperm_at(const struct randperm *p, uint64_t i)
{
	if (__builtin_expect(i >= p->n, 0))
		i %= p->n;
	uint64_t v = feistel(p, i);
	while (v >= p->n)
		v = feistel(p, v);
	return v;
}
