/*
 * The sweep section: per sweep the selections are
 * points of, what sweep_analyse() found (page.h: struct page_sweep, made
 * by cmd/report.c; nothing is recomputed here): one panel per factor with
 * its main effect (the mean goal per level with its Student t interval,
 * the best level marked), the points ranked on the goal with the interval
 * of each median, the importance shares (mains, pairs, higher orders,
 * noise) and the interaction notes. Markdown and text get the same
 * numbers as tables.
 */
#include "html/rp_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

void page_sweep_release(struct page_sweep *s)
{
	for (size_t f = 0; f < s->nr_factors; f++) {
		struct page_sweep_factor *x = &s->factors[f];
		for (size_t l = 0; l < x->nr_levels; l++) {
			free(x->levels[l].name);
			free(x->levels[l].text);
		}
		free(x->levels);
		free(x->name);
	}
	free(s->factors);
	for (size_t i = 0; i < s->nr_points; i++) {
		free(s->points[i].name);
		free(s->points[i].text);
	}
	free(s->points);
	free(s->pairs);
	for (size_t i = 0; i < s->nr_notes; i++)
		free(s->notes[i]);
	free(s->notes);
	free(s->rank);
	free(s->design);
	free(s->goal);
	free(s->state);
	free(s->dir);
	free(s->why);
	memset(s, 0, sizeof(*s));
}

/* Vertical whiskers of datablock $e (x mid lo hi) centred on x. */
static const char whiskers_v[] =
	", $e using 1:3:(0):($4-$3) with vectors nohead lc rgb '#222222' lw 1.3 notitle"
	", $e using ($1-0.1):3:(0.2):(0) with vectors nohead lc rgb '#222222' lw 1.3 notitle"
	", $e using ($1-0.1):4:(0.2):(0) with vectors nohead lc rgb '#222222' lw 1.3 notitle";

/* One factor's main effect: a bar per level at its mean, the t interval
 * as whiskers, the best level in the accent colour. */
static int plot_factor(struct rp_doc *d, const struct page_sweep *s, const struct page_sweep_factor *f)
{
	double max = 0;
	for (size_t l = 0; l < f->nr_levels; l++)
		max = fmax(max, fmax(f->levels[l].mean, f->levels[l].hi));
	struct rp_scale sc = rp_scale_of(s->unit, s->dir, max);
	struct rp_plot p;
	rp_plot_begin(&p, 360, 250);
	if (!p.f)
		return -ENOMEM;
	bool any_ci = false;
	/* $d: level-index x mean colour value-text top, the levels' names in
	 * the array L */
	fprintf(p.f, "array L[%zu]\n", f->nr_levels ? f->nr_levels : 1);
	for (size_t l = 0; l < f->nr_levels; l++)
		rp_plot_text_at(&p, "L", l + 1, f->levels[l].name);
	fputs("$d << EOD\n", p.f);
	for (size_t l = 0; l < f->nr_levels; l++) {
		const struct page_sweep_level *v = &f->levels[l];
		double m = v->mean / sc.div;
		fprintf(p.f, "%zu %zu %.6g %d ", l + 1, l, m, l == f->best ? 3 : 1);
		fprintf(p.f, fabs(m) >= 100 ? "%.0f" : fabs(m) >= 10 ? "%.1f" : "%.2f", m);
		fprintf(p.f, " %.6g\n", fmax(v->mean, v->conf > 0 ? v->hi : v->mean) / sc.div);
		any_ci |= v->conf > 0;
	}
	fputs("EOD\n", p.f);
	if (any_ci) {
		fputs("$e << EOD\n", p.f);
		for (size_t l = 0; l < f->nr_levels; l++) {
			const struct page_sweep_level *v = &f->levels[l];
			if (v->conf > 0)
				fprintf(p.f, "%zu %.6g %.6g %.6g\n", l, v->mean / sc.div, v->lo / sc.div,
					v->hi / sc.div);
		}
		fputs("EOD\n", p.f);
	}
	fprintf(p.f, "set boxwidth 0.62\nset yrange [0:*]\nset xrange [-0.6:%zu.6]\n",
		f->nr_levels ? f->nr_levels - 1 : 0);
	fputs("set ylabel ", p.f);
	rp_plot_str(&p, sc.unit);
	fputs("\nset xlabel ", p.f);
	rp_plot_str(&p, f->name);
	fputs(" textcolor rgb '#666666'\n", p.f);
	if (f->nr_levels > 4)
		fputs("set xtics rotate by -25\n", p.f);
	fputs("set bmargin 4\nplot $d using 2:3:4:xtic(L[int($1)]) with boxes lc variable notitle", p.f);
	if (any_ci)
		fputs(whiskers_v, p.f);
	fputs(", $d using 2:6:5 with labels offset char 0,0.7 font ',9' textcolor rgb '#333333' "
	      "notitle\n", p.f);
	char cap[512];
	snprintf(cap, sizeof(cap), "%s: mean %s per level (%s), bars: 95%% t interval; "
		 "%.1f%% of the variance; best (green): %s", f->name, s->goal, sc.unit,
		 f->share * 100, f->nr_levels ? f->levels[f->best].name : "-");
	return rp_plot_end(d, &p, cap);
}

