/*
 * The race design (sweep/sweep_race_int.h) on synthetic figures: an injected
 * effect is found and the bad points dropped with fewer runs than every
 * point at max_reps; equal points are dropped by noise no more often than
 * the stated error rate over many seeds (two points: the exact bound;
 * twelve: measured, printed, held below alpha); lower-is-better; failed
 * runs; ties; the schedule of looks.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sweep/sweep_race_int.h"
#include "util/rand.h"

static double normal(struct rng *g)
{
	double u1 = rng_double(g), u2 = rng_double(g);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

struct sim {
	size_t best;
	size_t runs;
	size_t dropped;  /* points dropped */
	bool any_dropped;
};

/* One race over points with these means and sd, noise from seed. */
static struct sim race(const double *mean, size_t n, double sd, unsigned min, unsigned max,
		       bool higher, uint64_t seed)
{
	struct rng g;
	rng_seed(&g, seed);
	struct sweep_race *r = sweep_race_new(n, min, max, higher);
	size_t pts[64], k;
	while ((k = sweep_race_next(r, pts)) > 0)
		for (size_t i = 0; i < k; i++)
			sweep_race_add(r, pts[i], mean[pts[i]] + sd * normal(&g));
	struct sim s = { .best = sweep_race_best(r), .runs = sweep_race_runs(r) };
	for (size_t i = 0; i < n; i++)
		if (!sweep_race_alive(r, i))
			s.dropped++;
	s.any_dropped = s.dropped > 0;
	sweep_race_free(r);
	return s;
}

static void schedule(void)
{
	struct sweep_race *r = sweep_race_new(4, 3, 10, true);
	/* looks at n = 3..9, threshold 2a / 3: at a = 0.05 / 5 = 0.01 drops are
	 * possible at n = 6..9 (2 / C(12, 6) = 0.0022 < 0.0067), four looks */
	CHECK(sweep_race_first_drop(r) == 6, "first drop at %u", sweep_race_first_drop(r));
	CHECK(fabs(sweep_race_level(r) - 0.01) < 1e-12, "level %g", sweep_race_level(r));
	sweep_race_free(r);
	r = sweep_race_new(4, 2, 5, true);
	/* looks at n = 2..4, one of them possible: a = 0.05, threshold 0.033,
	 * and 2 / C(8, 4) = 0.029 */
	CHECK(sweep_race_first_drop(r) == 4 && fabs(sweep_race_level(r) - 0.05) < 1e-12,
	      "min 2 max 5: %u %g", sweep_race_first_drop(r), sweep_race_level(r));
	size_t pts[4], k, rounds = 0, runs = 0;
	while ((k = sweep_race_next(r, pts)) > 0) {
		rounds++;
		runs += k;
		for (size_t i = 0; i < k; i++)
			sweep_race_add(r, pts[i], pts[i] == 0 ? 1000 + (double)rounds : (double)rounds);
	}
	CHECK(rounds == 4 && runs == 16, "all apart at n = 4: the race ends: %zu %zu", rounds, runs);
	CHECK(sweep_race_best(r) == 0 && sweep_race_alive(r, 0), "best %zu", sweep_race_best(r));
	for (size_t i = 1; i < 4; i++)
		CHECK(!sweep_race_alive(r, i) && sweep_race_dropped_at(r, i) == 4,
		      "point %zu dropped at %u", i, sweep_race_dropped_at(r, i));
	sweep_race_free(r);
	r = sweep_race_new(3, 2, 4, true);
	/* n = 2, 3: 0.33 and 0.1 never reach the threshold */
	CHECK(sweep_race_first_drop(r) == 0 && sweep_race_level(r) == 0, "min 2 max 4: %u %g",
	      sweep_race_first_drop(r), sweep_race_level(r));
	rounds = runs = 0;
	while ((k = sweep_race_next(r, pts)) > 0) {
		rounds++;
		runs += k;
		for (size_t i = 0; i < k; i++)
			sweep_race_add(r, pts[i], pts[i] == 0 ? 1000 + (double)rounds : (double)rounds);
	}
	CHECK(rounds == 4 && runs == 12, "no drop possible: every point runs max: %zu %zu", rounds,
	      runs);
	CHECK(sweep_race_best(r) == 0, "best %zu", sweep_race_best(r));
	sweep_race_free(r);
	r = sweep_race_new(12, 3, 10, true);
	/* threshold 2a / 11: at a = 0.05 / 4 the looks n = 6..9 */
	CHECK(sweep_race_first_drop(r) == 6 && fabs(sweep_race_level(r) - 0.0125) < 1e-12,
	      "12 points: %u %g", sweep_race_first_drop(r), sweep_race_level(r));
	sweep_race_free(r);
	r = sweep_race_new(3, 4, 4, false);
	CHECK(sweep_race_first_drop(r) == 0, "min == max: no looks");
	sweep_race_free(r);
	r = sweep_race_new(3, 4, 8, true);
	sweep_race_set_alpha(r, 0.2);
	/* looks n = 4..7, a = 0.05: n = 4 gives 0.029 */
	CHECK(sweep_race_first_drop(r) == 4 && fabs(sweep_race_level(r) - 0.05) < 1e-12,
	      "alpha 0.2: %u %g", sweep_race_first_drop(r), sweep_race_level(r));
	sweep_race_free(r);
}

