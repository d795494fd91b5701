/*
 * How many repetitions an interval of a given relative half-width needs,
 * from a pilot coefficient of variation (CV = stddev / mean of the figure
 * across runs). For `compare` with single runs, where no interval can be
 * given, and for `--repeat auto` when it hits its maximum. With one run
 * per side there is no run-to-run CV; the caller has to take one from
 * elsewhere (an earlier repeated run of the same job, or the CV of the
 * run's per-interval bw samples, which is usually smaller than the
 * run-to-run one and so gives a lower bound). Both assume roughly normal
 * run results.
 *
 * - Ratio of means, n runs on each side: the interval's relative half-width
 *   is about t_{df} sqrt((cv_a^2 + cv_b^2) / n) (delta method for B/A),
 *   with the Welch-Satterthwaite df (n - 1)(cv_a^2 + cv_b^2)^2 /
 *   (cv_a^4 + cv_b^4); the smallest n that brings it to w is returned
 *   (Kalibera & Jones 2013 plan repetitions from a pilot the same way).
 * - Median of one figure: the order-statistic interval of median_ci.h with
 *   its exact ranks, its ends placed at the expected normal order statistics
 *   of those ranks (Blom 1958: E X_(i) ~ mu + sigma Phi^-1((i - 3/8) /
 *   (n + 1/4))); the smallest n whose upper end is within w of the median.
 */
#ifndef IOBENCH_STATS_REPS_H
#define IOBENCH_STATS_REPS_H

#include <stddef.h>

/* Searches stop here: more repetitions than this are never proposed. */
#define REPS_MAX 100000

/*
 * Repetitions per side for a conf-level interval of B/A within +-w (w > 0,
 * e.g. 0.05). 0; -EINVAL for bad arguments (cv < 0, w <= 0, conf outside
 * (0, 1)); -ERANGE if more than REPS_MAX would be needed. *n >= 2.
 */
int reps_for_ratio_ci(double cv_a, double cv_b, double w, double conf, size_t *n);

/*
 * Repetitions for a conf-level interval of the median within +-w. Same
 * returns; *n >= median_ci_min_n(conf) (6 at 95%).
 */
int reps_for_median_ci(double cv, double w, double conf, size_t *n);

#endif
