/*
 * The few distribution functions the confidence intervals need: the Student
 * t and standard normal quantiles (from GSL, libgsl, which inverts the CDFs to
 * double precision), the normal CDF (libm's erfc), and the lower tail of the
 * binomial distribution with p = 1/2, which is all that order-statistic
 * intervals of the median use. That tail is summed exactly here (in log
 * space, so no term underflows) rather than taken from GSL, whose incomplete
 * beta can abort through GSL's error handler for very large n.
 *
 * GSL's default error handler aborts; these wrappers check their arguments
 * first so that no call can reach it, and report bad arguments as NAN.
 */
#ifndef IOBENCH_STATS_PROBDIST_H
#define IOBENCH_STATS_PROBDIST_H

#include <stddef.h>

/* Standard normal CDF Phi(x). */
double prob_normal_cdf(double x);
/* Phi^-1(p) for 0 < p < 1; -INFINITY at 0, INFINITY at 1, NAN outside. */
double prob_normal_quantile(double p);
/*
 * The p-quantile of Student's t with df degrees of freedom (df > 0, need not
 * be an integer: Welch-Satterthwaite gives fractions). NAN for df <= 0, p
 * outside [0, 1] or NAN arguments.
 */
double prob_t_quantile(double p, double df);
/*
 * The two-sided critical value t_{(1+conf)/2, df}, e.g. 2.228 for conf 0.95
 * and df 10. NAN for conf outside (0, 1).
 */
double prob_t_critical(double conf, double df);
/*
 * P(X <= k) for X ~ Binomial(n, 1/2); 1 when k >= n. Exact up to rounding
 * that grows with k (relative error below 1e-12 for k < 10^4). O(k).
 */
double prob_binom_half_cdf(size_t n, size_t k);

#endif
