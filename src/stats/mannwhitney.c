/*
 * Mann-Whitney U test (see mannwhitney.h). The pooled sample is sorted with
 * each value's group, tied runs get their mid-rank, and U_a = R_a -
 * na (na + 1) / 2. The exact null distribution of U for sizes m <= n is the
 * coefficient list of prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), built one
 * factor at a time (multiply, then divide exactly); every intermediate is an
 * integer below C(N, m) <= C(50, 25) < 2^53, so doubles hold it exactly.
 */
#include "stats/mannwhitney.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats/sample_int.h"

struct tagged {
	double v;
	int group; /* 0: a, 1: b */
};

static int cmp_tagged(const void *pa, const void *pb)
{
	double a = ((const struct tagged *)pa)->v, b = ((const struct tagged *)pb)->v;
	return (a > b) - (a < b);
}

/* P(U <= u) under H0 for sizes m, n without ties; NAN on allocation failure. */
static double exact_cdf(size_t m, size_t n, double u)
{
	if (m > n) {
		size_t t = m;
		m = n;
		n = t;
	}
	size_t maxdeg = m * n + m;
	double *c = calloc(maxdeg + 1, sizeof(*c));
	if (!c)
		return NAN;
	c[0] = 1;
	size_t deg = 0;
	for (size_t i = 1; i <= m; i++) {
		size_t s = n + i;
		for (size_t k = deg + s; k >= s; k--) /* times (1 - q^s) */
			c[k] -= c[k - s];
		deg += s;
		for (size_t k = i; k <= deg; k++) /* divided by (1 - q^i) */
			c[k] += c[k - i];
		deg = i * n;
	}
	double total = 0, below = 0;
	for (size_t k = 0; k <= m * n; k++) {
		total += c[k];
		if ((double)k <= u)
			below += c[k];
	}
	free(c);
	return below / total;
}

int mann_whitney_u(const double *a, size_t na, const double *b, size_t nb, struct mwu_result *out)
{
	if (na == 0 || nb == 0 || !sample_all_finite(a, na) || !sample_all_finite(b, nb))
		return -EINVAL;
	size_t n = na + nb;
	struct tagged *t = malloc(n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		t[i] = (struct tagged){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		t[na + i] = (struct tagged){ b[i], 1 };
	qsort(t, n, sizeof(*t), cmp_tagged);

	double rank_a = 0, ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && t[j + 1].v == t[i].v)
			j++;
		double mid = (double)(i + j) / 2 + 1; /* ranks i+1 .. j+1 */
		double run = (double)(j - i + 1);
		ties += run * run * run - run;
		for (size_t k = i; k <= j; k++)
			if (t[k].group == 0)
				rank_a += mid;
		i = j + 1;
	}
	free(t);

	double dna = (double)na, dnb = (double)nb, dn = (double)n;
	double u = rank_a - dna * (dna + 1) / 2;
	double mn = dna * dnb;
	struct mwu_result r = { .u = u, .effect = u / mn };
	if (ties == 0 && n <= MWU_EXACT_MAX_N) {
		double small = fmin(u, mn - u);
		double cdf = exact_cdf(na, nb, small);
		if (isnan(cdf))
			return -ENOMEM;
		r.p = fmin(1, 2 * cdf);
		r.exact = true;
	} else {
		double var = mn / 12 * ((dn + 1) - ties / (dn * (dn - 1)));
		if (var <= 0) {
			r.p = 1; /* every value tied */
		} else {
			double z = (fabs(u - mn / 2) - 0.5) / sqrt(var);
			r.p = z <= 0 ? 1 : fmin(1, erfc(z / M_SQRT2));
		}
	}
	*out = r;
	return 0;
}
