/*
 * Log-linear histogram: bucket boundaries (127/128/129, the last covered
 * power of two and overflow), the 1/128 error bound of every bucket, and
 * percentiles of uniform, exponential, bimodal and heavy-tailed samples
 * between 1 ns and 10 s against exact sorted-sample percentiles; merging
 * equals adding everything to one histogram; the empty histogram. Storage:
 * a zeroed histogram holds no groups, values in one power of two allocate
 * one group (values < 128 the first two), merge into an empty histogram and
 * hist_copy make independent deep copies, hist_release frees and empties
 * (the ASan build's leak checker sees anything left behind).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/hist.h"
#include "util/array.h"
#include "util/rand.h"

#define NSAMPLES 200000
#define MAXV 10000000000ULL /* 10 s in ns */

static const double pcts[] = {
	0.001, 0.1, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 100,
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The exact p-th percentile: the smallest sample of rank r >= p/100 * n. */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
	long double t = (long double)p / 100.0L * (long double)n;
	size_t r = (size_t)ceill(t);
	if (r < 1)
		r = 1;
	if (r > n)
		r = n;
	return sorted[r - 1];
}

static uint64_t clampv(double v)
{
	if (v < 1.0)
		return 1;
	if (v > (double)MAXV)
		return MAXV;
	return (uint64_t)v;
}

static double gauss(struct rng *r)
{
	double u1 = 1.0 - rng_double(r), u2 = rng_double(r);
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static uint64_t draw(int kind, struct rng *r)
{
	switch (kind) {
	case 0: /* uniform over 1 ns .. 10 s */
		return 1 + rng_below(r, MAXV);
	case 1: /* exponential, mean 200 us */
		return clampv(-log(1.0 - rng_double(r)) * 200000.0);
	case 2: /* bimodal: 80% around 100 us, 20% around 8 ms */
		if (rng_below(r, 10) < 8)
			return clampv(100000.0 + 10000.0 * gauss(r));
		return clampv(8000000.0 + 1000000.0 * gauss(r));
	case 3: /* heavy tail: log-uniform over 1 ns .. 10 s */
		return clampv(exp(rng_double(r) * log((double)MAXV)));
	default: /* pareto, alpha 1.1, from 50 us */
		return clampv(50000.0 / pow(1.0 - rng_double(r), 1.0 / 1.1));
	}
}

static void check_boundaries(void)
{
	CHECK(hist_index(0) == 0, "0");
	CHECK(hist_index(127) == 127, "127 -> %u", hist_index(127));
	CHECK(hist_index(128) == 128, "128 -> %u", hist_index(128));
	CHECK(hist_index(129) == 128, "129 -> %u (2-wide bucket)", hist_index(129));
	CHECK(hist_index(130) == 129, "130 -> %u", hist_index(130));
	CHECK(hist_index(255) == 191, "255 -> %u", hist_index(255));
	CHECK(hist_index(256) == 192, "256 -> %u", hist_index(256));
	CHECK(hist_bucket_low(128) == 128 && hist_bucket_value(128) == 129,
	      "bucket 128 low %llu value %llu", (unsigned long long)hist_bucket_low(128),
	      (unsigned long long)hist_bucket_value(128));
	CHECK(hist_bucket_value(127) == 127, "exact bucket");
	uint64_t top = 1ULL << HIST_MAX_MSB;
	CHECK(hist_index(top) == HIST_NR_BUCKETS - HIST_SUB, "2^40 -> %u", hist_index(top));
	CHECK(hist_index(2 * top - 1) == HIST_NR_BUCKETS - 1, "2^41-1 -> %u", hist_index(2 * top - 1));
	CHECK(hist_index(2 * top) == HIST_NR_BUCKETS - 1, "2^41 overflows into the last bucket");
	CHECK(hist_index(UINT64_MAX) == HIST_NR_BUCKETS - 1, "UINT64_MAX overflows into the last bucket");

	/* every bucket: contiguous, its ends map back to it, 1/128 error at both ends */
	int bad = 0;
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i);
		uint64_t hi = i + 1 < HIST_NR_BUCKETS ? hist_bucket_low(i + 1) - 1 : 2 * top - 1;
		uint64_t mid = hist_bucket_value(i);
		if (hist_index(lo) != i || hist_index(hi) != i || mid < lo || mid > hi)
			bad++;
		if (fabs((double)mid - (double)lo) > (double)lo / 128.0 + 1e-9 ||
		    fabs((double)mid - (double)hi) > (double)hi / 128.0 + 1e-9)
			bad++;
		if (i > 0 && lo != hist_bucket_low(i - 1) + (i - 1 < HIST_EXACT ? 1 :
		    (hist_bucket_value(i - 1) - hist_bucket_low(i - 1)) * 2))
			bad++;
	}
	CHECK(bad == 0, "%d bucket boundary errors", bad);
}

