/*
 * Confidence intervals of the ratio B/A. Known answer: Fieller's interval
 * for Colquhoun's example (DC-Stats; a = 14 +- 3, b = 7 +- 2, independent,
 * t(0.95 one-sided, 10 df) = 1.8125 -> ratio 2, g = 0.268164, interval
 * 1.051413 to 4.414296); the percentile bootstrap of a ratio of medians
 * against the exact bootstrap distribution of the median (Efron 1982).
 * Properties, for Fieller and the percentile and BCa
 * bootstraps: identical samples give an interval containing 1 (no real
 * difference); B = 1.5 A + noise gives one containing 1.5 and excluding 1;
 * the bootstrap is a function of the seed; single runs give -EDOM; a zero
 * denominator -EDOM; an insignificant denominator an unbounded Fieller set
 * (-ERANGE); constant samples the exact ratio (BCa with no correction). Coverage simulations: over
 * many simulated experiments ~95% of the intervals contain the true ratio
 * (Fieller on normal data at n = 3 and 10, the percentile bootstrap of the
 * ratio of medians at n = 20, BCa of the ratio of means of lognormal data
 * at n = 20), within a binomial tolerance (Fieller at n = 3 is a little
 * conservative, ~97%, as Welch's estimated df err low). Everything is seeded, so the
 * figures are the same on every run.
 */
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/probdist.h"
#include "stats/ratio_ci.h"
#include "util/rand.h"

static double gauss(struct rng *r)
{
	double u = rng_double(r), v = rng_double(r);
	return sqrt(-2 * log1p(-u)) * cos(2 * M_PI * v);
}

static int rel_near(double a, double b, double tol)
{
	return fabs(a - b) <= tol * fabs(b);
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

static int cmp_pair(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;
	return (a[0] > b[0]) - (a[0] < b[0]);
}

/*
 * The exact bootstrap distribution of the median of n (odd) sorted values
 * (Efron 1982, ch. 10): median* <= x_(k) when at least (n+1)/2 draws are
 * among the k smallest, so P(median* = x_(k)) = P(Bin(n, k/n) >= m) -
 * P(Bin(n, (k-1)/n) >= m). Fills pmf[0..n).
 */
static void exact_median_pmf(size_t n, double *pmf)
{
	unsigned m = (unsigned)(n + 1) / 2;
	double prev = 0;
	for (size_t k = 1; k <= n; k++) {
		double cdf = k == n ? 1 : gsl_cdf_binomial_Q(m - 1, (double)k / (double)n, (unsigned)n);
		pmf[k - 1] = cdf - prev;
		prev = cdf;
	}
}

/* the exact bootstrap distribution of median(B*) / median(A*), sorted */
static double pairs[15 * 15][2];

static size_t exact_ratio_dist(const double *sa, const double *sb, size_t n)
{
	double pa[15], pb[15];
	exact_median_pmf(n, pa);
	exact_median_pmf(n, pb);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			pairs[m][0] = sb[j] / sa[i];
			pairs[m][1] = pa[i] * pb[j];
			m++;
		}
	qsort(pairs, m, sizeof(pairs[0]), cmp_pair);
	return m;
}

/* its q-quantile: the first support point where the cumulative reaches q */
static double exact_quantile(size_t m, double q)
{
	double cum = 0;
	for (size_t k = 0; k < m; k++) {
		cum += pairs[k][1];
		if (cum >= q)
			return pairs[k][0];
	}
	return pairs[m - 1][0];
}

static int contains(const struct ratio_ci *c, double v)
{
	return c->lo <= v && v <= c->hi;
}

