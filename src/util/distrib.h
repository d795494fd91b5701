/*
 * Non-uniform block pickers for fio's random_distribution=zipf:THETA,
 * pareto:H and normal:DEV over n blocks. A pick is drawn in "raw" space,
 * where the hot blocks sit together (zipf rank 0 is the hottest), and then
 * scattered over [0, n) by a keyed permutation so that the hot set is not
 * all at offset 0, as fio does with its hash. Everything that does not
 * depend on the draw is computed in distrib_init(); distrib_next() is O(1)
 * and does not modify *d, so threads may share one distrib with their own rng.
 *
 * Parameters (fio's ranges, except where noted):
 *   zipf   theta >= 0; the block of rank k (1-based) is picked with
 *          probability proportional to k^-theta. theta = 0 is uniform.
 *          fio rejects exactly 1.0 (its approximation divides by 1 - theta);
 *          the exact sampler here accepts it. Negative theta is rejected.
 *   pareto 0 < h < 1; raw = floor(n * u^(ln h / ln(1 - h))), so a fraction h
 *          of the blocks gets a share 1 - h of the picks (h = 0.2: 80/20).
 *   normal 0 <= dev < 100; a normal distribution centred on the middle of
 *          the range with standard deviation dev% of n, redrawn when it falls
 *          outside [0, n). (fio's own "normal" averages 12 uniforms and adds
 *          a dev-wide uniform jitter; this is a true normal with that dev.)
 */
#ifndef IOBENCH_UTIL_DISTRIB_H
#define IOBENCH_UTIL_DISTRIB_H

#include <stdbool.h>
#include <stdint.h>

#include "util/rand.h"
#include "util/randperm.h"

enum distrib_kind {
	DISTRIB_ZIPF,
	DISTRIB_PARETO,
	DISTRIB_NORMAL,
};

struct distrib {
	enum distrib_kind kind;
	double param;
	uint64_t n;
	struct randperm scatter;
	/* zipf, rejection-inversion (Hoermann & Derflinger 1996) */
	double theta;
	double h_x1, h_n, squeeze;
	/* pareto */
	double pareto_pow;
	/* normal */
	double mean, sd;
	/* zipf/pareto center: the hottest block sits at center_block */
	bool has_center;
	uint64_t center_block;
};

/* 0, or -EINVAL for n == 0, an unknown kind or a parameter out of range. */
int distrib_init(struct distrib *d, enum distrib_kind kind, double param, uint64_t n, uint64_t seed);
/* Move the hot spot (the hottest block) to center * n, 0 <= center <= 1, as
 * fio's zipf:THETA:CENTER and pareto:H:CENTER do; the rest keeps its spread. */
void distrib_set_center(struct distrib *d, double center);
/* A block index in [0, n). */
uint64_t distrib_next(struct distrib *d, struct rng *r);
/* The same pick before scattering, in [0, n) (for tests and plots). */
uint64_t distrib_raw(const struct distrib *d, struct rng *r);

#endif
