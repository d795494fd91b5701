/*
 * Successive elimination for the `race` design (sweep_race_int.h): the values
 * of each point, which points are still in, the per-look level from the
 * race's alpha, and the looks themselves (Mann-Whitney U of each point
 * against the leader).
 */
#include "sweep/sweep_race_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/mannwhitney.h"
#include "util/xmalloc.h"

struct race_point {
	double *v;
	size_t nv, alloc;
	unsigned asked;      /* runs asked for */
	unsigned dropped_at; /* n when dropped by a look; 0 not */
	bool out;            /* dropped, or no value after min_reps */
};

struct sweep_race {
	size_t n;
	unsigned min_reps, max_reps;
	bool higher;
	double alpha;
	bool started;        /* sweep_race_next was called */
	double level;        /* per look */
	unsigned looks;      /* looks that may spend level */
	unsigned spent;      /* looks that did */
	unsigned first_drop; /* smallest n at which a drop is possible; 0 never */
	size_t values_at_look; /* total values when last looked */
	size_t runs;
	struct race_point *p;
	double *scratch;     /* for medians: as long as the longest point */
	size_t scratch_n;
};

static void plan(struct sweep_race *r);

struct sweep_race *sweep_race_new(size_t npoints, unsigned min_reps, unsigned max_reps,
				  bool higher_is_better)
{
	struct sweep_race *r = xcalloc(1, sizeof(*r));
	r->n = npoints;
	r->min_reps = min_reps ? min_reps : 1;
	r->max_reps = max_reps < r->min_reps ? r->min_reps : max_reps;
	r->higher = higher_is_better;
	r->alpha = SWEEP_RACE_ALPHA;
	r->p = xcalloc(npoints ? npoints : 1, sizeof(*r->p));
	plan(r);
	return r;
}

void sweep_race_set_alpha(struct sweep_race *r, double alpha)
{
	if (alpha > 0 && alpha < 1 && !r->started) {
		r->alpha = alpha;
		plan(r);
	}
}

void sweep_race_free(struct sweep_race *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		free(r->p[i].v);
	free(r->p);
	free(r->scratch);
	free(r);
}

void sweep_race_add(struct sweep_race *r, size_t point, double value)
{
	if (point >= r->n || !isfinite(value))
		return;
	struct race_point *p = &r->p[point];
	p->v = xgrow(p->v, &p->alloc, p->nv, sizeof(*p->v));
	p->v[p->nv++] = value;
	if (p->nv > r->scratch_n) {
		r->scratch_n = p->nv;
		r->scratch = xrealloc(r->scratch, r->scratch_n * sizeof(double));
	}
}

/* The smallest two-sided p the exact U test can give for sizes m and n:
 * every value of one side beyond every value of the other, 2 / C(m+n, m). */
static double min_p(size_t m, size_t n)
{
	double c = 1;
	for (size_t i = 1; i <= m; i++)
		c = c * (double)(n + i) / (double)i;
	return fmin(1, 2 / c);
}

/* The per-look level a: alpha over the looks (n = min_reps .. max_reps - 1
 * runs a point) at which a drop is possible at all, that is where the
 * smallest p of n against n runs is below the threshold 2a / (npoints - 1)
 * (look()). The race spends a at most L times, so L must cover the
 * possible looks; a smaller L gives a larger a. */
static double threshold(const struct sweep_race *r, double level)
{
	return 2 * level / (double)(r->n > 2 ? r->n - 1 : 1);
}

static void plan(struct sweep_race *r)
{
	unsigned most = r->max_reps - r->min_reps;
	r->looks = 0;
	r->level = 0;
	r->first_drop = 0;
	/* the smallest L (the largest a) whose possible looks fit in L */
	for (unsigned L = 1; L <= most; L++) {
		double level = r->alpha / L;
		unsigned possible = 0, first = 0;
		for (unsigned n = r->min_reps; n < r->max_reps; n++)
			if (n >= 2 && min_p(n, n) < threshold(r, level)) {
				possible++;
				if (!first)
					first = n;
			}
		if (possible == 0)
			return; /* fewer looks only lower a further */
		if (possible <= L) {
			r->looks = L;
			r->level = level;
			r->first_drop = first;
			return;
		}
	}
}