static void effect_found(void)
{
	/* six points, one 30% better, CV 5% */
	double mean[6] = { 100, 100, 104, 130, 100, 95 };
	size_t found = 0, runs = 0, seeds = 200;
	for (uint64_t s = 1; s <= seeds; s++) {
		struct sim m = race(mean, 6, 5, 3, 10, true, s);
		found += m.best == 3;
		runs += m.runs;
	}
	CHECK(found == seeds, "best point found in %zu of %zu races", found, seeds);
	double avg = (double)runs / (double)seeds;
	printf("# effect 30%%, CV 5%%, 6 points, min 3 max 10: %.1f runs a race (full: 60)\n", avg);
	CHECK(avg < 45, "race saves runs: %.1f of 60", avg);
	/* lower is better: the point with the smallest figure wins */
	double lat[5] = { 10, 10, 7, 10, 12 };
	found = 0;
	for (uint64_t s = 1; s <= seeds; s++)
		found += race(lat, 5, 0.5, 3, 10, false, s).best == 2;
	CHECK(found == seeds, "lower is better: found in %zu of %zu", found, seeds);
}

/* The acceptance's shape: fs x read_ahead_kb x scheduler, 3 x 2 x 2 = 12
 * points, every effect additive (xfs +30%, btrfs -10%, 4096 +10%,
 * mq-deadline +5%), CV 3%. Each point's runs are one fixed sequence of 10
 * values; full takes all 10, the race the first ones it asks for. */
static void race_vs_full(void)
{
	size_t seeds = 200, same = 0, runs = 0;
	for (uint64_t seed = 1; seed <= seeds; seed++) {
		double v[12][10], med_full[12];
		struct rng g;
		rng_seed(&g, 9000 + seed);
		for (size_t p = 0; p < 12; p++) {
			size_t fs = p / 4, ra = (p / 2) % 2, sc = p % 2;
			double m = 100 * (fs == 1 ? 1.3 : fs == 2 ? 0.9 : 1) * (ra ? 1.1 : 1) *
				   (sc ? 1.05 : 1);
			for (size_t i = 0; i < 10; i++)
				v[p][i] = m * (1 + 0.03 * normal(&g));
			double s[10];
			memcpy(s, v[p], sizeof(s));
			for (size_t i = 1; i < 10; i++)
				for (size_t j = i; j > 0 && s[j - 1] > s[j]; j--) {
					double t = s[j];
					s[j] = s[j - 1];
					s[j - 1] = t;
				}
			med_full[p] = (s[4] + s[5]) / 2;
		}
		size_t best_full = 0;
		for (size_t p = 1; p < 12; p++)
			if (med_full[p] > med_full[best_full])
				best_full = p;
		struct sweep_race *r = sweep_race_new(12, 3, 10, true);
		size_t pts[12], k, used[12] = { 0 };
		while ((k = sweep_race_next(r, pts)) > 0)
			for (size_t i = 0; i < k; i++)
				sweep_race_add(r, pts[i], v[pts[i]][used[pts[i]]++]);
		same += sweep_race_best(r) == best_full;
		runs += sweep_race_runs(r);
		sweep_race_free(r);
	}
	double avg = (double)runs / (double)seeds;
	printf("# 12 points (3x2x2, additive effects, CV 3%%), min 3 max 10: the race's best is "
	       "full's in %zu of %zu, %.1f runs a race (full: 120)\n", same, seeds, avg);
	CHECK(same >= seeds * 95 / 100, "race's best is full's in %zu of %zu", same, seeds);
	CHECK(avg < 100, "the race runs fewer: %.1f of 120", avg);
}