/* fraction of `trials` experiments whose interval contains `truth` */
static double coverage(int method, size_t n, int trials, int lognormal, double *mean_width)
{
	struct rng r;
	rng_seed(&r, 77 + n + method);
	int hit = 0, done = 0;
	double width = 0;
	for (int t = 0; t < trials; t++) {
		double a[64], b[64];
		for (size_t i = 0; i < n; i++) {
			if (lognormal) {
				a[i] = 100 * exp(0.3 * gauss(&r));
				b[i] = 150 * exp(0.3 * gauss(&r));
			} else {
				a[i] = 100 * (1 + 0.1 * gauss(&r));
				b[i] = 150 * (1 + 0.1 * gauss(&r));
			}
		}
		struct ratio_ci c;
		int rc;
		if (method == 0) {
			rc = ratio_ci_fieller(a, n, b, n, 0.95, &c);
		} else {
			struct bootstrap_opts o = BOOTSTRAP_OPTS_DEFAULT;
			o.resamples = 2000;
			o.seed = (uint64_t)t;
			o.stat = method == 1 ? RATIO_OF_MEDIANS : RATIO_OF_MEANS;
			o.bca = method == 2;
			rc = ratio_ci_bootstrap(a, n, b, n, &o, &c);
		}
		if (rc != 0)
			continue;
		done++;
		hit += contains(&c, 1.5); /* medians and means of A, B: 100, 150 (lognormal: both x e^0.045) */
		width += (c.hi - c.lo) / c.ratio;
	}
	*mean_width = width / done;
	return done == trials ? (double)hit / trials : -1;
}

