/*
 * The Mann-Whitney U test (Mann & Whitney 1947; Wilcoxon's rank-sum test)
 * as a second opinion beside the ratio intervals, as Google Benchmark's
 * compare.py and pyperf give one: are two independent samples drawn from
 * the same distribution? Two-sided p-value. Without ties and with at most
 * 50 values in all, p comes from the exact null distribution of U (counted
 * through the Gaussian binomial coefficient [N choose m]_q, whose
 * coefficients are the numbers of orderings with each U); otherwise from
 * the normal approximation with the tie-corrected variance
 *     var U = na nb / 12 ((N + 1) - sum (t^3 - t) / (N (N - 1)))
 * and a continuity correction of 1/2, which is what R's wilcox.test and
 * SciPy's mannwhitneyu compute (SciPy switches to the exact form only when
 * one sample has at most 8 values; the exact form is the better one).
 */
#ifndef IOBENCH_STATS_MANNWHITNEY_H
#define IOBENCH_STATS_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>

struct mwu_result {
	double u;      /* U of sample a: pairs (a_i, b_j) with a_i > b_j, ties 1/2 */
	double p;      /* two-sided p-value */
	double effect; /* u / (na nb): P(a > b) + P(a = b) / 2, 0.5 = no shift */
	bool exact;    /* p from the exact distribution */
};

/* Largest N = na + nb for which the exact distribution is used. */
#define MWU_EXACT_MAX_N 50

/*
 * Test a[0..na) against b[0..nb) (not modified). 0; -EINVAL for an empty
 * sample or a non-finite value; -ENOMEM.
 */
int mann_whitney_u(const double *a, size_t na, const double *b, size_t nb, struct mwu_result *out);

#endif
