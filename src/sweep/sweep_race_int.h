/*
 * The `race` design of a sweep: successive elimination on the goal figure
 * (the racing of Maron & Moore 1994 and F-race, Birattari et al. 2002, for
 * independent runs). Every point gets min_reps runs; then, after each
 * round, each point still in the race is tested against the leader (the
 * point with the best median so far) and dropped when it is clearly worse;
 * the rest run once more, up to max_reps. The race is over when every
 * point left has max_reps runs or only one is left.
 *
 * "Clearly worse" is a two-sided Mann-Whitney U test (stats/mannwhitney.h)
 * of the point against the leader, at a per-look level a, with the leader
 * on the better side. Why this test and not the others stats/ has:
 *  - a race decides at small n (3 to 10 runs a point), and its error rate
 *    must hold there: the U test's p is exact at any n without ties
 *    (stats/mannwhitney.h), and assumes nothing about the figure's shape
 *    (benchmark figures are skewed and have outliers); F-race uses rank
 *    tests for the same reason;
 *  - median_ci.h's per-point intervals need 6 runs for 95% at all, and
 *    whether two intervals overlap is a test of unknown level;
 *  - the bootstrap's ratio intervals undercover at the sizes a race works
 *    at (89% for 95% at n = 3, stats/ratio_ci.h), so its error rate would
 *    not be the one stated; Fieller's holds only for normal figures.
 * The price is that a rank test needs a few runs before it can reject
 * anything: n against n runs all apart give p = 2 / C(2n, n) (0.1 at 3,
 * 0.029 at 4, 0.0079 at 5, 0.0022 at 6, 0.00058 at 7). sweep_race_first_drop()
 * says from which n this race can drop a point: with min 3 max 10, 5 for
 * 2 or 3 points, 6 for 4 to 12, 7 for 24; with min 2 max 5, 4 for up to 4
 * points and never for more; never with max_reps <= 4 (the race is then
 * the full design at max_reps: first_drop is 0, for the caller to say).
 *
 * The error rate: a point whose figure is as good as the best's is
 * dropped over the whole race with probability at most alpha
 * (SWEEP_RACE_ALPHA, 5%), whatever the figure's distribution. At each
 * look a point is dropped when the leader is on the better side and the
 * two-sided p is below 2a / (npoints - 1): no other point is better than
 * one as good as the best, so each of the npoints - 1 others leads it
 * with such a p with probability at most a / (npoints - 1), at most a in
 * all at one look (whichever point leads: the leader being the best of
 * several is what this union covers), and alpha over the L looks the
 * race may spend a on (a = alpha / L; L is the smallest number of looks
 * that covers every look, n = min_reps .. max_reps - 1, at which 2 /
 * C(2n, n) is below the threshold, so a look where no p could reach it
 * spends nothing). test_sweep_race measures it: 2 equal points, min 3 max
 * 10: one dropped in 3.3% of 2000 races; 12 equal points: 1.7% of the
 * points dropped (14.6% of the races drop one). And what it saves: 12
 * points of fs x read_ahead_kb x scheduler with additive effects (+30%,
 * +10%, +5%) at CV 3%, min 3 max 10, found the full design's best point in
 * 200 of 200 simulated sweeps with 78 runs on average instead of 120.
 *
 * Ties (a rate-limited job gives the same figure every time): the U test
 * then uses its tie-corrected normal approximation; all values equal gives
 * p = 1, nothing dropped.
 */
#ifndef IOBENCH_SWEEP_SWEEP_RACE_INT_H
#define IOBENCH_SWEEP_SWEEP_RACE_INT_H

#include <stdbool.h>
#include <stddef.h>

#define SWEEP_RACE_ALPHA 0.05

struct sweep_race;

/* A race of npoints points (>= 1), min_reps >= 1 runs each before any is
 * dropped, at most max_reps (>= min_reps; a smaller one is raised to
 * min_reps); higher_is_better says which side of the goal wins. */
struct sweep_race *sweep_race_new(size_t npoints, unsigned min_reps, unsigned max_reps,
				  bool higher_is_better);
/* The race's total error rate (0 < alpha < 1; SWEEP_RACE_ALPHA by default).
 * Call before the first sweep_race_next. */
void sweep_race_set_alpha(struct sweep_race *r, double alpha);
/* One run of point gave value (non-finite values are ignored). A run that
 * failed adds nothing: the point is asked again up to max_reps times, and
 * a point with no value after its min_reps runs leaves the race. */
void sweep_race_add(struct sweep_race *r, size_t point, double value);
/* The points to run once more next round, in ascending order, written to
 * points (the caller's array of npoints); their count, 0 when the race is
 * over. Between two calls the caller runs each returned point once and
 * adds what it gave. */
size_t sweep_race_next(struct sweep_race *r, size_t *points);
/* Is point still in the race (not dropped, and not without any value)? */
bool sweep_race_alive(const struct sweep_race *r, size_t point);
/* The point with the best median among those alive (the lowest index on a
 * tie); npoints when no point has a value. */
size_t sweep_race_best(const struct sweep_race *r);
void sweep_race_free(struct sweep_race *r);

/* The values point has (its successful runs). */
size_t sweep_race_values(const struct sweep_race *r, size_t point);
/* The runs asked for so far, over all points. */
size_t sweep_race_runs(const struct sweep_race *r);
/* The smallest number of runs per point at which a drop is possible (0:
 * never, max_reps is too small for the test to reach its level), and the
 * per-look level a. */
unsigned sweep_race_first_drop(const struct sweep_race *r);
double sweep_race_level(const struct sweep_race *r);
/* At which n point was dropped (0: it was not). */
unsigned sweep_race_dropped_at(const struct sweep_race *r, size_t point);

#endif
