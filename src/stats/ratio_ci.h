/*
 * Confidence intervals of the ratio B/A of a figure between two independent
 * samples A (the baseline, e.g. the ext4 runs) and B (e.g. the xfs runs),
 * the way Kalibera & Jones ("Rigorous benchmarking in reasonable time",
 * ISMM 2013) compare systems: a difference is real only when the interval
 * excludes 1, and its size is the ratio with its interval ("1.42x
 * (1.35-1.50)").
 *
 * Two methods, each in its own file:
 *  - bootstrap.c: percentile bootstrap (Efron & Tibshirani 1993, ch. 13),
 *    optionally bias-corrected and accelerated (BCa, ch. 14; the two-sample
 *    acceleration from the jackknife influence values of each sample,
 *    Davison & Hinkley 1997, ch. 3 and 5), of the ratio of
 *    medians or means, resampling A and B independently with a seeded
 *    xoshiro256** (util/rand.h), so the same seed gives the same interval.
 *  - fieller.c: Fieller's theorem for the ratio of means (Fieller 1954;
 *    Kalibera & Jones 2013), with Student's t on Welch-Satterthwaite
 *    degrees of freedom (Tamhane & Logan 2004), exact for normal data.
 *
 * With a single run on either side (n < 2) there is no estimate of the
 * run-to-run variation and no interval can be given: both return -EDOM.
 * reps.h estimates how many repetitions an interval of a given width needs.
 *
 * Which to use (coverage of nominal 95% intervals measured over 1000
 * simulated experiments per cell, true ratio 1.5, normal data with CV 10%
 * and lognormal data with sigma 0.3 giving the same picture):
 *     n per side          3      5     10     20
 *     Fieller (means)    95%    96%    96%    94%  (lognormal n = 3: 6% unbounded)
 *     bootstrap medians  89%    98%    97%    96%  (BCa: 89, 97, 95, 94)
 *     bootstrap means    79%    88%    93%    92%  (BCa: the same)
 * Fieller holds its level from 3 runs but assumes roughly normal results;
 * the percentile bootstrap of medians assumes nothing about their shape and
 * is right from 5 runs; the bootstrap of means undercovers at these sizes.
 */
#ifndef IOBENCH_STATS_RATIO_CI_H
#define IOBENCH_STATS_RATIO_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ratio_stat {
	RATIO_OF_MEDIANS,
	RATIO_OF_MEANS,
};

enum ratio_method {
	RATIO_BOOTSTRAP_PERCENTILE,
	RATIO_BOOTSTRAP_BCA,
	RATIO_FIELLER,
};

struct ratio_ci {
	enum ratio_method method;
	enum ratio_stat stat;
	double ratio;      /* stat(B) / stat(A) */
	double lo, hi;     /* the interval; lo <= hi */
	double conf;       /* its nominal confidence */
	bool real;         /* the interval excludes 1: a real difference */
	double df;         /* Fieller: the degrees of freedom of t; else 0 */
	double z0, accel;  /* BCa: bias correction and acceleration; else 0 */
};

/* Smallest sample size on each side for which an interval can be given. */
#define RATIO_CI_MIN_N 2

struct bootstrap_opts {
	enum ratio_stat stat;
	unsigned resamples; /* >= 100; at 10000 each end's level is off by ~0.16 points */
	uint64_t seed;
	double conf;        /* 0 < conf < 1 */
	bool bca;
};

#define BOOTSTRAP_OPTS_DEFAULT { .stat = RATIO_OF_MEDIANS, .resamples = 10000, \
	.seed = 1, .conf = 0.95, .bca = false }

/*
 * Bootstrap interval of stat(B) / stat(A) for a[0..na) and b[0..nb) (not
 * modified). 0; -EINVAL for bad options or a non-finite value; -EDOM when
 * na or nb < 2 (no interval from single runs) or stat(A) is 0 in the data
 * or in a resample (ratio undefined); -ERANGE when BCa cannot correct
 * (every resample on one side of the estimate; out->ratio is set, the ends
 * are NAN); -ENOMEM. Allocates
 * resamples + na + nb doubles once; the resampling loop does not allocate.
 */
int ratio_ci_bootstrap(const double *a, size_t na, const double *b, size_t nb,
		       const struct bootstrap_opts *opts, struct ratio_ci *out);

/*
 * Fieller interval of mean(B) / mean(A) at confidence conf. 0; -EINVAL for
 * a bad conf or a non-finite value; -EDOM when na or nb < 2 or mean(A) is
 * 0; -ERANGE when the interval is unbounded because mean(A) is not
 * significantly different from 0 (out->ratio is still set).
 */
int ratio_ci_fieller(const double *a, size_t na, const double *b, size_t nb,
		     double conf, struct ratio_ci *out);

/*
 * Fieller's interval for num/den from two independent estimates with
 * standard errors se_num and se_den and critical value t: the set of r with
 * (num - r den)^2 <= t^2 (se_num^2 + r^2 se_den^2). 0, or -ERANGE when
 * den^2 <= t^2 se_den^2 (unbounded or exclusive set), -EINVAL for negative
 * or non-finite inputs.
 */
int fieller_interval(double num, double se_num, double den, double se_den, double t,
		     double *lo, double *hi);

#endif
