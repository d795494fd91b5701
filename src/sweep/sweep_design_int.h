/*
 * The experiment designs over a plan's factors (sweep_plan_int.h): the points
 * to run, each a level index per factor, and the order to run them in.
 *   full   every combination of levels;
 *   ofat   one factor at a time: the baseline (every factor at its first
 *          level), then each other level of each factor with the rest at
 *          the baseline;
 *   lhs:N  a Latin hypercube of N points over the level indices: each
 *          factor's levels appear equally often (within one) over the N
 *          points, paired at random;
 *   race   the full design's points, run as the race says (sweep_race_int.h);
 * A factor that applies only to one filesystem (mkfs.xfs, mount.xfs,
 * btrfs.data) has no level at the points of another one (SWEEP_NA), so
 * those points are not repeated for its levels; points that end up equal
 * are kept once. The order is then shuffled with the seed, which is
 * recorded, so the same plan and seed give the same sweep (--resume).
 */
#ifndef IOBENCH_SWEEP_SWEEP_DESIGN_INT_H
#define IOBENCH_SWEEP_SWEEP_DESIGN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "sweep/sweep_plan_int.h"

#define SWEEP_NA ((size_t)-1)
#define SWEEP_MAX_POINTS 100000

struct sweep_points {
	size_t n, nf;   /* points, factors */
	size_t *lvl;    /* lvl[i * nf + f]: the level of factor f at point i, or SWEEP_NA */
};

/* The points of p's design in run order (shuffled with seed). 0, or
 * -E2BIG with a message when there are more than SWEEP_MAX_POINTS. */
int sweep_design(const struct sweep_plan *p, uint64_t seed, struct sweep_points *out);
void sweep_points_release(struct sweep_points *pts);

/* The filesystem at point i (the fs factor's level or the target's), or
 * NULL (a dir = target). */
const char *sweep_point_fs(const struct sweep_plan *p, const struct sweep_points *pts, size_t i);
/* The level of factor f at point i, or NULL when it has none there. */
const char *sweep_point_level(const struct sweep_plan *p, const struct sweep_points *pts,
			      size_t i, size_t f);
/* "fs=xfs read_ahead_kb=128" (xmalloc'ed): the point's labels in plan order. */
char *sweep_point_text(const struct sweep_plan *p, const struct sweep_points *pts, size_t i);

#endif
