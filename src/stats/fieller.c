/*
 * Fieller's interval for the ratio of the means of two independent samples
 * (Fieller 1954, "Some problems in interval estimation", JRSS B 16; as used
 * for benchmark ratios by Kalibera & Jones 2013). With estimates num = mean(B)
 * and den = mean(A) and their standard errors, the ratios r that a t test
 * does not reject are those with
 *     (num - r den)^2 <= t^2 (se_num^2 + r^2 se_den^2),
 * a quadratic in r: (den^2 - t^2 se_den^2) r^2 - 2 num den r
 *                   + (num^2 - t^2 se_num^2) <= 0.
 * When den^2 > t^2 se_den^2 (den significantly non-zero, g < 1 in Fieller's
 * notation) this is the bounded interval between the roots; otherwise the
 * set is unbounded and no useful interval exists. The discriminant is
 * written as t^2 (se_num^2 (den^2 - t^2 se_den^2) + num^2 se_den^2), which is
 * non-negative by construction.
 *
 * t has the Welch-Satterthwaite degrees of freedom of num - r den at the
 * point estimate r = num/den (Tamhane & Logan 2004, as R's mratios does):
 *     df = (vB + r^2 vA)^2 / (vB^2/(nB - 1) + r^4 vA^2/(nA - 1)),
 * with vX = sX^2 / nX. If neither sample varies, the interval is the ratio.
 */
#include "stats/ratio_ci.h"

#include <errno.h>
#include <math.h>

#include "stats/probdist.h"
#include "stats/sample_int.h"

int fieller_interval(double num, double se_num, double den, double se_den, double t,
		     double *lo, double *hi)
{
	if (!isfinite(num) || !isfinite(den) || !isfinite(se_num) || !isfinite(se_den) ||
	    !isfinite(t) || se_num < 0 || se_den < 0 || t < 0)
		return -EINVAL;
	double t2 = t * t;
	double q = den * den - t2 * se_den * se_den;
	if (q <= 0)
		return -ERANGE;
	double disc = t2 * (se_num * se_num * q + num * num * se_den * se_den);
	double root = sqrt(disc);
	*lo = (num * den - root) / q;
	*hi = (num * den + root) / q;
	return 0;
}

int ratio_ci_fieller(const double *a, size_t na, const double *b, size_t nb,
		     double conf, struct ratio_ci *out)
{
	if (isnan(conf) || conf <= 0 || conf >= 1)
		return -EINVAL;
	if (!sample_all_finite(a, na) || !sample_all_finite(b, nb))
		return -EINVAL;
	if (na < RATIO_CI_MIN_N || nb < RATIO_CI_MIN_N)
		return -EDOM;
	double ma = sample_mean(a, na), mb = sample_mean(b, nb);
	if (ma == 0)
		return -EDOM;
	double va = sample_variance(a, na, ma) / (double)na;
	double vb = sample_variance(b, nb, mb) / (double)nb;
	struct ratio_ci res = {
		.method = RATIO_FIELLER,
		.stat = RATIO_OF_MEANS,
		.ratio = mb / ma,
		.conf = conf,
	};
	double r = res.ratio;
	if (va == 0 && vb == 0) {
		res.df = INFINITY;
		res.lo = res.hi = r;
	} else {
		double ua = r * r * va;
		double den = vb * vb / (double)(nb - 1) + ua * ua / (double)(na - 1);
		res.df = (vb + ua) * (vb + ua) / den;
		double t = prob_t_critical(conf, res.df);
		int rc = fieller_interval(mb, sqrt(vb), ma, sqrt(va), t, &res.lo, &res.hi);
		if (rc < 0) {
			res.lo = -INFINITY;
			res.hi = INFINITY;
			*out = res;
			return rc;
		}
	}
	res.real = res.lo > 1 || res.hi < 1;
	*out = res;
	return 0;
}
