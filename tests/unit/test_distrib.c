/*
 * Skewed block pickers: parameter validation (fio's ranges), picks in range,
 * determinism, and shape: the share of picks on the hottest 10% of blocks is
 * what the parameter implies (exact Zipf sums, Pareto's closed form, the
 * normal CDF), both for raw picks and after scattering (by sorting per-block
 * counts, which scattering does not change); the raw normal's mean and
 * standard deviation; and the scatter moves the hot blocks away from 0.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/array.h"
#include "util/distrib.h"

#define NB 1000
#define DRAWS 400000

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x > y ? -1 : x < y;
}

/* sum_{k=1}^{m} k^-theta, exactly up to 10^6 terms, Euler-Maclaurin beyond */
static double harmonic(uint64_t m, double theta)
{
	uint64_t direct = m < 1000000 ? m : 1000000;
	double s = 0;
	for (uint64_t k = direct; k >= 1; k--)
		s += pow((double)k, -theta);
	if (m > direct) {
		double a = (double)direct, b = (double)m;
		double integral = theta == 1.0 ? log(b / a) :
			(pow(b, 1 - theta) - pow(a, 1 - theta)) / (1 - theta);
		s += integral + (pow(b, -theta) - pow(a, -theta)) / 2 +
		     theta / 12 * (pow(a, -theta - 1) - pow(b, -theta - 1));
	}
	return s;
}

/* Share of the hottest 10% of blocks: raw (rank < n/10) and scattered. */
static void shares(struct distrib *d, uint64_t seed, double *raw_share, double *scat_share)
{
	static uint64_t cnt[NB];
	struct rng r;
	rng_seed(&r, seed);
	uint64_t hot = 0;
	for (int i = 0; i < DRAWS; i++)
		hot += distrib_raw(d, &r) < NB / 10;
	*raw_share = (double)hot / DRAWS;
	memset(cnt, 0, sizeof(cnt));
	for (int i = 0; i < DRAWS; i++)
		cnt[distrib_next(d, &r)]++;
	qsort(cnt, NB, sizeof(cnt[0]), cmp_desc);
	uint64_t top = 0;
	for (int i = 0; i < NB / 10; i++)
		top += cnt[i];
	*scat_share = (double)top / DRAWS;
}

static void check_invalid(void)
{
	struct distrib d;
	CHECK(distrib_init(&d, DISTRIB_ZIPF, 1.2, 0, 1) == -EINVAL, "n == 0");
	CHECK(distrib_init(&d, DISTRIB_ZIPF, -0.5, 100, 1) == -EINVAL, "zipf theta < 0");
	CHECK(distrib_init(&d, DISTRIB_ZIPF, NAN, 100, 1) == -EINVAL, "zipf NaN");
	CHECK(distrib_init(&d, DISTRIB_ZIPF, INFINITY, 100, 1) == -EINVAL, "zipf inf");
	CHECK(distrib_init(&d, DISTRIB_PARETO, 0.0, 100, 1) == -EINVAL, "pareto 0");
	CHECK(distrib_init(&d, DISTRIB_PARETO, 1.0, 100, 1) == -EINVAL, "pareto 1");
	CHECK(distrib_init(&d, DISTRIB_PARETO, 1.5, 100, 1) == -EINVAL, "pareto 1.5");
	CHECK(distrib_init(&d, DISTRIB_NORMAL, 100.0, 100, 1) == -EINVAL, "normal 100");
	CHECK(distrib_init(&d, DISTRIB_NORMAL, -1.0, 100, 1) == -EINVAL, "normal -1");
	CHECK(distrib_init(&d, (enum distrib_kind)42, 1.0, 100, 1) == -EINVAL, "unknown kind");
	CHECK(distrib_init(&d, DISTRIB_ZIPF, 0.0, 100, 1) == 0, "zipf 0 (uniform)");
	CHECK(distrib_init(&d, DISTRIB_ZIPF, 1.0, 100, 1) == 0, "zipf 1 (exact sampler)");
	CHECK(distrib_init(&d, DISTRIB_PARETO, 0.5, 100, 1) == 0, "pareto 0.5");
	CHECK(distrib_init(&d, DISTRIB_NORMAL, 0.0, 100, 1) == 0, "normal 0");
	CHECK(distrib_init(&d, DISTRIB_NORMAL, 99.9, 100, 1) == 0, "normal 99.9");
}

