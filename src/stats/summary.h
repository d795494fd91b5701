/*
 * Descriptive summary of a sample of doubles (one figure over the
 * repetitions of a run): n, median, mean, sample standard deviation,
 * coefficient of variation, min, max, quartiles, and the outliers by
 * Tukey's fences (Tukey 1977, "Exploratory Data Analysis": "outside" beyond
 * 1.5 IQR from the quartiles, "far out" beyond 3 IQR). Outliers are counted
 * and can be classified one by one; nothing is ever dropped.
 *
 * Quartiles are type-7 sample quantiles (Hyndman & Fan 1996; R's and
 * NumPy's default), so for 1..10 Q1 = 3.25 and Q3 = 7.75.
 */
#ifndef IOBENCH_STATS_SUMMARY_H
#define IOBENCH_STATS_SUMMARY_H

#include <stddef.h>

struct sample_summary {
	size_t n;
	double median, mean;
	double stddev; /* divisor n - 1; NAN when n < 2 */
	double cv;     /* stddev / |mean|; NAN when n < 2 or mean == 0 */
	double min, max;
	double q1, q3, iqr;
	double fence_lo, fence_hi;       /* q1 - 1.5 iqr, q3 + 1.5 iqr */
	double far_lo, far_hi;           /* q1 - 3 iqr, q3 + 3 iqr */
	size_t n_low, n_high;            /* outside the inner fences (incl. far out) */
	size_t n_far_low, n_far_high;    /* outside the outer fences */
};

/*
 * Summarize x[0..n) (not modified). 0; -EINVAL for n == 0 or a non-finite
 * value; -ENOMEM.
 */
int sample_summarize(const double *x, size_t n, struct sample_summary *out);

enum outlier_class {
	OUTLIER_FAR_LOW = -2,
	OUTLIER_LOW = -1,
	OUTLIER_NONE = 0,
	OUTLIER_HIGH = 1,
	OUTLIER_FAR_HIGH = 2,
};

/* Where v falls against the fences of s (strictly beyond a fence counts). */
enum outlier_class sample_outlier_class(const struct sample_summary *s, double v);

#endif
