/*
 * Mann-Whitney U test against published results: R's wilcox.test example
 * (Hollander & Wolfe 1973, p. 69, permeability constants: W = 35, exact
 * two-sided p = 0.2544, one-sided 0.1272), SciPy's mannwhitneyu example
 * (U = 17, exact p = 0.1111), and, with ties, R's airquality example
 * (Ozone in May vs August, 26 + 26 values: W = 127.5, p = 0.0001208 with
 * the continuity correction). The exact distribution against brute-force
 * enumeration of every split for small sizes; symmetry (swapping the
 * samples keeps p and mirrors U); all-tied samples give p = 1.
 */
#include <errno.h>
#include <math.h>

#include "check.h"
#include "stats/mannwhitney.h"

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

/* brute force: two-sided exact p for U = u, sizes m + n <= 16 */
static double brute_p(size_t m, size_t n, double u)
{
	size_t total = 0, le = 0, ge = 0;
	size_t nn = m + n;
	for (unsigned mask = 0; mask < (1u << nn); mask++) {
		if ((size_t)__builtin_popcount(mask) != m)
			continue;
		/* positions 0..nn-1 in increasing value; bits set = sample a */
		double uu = 0;
		size_t bs_below = 0;
		for (size_t i = 0; i < nn; i++) {
			if (mask & (1u << i))
				uu += (double)bs_below;
			else
				bs_below++;
		}
		total++;
		le += uu <= u;
		ge += uu >= u;
	}
	double p = 2 * fmin((double)le, (double)ge) / (double)total;
	return p > 1 ? 1 : p;
}

int main(void)
{
	struct mwu_result r;
	double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	CHECK(mann_whitney_u(x, 10, y, 5, &r) == 0 && r.u == 35 && r.exact && near(r.p, 0.2544, 5e-5),
	      "hollander & wolfe: U %g p %.5f", r.u, r.p);
	CHECK(near(r.p, 2 * 0.1272061272, 1e-9), "one-sided 0.1272 doubled: %.10f", r.p);
	CHECK(near(r.effect, 0.7, 1e-12), "effect 35/50");
	struct mwu_result s;
	CHECK(mann_whitney_u(y, 5, x, 10, &s) == 0 && s.u == 15 && s.p == r.p, "swapped: U %g, same p", s.u);

	double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	CHECK(mann_whitney_u(males, 5, females, 4, &r) == 0 && r.u == 17 && r.exact && near(r.p, 1.0 / 9, 1e-12),
	      "scipy example: U %g p %.6f", r.u, r.p);

	double may[] = { 41, 36, 12, 18, 28, 23, 19, 8, 7, 16, 11, 14, 18, 14, 34, 6, 30, 11, 1, 11, 4, 32, 23, 45, 115, 37 };
	double aug[] = { 39, 9, 16, 78, 35, 66, 122, 89, 110, 44, 28, 65, 22, 59, 23, 31, 44, 21, 9, 45, 168, 73, 76, 118, 84, 85 };
	CHECK(mann_whitney_u(may, 26, aug, 26, &r) == 0 && r.u == 127.5 && !r.exact && near(r.p, 0.0001208, 5e-8),
	      "airquality with ties: W %g p %.7f", r.u, r.p);

	/* exact distribution against enumeration */
	int bad = 0;
	for (size_t m = 1; m <= 8; m++)
		for (size_t n = 1; n + m <= 14; n++)
			for (double u = 0; u <= (double)(m * n); u++) {
				/* a: the values at the positions of a U of u: build a sample with that U */
				double a[16], b[16];
				/* b = 0..n-1 spaced by 2; each a above some b's to total u */
				double left = u;
				for (size_t i = 0; i < n; i++)
					b[i] = 2.0 * (double)i;
				for (size_t i = 0; i < m; i++) {
					double k = fmin(left, (double)n);
					a[i] = 2.0 * k - 1 + 1e-3 * (double)i; /* above exactly k b.s, no ties */
					left -= k;
				}
				if (mann_whitney_u(a, m, b, n, &r) != 0 || r.u != u || !near(r.p, brute_p(m, n, u), 1e-12))
					bad++;
			}
	CHECK(bad == 0, "%d exact p-values differ from enumeration", bad);

	double same[] = { 5, 5, 5 };
	CHECK(mann_whitney_u(same, 3, same, 3, &r) == 0 && r.p == 1 && r.u == 4.5, "all tied: p 1");
	double big_a[40], big_b[40];
	for (int i = 0; i < 40; i++) {
		big_a[i] = i;
		big_b[i] = i + 20.5;
	}
	CHECK(mann_whitney_u(big_a, 25, big_b, 25, &r) == 0 && r.exact && r.p < 1e-3, "exact at N = 50: p %g", r.p);
	CHECK(mann_whitney_u(big_a, 26, big_b, 25, &r) == 0 && !r.exact, "normal beyond N = 50");
	double bad_v[] = { NAN };
	CHECK(mann_whitney_u(bad_v, 1, y, 5, &r) == -EINVAL && mann_whitney_u(x, 0, y, 5, &r) == -EINVAL,
	      "bad input rejected");
	return check_done("test_mannwhitney");
}
