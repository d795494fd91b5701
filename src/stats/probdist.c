/*
 * Distribution functions for the confidence intervals (see probdist.h).
 * The t and normal quantiles come from GSL (gsl_cdf_tdist_Pinv: Cornish-
 * Fisher or tail-series start refined by Newton steps on the exact CDF;
 * gsl_cdf_ugaussian_Pinv: Wichura's AS 241, about 1e-16 relative).
 * The binomial(n, 1/2) lower tail is the sum of C(n, i) / 2^n for i <= k,
 * each term formed by a recurrence in log space and added as a log-sum-exp.
 */
#include "stats/probdist.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

double prob_normal_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

double prob_normal_quantile(double p)
{
	if (isnan(p) || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	return gsl_cdf_ugaussian_Pinv(p);
}

double prob_t_quantile(double p, double df)
{
	if (isnan(p) || isnan(df) || p < 0 || p > 1 || df <= 0)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (isinf(df))
		return gsl_cdf_ugaussian_Pinv(p);
	/* The upper half through Qinv keeps precision near p = 1. */
	if (p > 0.5)
		return gsl_cdf_tdist_Qinv(1 - p, df);
	return gsl_cdf_tdist_Pinv(p, df);
}

double prob_t_critical(double conf, double df)
{
	if (isnan(conf) || conf <= 0 || conf >= 1)
		return NAN;
	if (isnan(df) || df <= 0)
		return NAN;
	if (isinf(df))
		return -gsl_cdf_ugaussian_Pinv((1 - conf) / 2);
	return gsl_cdf_tdist_Qinv((1 - conf) / 2, df);
}

double prob_binom_half_cdf(size_t n, size_t k)
{
	if (k >= n)
		return 1.0;
	/*
	 * ln C(n, i) / 2^n by the recurrence C(n, i+1) = C(n, i) (n-i)/(i+1),
	 * from ln 2^-n: no lgamma (not thread-safe: signgam), rounding grows
	 * only with k. The terms are added as a log-sum-exp.
	 */
	double lt = -(double)n * M_LN2;
	double lsum = lt;
	for (size_t i = 0; i < k; i++) {
		lt += log((double)(n - i) / (double)(i + 1));
		double hi = fmax(lsum, lt), lo = fmin(lsum, lt);
		lsum = hi + log1p(exp(lo - hi));
	}
	double p = exp(lsum);
	return p > 1 ? 1 : p;
}