static void noise_bounded(void)
{
	/* two equal points: the exact bound alpha */
	double eq[12] = { 0 };
	size_t seeds = 2000, races_with_drop = 0;
	for (uint64_t s = 1; s <= seeds; s++)
		races_with_drop += race(eq, 2, 1, 3, 10, true, 1000 + s).any_dropped;
	double rate = (double)races_with_drop / (double)seeds;
	/* alpha plus 3 binomial standard errors */
	double slack = 3 * sqrt(SWEEP_RACE_ALPHA * (1 - SWEEP_RACE_ALPHA) / (double)seeds);
	printf("# 2 equal points, min 3 max 10: a point dropped in %.2f%% of %zu races\n",
	       100 * rate, seeds);
	CHECK(rate <= SWEEP_RACE_ALPHA + slack, "2 equal points: %.4f > %.4f", rate,
	      SWEEP_RACE_ALPHA + slack);
	/* twelve equal points: the share of points dropped (each is as good as
	 * the best), and the share of races that drop any */
	size_t dropped = 0;
	races_with_drop = 0;
	seeds = 500;
	for (uint64_t s = 1; s <= seeds; s++) {
		struct sim m = race(eq, 12, 1, 3, 10, true, 5000 + s);
		dropped += m.dropped;
		races_with_drop += m.any_dropped;
	}
	double per_point = (double)dropped / (double)(12 * seeds);
	printf("# 12 equal points, min 3 max 10: %.2f%% of points dropped, %.1f%% of races drop "
	       "one\n", 100 * per_point, 100.0 * (double)races_with_drop / (double)seeds);
	CHECK(per_point <= SWEEP_RACE_ALPHA, "12 equal points: %.4f of points dropped", per_point);
}

static void failures_and_ties(void)
{
	struct sweep_race *r = sweep_race_new(3, 3, 6, true);
	size_t pts[3], k;
	while ((k = sweep_race_next(r, pts)) > 0)
		for (size_t i = 0; i < k; i++)
			if (pts[i] != 1) /* point 1's runs all fail */
				sweep_race_add(r, pts[i], 50);
	CHECK(!sweep_race_alive(r, 1), "a point without values leaves the race");
	CHECK(sweep_race_alive(r, 0) && sweep_race_alive(r, 2), "ties: nothing dropped");
	CHECK(sweep_race_values(r, 0) == 6 && sweep_race_values(r, 1) == 0,
	      "ties run to max: %zu %zu", sweep_race_values(r, 0), sweep_race_values(r, 1));
	CHECK(sweep_race_best(r) == 0, "tie: lowest index best");
	sweep_race_free(r);
	/* nothing at all */
	r = sweep_race_new(2, 1, 2, true);
	while ((k = sweep_race_next(r, pts)) > 0)
		;
	CHECK(sweep_race_best(r) == 2, "no values: best is npoints");
	sweep_race_free(r);
	/* a single point: min_reps then over (nothing to race against) */
	r = sweep_race_new(1, 2, 9, true);
	size_t runs = 0;
	while ((k = sweep_race_next(r, pts)) > 0)
		for (size_t i = 0; i < k; i++, runs++)
			sweep_race_add(r, pts[i], 1);
	CHECK(runs == 2 && sweep_race_best(r) == 0, "one point: %zu runs", runs);
	sweep_race_free(r);
	/* a failed run is asked again, up to max_reps */
	r = sweep_race_new(2, 2, 4, true);
	unsigned round = 0;
	while ((k = sweep_race_next(r, pts)) > 0) {
		round++;
		for (size_t i = 0; i < k; i++)
			if (!(pts[i] == 0 && round == 1))
				sweep_race_add(r, pts[i], (double)pts[i]);
	}
	CHECK(sweep_race_values(r, 0) == 3 && sweep_race_runs(r) == 8, "failed run: %zu values, "
	      "%zu runs", sweep_race_values(r, 0), sweep_race_runs(r));
	sweep_race_free(r);
}

int main(void)
{
	schedule();
	effect_found();
	race_vs_full();
	noise_bounded();
	failures_and_ties();
	return check_done("test_sweep_race");
}
