/*
 * Keyed permutation: every block exactly once per pass for many sizes and
 * seeds, the same seed gives the same order, different seeds different
 * orders, the order is not close to the identity, n == 0 is refused, large
 * ranges stay in range, and i >= n wraps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/array.h"
#include "util/randperm.h"

static const uint64_t sizes[] = { 1, 2, 3, 7, 1000, 4097, 65537, 1 << 20 };
static const uint64_t seeds[] = { 0, 1, 2, 0xdeadbeef, UINT64_MAX };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void check_pass(uint64_t n, uint64_t seed, uint8_t *seen)
{
	struct randperm p;
	CHECK(randperm_init(&p, n, seed) == 0, "init n=%llu", (unsigned long long)n);
	memset(seen, 0, n);
	uint64_t bad = 0, fixed = 0, adjacent = 0, low_half = 0;
	double dist = 0;
	uint64_t prev = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = randperm_at(&p, i);
		if (v >= n || seen[v]++)
			bad++;
		fixed += v == i;
		dist += v > i ? (double)(v - i) : (double)(i - v);
		if (i && (v == prev + 1 || prev == v + 1))
			adjacent++;
		if (i < n / 2 && v < n / 2)
			low_half++;
		prev = v;
	}
	CHECK(bad == 0, "n=%llu seed=%llx: every block exactly once (%llu bad)", (unsigned long long)n,
	      (unsigned long long)seed, (unsigned long long)bad);
	CHECK(randperm_at(&p, n) == randperm_at(&p, 0) && randperm_at(&p, 3 * n + n / 2) ==
	      randperm_at(&p, n / 2), "n=%llu: i >= n wraps", (unsigned long long)n);
	if (n >= 1000) {
		/* a random permutation: ~1 fixed point, mean |p(i) - i| ~ n/3,
		 * ~2 adjacent steps, half of the first half in the low half */
		CHECK(fixed <= 10, "n=%llu seed=%llx: %llu fixed points", (unsigned long long)n,
		      (unsigned long long)seed, (unsigned long long)fixed);
		CHECK(dist / n > n / 4.0 && dist / n < n / 2.4, "n=%llu: mean displacement %.0f (n/3 = %.0f)",
		      (unsigned long long)n, dist / n, n / 3.0);
		CHECK(adjacent <= 20, "n=%llu seed=%llx: %llu adjacent steps", (unsigned long long)n,
		      (unsigned long long)seed, (unsigned long long)adjacent);
		double q = (double)low_half / (n / 4.0);
		CHECK(q > 0.9 && q < 1.1, "n=%llu: first half lands in the low half %.3f of expected",
		      (unsigned long long)n, q);
	}
}

static void check_orders(uint64_t n)
{
	struct randperm a, b, c;
	randperm_init(&a, n, 12345);
	randperm_init(&b, n, 12345);
	randperm_init(&c, n, 12346);
	uint64_t same_ab = 0, same_ac = 0;
	for (uint64_t i = 0; i < n; i++) {
		same_ab += randperm_at(&a, i) == randperm_at(&b, i);
		same_ac += randperm_at(&a, i) == randperm_at(&c, i);
	}
	CHECK(same_ab == n, "n=%llu: same seed, same order", (unsigned long long)n);
	CHECK(same_ac <= 10, "n=%llu: neighbouring seeds share %llu positions", (unsigned long long)n,
	      (unsigned long long)same_ac);
}

/* Over many seeds, (p(i), p(i+1)) falls evenly in a 10x10 grid of deciles:
 * the keyed family looks like random permutations, not a few shuffles. */
static void check_seed_family(uint64_t n, uint64_t i)
{
	enum { SEEDS = 4000 };
	unsigned grid[10][10] = { { 0 } };
	for (uint64_t s = 0; s < SEEDS; s++) {
		struct randperm p;
		randperm_init(&p, n, s * 0x9e3779b97f4a7c15ULL);
		grid[randperm_at(&p, i) * 10 / n][randperm_at(&p, i + 1) * 10 / n]++;
	}
	double chi2 = 0, e = SEEDS / 100.0;
	for (int a = 0; a < 10; a++)
		for (int b = 0; b < 10; b++)
			chi2 += (grid[a][b] - e) * (grid[a][b] - e) / e;
	/* 99 degrees of freedom: P(chi2 > 150) < 0.001 */
	CHECK(chi2 < 150, "n=%llu i=%llu: chi2 %.1f of (p(i), p(i+1)) deciles over seeds",
	      (unsigned long long)n, (unsigned long long)i, chi2);
}

static void check_large(uint64_t n)
{
	struct randperm p;
	CHECK(randperm_init(&p, n, 7) == 0, "init n=%llu", (unsigned long long)n);
	enum { M = 20000 };
	static uint64_t v[M];
	uint64_t out = 0;
	for (uint64_t i = 0; i < M; i++) {
		v[i] = randperm_at(&p, i * 977);
		out += v[i] >= n;
	}
	qsort(v, M, sizeof(v[0]), cmp_u64);
	uint64_t dup = 0;
	for (int i = 1; i < M; i++)
		dup += v[i] == v[i - 1];
	CHECK(out == 0 && dup == 0, "n=%llu: %llu out of range, %llu duplicates", (unsigned long long)n,
	      (unsigned long long)out, (unsigned long long)dup);
	CHECK(v[M - 1] > n / 2, "n=%llu: values spread over the range", (unsigned long long)n);
}

int main(void)
{
	struct randperm p;
	CHECK(randperm_init(&p, 0, 1) == -EINVAL, "n == 0 is refused");

	uint8_t *seen = malloc(1 << 20);
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		for (size_t j = 0; j < ARRAY_SIZE(seeds); j++)
			check_pass(sizes[i], seeds[j], seen);
	free(seen);

	check_orders(1000);
	check_orders(65537);
	check_orders(1 << 20);

	check_seed_family(1000, 0);
	check_seed_family(1000, 500);
	check_seed_family(65537, 7);
	check_seed_family(1 << 20, 123456);

	check_large(1ULL << 40);
	check_large((1ULL << 40) + 12345);
	check_large(UINT64_MAX);
	return check_done("randperm");
}