static double median_of(const struct sweep_race *r, const struct race_point *p)
{
	if (!p->nv)
		return NAN;
	memcpy(r->scratch, p->v, p->nv * sizeof(double));
	/* insertion sort: a point has at most max_reps values */
	for (size_t i = 1; i < p->nv; i++) {
		double x = r->scratch[i];
		size_t j = i;
		for (; j > 0 && r->scratch[j - 1] > x; j--)
			r->scratch[j] = r->scratch[j - 1];
		r->scratch[j] = x;
	}
	size_t h = p->nv / 2;
	return p->nv % 2 ? r->scratch[h] : (r->scratch[h - 1] + r->scratch[h]) / 2;
}

static size_t leader(const struct sweep_race *r)
{
	size_t best = r->n;
	double bm = NAN;
	for (size_t i = 0; i < r->n; i++) {
		if (r->p[i].out || !r->p[i].nv)
			continue;
		double m = median_of(r, &r->p[i]);
		if (best == r->n || (r->higher ? m > bm : m < bm)) {
			best = i;
			bm = m;
		}
	}
	return best;
}

static size_t total_values(const struct sweep_race *r)
{
	size_t t = 0;
	for (size_t i = 0; i < r->n; i++)
		t += r->p[i].nv;
	return t;
}

static size_t alive_count(const struct sweep_race *r);

/* Each point against the leader: dropped when the leader is on the better
 * side and the two-sided p is below 2a / (npoints - 1). For a point j as
 * good as the best, no other point i is better, so the leader i is on the
 * better side with two-sided p below t with probability at most t / 2;
 * over the npoints - 1 others (whichever leads) that is at most a at this
 * look, and alpha over the looks. A look that could drop a point spends
 * a; after `looks` of them there are no more. */
static void look(struct sweep_race *r)
{
	size_t tv = total_values(r);
	if (tv == r->values_at_look || r->spent >= r->looks)
		return;
	r->values_at_look = tv;
	size_t L = leader(r);
	if (L == r->n || alive_count(r) < 2)
		return;
	double thresh = threshold(r, r->level);
	const struct race_point *lp = &r->p[L];
	bool possible = false;
	for (size_t i = 0; i < r->n; i++) {
		struct race_point *p = &r->p[i];
		if (i == L || p->out || p->nv < 2 || lp->nv < 2)
			continue;
		if (min_p(lp->nv, p->nv) >= thresh)
			continue;
		possible = true;
		struct mwu_result u;
		if (mann_whitney_u(lp->v, lp->nv, p->v, p->nv, &u) < 0)
			continue;
		/* effect: P(leader > point); the leader must be on the better side */
		bool leader_better = r->higher ? u.effect > 0.5 : u.effect < 0.5;
		if (leader_better && u.p < thresh) {
			p->out = true;
			p->dropped_at = (unsigned)p->nv;
		}
	}
	if (possible)
		r->spent++;
}

static size_t alive_count(const struct sweep_race *r)
{
	size_t a = 0;
	for (size_t i = 0; i < r->n; i++)
		a += !r->p[i].out;
	return a;
}

size_t sweep_race_next(struct sweep_race *r, size_t *points)
{
	size_t k = 0;
	r->started = true;
	/* the minimum runs first */
	for (size_t i = 0; i < r->n; i++)
		if (!r->p[i].out && r->p[i].asked < r->min_reps)
			points[k++] = i;
	if (!k) {
		/* no value after min_reps runs: out of the race */
		for (size_t i = 0; i < r->n; i++)
			if (!r->p[i].nv)
				r->p[i].out = true;
		look(r);
		if (alive_count(r) > 1)
			for (size_t i = 0; i < r->n; i++)
				if (!r->p[i].out && r->p[i].asked < r->max_reps)
					points[k++] = i;
	}
	for (size_t i = 0; i < k; i++)
		r->p[points[i]].asked++;
	r->runs += k;
	return k;
}

bool sweep_race_alive(const struct sweep_race *r, size_t point)
{
	return point < r->n && !r->p[point].out && (r->p[point].nv || r->p[point].asked <
						    r->min_reps);
}

size_t sweep_race_best(const struct sweep_race *r)
{
	return leader(r);
}

size_t sweep_race_values(const struct sweep_race *r, size_t point)
{
	return point < r->n ? r->p[point].nv : 0;
}

size_t sweep_race_runs(const struct sweep_race *r)
{
	return r->runs;
}

unsigned sweep_race_first_drop(const struct sweep_race *r)
{
	return r->first_drop;
}

double sweep_race_level(const struct sweep_race *r)
{
	return r->level;
}

unsigned sweep_race_dropped_at(const struct sweep_race *r, size_t point)
{
	return point < r->n ? r->p[point].dropped_at : 0;
}