/* The points ranked on the goal, best on top: a horizontal bar per point
 * at its median, the interval of the median as whiskers. */
static int plot_ranking(struct rp_doc *d, const struct page_sweep *s)
{
	double max = 0;
	for (size_t i = 0; i < s->nr_points; i++)
		max = fmax(max, fmax(s->points[i].median, s->points[i].hi));
	struct rp_scale sc = rp_scale_of(s->unit, s->dir, max);
	struct rp_plot p;
	rp_plot_begin(&p, 1000, (unsigned)(70 + 24 * s->nr_points));
	if (!p.f)
		return -ENOMEM;
	p.wide = true;
	bool any_ci = false;
	/* $d: name-index y median colour value-text right-end, the points'
	 * names in the array L */
	fprintf(p.f, "array L[%zu]\n", s->nr_points ? s->nr_points : 1);
	for (size_t i = 0; i < s->nr_points; i++) {
		char name[300];
		snprintf(name, sizeof(name), "%zu. %s", i + 1, s->points[i].name);
		rp_plot_text_at(&p, "L", i + 1, name);
	}
	fputs("$d << EOD\n", p.f);
	for (size_t i = 0; i < s->nr_points; i++) {
		const struct page_sweep_point *v = &s->points[i];
		double m = v->median / sc.div;
		fprintf(p.f, "%zu %zu %.6g %d ", i + 1, i + 1, m, i == 0 ? 3 : 1);
		fprintf(p.f, fabs(m) >= 100 ? "%.0f" : fabs(m) >= 10 ? "%.1f" : "%.2f", m);
		fprintf(p.f, " %.6g\n", fmax(v->median, v->conf > 0 ? v->hi : v->median) / sc.div);
		any_ci |= v->conf > 0;
	}
	fputs("EOD\n", p.f);
	if (any_ci) {
		fputs("$e << EOD\n", p.f);
		for (size_t i = 0; i < s->nr_points; i++) {
			const struct page_sweep_point *v = &s->points[i];
			if (v->conf > 0)
				fprintf(p.f, "%zu %.6g %.6g %.6g\n", i + 1, v->median / sc.div,
					v->lo / sc.div, v->hi / sc.div);
		}
		fputs("EOD\n", p.f);
	}
	fprintf(p.f, "set grid noytics xtics\nset yrange [%zu.6:0.4]\nset xrange [0:*]\n"
		"set offsets 0, graph 0.08, 0, 0\n", s->nr_points);
	fputs("set xlabel ", p.f);
	rp_plot_str(&p, sc.unit);
	fputs("\nset ytics font ',10'\n", p.f);
	fputs("plot $d using ($3/2):2:(0):3:($2-0.32):($2+0.32):4:ytic(L[int($1)]) with boxxyerror "
	      "lc variable notitle", p.f);
	if (any_ci)
		fputs(", $e using 3:1:($4-$3):(0) with vectors nohead lc rgb '#222222' lw 1.3 notitle"
		      ", $e using 3:($1-0.18):(0):(0.36) with vectors nohead lc rgb '#222222' lw 1.3 notitle"
		      ", $e using 4:($1-0.18):(0):(0.36) with vectors nohead lc rgb '#222222' lw 1.3 notitle",
		      p.f);
	fputs(", $d using 6:2:5 with labels left offset char 0.8,0 font ',9' textcolor rgb '#333333' "
	      "notitle\n", p.f);
	char cap[512];
	snprintf(cap, sizeof(cap), "points ranked on %s (%s; %s is better): median of each point's "
		 "runs, bars: its interval (95%% from 6 runs; below, min–max with the coverage the "
		 "table gives)", s->goal, sc.unit, s->higher_is_better ? "higher" : "lower");
	return rp_plot_end(d, &p, cap);
}

