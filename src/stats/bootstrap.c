/*
 * Bootstrap confidence interval of the ratio stat(B) / stat(A) of two
 * independent samples (see ratio_ci.h). Each of `resamples` rounds draws na
 * values from A and nb from B with replacement (rng_below on one seeded
 * xoshiro256** stream, A then B, so the interval is a function of the data
 * and the seed) and records the ratio of their statistics.
 *
 * Percentile interval (Efron & Tibshirani 1993, ch. 13): the type-7
 * alpha/2 and 1 - alpha/2 quantiles of the recorded ratios.
 *
 * BCa (Efron 1987; Efron & Tibshirani ch. 14): the same quantiles taken
 * at the adjusted levels Phi(z0 + (z0 + z)/(1 - a (z0 + z))), with the bias
 * correction z0 = Phi^-1(share of ratios below the estimate, ties counted
 * half) and the acceleration a from the jackknife: for each sample k and
 * observation i, l_ki = (n_k - 1)(mean_i theta_-ki - theta_-ki), and
 *     a = sum_k n_k^-3 sum_i l_ki^3 / (6 (sum_k n_k^-2 sum_i l_ki^2)^(3/2)),
 * the multi-sample form of Davison & Hinkley 1997. For medians the
 * jackknife is a crude estimate of the influence (leave-one-out medians
 * take two values), so BCa of a median is best read beside the percentile.
 */
#include "stats/ratio_ci.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/probdist.h"
#include "stats/sample_int.h"
#include "util/rand.h"

/* stat of x[0..n), reordering x */
static double stat_inplace(enum ratio_stat stat, double *x, size_t n)
{
	return stat == RATIO_OF_MEDIANS ? sample_median_inplace(x, n) : sample_mean(x, n);
}

static double stat_of(enum ratio_stat stat, const double *x, size_t n, double *scratch)
{
	memcpy(scratch, x, n * sizeof(*x));
	return stat_inplace(stat, scratch, n);
}

static void resample(struct rng *r, const double *x, size_t n, double *dst)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = x[rng_below(r, n)];
}

/*
 * Jackknife sums for one sample: leave each x[i] out of `x` (sample k) and
 * recompute the ratio with the other sample's statistic fixed. Adds
 * n^-3 sum l^3 to *s3 and n^-2 sum l^2 to *s2.
 */
static void jackknife(enum ratio_stat stat, const double *x, size_t n, bool is_den, double other,
		      double *scratch, double *theta, double *s2, double *s3)
{
	for (size_t i = 0; i < n; i++) {
		size_t m = 0;
		for (size_t j = 0; j < n; j++)
			if (j != i)
				scratch[m++] = x[j];
		double s = stat_inplace(stat, scratch, m);
		theta[i] = is_den ? other / s : s / other;
	}
	double mean = sample_mean(theta, n);
	double q2 = 0, q3 = 0;
	for (size_t i = 0; i < n; i++) {
		double l = (double)(n - 1) * (mean - theta[i]);
		q2 += l * l;
		q3 += l * l * l;
	}
	double dn = (double)n;
	*s2 += q2 / (dn * dn);
	*s3 += q3 / (dn * dn * dn);
}

static int bca_levels(const double *sorted, size_t r, double est, double conf,
		      enum ratio_stat stat, const double *a, size_t na, const double *b, size_t nb,
		      double *scratch, struct ratio_ci *out, double *alo, double *ahi)
{
	size_t below = 0, equal = 0;
	for (size_t i = 0; i < r; i++) {
		if (sorted[i] < est)
			below++;
		else if (sorted[i] == est)
			equal++;
	}
	double share = ((double)below + 0.5 * (double)equal) / (double)r;
	if (share <= 0 || share >= 1)
		return -ERANGE;
	double z0 = prob_normal_quantile(share);

	/* jackknife: scratch holds max(na, nb) values, theta as many */
	size_t nmax = na > nb ? na : nb;
	double *theta = scratch + nmax;
	double sa = stat_of(stat, a, na, scratch), sb = stat_of(stat, b, nb, scratch);
	double s2 = 0, s3 = 0;
	jackknife(stat, a, na, true, sb, scratch, theta, &s2, &s3);
	jackknife(stat, b, nb, false, sa, scratch, theta, &s2, &s3);
	double accel = s2 > 0 ? s3 / (6 * pow(s2, 1.5)) : 0;
	if (!isfinite(accel))
		return -ERANGE;

	double alpha = 1 - conf;
	double zl = prob_normal_quantile(alpha / 2), zh = prob_normal_quantile(1 - alpha / 2);
	double dl = 1 - accel * (z0 + zl), dh = 1 - accel * (z0 + zh);
	if (dl <= 0 || dh <= 0)
		return -ERANGE;
	*alo = prob_normal_cdf(z0 + (z0 + zl) / dl);
	*ahi = prob_normal_cdf(z0 + (z0 + zh) / dh);
	out->z0 = z0;
	out->accel = accel;
	return 0;
}

int ratio_ci_bootstrap(const double *a, size_t na, const double *b, size_t nb,
		       const struct bootstrap_opts *opts, struct ratio_ci *out)
{
	if (!opts || opts->resamples < 100 || isnan(opts->conf) || opts->conf <= 0 || opts->conf >= 1)
		return -EINVAL;
	if (opts->stat != RATIO_OF_MEDIANS && opts->stat != RATIO_OF_MEANS)
		return -EINVAL;
	if (!sample_all_finite(a, na) || !sample_all_finite(b, nb))
		return -EINVAL;
	if (na < RATIO_CI_MIN_N || nb < RATIO_CI_MIN_N)
		return -EDOM;

	size_t r = opts->resamples;
	size_t nmax = na > nb ? na : nb;
	/* ratios, then a resample buffer that also holds the jackknife's
	 * leave-one-out copy and its nmax ratios */
	double *ratios = malloc((r + 2 * nmax) * sizeof(double));
	if (!ratios)
		return -ENOMEM;
	double *buf = ratios + r;

	struct ratio_ci res = {
		.method = opts->bca ? RATIO_BOOTSTRAP_BCA : RATIO_BOOTSTRAP_PERCENTILE,
		.stat = opts->stat,
		.conf = opts->conf,
	};
	double sa = stat_of(opts->stat, a, na, buf);
	double sb = stat_of(opts->stat, b, nb, buf);
	int rc = -EDOM;
	if (sa == 0)
		goto out;
	res.ratio = sb / sa;

	struct rng rng;
	rng_seed(&rng, opts->seed);
	for (size_t i = 0; i < r; i++) {
		resample(&rng, a, na, buf);
		double ra = stat_inplace(opts->stat, buf, na);
		if (ra == 0)
			goto out;
		resample(&rng, b, nb, buf);
		double rb = stat_inplace(opts->stat, buf, nb);
		ratios[i] = rb / ra;
	}
	sample_sort(ratios, r);

	double alpha = 1 - opts->conf;
	double plo = alpha / 2, phi = 1 - alpha / 2;
	if (opts->bca) {
		rc = bca_levels(ratios, r, res.ratio, opts->conf, opts->stat, a, na, b, nb, buf, &res, &plo, &phi);
		if (rc < 0) {
			res.lo = res.hi = NAN;
			goto out;
		}
	}
	res.lo = sample_quantile_sorted(ratios, r, plo);
	res.hi = sample_quantile_sorted(ratios, r, phi);
	res.real = res.lo > 1 || res.hi < 1;
	rc = 0;
out:
	free(ratios);
	if (rc == 0 || rc == -ERANGE)
		*out = res;
	return rc;
}