static void check_range(void)
{
	static const uint64_t ns[] = { 1, 2, 3, 1000, 1ULL << 40 };
	struct { enum distrib_kind k; double p; } cases[] = {
		{ DISTRIB_ZIPF, 0.0 }, { DISTRIB_ZIPF, 0.8 }, { DISTRIB_ZIPF, 1.0 }, { DISTRIB_ZIPF, 3.0 },
		{ DISTRIB_PARETO, 0.1 }, { DISTRIB_PARETO, 0.9 }, { DISTRIB_NORMAL, 0.0 },
		{ DISTRIB_NORMAL, 5.0 }, { DISTRIB_NORMAL, 99.0 },
	};
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
			struct distrib d;
			struct rng r;
			rng_seed(&r, c * 31 + i);
			int rc = distrib_init(&d, cases[c].k, cases[c].p, ns[i], 99);
			uint64_t out = 0;
			for (int j = 0; j < 20000; j++)
				out += distrib_next(&d, &r) >= ns[i] || distrib_raw(&d, &r) >= ns[i];
			CHECK(rc == 0 && out == 0, "kind %d param %g n=%llu: %llu picks out of range",
			      cases[c].k, cases[c].p, (unsigned long long)ns[i], (unsigned long long)out);
		}
	}
}

static void check_determinism(void)
{
	struct distrib a, b;
	struct rng ra, rb;
	distrib_init(&a, DISTRIB_ZIPF, 1.1, 100000, 5);
	distrib_init(&b, DISTRIB_ZIPF, 1.1, 100000, 5);
	rng_seed(&ra, 77);
	rng_seed(&rb, 77);
	int same = 1;
	for (int i = 0; i < 10000; i++)
		same &= distrib_next(&a, &ra) == distrib_next(&b, &rb);
	CHECK(same, "same seeds, same picks");

	/* the hottest block (rank 0) moves with the seed and is rarely block 0 */
	int at_zero = 0;
	uint64_t first = 0, differ = 0;
	for (uint64_t s = 0; s < 16; s++) {
		distrib_init(&a, DISTRIB_ZIPF, 1.2, 100000, s);
		uint64_t hottest = randperm_at(&a.scatter, 0);
		at_zero += hottest == 0;
		if (s == 0)
			first = hottest;
		differ += hottest != first;
	}
	CHECK(at_zero <= 1 && differ >= 14, "hot block scattered: %d at 0, %llu differ", at_zero,
	      (unsigned long long)differ);
}

static void check_zipf(double theta)
{
	struct distrib d;
	CHECK(distrib_init(&d, DISTRIB_ZIPF, theta, NB, 3) == 0, "zipf %g init", theta);
	double want = harmonic(NB / 10, theta) / harmonic(NB, theta), raw, scat;
	shares(&d, 11, &raw, &scat);
	CHECK(fabs(raw - want) < 0.004, "zipf %g: hottest 10%% raw share %.4f, exact %.4f", theta, raw, want);
	CHECK(fabs(scat - want) < 0.01, "zipf %g: hottest 10%% scattered share %.4f, exact %.4f", theta,
	      scat, want);

	/* the single hottest rank: P(rank 0) = 1 / H(n) */
	struct rng r;
	rng_seed(&r, 5);
	uint64_t c0 = 0, c1 = 0;
	for (int i = 0; i < DRAWS; i++) {
		uint64_t v = distrib_raw(&d, &r);
		c0 += v == 0;
		c1 += v == 1;
	}
	double p0 = 1.0 / harmonic(NB, theta), p1 = pow(2, -theta) * p0;
	double sd0 = sqrt(p0 * (1 - p0) / DRAWS), sd1 = sqrt(p1 * (1 - p1) / DRAWS);
	CHECK(fabs((double)c0 / DRAWS - p0) < 5 * sd0 + 1e-4, "zipf %g: P(rank 0) %.5f, exact %.5f",
	      theta, (double)c0 / DRAWS, p0);
	CHECK(fabs((double)c1 / DRAWS - p1) < 5 * sd1 + 1e-4, "zipf %g: P(rank 1) %.5f, exact %.5f",
	      theta, (double)c1 / DRAWS, p1);
}

static void check_zipf_large(double theta)
{
	uint64_t n = 1ULL << 30;
	struct distrib d;
	CHECK(distrib_init(&d, DISTRIB_ZIPF, theta, n, 3) == 0, "zipf %g n=2^30", theta);
	struct rng r;
	rng_seed(&r, 8);
	uint64_t hot = 0, tenth = 0;
	for (int i = 0; i < DRAWS; i++) {
		uint64_t v = distrib_raw(&d, &r);
		hot += v < 1000;
		tenth += v < n / 10;
	}
	double hn = harmonic(n, theta);
	double want = harmonic(1000, theta) / hn, want10 = harmonic(n / 10, theta) / hn;
	CHECK(fabs((double)hot / DRAWS - want) < 0.004, "zipf %g n=2^30: top 1000 share %.4f, exact %.4f",
	      theta, (double)hot / DRAWS, want);
	CHECK(fabs((double)tenth / DRAWS - want10) < 0.004, "zipf %g n=2^30: top 10%% share %.4f, exact %.4f",
	      theta, (double)tenth / DRAWS, want10);
}

