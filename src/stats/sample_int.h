/*
 * Small helpers over samples of doubles shared by the summary, the median
 * interval, the ratio intervals and the rank test: sorting, the type-7
 * sample quantile (linear interpolation between order statistics, the
 * default of R and NumPy; Hyndman & Fan 1996), an O(n) median by
 * quickselect for the bootstrap's inner loop, and a two-pass mean and
 * variance. None allocates.
 */
#ifndef IOBENCH_STATS_SAMPLE_INT_H
#define IOBENCH_STATS_SAMPLE_INT_H

#include <stdbool.h>
#include <stddef.h>

/* Sort x[0..n) ascending in place (NANs are the caller's problem). */
void sample_sort(double *x, size_t n);
/* Type-7 p-quantile of sorted[0..n), n >= 1, 0 <= p <= 1. */
double sample_quantile_sorted(const double *sorted, size_t n, double p);
/*
 * The median of x[0..n), n >= 1 (mean of the two middle values when n is
 * even). Reorders x (quickselect); expected O(n).
 */
double sample_median_inplace(double *x, size_t n);
/* Arithmetic mean, n >= 1. */
double sample_mean(const double *x, size_t n);
/* Sample variance (divisor n - 1) around `mean`; 0 when n < 2. */
double sample_variance(const double *x, size_t n, double mean);
/* True when every value is finite (no NAN, no infinity). */
bool sample_all_finite(const double *x, size_t n);

#endif
