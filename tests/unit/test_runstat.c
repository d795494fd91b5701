/*
 * Running statistics: Welford's mean/stddev against a two-pass computation
 * (also with a large offset that breaks the naive sum of squares), min/max,
 * the empty and one-value cases, and Chan's merge against feeding one
 * runstat everything.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "stats/runstat.h"
#include "util/rand.h"

#define N 100000

static int close_rel(double a, double b, double tol)
{
	return fabs(a - b) <= tol * fmax(1.0, fmax(fabs(a), fabs(b)));
}

static void two_pass(const double *v, size_t n, double *mean, double *sd)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	double q = 0;
	for (size_t i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*sd = sqrt(q / (n - 1));
}

static void check_data(const char *name, const double *v, size_t n, double tol)
{
	struct runstat all, a, b, c;
	runstat_init(&all);
	runstat_init(&a);
	runstat_init(&b);
	runstat_init(&c);
	double mn = v[0], mx = v[0];
	for (size_t i = 0; i < n; i++) {
		runstat_add(&all, v[i]);
		/* uneven split into three parts */
		runstat_add(i < n / 7 ? &a : (i % 2 ? &b : &c), v[i]);
		mn = fmin(mn, v[i]);
		mx = fmax(mx, v[i]);
	}
	double mean, sd;
	two_pass(v, n, &mean, &sd);
	CHECK(all.n == n, "%s: n", name);
	CHECK(close_rel(all.mean, mean, 1e-12), "%s: mean %.17g vs %.17g", name, all.mean, mean);
	CHECK(close_rel(runstat_stddev(&all), sd, tol), "%s: stddev %.17g vs %.17g", name,
	      runstat_stddev(&all), sd);
	CHECK(runstat_min(&all) == mn && runstat_max(&all) == mx, "%s: min/max", name);

	runstat_merge(&a, &b);
	runstat_merge(&a, &c);
	CHECK(a.n == n, "%s: merged n", name);
	CHECK(close_rel(a.mean, mean, 1e-12), "%s: merged mean %.17g vs %.17g", name, a.mean, mean);
	CHECK(close_rel(runstat_stddev(&a), sd, tol), "%s: merged stddev %.17g vs %.17g", name,
	      runstat_stddev(&a), sd);
	CHECK(runstat_min(&a) == mn && runstat_max(&a) == mx, "%s: merged min/max", name);
}

int main(void)
{
	struct runstat s, e;
	runstat_init(&s);
	CHECK(s.n == 0 && runstat_min(&s) == 0 && runstat_max(&s) == 0 && runstat_stddev(&s) == 0,
	      "empty runstat");
	runstat_add(&s, -7.5);
	CHECK(s.mean == -7.5 && runstat_stddev(&s) == 0 && runstat_min(&s) == -7.5 &&
	      runstat_max(&s) == -7.5, "one value");
	runstat_add(&s, 2.5);
	CHECK(s.mean == -2.5 && close_rel(runstat_stddev(&s), sqrt(50.0), 1e-15), "two values");

	runstat_init(&e);
	runstat_merge(&s, &e);
	CHECK(s.n == 2 && s.mean == -2.5, "merging an empty runstat changes nothing");
	runstat_merge(&e, &s);
	CHECK(e.n == 2 && e.mean == -2.5 && e.min == -7.5 && e.max == 2.5, "merging into an empty one copies");

	double *v = malloc(N * sizeof(*v));
	struct rng r;
	rng_seed(&r, 42);
	for (size_t i = 0; i < N; i++)
		v[i] = rng_double(&r) * 1000.0;
	check_data("uniform", v, N, 1e-9);
	for (size_t i = 0; i < N; i++)
		v[i] = -log(1.0 - rng_double(&r)) * 1e6;
	check_data("exponential", v, N, 1e-9);
	/* large offset, small spread: a sum of squares would lose every digit
	 * (1e18-sized squares, 100-sized rounding, a variance of 1/12); the data
	 * itself only has 1e-7 resolution, so ask for 1e-6 */
	for (size_t i = 0; i < N; i++)
		v[i] = 1e9 + rng_double(&r);
	check_data("offset 1e9", v, N, 1e-6);
	double mean, sd;
	two_pass(v, N, &mean, &sd);
	CHECK(fabs(sd - sqrt(1.0 / 12)) < 0.01, "offset data stddev %g is ~1/sqrt(12)", sd);
	free(v);
	return check_done("runstat");
}
