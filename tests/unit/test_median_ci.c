/*
 * Order-statistic confidence interval of the median: the 95% ranks for
 * n = 6..12, 20, 50, 70, 100 and 1000 as tabulated for the exact binomial
 * (Le Boudec 2010, Table A.1; n = 10 -> (2, 9) at 97.85%, n = 20 -> (6, 15)
 * at 95.86%, n = 50 -> (18, 33) at 96.72%), the n <= 5 cases that have no
 * 95% interval (-EDOM, with the confidence [min, max] does reach), the
 * smallest n per level, the optimality of every rank for n <= 300 (the
 * chosen j reaches the level, j + 1 does not), agreement with Le Boudec's
 * normal-approximation formula for 71 <= n <= 300 within one rank, and a
 * coverage simulation: ~95% of intervals from simulated samples contain
 * the true median.
 */
#include <errno.h>
#include <math.h>

#include "check.h"
#include "stats/median_ci.h"
#include "stats/probdist.h"
#include "util/array.h"
#include "util/rand.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

int main(void)
{
	static const struct { size_t n, lo, hi; double conf; } tab[] = {
		{ 6, 1, 6, 0.96875 }, { 7, 1, 7, 0.984375 }, { 8, 1, 8, 0.9921875 },
		{ 9, 2, 8, 0.9609375 }, { 10, 2, 9, 0.978515625 }, { 11, 2, 10, 0.98828125 },
		{ 12, 3, 10, 0.96142578125 }, { 20, 6, 15, 0.95861 }, { 50, 18, 33, 0.96716 },
		{ 70, 27, 44, 0.95861 }, { 71, 27, 45, 0.96807 }, { 100, 40, 61, 0.96480 },
		{ 1000, 469, 532, 0.95371 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(tab); i++) {
		struct median_ci_ranks r;
		int rc = median_ci_ranks(tab[i].n, 0.95, &r);
		CHECK(rc == 0 && r.lo == tab[i].lo && r.hi == tab[i].hi && near(r.confidence, tab[i].conf, 1e-5),
		      "n %zu: rc %d ranks (%zu, %zu) at %.5f, table (%zu, %zu) at %.5f", tab[i].n, rc, r.lo, r.hi,
		      r.confidence, tab[i].lo, tab[i].hi, tab[i].conf);
	}
	/* no 95% interval below 6: the range and what it covers */
	static const double range_conf[] = { 0, 0, 0.5, 0.75, 0.875, 0.9375 };
	for (size_t n = 1; n <= 5; n++) {
		struct median_ci_ranks r;
		int rc = median_ci_ranks(n, 0.95, &r);
		CHECK(rc == -EDOM && r.lo == 1 && r.hi == n && r.confidence == range_conf[n],
		      "n %zu: rc %d, [1, %zu] at %g", n, rc, r.hi, r.confidence);
	}
	CHECK(median_ci_min_n(0.95) == 6 && median_ci_min_n(0.99) == 8 && median_ci_min_n(0.90) == 5 &&
	      median_ci_min_n(0.5) == 2, "smallest n: %zu at 95%%, %zu at 99%%", median_ci_min_n(0.95),
	      median_ci_min_n(0.99));
	struct median_ci_ranks r;
	CHECK(median_ci_ranks(0, 0.95, &r) == -EINVAL && median_ci_ranks(10, 1.0, &r) == -EINVAL &&
	      median_ci_ranks(10, 0, &r) == -EINVAL, "bad arguments");
	CHECK(median_ci_ranks(5, 0.90, &r) == 0 && r.lo == 1 && r.hi == 5, "90%% exists at n = 5");

	/* every rank is the narrowest that reaches the level */
	int bad = 0, off = 0;
	for (size_t n = 6; n <= 300; n++) {
		if (median_ci_ranks(n, 0.95, &r) != 0) {
			bad++;
			continue;
		}
		double c = 1 - 2 * prob_binom_half_cdf(n, r.lo - 1);
		double c_next = 1 - 2 * prob_binom_half_cdf(n, r.lo);
		if (!(c >= 0.95 && c_next < 0.95 && r.hi == n + 1 - r.lo))
			bad++;
		if (n >= 71) {
			double j = floor((n - 1.96 * sqrt(n)) / 2);
			if (fabs(j - (double)r.lo) > 1)
				off++;
		}
	}
	CHECK(bad == 0, "%d ranks are not optimal", bad);
	CHECK(off == 0, "%d ranks differ from Le Boudec's formula by more than one", off);

	/* median_ci on data */
	double x[] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 10 };
	struct median_ci m;
	CHECK(median_ci(x, 10, 0.95, &m) == 0 && m.median == 5.5 && m.lo == 2 && m.hi == 9 && m.rank_lo == 2,
	      "1..10: median %g in [%g, %g]", m.median, m.lo, m.hi);
	double three[] = { 10, 12, 11 };
	CHECK(median_ci(three, 3, 0.95, &m) == -EDOM && m.lo == 10 && m.hi == 12 && m.confidence == 0.75 &&
	      m.median == 11, "n = 3: [min, max] at 75%%");
	double bad_x[] = { 1, INFINITY };
	CHECK(median_ci(bad_x, 2, 0.95, &m) == -EINVAL, "non-finite rejected");

	/* coverage: exponential samples (skewed), true median ln 2 */
	struct rng rng;
	rng_seed(&rng, 2024);
	for (size_t n = 6; n <= 40; n += 17) {
		int hit = 0, trials = 4000;
		double nominal = 0;
		for (int t = 0; t < trials; t++) {
			double s[40];
			for (size_t i = 0; i < n; i++)
				s[i] = -log1p(-rng_double(&rng));
			if (median_ci(s, n, 0.95, &m) != 0)
				continue;
			nominal = m.confidence;
			hit += m.lo <= M_LN2 && M_LN2 <= m.hi;
		}
		double cov = (double)hit / trials;
		/* the achieved (not nominal) level, within 4 binomial sd */
		double sd = sqrt(nominal * (1 - nominal) / trials);
		CHECK(fabs(cov - nominal) < 4 * sd && cov >= 0.95 - 4 * sd,
		      "n %zu: coverage %.4f, achieved level %.4f", n, cov, nominal);
	}
	return check_done("test_median_ci");
}
