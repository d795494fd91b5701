/*
 * Fast seeded pseudo-random numbers: xoshiro256** (Blackman & Vigna), its
 * 256-bit state filled from the seed by splitmix64 so that nearby seeds give
 * unrelated streams. Not cryptographic; meant for offsets, block sizes and
 * buffer contents on the I/O path, so the generators are inline. The same
 * seed always gives the same sequence (fio's randrepeat).
 */
#ifndef IOBENCH_UTIL_RAND_H
#define IOBENCH_UTIL_RAND_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Fill the state from `seed` (any value, 0 included). */
void rng_seed(struct rng *r, uint64_t seed);

/* One step of splitmix64 on *x: a good 64-bit mixer and seed expander. */
static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* The next 64 uniformly distributed bits. */
static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/*
 * Uniform in [0, n) without modulo bias (Lemire's multiply-and-reject: one
 * multiplication, a division only in the rare rejection case). n == 0
 * returns 0.
 */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t lo = (uint64_t)m;
	if (__builtin_expect(lo < n, 0)) {
		uint64_t threshold = -n % n; /* n > 0 here: lo < n */
		while (lo < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
