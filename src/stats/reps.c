/*
 * Repetition-count estimates from a pilot CV (see reps.h): a linear search
 * upwards, since the predicted widths fall with n (the median's only
 * roughly: its ranks move in steps, so the first n that fits is taken). The
 * ratio's search starts at the normal-quantile bound z^2 (cv_a^2 + cv_b^2) /
 * w^2, below which no n can do.
 */
#include "stats/reps.h"

#include <errno.h>
#include <math.h>

#include "stats/median_ci.h"
#include "stats/probdist.h"

/*
 * Beyond this n the median's upper rank is taken from the normal
 * approximation ceil(1 + (n + z sqrt n) / 2) (Le Boudec, for n > 70) to keep
 * the search linear; the exact ranks differ from it by at most one there.
 */
#define MEDIAN_EXACT_MAX 200

static int bad_args(double cv, double w, double conf)
{
	return isnan(cv) || cv < 0 || isinf(cv) || isnan(w) || w <= 0 || isnan(conf) || conf <= 0 || conf >= 1;
}

int reps_for_ratio_ci(double cv_a, double cv_b, double w, double conf, size_t *n)
{
	if (bad_args(cv_a, w, conf) || bad_args(cv_b, w, conf))
		return -EINVAL;
	double v2 = cv_a * cv_a + cv_b * cv_b;
	double v4 = cv_a * cv_a * cv_a * cv_a + cv_b * cv_b * cv_b * cv_b;
	if (v2 == 0) {
		*n = 2;
		return 0;
	}
	/* t > z for every df, so no n below z^2 v2 / w^2 can do */
	double z = prob_normal_quantile(0.5 + conf / 2);
	double n0 = floor(z * z * v2 / (w * w));
	if (n0 > REPS_MAX)
		return -ERANGE;
	for (size_t k = n0 > 2 ? (size_t)n0 : 2; k <= REPS_MAX; k++) {
		double df = (double)(k - 1) * v2 * v2 / v4;
		double half = prob_t_critical(conf, df) * sqrt(v2 / (double)k);
		if (half <= w) {
			*n = k;
			return 0;
		}
	}
	return -ERANGE;
}

int reps_for_median_ci(double cv, double w, double conf, size_t *n)
{
	if (bad_args(cv, w, conf))
		return -EINVAL;
	size_t k = median_ci_min_n(conf);
	if (cv == 0) {
		*n = k;
		return 0;
	}
	double zc = prob_normal_quantile(0.5 + conf / 2);
	for (; k <= REPS_MAX; k++) {
		double hi;
		if (k <= MEDIAN_EXACT_MAX) {
			struct median_ci_ranks r;
			if (median_ci_ranks(k, conf, &r) < 0)
				continue;
			hi = (double)r.hi;
		} else {
			hi = ceil(1 + ((double)k + zc * sqrt((double)k)) / 2);
		}
		double z = prob_normal_quantile((hi - 0.375) / ((double)k + 0.25));
		if (cv * z <= w) {
			*n = k;
			return 0;
		}
	}
	return -ERANGE;
}