int main(void)
{
	/* Colquhoun's Fieller example */
	double lo, hi;
	double t = prob_t_critical(0.90, 10);
	CHECK(fieller_interval(14, 3, 7, 2, t, &lo, &hi) == 0, "fieller_interval");
	CHECK(rel_near(t * t * 4 / 49, 0.268164, 1e-5), "g = %.6f", t * t * 4 / 49);
	CHECK(rel_near(lo, 1.051413, 1e-6) && rel_near(hi, 4.414296, 1e-6), "interval %.6f .. %.6f", lo, hi);
	CHECK(fieller_interval(1, 0.1, 1, 1, 2, &lo, &hi) == -ERANGE, "denominator not significant: unbounded");
	CHECK(fieller_interval(1, -1, 1, 1, 2, &lo, &hi) == -EINVAL, "negative se rejected");
	CHECK(fieller_interval(3, 0, 2, 0, 2, &lo, &hi) == 0 && lo == 1.5 && hi == 1.5, "exact estimates");

	/* the same samples: no real difference */
	struct rng r;
	rng_seed(&r, 1);
	double a[12], b[12], c15[12];
	for (int i = 0; i < 12; i++) {
		a[i] = 500 * (1 + 0.05 * gauss(&r));
		b[i] = a[i];
		c15[i] = 1.5 * a[i] + 500 * 0.05 * gauss(&r);
	}
	struct ratio_ci f;
	CHECK(ratio_ci_fieller(a, 12, b, 12, 0.95, &f) == 0 && contains(&f, 1) && !f.real && f.ratio == 1,
	      "fieller, identical: %g [%g, %g]", f.ratio, f.lo, f.hi);
	CHECK(f.method == RATIO_FIELLER && f.stat == RATIO_OF_MEANS && f.df > 20 && f.df <= 22.0001,
	      "welch df for equal variances: %g", f.df);
	CHECK(ratio_ci_fieller(a, 12, c15, 12, 0.95, &f) == 0 && contains(&f, 1.5) && f.real && f.lo > 1,
	      "fieller, 1.5x: %g [%g, %g]", f.ratio, f.lo, f.hi);

	struct bootstrap_opts o = BOOTSTRAP_OPTS_DEFAULT;
	struct ratio_ci bs, bs2;
	CHECK(ratio_ci_bootstrap(a, 12, b, 12, &o, &bs) == 0 && contains(&bs, 1) && !bs.real && bs.ratio == 1,
	      "bootstrap, identical: %g [%g, %g]", bs.ratio, bs.lo, bs.hi);
	CHECK(ratio_ci_bootstrap(a, 12, c15, 12, &o, &bs) == 0 && contains(&bs, 1.5) && bs.real && bs.lo > 1,
	      "bootstrap, 1.5x: %g [%g, %g]", bs.ratio, bs.lo, bs.hi);
	CHECK(bs.method == RATIO_BOOTSTRAP_PERCENTILE && bs.stat == RATIO_OF_MEDIANS, "method and stat recorded");
	CHECK(ratio_ci_bootstrap(a, 12, c15, 12, &o, &bs2) == 0 && memcmp(&bs, &bs2, sizeof(bs)) == 0,
	      "same seed, same interval");
	o.seed = 2;
	CHECK(ratio_ci_bootstrap(a, 12, c15, 12, &o, &bs2) == 0 && (bs2.lo != bs.lo || bs2.hi != bs.hi) &&
	      fabs(bs2.lo - bs.lo) < 0.02 && fabs(bs2.hi - bs.hi) < 0.02,
	      "another seed: [%g, %g] vs [%g, %g]", bs2.lo, bs2.hi, bs.lo, bs.hi);
	o.seed = 1;
	o.bca = true;
	CHECK(ratio_ci_bootstrap(a, 12, c15, 12, &o, &bs) == 0 && contains(&bs, 1.5) && bs.real &&
	      bs.method == RATIO_BOOTSTRAP_BCA && isfinite(bs.z0) && isfinite(bs.accel) && fabs(bs.accel) < 0.2,
	      "bca of medians, 1.5x: [%g, %g], z0 %g a %g", bs.lo, bs.hi, bs.z0, bs.accel);
	o.stat = RATIO_OF_MEANS;
	CHECK(ratio_ci_bootstrap(a, 12, c15, 12, &o, &bs) == 0 && contains(&bs, 1.5) && bs.real &&
	      fabs(bs.z0) < 0.2 && fabs(bs.accel) < 0.05, "bca of means: [%g, %g], z0 %g a %g", bs.lo, bs.hi, bs.z0,
	      bs.accel);
	/* BCa of means should land near Fieller on near-normal data */
	CHECK(fabs(bs.lo - f.lo) < 0.03 && fabs(bs.hi - f.hi) < 0.03, "bca [%g, %g] vs fieller [%g, %g]", bs.lo,
	      bs.hi, f.lo, f.hi);

	/*
	 * The percentile bootstrap of a ratio of medians against the exact
	 * bootstrap distribution: with 200000 resamples each end must lie
	 * between the exact quantiles at 2.5% -+ 5 Monte Carlo standard errors
	 * (the distribution is discrete, so that is a handful of support
	 * points).
	 */
	{
		double sa[15], sb[15];
		for (int i = 0; i < 15; i++) {
			sa[i] = 100 * exp(0.3 * gauss(&r));
			sb[i] = 140 * exp(0.3 * gauss(&r));
		}
		struct bootstrap_opts eo = BOOTSTRAP_OPTS_DEFAULT;
		eo.resamples = 200000;
		struct ratio_ci e;
		CHECK(ratio_ci_bootstrap(sa, 15, sb, 15, &eo, &e) == 0, "bootstrap of 15 + 15");
		qsort(sa, 15, sizeof(double), cmp_double);
		qsort(sb, 15, sizeof(double), cmp_double);
		size_t m = exact_ratio_dist(sa, sb, 15);
		/* 5 Monte Carlo standard errors of a share around 0.025 */
		double tol = 5 * sqrt(0.025 * 0.975 / eo.resamples);
		double l0 = exact_quantile(m, 0.025 - tol), l1 = exact_quantile(m, 0.025 + tol);
		double h0 = exact_quantile(m, 0.975 - tol), h1 = exact_quantile(m, 0.975 + tol);
		CHECK(e.lo >= l0 && e.lo <= l1, "lower end %.5f, exact %.5f (%.5f..%.5f)", e.lo,
		      exact_quantile(m, 0.025), l0, l1);
		CHECK(e.hi >= h0 && e.hi <= h1, "upper end %.5f, exact %.5f (%.5f..%.5f)", e.hi,
		      exact_quantile(m, 0.975), h0, h1);
		CHECK(l1 / l0 < 1.05 && h1 / h0 < 1.05, "the window is narrow: %.5f..%.5f, %.5f..%.5f", l0, l1, h0, h1);
	}

	/* single runs, zero denominators, constant samples, bad options */
	o = (struct bootstrap_opts)BOOTSTRAP_OPTS_DEFAULT;
	CHECK(ratio_ci_fieller(a, 1, b, 12, 0.95, &f) == -EDOM && ratio_ci_fieller(a, 12, b, 1, 0.95, &f) == -EDOM,
	      "fieller: no interval from a single run");
	CHECK(ratio_ci_bootstrap(a, 1, b, 12, &o, &bs) == -EDOM && ratio_ci_bootstrap(a, 12, b, 1, &o, &bs) == -EDOM,
	      "bootstrap: no interval from a single run");
	double zero[] = { 0, 0, 0 }, two[] = { 2, 2, 2 }, three[] = { 3, 3, 3 };
	CHECK(ratio_ci_fieller(zero, 3, three, 3, 0.95, &f) == -EDOM && ratio_ci_bootstrap(zero, 3, three, 3, &o, &bs) == -EDOM,
	      "zero baseline: ratio undefined");
	double some_zero[] = { 0, 0, 0, 5 };
	CHECK(ratio_ci_bootstrap(some_zero, 4, three, 3, &o, &bs) == -EDOM, "a resample with median 0");
	CHECK(ratio_ci_fieller(two, 3, three, 3, 0.95, &f) == 0 && f.lo == 1.5 && f.hi == 1.5 && f.real,
	      "constant samples: fieller 1.5 exactly");
	CHECK(ratio_ci_bootstrap(two, 3, three, 3, &o, &bs) == 0 && bs.lo == 1.5 && bs.hi == 1.5 && bs.real,
	      "constant samples: bootstrap 1.5 exactly");
	o.bca = true;
	CHECK(ratio_ci_bootstrap(two, 3, three, 3, &o, &bs) == 0 && bs.lo == 1.5 && bs.hi == 1.5 && bs.z0 == 0 &&
	      bs.accel == 0, "constant samples: bca 1.5 exactly, no correction");
	double noisy_a[] = { 0.1, -0.2, 0.15, -0.1 }, noisy_b[] = { 1, 1.1, 0.9, 1 };
	CHECK(ratio_ci_fieller(noisy_a, 4, noisy_b, 4, 0.95, &f) == -ERANGE && isinf(f.hi),
	      "baseline indistinguishable from 0: unbounded");
	o.resamples = 10;
	CHECK(ratio_ci_bootstrap(a, 12, b, 12, &o, &bs) == -EINVAL, "too few resamples");
	double with_nan[] = { 1, NAN };
	CHECK(ratio_ci_fieller(with_nan, 2, b, 12, 0.95, &f) == -EINVAL, "NAN rejected");
	CHECK(ratio_ci_fieller(a, 12, b, 12, 1.0, &f) == -EINVAL, "conf 1 rejected");

	/* coverage simulations: 95% nominal */
	double w;
	double cov = coverage(0, 10, 2000, 0, &w);
	CHECK(cov >= 0.935 && cov <= 0.965, "fieller n=10: coverage %.4f (width %.3f)", cov, w);
	/* Welch's df, estimated from 3 + 3 values, err low: slightly conservative */
	cov = coverage(0, 3, 2000, 0, &w);
	CHECK(cov >= 0.93 && cov <= 0.98, "fieller n=3: coverage %.4f (width %.3f)", cov, w);
	cov = coverage(1, 20, 500, 0, &w);
	CHECK(cov >= 0.91 && cov <= 0.98, "bootstrap medians n=20: coverage %.4f (width %.3f)", cov, w);
	cov = coverage(2, 20, 500, 1, &w);
	CHECK(cov >= 0.91 && cov <= 0.98, "bca means lognormal n=20: coverage %.4f (width %.3f)", cov, w);
	return check_done("test_ratio_ci");
}
