/*
 * Order-statistic interval of the median (see median_ci.h). The lower rank
 * j is found by walking the binomial(n, 1/2) tail: the largest j with
 * 2 P(B <= j-1) <= 1 - conf. A binary search over j keeps it O(n log n)
 * in the worst case; n is a repetition count, so this is never hot.
 */
#include "stats/median_ci.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/probdist.h"
#include "stats/sample_int.h"

/* Coverage of [X_(j), X_(n+1-j)], 1 <= j <= (n+1)/2. */
static double coverage(size_t n, size_t j)
{
	double c = 1 - 2 * prob_binom_half_cdf(n, j - 1);
	return c < 0 ? 0 : c;
}

int median_ci_ranks(size_t n, double conf, struct median_ci_ranks *out)
{
	if (n == 0 || isnan(conf) || conf <= 0 || conf >= 1)
		return -EINVAL;
	double widest = n == 1 ? 0 : coverage(n, 1);
	if (widest < conf) {
		*out = (struct median_ci_ranks){ .lo = 1, .hi = n, .confidence = widest };
		return -EDOM;
	}
	/* coverage falls as j grows: largest j in [1, (n+1)/2] with coverage >= conf */
	size_t good = 1, bad = (n + 1) / 2 + 1;
	while (bad - good > 1) {
		size_t mid = good + (bad - good) / 2;
		if (coverage(n, mid) >= conf)
			good = mid;
		else
			bad = mid;
	}
	*out = (struct median_ci_ranks){ .lo = good, .hi = n + 1 - good, .confidence = coverage(n, good) };
	return 0;
}

size_t median_ci_min_n(double conf)
{
	if (isnan(conf) || conf <= 0 || conf >= 1)
		return 0;
	/* 1 - 2^(1-n) >= conf  <=>  n >= 1 + log2(1 / (1 - conf)) */
	size_t n = 2;
	while (1 - ldexp(1.0, 1 - (int)n) < conf)
		n++;
	return n;
}

int median_ci(const double *x, size_t n, double conf, struct median_ci *out)
{
	if (n == 0 || !sample_all_finite(x, n))
		return -EINVAL;
	struct median_ci_ranks r;
	int rc = median_ci_ranks(n, conf, &r);
	if (rc < 0 && rc != -EDOM)
		return rc;
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	sample_sort(s, n);
	*out = (struct median_ci){
		.n = n,
		.median = sample_quantile_sorted(s, n, 0.5),
		.lo = s[r.lo - 1],
		.hi = s[r.hi - 1],
		.rank_lo = r.lo,
		.rank_hi = r.hi,
		.confidence = r.confidence,
	};
	free(s);
	return rc;
}