static void check_pareto(double h)
{
	struct distrib d;
	CHECK(distrib_init(&d, DISTRIB_PARETO, h, NB, 4) == 0, "pareto %g init", h);
	double pw = log(h) / log(1 - h);
	/* raw = floor(n u^pw): P(raw < n/10) = 0.1^(1/pw); the hot end is at
	 * the bottom when pw > 1 and at the top when pw < 1 */
	double low = pow(0.1, 1 / pw);
	double hottest = pw >= 1 ? low : 1 - pow(0.9, 1 / pw);
	double raw, scat;
	shares(&d, 12, &raw, &scat);
	CHECK(fabs(raw - low) < 0.004, "pareto %g: raw share below n/10 %.4f, formula %.4f", h, raw, low);
	CHECK(fabs(scat - hottest) < 0.01, "pareto %g: hottest 10%% share %.4f, formula %.4f", h, scat,
	      hottest);
	if (h < 0.5) {
		/* the defining property: a fraction h of the blocks gets 1 - h of the picks */
		struct rng r;
		rng_seed(&r, 13);
		uint64_t in = 0;
		for (int i = 0; i < DRAWS; i++)
			in += distrib_raw(&d, &r) < (uint64_t)(h * NB);
		CHECK(fabs((double)in / DRAWS - (1 - h)) < 0.004, "pareto %g: %.4f of picks on %g of blocks",
		      h, (double)in / DRAWS, h);
	}
}

static void check_normal(double dev)
{
	struct distrib d;
	CHECK(distrib_init(&d, DISTRIB_NORMAL, dev, NB * 100, 6) == 0, "normal %g init", dev);
	struct rng r;
	rng_seed(&r, 14);
	double sum = 0, sq = 0, n = NB * 100.0;
	uint64_t in1 = 0;
	for (int i = 0; i < DRAWS; i++) {
		double v = (double)distrib_raw(&d, &r) + 0.5;
		sum += v;
		sq += (v - n / 2) * (v - n / 2);
		in1 += fabs(v - n / 2) < dev / 100 * n;
	}
	double mean = sum / DRAWS, sd = sqrt(sq / DRAWS);
	CHECK(fabs(mean - n / 2) < 0.005 * dev / 100 * n + 1, "normal %g: raw mean %.1f, centre %.1f", dev,
	      mean, n / 2);
	CHECK(fabs(sd / (dev / 100 * n) - 1) < 0.01, "normal %g: raw stddev %.1f, want %.1f", dev, sd,
	      dev / 100 * n);
	CHECK(fabs((double)in1 / DRAWS - 0.6827) < 0.003, "normal %g: %.4f within one stddev", dev,
	      (double)in1 / DRAWS);

	/* concentration after scattering, over NB blocks: the hottest 10% are
	 * the blocks within n/20 of the centre, P(|z| < 0.05 / (dev/100)) */
	CHECK(distrib_init(&d, DISTRIB_NORMAL, dev, NB, 6) == 0, "normal %g init", dev);
	double raw, scat, want = erf(0.05 / (dev / 100) / sqrt(2.0));
	shares(&d, 15, &raw, &scat);
	CHECK(fabs(scat - want) < 0.015, "normal %g: hottest 10%% share %.4f, want %.4f", dev, scat, want);
}

static void check_normal_zero(void)
{
	struct distrib d;
	struct rng r;
	rng_seed(&r, 1);
	distrib_init(&d, DISTRIB_NORMAL, 0.0, 1001, 9);
	uint64_t first = distrib_next(&d, &r), same = 1;
	for (int i = 0; i < 1000; i++)
		same += distrib_next(&d, &r) == first;
	CHECK(same == 1001 && distrib_raw(&d, &r) == 500, "normal 0: always the centre block");
}

int main(void)
{
	check_invalid();
	check_range();
	check_determinism();
	const double thetas[] = { 0.0, 0.5, 0.8, 1.0, 1.2, 2.0 };
	for (size_t i = 0; i < ARRAY_SIZE(thetas); i++)
		check_zipf(thetas[i]);
	check_zipf_large(0.8);
	check_zipf_large(1.2);
	const double hs[] = { 0.1, 0.2, 0.3, 0.5, 0.7 };
	for (size_t i = 0; i < ARRAY_SIZE(hs); i++)
		check_pareto(hs[i]);
	check_normal(2.0);
	check_normal(10.0);
	check_normal_zero();
	return check_done("distrib");
}
