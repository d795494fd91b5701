/*
 * Distribution functions for the confidence intervals: Student t critical
 * values against the printed table (Fisher & Yates; any statistics text's
 * t table, 4 decimals), normal quantiles, the binomial(n, 1/2) tail
 * against exact fractions and against GSL's incomplete-beta binomial CDF,
 * and a sweep over arguments that must never reach GSL's aborting error
 * handler.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "check.h"
#include "stats/probdist.h"
#include "util/array.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

int main(void)
{
	/* two-sided 95% critical values t_{0.975, df} from the t table */
	static const struct { double df, t; } t95[] = {
		{ 1, 12.7062 }, { 2, 4.3027 }, { 3, 3.1824 }, { 4, 2.7764 }, { 5, 2.5706 },
		{ 6, 2.4469 }, { 8, 2.3060 }, { 10, 2.2281 }, { 15, 2.1314 }, { 20, 2.0860 },
		{ 30, 2.0423 }, { 60, 2.0003 }, { 120, 1.9799 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(t95); i++) {
		double t = prob_t_critical(0.95, t95[i].df);
		CHECK(near(t, t95[i].t, 5e-5), "t(0.95, %g) = %.6f, table %.4f", t95[i].df, t, t95[i].t);
		double q = prob_t_quantile(0.975, t95[i].df);
		CHECK(near(q, t, 1e-12), "quantile and critical value agree at df %g", t95[i].df);
		CHECK(near(prob_t_quantile(0.025, t95[i].df), -t, 1e-9), "t is symmetric at df %g", t95[i].df);
	}
	CHECK(near(prob_t_critical(0.99, 10), 3.1693, 5e-5), "t(0.99, 10) = %.5f", prob_t_critical(0.99, 10));
	CHECK(near(prob_t_critical(0.90, 10), 1.8125, 5e-5), "t(0.90, 10) = %.5f", prob_t_critical(0.90, 10));
	CHECK(near(prob_t_critical(0.99, 1), 63.6567, 5e-4), "t(0.99, 1) = %.4f", prob_t_critical(0.99, 1));
	CHECK(near(prob_t_critical(0.95, INFINITY), 1.959964, 1e-6), "t(inf) is z");
	/* fractional df (Welch) lie between the neighbours */
	double t75 = prob_t_critical(0.95, 7.5);
	CHECK(t75 < prob_t_critical(0.95, 7) && t75 > prob_t_critical(0.95, 8), "t(0.95, 7.5) = %f", t75);
	/* quantile inverts GSL's CDF across a grid of p and df */
	int bad = 0;
	for (double df = 0.5; df < 300; df *= 1.37)
		for (double p = 1e-6; p < 1; p = p < 0.5 ? p * 3 : 1 - (1 - p) / 3) {
			double x = prob_t_quantile(p, df);
			double back = gsl_cdf_tdist_P(x, df);
			if (!(fabs(back - p) <= 1e-9 * fmax(1, p / (1 - p))))
				bad++;
		}
	CHECK(bad == 0, "%d points of the t grid do not invert", bad);
	CHECK(isnan(prob_t_quantile(0.5, 0)) && isnan(prob_t_quantile(1.5, 3)) &&
	      isnan(prob_t_quantile(NAN, 3)) && isnan(prob_t_critical(1, 3)) && isnan(prob_t_critical(0.95, -1)),
	      "bad arguments give NAN");
	CHECK(isinf(prob_t_quantile(1, 3)) && prob_t_quantile(0, 3) < 0 && isinf(prob_t_quantile(0, 3)),
	      "p = 0 and 1 are the infinities");

	/* normal */
	CHECK(near(prob_normal_quantile(0.975), 1.959964, 1e-6), "z(0.975)");
	CHECK(near(prob_normal_quantile(0.995), 2.575829, 1e-6), "z(0.995)");
	CHECK(near(prob_normal_quantile(0.5), 0, 1e-15), "z(0.5)");
	CHECK(near(prob_normal_cdf(1.959964), 0.975, 1e-7), "Phi(1.96)");
	CHECK(near(prob_normal_cdf(-1), 0.158655, 1e-6), "Phi(-1)");
	CHECK(isnan(prob_normal_quantile(-0.1)) && isinf(prob_normal_quantile(1)), "normal quantile ends");

	/* binomial(n, 1/2) lower tail: exact fractions */
	CHECK(near(prob_binom_half_cdf(10, 1), 11.0 / 1024, 1e-16), "P(B10 <= 1) = 11/1024: %.17g", prob_binom_half_cdf(10, 1));
	CHECK(near(prob_binom_half_cdf(10, 2), 56.0 / 1024, 1e-15), "P(B10 <= 2) = 56/1024");
	CHECK(near(prob_binom_half_cdf(5, 0), 1.0 / 32, 1e-17), "P(B5 = 0) = 1/32");
	CHECK(near(prob_binom_half_cdf(9, 4), 0.5, 1e-15), "P(B9 <= 4) = 1/2 by symmetry");
	CHECK(prob_binom_half_cdf(7, 7) == 1 && prob_binom_half_cdf(7, 100) == 1, "k >= n gives 1");
	/* against GSL's binomial CDF (incomplete beta) */
	bad = 0;
	double worst = 0;
	for (unsigned n = 1; n <= 2000; n = n < 60 ? n + 1 : n * 5 / 4)
		for (unsigned k = 0; k < n; k += 1 + n / 40) {
			double mine = prob_binom_half_cdf(n, k), ref = gsl_cdf_binomial_P(k, 0.5, n);
			double rel = fabs(mine - ref) / ref;
			if (ref > 1e-300 && rel > worst)
				worst = rel;
			if (ref > 1e-300 && !(rel < 1e-10))
				bad++;
		}
	CHECK(bad == 0, "%d binomial tails differ from gsl_cdf_binomial_P (worst relative %g)", bad, worst);
	/* far beyond double's 2^-n range, the log-space sum still works */
	double big = prob_binom_half_cdf(100000, 49000);
	CHECK(big > 0 && big < 1e-9 && isfinite(big), "P(B100000 <= 49000) = %g", big);
	return check_done("test_probdist");
}
