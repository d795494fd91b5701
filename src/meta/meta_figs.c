/*
 * The metadata workload's figures (meta/meta.h): one iteration's
 * per-phase aggregate from every rank's result, as mdtest 4.1 computes
 * them (mdtest.c: summarize_results and the tree creation/removal rates),
 * and the statistics over iterations of its SUMMARY table.
 */
#include "meta/meta.h"

#include <math.h>
#include <string.h>

static double secs(uint64_t a, uint64_t b)
{
	return b > a ? (double)(b - a) / 1e9 : 0.0;
}

void meta_aggregate(const struct meta_tree *t, const struct meta_result *ranks, int n,
		    struct meta_phase_agg out[META_NR_PHASES])
{
	memset(out, 0, sizeof(*out) * META_NR_PHASES);
	for (int p = 0; p < META_NR_PHASES; p++) {
		struct meta_phase_agg *a = &out[p];
		unsigned counted = 0;
		for (int r = 0; r < n; r++) {
			const struct meta_phase_fig *f = &ranks[r].ph[p];
			if (!f->ran)
				continue;
			a->ran = true;
			a->all_items += f->items;
			double tm = secs(f->start_ns, f->end_ns), bb = secs(f->start_ns, f->end_bb_ns);
			if (tm > a->time_s)
				a->time_s = tm;
			double rr = bb > 0 ? (double)f->items / bb : 0.0;
			if (!counted || rr < a->rank_min)
				a->rank_min = rr;
			if (!counted || rr > a->rank_max)
				a->rank_max = rr;
			a->rank_mean += rr;
			counted++;
		}
		if (counted)
			a->rank_mean /= counted;
		a->items = a->all_items;
		if (p == META_TREE_CREATE || p == META_TREE_REMOVE) {
			/* mdtest: one tree's directories over rank 0's span */
			a->items = a->ran ? t->num_dirs : 0;
			a->time_s = n > 0 && ranks[0].ph[p].ran ? secs(ranks[0].ph[p].start_ns,
								      ranks[0].ph[p].end_ns) : 0.0;
		}
		a->rate = a->time_s > 0 ? (double)a->items / a->time_s : 0.0;
	}
}

void meta_stat_of(const double *v, unsigned n, struct meta_stat *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	out->max = out->min = v[0];
	double sum = 0;
	for (unsigned i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] > out->max)
			out->max = v[i];
		if (v[i] < out->min)
			out->min = v[i];
	}
	out->mean = sum / n;
	if (n > 1) {
		double ss = 0;
		for (unsigned i = 0; i < n; i++)
			ss += (v[i] - out->mean) * (v[i] - out->mean);
		out->sd = sqrt(ss / (n - 1));
	}
}