static void check_empty_and_overflow(void)
{
	struct hist h;
	hist_init(&h);
	CHECK(h.count == 0 && hist_percentile(&h, 50) == 0 && hist_percentile(&h, 100) == 0,
	      "empty histogram percentiles are 0");
	CHECK(h.min == 0 && h.max == 0, "empty min/max are 0");

	uint64_t big = 1ULL << 45;
	hist_add(&h, big);
	CHECK(h.min == big && h.max == big, "min/max exact past 2^40");
	CHECK(hist_percentile(&h, 50) == big, "lone overflow value clamps to itself: %llu",
	      (unsigned long long)hist_percentile(&h, 50));
	hist_add(&h, 1000);
	CHECK(hist_percentile(&h, 100) <= big && hist_percentile(&h, 100) >= (1ULL << 40),
	      "p100 stays within [min,max] and in the last bucket");
	CHECK(hist_percentile(&h, 50) == hist_bucket_value(hist_index(1000)), "p50 is 1000's bucket");

	struct hist e;
	hist_init(&e);
	hist_add(&e, 5);
	CHECK(hist_percentile(&e, 0.0001) == 5 && hist_percentile(&e, 100) == 5, "one value");
	struct hist z;
	hist_init(&z);
	hist_merge(&e, &z);
	CHECK(e.count == 1 && e.min == 5 && e.max == 5, "merging an empty histogram changes nothing");
	hist_merge(&z, &e);
	CHECK(z.count == 1 && z.min == 5 && z.max == 5, "merging into an empty histogram copies");
	CHECK(hist_count_at(&z, 5) == 1 && z.groups[0] && z.groups[0] != e.groups[0],
	      "merge into empty allocates its own group");
	hist_release(&h);
	hist_release(&e);
	hist_release(&z);
	CHECK(hist_nr_groups(&h) == 0 && h.count == 0 && h.min == 0 && h.max == 0 &&
	      hist_percentile(&h, 50) == 0, "release leaves an empty histogram");
}