static void conf_note(char *buf, size_t len, double conf, size_t n)
{
	if (conf <= 0)
		snprintf(buf, len, "%zu run%s, no interval", n, n == 1 ? "" : "s");
	else
		snprintf(buf, len, "%zu runs, %.0f%%", n, conf * 100);
}

static void table_ranking(struct rp_doc *d, const struct page_sweep *s)
{
	struct rp_table t;
	rp_table_init(&t, 4, "rank", "point", "median [interval]", "runs, coverage");
	for (size_t i = 0; i < s->nr_points; i++) {
		const struct page_sweep_point *v = &s->points[i];
		char c[64];
		conf_note(c, sizeof(c), v->conf, v->n);
		rp_table_row(&t);
		rp_table_cell(&t, RP_NUM | (i == 0 ? RP_GOOD : 0), "%zu", i + 1);
		rp_table_cell(&t, i == 0 ? RP_GOOD : 0, "%s", v->name);
		rp_table_cell(&t, RP_NUM | (i == 0 ? RP_GOOD : 0), "%s", v->text);
		rp_table_cell(&t, RP_NUM, "%s", c);
	}
	rp_table_align(&t, 0, RP_NUM);
	rp_table_align(&t, 2, RP_NUM);
	rp_table_align(&t, 3, RP_NUM);
	char cap[200];
	snprintf(cap, sizeof(cap), "points ranked on %s", s->goal);
	rp_table_write(d, &t, cap);
	rp_table_release(&t);
}

static void table_levels(struct rp_doc *d, const struct page_sweep *s)
{
	struct rp_table t;
	rp_table_init(&t, 5, "factor", "level", "mean [95% t interval]", "runs", "best");
	for (size_t f = 0; f < s->nr_factors; f++) {
		const struct page_sweep_factor *x = &s->factors[f];
		for (size_t l = 0; l < x->nr_levels; l++) {
			const struct page_sweep_level *v = &x->levels[l];
			bool best = l == x->best;
			rp_table_row(&t);
			rp_table_cell(&t, 0, "%s", x->name);
			rp_table_cell(&t, best ? RP_GOOD : 0, "%s", v->name);
			rp_table_cell(&t, RP_NUM | (best ? RP_GOOD : 0), "%s", v->text);
			rp_table_cell(&t, RP_NUM, "%zu", v->n);
			rp_table_cell(&t, best ? RP_GOOD : RP_DIM, "%s", best ? "best" : "-");
		}
	}
	rp_table_align(&t, 2, RP_NUM);
	rp_table_align(&t, 3, RP_NUM);
	char cap[200];
	snprintf(cap, sizeof(cap), "main effects on %s", s->goal);
	rp_table_write(d, &t, cap);
	rp_table_release(&t);
}

