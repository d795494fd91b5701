/*
 * The descriptive summary of a sample (see summary.h): one sorted copy
 * gives the order statistics and quartiles, a two-pass mean and variance
 * the moments, and one more pass counts the values beyond Tukey's fences.
 */
#include "stats/summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sample_int.h"

enum outlier_class sample_outlier_class(const struct sample_summary *s, double v)
{
	if (v < s->far_lo)
		return OUTLIER_FAR_LOW;
	if (v < s->fence_lo)
		return OUTLIER_LOW;
	if (v > s->far_hi)
		return OUTLIER_FAR_HIGH;
	if (v > s->fence_hi)
		return OUTLIER_HIGH;
	return OUTLIER_NONE;
}

int sample_summarize(const double *x, size_t n, struct sample_summary *out)
{
	if (n == 0 || !sample_all_finite(x, n))
		return -EINVAL;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	sample_sort(s, n);

	struct sample_summary r = { .n = n };
	r.min = s[0];
	r.max = s[n - 1];
	r.median = sample_quantile_sorted(s, n, 0.5);
	r.q1 = sample_quantile_sorted(s, n, 0.25);
	r.q3 = sample_quantile_sorted(s, n, 0.75);
	r.iqr = r.q3 - r.q1;
	r.fence_lo = r.q1 - 1.5 * r.iqr;
	r.fence_hi = r.q3 + 1.5 * r.iqr;
	r.far_lo = r.q1 - 3 * r.iqr;
	r.far_hi = r.q3 + 3 * r.iqr;
	r.mean = sample_mean(s, n);
	if (n >= 2) {
		r.stddev = sqrt(sample_variance(s, n, r.mean));
		r.cv = r.mean != 0 ? r.stddev / fabs(r.mean) : NAN;
	} else {
		r.stddev = NAN;
		r.cv = NAN;
	}
	for (size_t i = 0; i < n; i++) {
		switch (sample_outlier_class(&r, s[i])) {
		case OUTLIER_FAR_LOW:
			r.n_far_low++;
			r.n_low++;
			break;
		case OUTLIER_LOW:
			r.n_low++;
			break;
		case OUTLIER_FAR_HIGH:
			r.n_far_high++;
			r.n_high++;
			break;
		case OUTLIER_HIGH:
			r.n_high++;
			break;
		case OUTLIER_NONE:
			break;
		}
	}
	free(s);
	*out = r;
	return 0;
}
