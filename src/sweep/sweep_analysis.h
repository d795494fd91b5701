/*
 * The analysis of a sweep's runs on its goal figure: which point is best,
 * how much each factor matters and where two factors act together.
 *
 * Input: runs (compare/cmp_model.h) whose labels name each factor's level
 * (FACTOR=LEVEL, as a sweep stores its points), the factor names and the
 * goal (sweep_goal.h). A run without a label of every factor, or without
 * the goal's figure, is left out and counted.
 *
 * Output:
 *  - the points (distinct level combinations) ranked on the goal: median
 *    of their runs with its order-statistic interval (stats/median_ci.h;
 *    below 6 runs no 95% interval exists and [min, max] is given with the
 *    confidence it does have);
 *  - the main effect of each factor: the mean goal per level, with its
 *    Student t interval from the pooled spread of the repetitions within
 *    points (the ANOVA model's error term: mean +- t_df sqrt(MS_err / n_l),
 *    df = runs - points), or from the spread of that level's runs when no
 *    point repeats; and the best level;
 *  - a variance-based importance share per factor: its between-level sum
 *    of squares over the total, SS_A = sum_l n_l (mean_l - mean)^2 / SS_T,
 *    the correlation ratio eta^2, which estimates the first-order Sobol
 *    index Var(E[Y | A]) / Var(Y), the variance the goal loses once A's
 *    level is known, Var(Y) - E[Var(Y | A)] (Carver, Cao, Kuenning and
 *    Zadok, FAST'20, ranks storage parameters by such a variance
 *    reduction from Latin-hypercube samples);
 *  - per pair of factors the interaction share: the pair's between-cell
 *    sum of squares less the two main effects', (SS_AB - SS_A - SS_B) /
 *    SS_T, that is what the pair explains beyond each alone;
 *  - the rest: what the points explain beyond mains and pairs (interactions
 *    of three or more factors) and the spread of the repetitions within a
 *    point (noise);
 *  - for each factor and pair, when points repeat, the p-value of its F
 *    test against the repetitions' spread (F = (SS / df) / MS_err, df_err
 *    = runs - points): exact for a balanced full factorial with normal
 *    noise, a guide otherwise;
 *  - the interactions that matter: share >= SWEEP_INTERACTION_SHARE and,
 *    when points repeat, p < SWEEP_ALPHA (so noise in a few runs does not
 *    make one); and
 *    notes where one makes a main effect misleading: the factor's best
 *    level is not the best at some level of the other, or the factor's
 *    main share is small while its interaction is large.
 *
 * In a balanced full factorial (every point with the same number of runs)
 * the factors are orthogonal and these shares are the classical ANOVA
 * decomposition: mains, pairs, higher orders and noise sum to 100%. In an
 * unbalanced design (ofat, lhs:N, a race, failed points) the factors are
 * correlated, each share is still the variance that factor (or pair)
 * explains on its own, as Carver's metric is, but the shares overlap, so
 * they need not add up: the rest is then clamped at 0 and the analysis
 * says the design is not orthogonal. A pair whose cells are not all
 * present (lhs) is estimated from the cells that are, and says so.
 */
#ifndef IOBENCH_SWEEP_SWEEP_ANALYSIS_H
#define IOBENCH_SWEEP_SWEEP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/cmp_model.h"
#include "sweep/sweep_goal.h"

#define SWEEP_INTERACTION_SHARE 0.05 /* an interaction that matters explains >= 5% */
#define SWEEP_CONF 0.95
#define SWEEP_ALPHA 0.05             /* ... and its F test's p is below this */

struct sweep_interval {
	double lo, hi;
	double conf;    /* achieved confidence; 0: none (a single value) */
};

struct sweep_point {
	char **levels;          /* one per factor; NULL for a nested factor it lacks */
	char *name;             /* "fs=xfs ra=128" */
	size_t n;
	double *values;         /* n, as the runs gave them */
	int64_t *run_ids;
	double median, mean;
	struct sweep_interval ci; /* of the median */
};

struct sweep_level {
	char *name;
	size_t n;
	double mean;
	struct sweep_interval ci; /* of the mean (Student t) */
};

struct sweep_factor_effect {
	char *name;
	struct sweep_level *levels;  /* in order of first appearance */
	size_t nr_levels;
	size_t best;                 /* index into levels */
	double share;                /* main-effect share of the total variance */
	double p;                    /* its F test's p-value; NAN: no repetitions */
	size_t parent;               /* nested: the parent factor's index; else SIZE_MAX */
	char *within;                /* nested: "fs=xfs" (levels joined by '|'), else NULL */
	char *label;                 /* "mkfs.xfs (within fs=xfs)", or the name */
};

struct sweep_interaction {
	size_t a, b;                 /* factor indexes, a < b */
	double share;
	double p;                    /* its F test's p-value; NAN: no repetitions */
	bool matters;
	bool incomplete;             /* some cells of the pair have no run */
};

struct sweep_analysis {
	struct sweep_goal goal;
	size_t nr_runs;              /* used */
	size_t skipped_no_level;     /* runs lacking a factor's label */
	size_t skipped_no_value;     /* runs lacking the goal's figure */
	double grand_mean, ss_total;
	size_t error_df;             /* runs - points: the level intervals' df; 0: each
					level's own runs give its interval */
	struct sweep_point *points;  /* ranked, best first */
	size_t nr_points;
	struct sweep_factor_effect *factors; /* in the order named */
	size_t nr_factors;
	size_t *rank;                /* factor indexes, the largest share first */
	struct sweep_interaction *pairs; /* every pair, in factor order, but a nested
					    factor with its parent */
	size_t nr_pairs;
	double share_higher;         /* interactions of 3+ factors */
	double share_noise;          /* within points (repetitions) */
	bool balanced;               /* every point of the full grid present, same n */
	bool overlap;                /* shares add up to more than 100% (clamped) */
	char **notes;                /* lowercase sentences */
	size_t nr_notes;
};

/*
 * Analyse runs[0..n) on factors[0..nf) and goal into *out. 0; -ENOENT
 * (after printing why) when no run is left; -EINVAL for nf == 0.
 */
int sweep_analyse(const struct cmp_run *runs, size_t n, const char *const *factors, size_t nf,
		  const struct sweep_goal *goal, struct sweep_analysis *out);
void sweep_analysis_release(struct sweep_analysis *a);

/* The analysis as text (the end of a sweep, `sweep report`) and as JSON. */
void sweep_report_text(const struct sweep_analysis *a, FILE *out);
int sweep_report_json(const struct sweep_analysis *a, FILE *out);

#endif
