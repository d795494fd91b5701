/*
 * A sweep's analysis as text (sweep_analysis.h): the ranked points, the
 * main effects with each factor's best level, the importance shares, the
 * interactions that matter and the notes.
 */
#include "sweep/sweep_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void interval(const struct sweep_analysis *a, const struct sweep_interval *ci, char *buf,
		     size_t len)
{
	char lo[32], hi[32];
	if (ci->conf <= 0) {
		snprintf(buf, len, "-");
		return;
	}
	sweep_goal_format(&a->goal, ci->lo, lo, sizeof(lo));
	sweep_goal_format(&a->goal, ci->hi, hi, sizeof(hi));
	snprintf(buf, len, "%s - %s (%.0f%%)", lo, hi, 100 * ci->conf);
}

/* "  p 0.003" after a share, or nothing without a test */
static void pvalue(double p, char *buf, size_t len)
{
	if (isnan(p))
		buf[0] = '\0';
	else if (p < 0.001)
		snprintf(buf, len, "  p < 0.001");
	else
		snprintf(buf, len, "  p %.3f", p);
}

void sweep_report_text(const struct sweep_analysis *a, FILE *out)
{
	char v[32], ci[96], pv[32];
	fprintf(out, "goal: %s (%s is better), %zu run(s), %zu point(s), factors:", a->goal.text,
		a->goal.higher_is_better ? "higher" : "lower", a->nr_runs, a->nr_points);
	for (size_t f = 0; f < a->nr_factors; f++)
		fprintf(out, "%s %s", f ? "," : "", a->factors[f].name);
	fputc('\n', out);

	size_t w = 5;
	for (size_t i = 0; i < a->nr_points; i++)
		w = strlen(a->points[i].name) > w ? strlen(a->points[i].name) : w;
	fprintf(out, "\npoints, best first (median of the runs, its interval):\n");
	fprintf(out, "  %4s  %-*s  %4s  %14s  %s\n", "rank", (int)w, "point", "runs", "median",
		"interval (confidence)");
	for (size_t i = 0; i < a->nr_points; i++) {
		const struct sweep_point *p = &a->points[i];
		sweep_goal_format(&a->goal, p->median, v, sizeof(v));
		interval(a, &p->ci, ci, sizeof(ci));
		fprintf(out, "  %4zu  %-*s  %4zu  %14s  %s\n", i + 1, (int)w, p->name, p->n, v, ci);
	}

	fprintf(out, "\nmain effects (mean per level, 95%% interval of the mean):\n");
	for (size_t f = 0; f < a->nr_factors; f++) {
		const struct sweep_factor_effect *fe = &a->factors[f];
		fprintf(out, "  %s (best: %s)\n", fe->label, fe->levels[fe->best].name);
		for (size_t l = 0; l < fe->nr_levels; l++) {
			const struct sweep_level *lv = &fe->levels[l];
			sweep_goal_format(&a->goal, lv->mean, v, sizeof(v));
			interval(a, &lv->ci, ci, sizeof(ci));
			fprintf(out, "    %-20s %14s  %-34s runs %zu\n", lv->name, v, ci, lv->n);
		}
	}

	fprintf(out, "\nimportance (share of the goal's variance), factors by share:\n");
	for (size_t r = 0; r < a->nr_factors; r++) {
		const struct sweep_factor_effect *fe = &a->factors[a->rank[r]];
		pvalue(fe->p, pv, sizeof(pv));
		fprintf(out, "  %-28s %6.1f%%%s\n", fe->label, 100 * fe->share, pv);
	}
	for (size_t p = 0; p < a->nr_pairs; p++) {
		const struct sweep_interaction *in = &a->pairs[p];
		char name[128];
		snprintf(name, sizeof(name), "%s x %s", a->factors[in->a].label,
			 a->factors[in->b].label);
		pvalue(in->p, pv, sizeof(pv));
		fprintf(out, "  %-28s %6.1f%%%s%s\n", name, 100 * in->share, pv,
			in->matters ? "  (matters)" : "");
	}
	if (a->nr_factors > 2)
		fprintf(out, "  %-28s %6.1f%%\n", "higher interactions", 100 * a->share_higher);
	fprintf(out, "  %-28s %6.1f%%\n", "repetitions (noise)", 100 * a->share_noise);

	bool any = false;
	for (size_t p = 0; p < a->nr_pairs; p++)
		any |= a->pairs[p].matters;
	fprintf(out, "\ninteractions that matter (>= %.0f%% of the variance%s):%s\n",
		100 * SWEEP_INTERACTION_SHARE, a->error_df ? ", p < 0.05" : "", any ? "" : " none");
	for (size_t p = 0; p < a->nr_pairs; p++)
		if (a->pairs[p].matters)
			fprintf(out, "  %s x %s: %.1f%%\n", a->factors[a->pairs[p].a].label,
				a->factors[a->pairs[p].b].label, 100 * a->pairs[p].share);
	if (a->nr_notes) {
		fprintf(out, "\nnotes:\n");
		for (size_t i = 0; i < a->nr_notes; i++)
			fprintf(out, "  - %s\n", a->notes[i]);
	}
}
