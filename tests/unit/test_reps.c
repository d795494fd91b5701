/*
 * Repetition estimates from a pilot CV: the ratio estimate against a
 * hand-worked case (cv 5% on both sides, +-5% at 95% -> 9 runs per side:
 * t(16) sqrt(0.005/9) = 0.04997 while 8 runs give 0.0536), its scaling
 * (4x the runs for half the width), the large-n limit of the median (pi/2 (z cv / w)^2), bad arguments and the search limit;
 * and, by simulation, that at the proposed n the intervals really come out
 * about as wide as asked (median half-width within 20% of w) for both the
 * Fieller ratio and the median's order-statistic interval.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "stats/median_ci.h"
#include "stats/ratio_ci.h"
#include "stats/reps.h"
#include "stats/sample_int.h"
#include "util/rand.h"

static double gauss(struct rng *r)
{
	double u = rng_double(r), v = rng_double(r);
	return sqrt(-2 * log1p(-u)) * cos(2 * M_PI * v);
}

int main(void)
{
	size_t n;
	CHECK(reps_for_ratio_ci(0.05, 0.05, 0.05, 0.95, &n) == 0 && n == 9, "5%%/5%% at +-5%%: %zu", n);
	size_t n2;
	CHECK(reps_for_ratio_ci(0.05, 0.05, 0.025, 0.95, &n2) == 0 && n2 >= 4 * n - 6 && n2 <= 4 * n,
	      "half the width: %zu runs (about 4x %zu)", n2, n);
	CHECK(reps_for_ratio_ci(0, 0, 0.05, 0.95, &n) == 0 && n == 2, "no noise: 2");
	/* 1%: t(2) sqrt(2e-4 / 2) = 0.043 already */
	CHECK(reps_for_ratio_ci(0.01, 0.01, 0.05, 0.95, &n) == 0 && n == 2, "1%% noise: %zu", n);
	CHECK(reps_for_ratio_ci(2, 2, 0.001, 0.95, &n) == -ERANGE, "beyond REPS_MAX");
	CHECK(reps_for_ratio_ci(-1, 0, 0.05, 0.95, &n) == -EINVAL && reps_for_ratio_ci(0.1, 0.1, 0, 0.95, &n) == -EINVAL &&
	      reps_for_ratio_ci(0.1, 0.1, 0.05, 1, &n) == -EINVAL, "bad arguments");

	CHECK(reps_for_median_ci(0, 0.05, 0.95, &n) == 0 && n == 6, "steady median: 6 (%zu)", n);
	CHECK(reps_for_median_ci(0.01, 0.05, 0.95, &n) == 0 && n == 6, "1%% cv: 6 (%zu)", n);
	size_t m1, m2;
	CHECK(reps_for_median_ci(0.05, 0.05, 0.95, &m1) == 0 && reps_for_median_ci(0.05, 0.025, 0.95, &m2) == 0 &&
	      m2 > 3 * m1 && m2 < 5 * m1, "median: %zu then %zu for half the width", m1, m2);
	/*
	 * large n: the asymptotic (pi/2) (z cv / w)^2 = 603 for cv 10% at +-1%,
	 * plus the rounding of the rank up (one rank in ~24 here: ~8% more runs)
	 */
	double asym = M_PI / 2 * 1.959964 * 1.959964 * 100;
	CHECK(reps_for_median_ci(0.1, 0.01, 0.95, &n) == 0 && n >= asym && n < 1.1 * asym,
	      "cv 10%% at +-1%%: %zu (asymptotic %.0f)", n, asym);
	CHECK(reps_for_median_ci(NAN, 0.05, 0.95, &n) == -EINVAL, "NAN cv");

	/* simulation: intervals at the proposed n are about +-w wide */
	struct rng r;
	rng_seed(&r, 5);
	double cv = 0.04, w = 0.03;
	CHECK(reps_for_ratio_ci(cv, cv, w, 0.95, &n) == 0, "n for cv 4%% at +-3%%: %zu", n);
	double half[400];
	size_t got = 0;
	for (int t = 0; t < 400; t++) {
		double a[200], b[200];
		for (size_t i = 0; i < n; i++) {
			a[i] = 100 * (1 + cv * gauss(&r));
			b[i] = 150 * (1 + cv * gauss(&r));
		}
		struct ratio_ci ci;
		if (ratio_ci_fieller(a, n, b, n, 0.95, &ci) == 0)
			half[got++] = (ci.hi - ci.lo) / 2 / ci.ratio;
	}
	double med = sample_median_inplace(half, got);
	CHECK(got == 400 && fabs(med / w - 1) < 0.2, "fieller at n %zu: median half-width %.4f for w %.4f", n, med, w);

	CHECK(reps_for_median_ci(cv, w, 0.95, &n) == 0, "median n for cv 4%% at +-3%%: %zu", n);
	got = 0;
	for (int t = 0; t < 400; t++) {
		double x[200];
		for (size_t i = 0; i < n; i++)
			x[i] = 100 * (1 + cv * gauss(&r));
		struct median_ci m;
		if (median_ci(x, n, 0.95, &m) == 0)
			half[got++] = fmax(m.hi - m.median, m.median - m.lo) / m.median;
	}
	med = sample_median_inplace(half, got);
	CHECK(got == 400 && fabs(med / w - 1) < 0.2, "median ci at n %zu: median larger end %.4f for w %.4f", n, med, w);
	return check_done("test_reps");
}
