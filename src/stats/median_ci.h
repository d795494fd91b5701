/*
 * Non-parametric confidence interval of the median from order statistics
 * (Le Boudec, "Performance Evaluation of Computer and Communication
 * Systems", 2010, Thm 2.1 and Table A.1; Hoefler & Belli, "Scientific
 * benchmarking of parallel computing systems", SC'15, rule 5). For a sample
 * of n independent values of a continuous distribution, the number of
 * values below the true median is Binomial(n, 1/2), so
 *     P(X_(j) <= median <= X_(n+1-j)) = 1 - 2 P(B <= j - 1),  B ~ Bin(n, 1/2).
 * median_ci_ranks() picks the largest j (the narrowest symmetric interval)
 * whose coverage is still >= the requested confidence, from the exact
 * binomial for every n (no normal approximation, which Le Boudec uses for
 * n > 70: the exact ranks agree with it there).
 *
 * Small samples: the widest interval, [min, max], covers the median with
 * probability 1 - 2^(1-n). That is below 0.95 for n <= 5 (0.5, 0.75, 0.875,
 * 0.9375 for n = 2..5; 0 for n = 1), so no 95% interval exists there; the
 * smallest n with a 95% interval is 6 (99%: 8). The functions then return
 * -EDOM and still fill in [min, max] with the confidence it does achieve.
 * Ties only make the interval conservative.
 */
#ifndef IOBENCH_STATS_MEDIAN_CI_H
#define IOBENCH_STATS_MEDIAN_CI_H

#include <stddef.h>

struct median_ci_ranks {
	size_t lo, hi;     /* 1-based ranks of the bounds, hi = n + 1 - lo */
	double confidence; /* achieved coverage, >= the requested one on success */
};

/*
 * Ranks for n values at confidence conf (0 < conf < 1). 0; -EINVAL for
 * n == 0 or conf out of range; -EDOM when no interval reaches conf (then
 * *out is [1, n] with its coverage 1 - 2^(1-n)).
 */
int median_ci_ranks(size_t n, double conf, struct median_ci_ranks *out);

/* The smallest n for which an interval at conf exists (6 for 0.95). */
size_t median_ci_min_n(double conf);

struct median_ci {
	size_t n;
	double median;
	double lo, hi;            /* X_(rank_lo), X_(rank_hi) */
	size_t rank_lo, rank_hi;
	double confidence;        /* achieved coverage */
};

/*
 * The interval for x[0..n) (not modified). Same returns as
 * median_ci_ranks(), plus -EINVAL for a non-finite value and -ENOMEM; on
 * -EDOM *out holds [min, max] and its lower confidence.
 */
int median_ci(const double *x, size_t n, double conf, struct median_ci *out);

#endif
