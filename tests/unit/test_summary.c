/*
 * Descriptive summary and the sample helpers under it: type-7 quartiles
 * against R's quantile() of 1..10 (3.25, 7.75) and of an odd sample, mean,
 * sd and cv against hand-computed values, Tukey's fences and outlier counts
 * (outside vs far out, low and high, nothing dropped), the n = 1 case (no
 * stddev), rejected input, and the quickselect median against sorting on
 * many random arrays full of duplicates.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/sample_int.h"
#include "stats/summary.h"
#include "util/rand.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

int main(void)
{
	struct sample_summary s;
	double one_to_ten[] = { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 };
	CHECK(sample_summarize(one_to_ten, 10, &s) == 0, "summarize 1..10");
	CHECK(s.n == 10 && s.min == 1 && s.max == 10, "n, min, max");
	CHECK(s.median == 5.5 && s.mean == 5.5, "median %g mean %g", s.median, s.mean);
	CHECK(s.q1 == 3.25 && s.q3 == 7.75 && s.iqr == 4.5, "R quantile(1:10): q1 %g q3 %g", s.q1, s.q3);
	CHECK(near(s.stddev, sqrt(55.0 / 6), 1e-12), "sd(1:10) = %.6f", s.stddev);
	CHECK(near(s.cv, sqrt(55.0 / 6) / 5.5, 1e-12), "cv");
	CHECK(s.n_low == 0 && s.n_high == 0, "no outliers in 1..10");
	CHECK(s.fence_lo == 3.25 - 6.75 && s.fence_hi == 7.75 + 6.75, "inner fences");
	CHECK(one_to_ten[0] == 7 && one_to_ten[9] == 6, "input not modified");

	/* R: quantile(c(1, 2, 4, 7, 11, 16, 22)) gives 3, 7, 13.5 */
	double odd[] = { 22, 1, 16, 2, 11, 4, 7 };
	CHECK(sample_summarize(odd, 7, &s) == 0 && s.q1 == 3 && s.median == 7 && s.q3 == 13.5,
	      "odd sample quartiles %g %g %g", s.q1, s.median, s.q3);

	/* a benchmark-like sample with one slow run and one absurd one */
	double bw[] = { 100, 101, 99, 102, 98, 100, 101, 99, 90, 200 };
	CHECK(sample_summarize(bw, 10, &s) == 0, "summarize bw");
	CHECK(s.n == 10, "nothing dropped");
	CHECK(s.n_low == 1 && s.n_far_low == 1, "90 is far out low (fences %g, %g)", s.fence_lo, s.far_lo);
	CHECK(s.n_high == 1 && s.n_far_high == 1, "200 is far out high");
	CHECK(sample_outlier_class(&s, 200) == OUTLIER_FAR_HIGH && sample_outlier_class(&s, 100) == OUTLIER_NONE,
	      "classify one by one");
	CHECK(s.max == 200 && s.min == 90, "outliers stay in min/max");
	/* q1 99.75, q3 101, iqr 1.25: inner fence 102.875, outer 104.75 */
	double mild[] = { 99, 99, 100, 100, 100, 101, 101, 104 };
	CHECK(sample_summarize(mild, 8, &s) == 0 && s.n_high == 1 && s.n_far_high == 0,
	      "104 is outside but not far out (q1 %g q3 %g)", s.q1, s.q3);
	CHECK(sample_outlier_class(&s, 104) == OUTLIER_HIGH, "mild high");

	double single = 42;
	CHECK(sample_summarize(&single, 1, &s) == 0 && s.median == 42 && s.q1 == 42 && isnan(s.stddev) &&
	      isnan(s.cv), "n = 1: median 42, no stddev");
	double zeros[] = { 0, 0, 0 };
	CHECK(sample_summarize(zeros, 3, &s) == 0 && s.stddev == 0 && isnan(s.cv), "zero mean: no cv");
	double with_nan[] = { 1, NAN, 3 };
	CHECK(sample_summarize(with_nan, 3, &s) == -EINVAL, "NAN rejected");
	CHECK(sample_summarize(bw, 0, &s) == -EINVAL, "empty rejected");

	/* quickselect median against the sorted middle */
	struct rng r;
	rng_seed(&r, 99);
	int bad = 0;
	for (int iter = 0; iter < 3000; iter++) {
		size_t n = 1 + rng_below(&r, 40);
		double x[40], y[40];
		unsigned range = 1 + (unsigned)rng_below(&r, 8);
		for (size_t i = 0; i < n; i++)
			x[i] = (double)rng_below(&r, range) + (iter % 3 ? 0 : rng_double(&r));
		memcpy(y, x, sizeof(x));
		sample_sort(y, n);
		double want = n % 2 ? y[n / 2] : (y[n / 2 - 1] + y[n / 2]) / 2;
		if (sample_median_inplace(x, n) != want)
			bad++;
	}
	CHECK(bad == 0, "%d quickselect medians differ from sorting", bad);
	/* mean and variance with a large offset */
	double off[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };
	double m = sample_mean(off, 4);
	CHECK(m == 1e9 + 10 && sample_variance(off, 4, m) == 30, "offset variance %g", sample_variance(off, 4, m));
	return check_done("test_summary");
}
