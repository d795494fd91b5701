/*
 * Seeding for the xoshiro256** generator in rand.h: splitmix64 expands one
 * 64-bit seed into the 256-bit state. splitmix64 is a bijection over its
 * counter, so the four words are never all zero, the one state xoshiro must
 * avoid.
 */
#include "util/rand.h"

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}