static void table_importance(struct rp_doc *d, const struct page_sweep *s)
{
	struct rp_table t;
	rp_table_init(&t, 3, "what", "share of the variance", "note");
	for (size_t k = 0; k < s->nr_factors; k++) {
		const struct page_sweep_factor *x = &s->factors[s->rank ? s->rank[k] : k];
		rp_table_row(&t);
		rp_table_cell(&t, 0, "%s", x->name);
		rp_table_cell(&t, RP_NUM | (k == 0 ? RP_DIFF : 0), "%.1f%%", x->share * 100);
		rp_table_cell(&t, 0, "main effect; best level %s",
			      x->nr_levels ? x->levels[x->best].name : "-");
	}
	for (size_t i = 0; i < s->nr_pairs; i++) {
		const struct page_sweep_pair *q = &s->pairs[i];
		rp_table_row(&t);
		rp_table_cell(&t, 0, "%s × %s", q->a, q->b);
		rp_table_cell(&t, RP_NUM | (q->matters ? RP_DIFF : RP_DIM), "%.1f%%", q->share * 100);
		rp_table_cell(&t, q->matters ? 0 : RP_DIM, "interaction%s%s",
			      q->matters ? " that matters" : "",
			      q->incomplete ? " (estimated from the cells that have runs)" : "");
	}
	if (s->nr_factors > 2) {
		rp_table_row(&t);
		rp_table_cell(&t, 0, "higher orders");
		rp_table_cell(&t, RP_NUM, "%.1f%%", s->share_higher * 100);
		rp_table_cell(&t, 0, "interactions of three factors or more");
	}
	rp_table_row(&t);
	rp_table_cell(&t, 0, "noise");
	rp_table_cell(&t, RP_NUM, "%.1f%%", s->share_noise * 100);
	rp_table_cell(&t, 0, "the spread of the repetitions within a point");
	rp_table_align(&t, 1, RP_NUM);
	rp_table_write(d, &t, "importance: each factor's share of the goal's variance");
	rp_table_release(&t);
}

static bool present(const struct rp_doc *d)
{
	return d->in->nr_sweeps > 0;
}

static int write(struct rp_doc *d)
{
	for (size_t i = 0; i < d->in->nr_sweeps; i++) {
		const struct page_sweep *s = &d->in->sweeps[i];
		char h[300];
		snprintf(h, sizeof(h), "sweep %lld%s%s%s%s", (long long)s->id, s->goal ? ": " : "",
			 s->goal ? s->goal : "", s->design ? ", design " : "", s->design ? s->design : "");
		rp_heading(d, 3, NULL, h);
		if (s->why) {
			rp_para(d, "warn", "%s", s->why);
			continue;
		}
		rp_para(d, "note", "%zu run%s of %zu point%s analysed on %s (%s is better)%s%s; %s%s.",
			s->nr_runs, s->nr_runs == 1 ? "" : "s", s->nr_points, s->nr_points == 1 ? "" : "s",
			s->goal, s->higher_is_better ? "higher" : "lower",
			s->state ? ", the sweep " : "", s->state ? s->state : "",
			s->balanced ? "a balanced full factorial: the shares are the ANOVA decomposition"
				    : "not a balanced design: the factors are correlated and each share "
				      "is what that factor explains alone",
			s->overlap ? " (they overlap, so they add up to more than 100%)" : "");
		if (s->skipped)
			rp_para(d, "note", "%zu stored run%s of the sweep left out (no label of every "
				"factor, or no %s figure).", s->skipped, s->skipped == 1 ? "" : "s", s->goal);
		rp_heading(d, 3, NULL, "main effect of each factor");
		rp_grid_begin(d);
		for (size_t f = 0; f < s->nr_factors; f++) {
			int rc = plot_factor(d, s, &s->factors[f]);
			if (rc < 0)
				return rc;
		}
		rp_grid_end(d);
		table_levels(d, s);
		rp_heading(d, 3, NULL, "the points ranked");
		rp_grid_begin(d);
		int rc = plot_ranking(d, s);
		rp_grid_end(d);
		if (rc < 0)
			return rc;
		table_ranking(d, s);
		table_importance(d, s);
		rp_heading(d, 3, NULL, "interactions");
		if (!s->nr_notes)
			rp_para(d, "note", "no interaction makes a main effect misleading: no pair of "
				"factors explains %.0f%% of the variance beyond their main effects.",
				s->interaction_share * 100);
		for (size_t k = 0; k < s->nr_notes; k++)
			rp_para(d, "warn", "%s", s->notes[k]);
	}
	return 0;
}

const struct rp_section rp_sec_sweep = { "sweep", "Sweep", present, write };
