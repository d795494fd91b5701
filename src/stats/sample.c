/*
 * Sample helpers (see sample_int.h). The quickselect is Hoare's FIND with a
 * median-of-three pivot; the even-n median takes the largest element of the
 * lower part after selecting the upper middle, so it is one selection.
 */
#include "stats/sample_int.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

void sample_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), cmp_double);
}

double sample_quantile_sorted(const double *sorted, size_t n, double p)
{
	if (n == 1 || p <= 0)
		return sorted[0];
	if (p >= 1)
		return sorted[n - 1];
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return sorted[n - 1];
	double frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

static void swap(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

/* Rearrange x so that x[k] is the k-th smallest, smaller ones before it. */
static void select_kth(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2;
		if (x[mid] < x[lo])
			swap(&x[mid], &x[lo]);
		if (x[hi] < x[lo])
			swap(&x[hi], &x[lo]);
		if (x[hi] < x[mid])
			swap(&x[hi], &x[mid]);
		double pivot = x[mid];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (x[i] < pivot)
				i++;
			while (x[j] > pivot)
				j--;
			if (i <= j) {
				swap(&x[i], &x[j]);
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		/* now x[lo..j] <= pivot <= x[i..hi], j < i */
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

double sample_median_inplace(double *x, size_t n)
{
	size_t k = n / 2;
	select_kth(x, n, k);
	if (n % 2)
		return x[k];
	double below = x[0];
	for (size_t i = 1; i < k; i++)
		if (x[i] > below)
			below = x[i];
	return (below + x[k]) / 2;
}

double sample_mean(const double *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	double m = s / (double)n;
	/* one correction pass: exact-ish for large offsets */
	double c = 0;
	for (size_t i = 0; i < n; i++)
		c += x[i] - m;
	return m + c / (double)n;
}

double sample_variance(const double *x, size_t n, double mean)
{
	if (n < 2)
		return 0;
	double q = 0, c = 0;
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - mean;
		q += d * d;
		c += d;
	}
	/* corrected two-pass (Chan, Golub & LeVeque 1983) */
	return (q - c * c / (double)n) / (double)(n - 1);
}

bool sample_all_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}