static void check_storage(void)
{
	struct hist h;
	memset(&h, 0, sizeof(h));
	CHECK(hist_nr_groups(&h) == 0 && hist_percentile(&h, 99) == 0 && hist_count_at(&h, 200) == 0,
	      "zeroed memory is an empty histogram with no groups");
	CHECK(sizeof(struct hist) <= 3 * 8 + HIST_NR_GROUPS * sizeof(void *),
	      "struct hist is %zu bytes", sizeof(struct hist));
	hist_add(&h, 4096);
	CHECK(hist_nr_groups(&h) == 1 && h.groups[hist_index(4096) / HIST_SUB], "one value, one group");
	for (uint64_t v = 4096; v < 8192; v += 7)
		hist_add(&h, v);
	CHECK(hist_nr_groups(&h) == 1, "values in one power of two share one group (%u)", hist_nr_groups(&h));
	hist_add(&h, 8192);
	CHECK(hist_nr_groups(&h) == 2, "the next power of two adds a group");
	hist_release(&h);
	for (uint64_t v = 0; v < HIST_EXACT; v++)
		hist_add(&h, v);
	CHECK(hist_nr_groups(&h) == 2 && h.groups[0] && h.groups[1], "values < 128 use the first two groups");
	unsigned bad = 0;
	for (unsigned i = 0; i < HIST_EXACT; i++)
		bad += hist_count_at(&h, i) != 1;
	CHECK(bad == 0 && hist_count_at(&h, HIST_EXACT) == 0, "%u exact buckets do not hold 1", bad);
	hist_add(&h, UINT64_MAX);
	hist_add(&h, 1ULL << 50);
	CHECK(hist_nr_groups(&h) == 3 && h.groups[HIST_NR_GROUPS - 1] &&
	      hist_count_at(&h, HIST_NR_BUCKETS - 1) == 2, "overflow values share the last group");
	CHECK(hist_count_at(&h, HIST_NR_BUCKETS) == 0 && hist_count_at(&h, ~0u) == 0,
	      "count past the last bucket is 0");

	/* deep copy: equal, independent, reusing or freeing dst's groups */
	struct hist c;
	hist_init(&c);
	hist_add(&c, 1000000); /* a group the source does not have */
	hist_copy(&c, &h);
	CHECK(hist_equal(&c, &h) && hist_nr_groups(&c) == 3, "copy equals its source");
	CHECK(c.groups[0] != h.groups[0] && c.groups[HIST_NR_GROUPS - 1] != h.groups[HIST_NR_GROUPS - 1],
	      "copy owns its groups");
	CHECK(c.groups[hist_index(1000000) / HIST_SUB] == NULL, "copy drops groups the source lacks");
	hist_add(&c, 3);
	CHECK(hist_count_at(&c, 3) == 2 && hist_count_at(&h, 3) == 1 && h.count + 1 == c.count,
	      "adding to the copy leaves the source alone");
	hist_copy(&c, &c);
	CHECK(c.count == h.count + 1 && hist_count_at(&c, 3) == 2, "self-copy changes nothing");
	hist_release(&h);
	CHECK(hist_count_at(&c, 3) == 2 && c.max == UINT64_MAX &&
	      hist_percentile(&c, 100) == hist_bucket_value(HIST_NR_BUCKETS - 1),
	      "the copy outlives its released source");
	struct hist e;
	hist_init(&e);
	hist_copy(&c, &e);
	CHECK(hist_nr_groups(&c) == 0 && c.count == 0 && c.min == 0 && c.max == 0, "copying an empty one frees");

	/* merge into an empty histogram */
	hist_add(&h, 300);
	hist_add(&h, 70000);
	struct hist m;
	memset(&m, 0, sizeof(m));
	hist_merge(&m, &h);
	CHECK(hist_equal(&m, &h) && hist_nr_groups(&m) == 2 && m.groups[hist_index(300) / HIST_SUB] !=
	      h.groups[hist_index(300) / HIST_SUB], "merge into empty is a deep copy");
	hist_merge(&m, &h);
	CHECK(m.count == 4 && hist_count_at(&m, hist_index(70000)) == 2 && hist_nr_groups(&m) == 2,
	      "merging again adds into the existing groups");
	hist_release(&h);
	hist_release(&m);
	hist_release(&c);
}

static void check_distribution(int kind, const char *name, uint64_t *v)
{
	struct rng r;
	rng_seed(&r, 1000 + kind);
	static struct hist h, a, b;
	hist_init(&h);
	hist_init(&a);
	hist_init(&b);
	for (size_t i = 0; i < NSAMPLES; i++) {
		v[i] = draw(kind, &r);
		hist_add(&h, v[i]);
		hist_add(i % 3 ? &a : &b, v[i]);
	}
	qsort(v, NSAMPLES, sizeof(*v), cmp_u64);
	CHECK(h.count == NSAMPLES && h.min == v[0] && h.max == v[NSAMPLES - 1], "%s: count/min/max", name);

	double worst = 0;
	for (size_t i = 0; i < ARRAY_SIZE(pcts); i++) {
		uint64_t want = exact_pct(v, NSAMPLES, pcts[i]);
		uint64_t got = hist_percentile(&h, pcts[i]);
		double err = fabs((double)got - (double)want) / (double)want;
		if (err > worst)
			worst = err;
		CHECK(err <= 1.0 / 128 + 1e-12, "%s p%g: got %llu want %llu (err %.5f)", name, pcts[i],
		      (unsigned long long)got, (unsigned long long)want, err);
		if (want < HIST_EXACT)
			CHECK(got == want, "%s p%g: values < 128 are exact", name, pcts[i]);
	}
	CHECK(worst < 0.01, "%s: worst relative error %.5f < 1%%", name, worst);

	hist_merge(&a, &b);
	CHECK(hist_equal(&a, &h), "%s: merge equals adding everything to one", name);
	hist_release(&h);
	hist_release(&a);
	hist_release(&b);
}

int main(void)
{
	check_boundaries();
	check_empty_and_overflow();
	check_storage();
	uint64_t *v = malloc(NSAMPLES * sizeof(*v));
	const char *names[] = { "uniform", "exponential", "bimodal", "log-uniform", "pareto" };
	for (int k = 0; k < 5; k++)
		check_distribution(k, names[k], v);
	free(v);
	return check_done("hist");
}
