/*
 * The computations of sweep_analysis.h: runs into observations (levels and
 * goal value), points and their medians, factor levels and their means,
 * the sums of squares of the factors, pairs, points and repetitions, and
 * the notes. The renderers are sweep_report_text.c and sweep_report_json.c.
 */
#include "sweep/sweep_analysis.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/median_ci.h"
#include "stats/probdist.h"
#include "util/error.h"
#include "util/xmalloc.h"

struct obs {
	const char **lv; /* nf levels, pointing into the runs' labels; NULL: no label */
	double y;
	int64_t id;
	bool has_y, keep;
};

/* Two levels the same: both absent (a nested factor's), or equal. */
static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static void note_add(struct sweep_analysis *a, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void note_add(struct sweep_analysis *a, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	a->notes = xrealloc(a->notes, (a->nr_notes + 1) * sizeof(*a->notes));
	a->notes[a->nr_notes++] = s;
}

static size_t level_index(const struct sweep_factor_effect *f, const char *v)
{
	for (size_t i = 0; i < f->nr_levels; i++)
		if (!strcmp(f->levels[i].name, v))
			return i;
	return f->nr_levels;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void median_interval(struct sweep_point *p)
{
	struct median_ci m;
	int rc = median_ci(p->values, p->n, SWEEP_CONF, &m);
	p->median = m.median;
	p->ci.lo = m.lo;
	p->ci.hi = m.hi;
	p->ci.conf = rc == 0 || rc == -EDOM ? m.confidence : 0;
	if (rc != 0 && rc != -EDOM) { /* cannot happen for finite values; be plain */
		double *s = xmalloc(p->n * sizeof(double));
		memcpy(s, p->values, p->n * sizeof(double));
		qsort(s, p->n, sizeof(double), cmp_double);
		p->median = p->n % 2 ? s[p->n / 2] : (s[p->n / 2 - 1] + s[p->n / 2]) / 2;
		p->ci.lo = s[0];
		p->ci.hi = s[p->n - 1];
		free(s);
	}
}

static void mean_interval(const double *y, size_t n, double *mean, struct sweep_interval *ci)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += y[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (y[i] - *mean) * (y[i] - *mean);
	if (n < 2) {
		ci->lo = ci->hi = *mean;
		ci->conf = 0;
		return;
	}
	double half = prob_t_critical(SWEEP_CONF, (double)(n - 1)) * sqrt(ss / (double)(n - 1)) /
		      sqrt((double)n);
	ci->lo = *mean - half;
	ci->hi = *mean + half;
	ci->conf = SWEEP_CONF;
}

/* Between-group sum of squares of the groups the factors marked in use
 * make, and how many groups there are. */
static double between_ss(const struct obs *o, size_t n, double grand, size_t nf, const bool *use,
			 size_t *groups)
{
	/* groups by the levels of the factors marked in use: O(n^2) is fine
	 * for the few hundred runs of a sweep */
	bool *done = xcalloc(n ? n : 1, sizeof(bool));
	double ss = 0;
	*groups = 0;
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		double sum = 0;
		size_t cnt = 0;
		for (size_t j = i; j < n; j++) {
			bool eq = true;
			for (size_t f = 0; f < nf && eq; f++)
				if (use[f] && !same(o[i].lv[f], o[j].lv[f]))
					eq = false;
			if (eq) {
				done[j] = true;
				sum += o[j].y;
				cnt++;
			}
		}
		double m = sum / (double)cnt;
		ss += (double)cnt * (m - grand) * (m - grand);
		(*groups)++;
	}
	free(done);
	return ss;
}

/* P(F > f) for the effect's sum of squares ss on df against the error's
 * mean square on df_err; NAN when there is no test. The arguments are
 * checked so that GSL's error handler (it aborts) is never reached. */
static double f_pvalue(double ss, double df, double ms_err, double df_err)
{
	if (!(df > 0) || !(df_err > 0) || !(ss >= 0) || !(ms_err >= 0))
		return NAN;
	if (ms_err == 0)
		return ss > 0 ? 0 : NAN;
	double f = ss / df / ms_err;
	if (!isfinite(f))
		return 0;
	return gsl_cdf_fdist_Q(f, df, df_err);
}

static bool goal_better(const struct sweep_goal *g, double a, double b)
{
	return sweep_goal_better(g, a, b);
}

static int point_order(const void *x, const void *y, void *arg)
{
	const struct sweep_point *a = x, *b = y;
	const struct sweep_goal *sort_goal = arg;
	if (goal_better(sort_goal, a->median, b->median))
		return -1;
	if (goal_better(sort_goal, b->median, a->median))
		return 1;
	if (goal_better(sort_goal, a->mean, b->mean))
		return -1;
	if (goal_better(sort_goal, b->mean, a->mean))
		return 1;
	return strcmp(a->name, b->name);
}

/* Every run's levels (NULL where it has no label) and goal value. */
static struct obs *collect(const struct cmp_run *runs, size_t n, const char *const *factors,
			   size_t nf, const struct sweep_goal *goal)
{
	struct obs *o = xcalloc(n ? n : 1, sizeof(*o));
	for (size_t i = 0; i < n; i++) {
		o[i].lv = xcalloc(nf, sizeof(*o[i].lv));
		for (size_t f = 0; f < nf; f++)
			o[i].lv[f] = cmp_kvs_get(&runs[i].labels, factors[f]);
		o[i].has_y = sweep_goal_value_quiet(goal, &runs[i], &o[i].y) == 0;
		o[i].id = runs[i].id;
		o[i].keep = true;
	}
	return o;
}

/* Does some analysed run with factor p at level pl have factor f? */
static bool present_at(const struct obs *o, size_t n, size_t f, size_t p, const char *pl)
{
	for (size_t i = 0; i < n; i++)
		if (o[i].keep && o[i].has_y && o[i].lv[f] && same(o[i].lv[p], pl))
			return true;
	return false;
}

/* A parent of factor f: a factor every analysed run names, at each of
 * whose levels either every run has f or none does (and some do); or nf. */
static size_t find_parent(const struct obs *o, size_t n, size_t nf, size_t f, const bool *all)
{
	for (size_t p = 0; p < nf; p++) {
		if (p == f || !all[p])
			continue;
		bool fits = true, some = false;
		for (size_t i = 0; i < n && fits; i++) {
			if (!o[i].keep || !o[i].has_y)
				continue;
			bool here = o[i].lv[f] != NULL;
			some |= here;
			for (size_t j = 0; j < i && fits; j++)
				if (o[j].keep && o[j].has_y && same(o[j].lv[p], o[i].lv[p]) &&
				    (o[j].lv[f] != NULL) != here)
					fits = false;
		}
		if (fits && some)
			return p;
	}
	return nf;
}

/* Which factors are nested in which (parent[f], nf when crossed), and
 * which runs stay: a factor missing where no parent explains it leaves
 * the runs without it out. Counts the runs left out into a. */
static void resolve_nesting(struct sweep_analysis *a, struct obs *o, size_t n, size_t nf,
			    size_t *parent)
{
	bool *all = xcalloc(nf, sizeof(bool)), *required = xcalloc(nf, sizeof(bool));
	for (;;) {
		for (size_t f = 0; f < nf; f++) {
			all[f] = true;
			for (size_t i = 0; i < n && all[f]; i++)
				if (o[i].keep && o[i].has_y && !o[i].lv[f])
					all[f] = false;
			parent[f] = nf;
		}
		bool changed = false;
		for (size_t f = 0; f < nf; f++) {
			if (all[f] || required[f])
				continue;
			parent[f] = find_parent(o, n, nf, f, all);
			if (parent[f] == nf) {
				required[f] = true;
				changed = true;
			}
		}
		if (!changed)
			break;
		for (size_t i = 0; i < n; i++)
			for (size_t f = 0; f < nf; f++)
				if (required[f] && !o[i].lv[f])
					o[i].keep = false;
	}
	for (size_t i = 0; i < n; i++) {
		if (!o[i].keep)
			a->skipped_no_level++;
		else if (!o[i].has_y)
			a->skipped_no_value++;
	}
	free(all);
	free(required);
}

static void build_points(struct sweep_analysis *a, const struct obs *o, size_t n, size_t nf)
{
	bool *done = xcalloc(n, sizeof(bool));
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		a->points = xrealloc(a->points, (a->nr_points + 1) * sizeof(*a->points));
		struct sweep_point *p = &a->points[a->nr_points++];
		memset(p, 0, sizeof(*p));
		p->levels = xcalloc(nf, sizeof(char *));
		size_t len = 0;
		for (size_t f = 0; f < nf; f++) {
			if (!o[i].lv[f])
				continue;
			p->levels[f] = xstrdup(o[i].lv[f]);
			len += strlen(a->factors[f].name) + strlen(o[i].lv[f]) + 2;
		}
		p->name = xcalloc(len + 1, 1);
		for (size_t f = 0; f < nf; f++)
			if (o[i].lv[f])
				sprintf(p->name + strlen(p->name), "%s%s=%s", *p->name ? " " : "",
					a->factors[f].name, o[i].lv[f]);
		for (size_t j = i; j < n; j++) {
			bool eq = true;
			for (size_t f = 0; f < nf && eq; f++)
				eq = same(o[i].lv[f], o[j].lv[f]);
			if (!eq)
				continue;
			done[j] = true;
			p->values = xrealloc(p->values, (p->n + 1) * sizeof(double));
			p->run_ids = xrealloc(p->run_ids, (p->n + 1) * sizeof(int64_t));
			p->values[p->n] = o[j].y;
			p->run_ids[p->n++] = o[j].id;
		}
		double s = 0;
		for (size_t j = 0; j < p->n; j++)
			s += p->values[j];
		p->mean = s / (double)p->n;
		median_interval(p);
	}
	free(done);
}

/* The level means; their intervals from the pooled spread of the
 * repetitions within points (df_err > 0), as the ANOVA model has it, else
 * from the spread of the level's own runs (which then holds the other
 * factors' effects too, so it is wider). */
static void build_levels(struct sweep_analysis *a, const struct obs *o, size_t n, size_t nf,
			 double ms_err, size_t df_err)
{
	double *buf = xmalloc(n * sizeof(double));
	for (size_t f = 0; f < nf; f++) {
		struct sweep_factor_effect *fe = &a->factors[f];
		for (size_t i = 0; i < n; i++) {
			if (!o[i].lv[f] || level_index(fe, o[i].lv[f]) < fe->nr_levels)
				continue;
			fe->levels = xrealloc(fe->levels, (fe->nr_levels + 1) * sizeof(*fe->levels));
			memset(&fe->levels[fe->nr_levels], 0, sizeof(*fe->levels));
			fe->levels[fe->nr_levels++].name = xstrdup(o[i].lv[f]);
		}
		for (size_t l = 0; l < fe->nr_levels; l++) {
			size_t k = 0;
			for (size_t i = 0; i < n; i++)
				if (same(o[i].lv[f], fe->levels[l].name))
					buf[k++] = o[i].y;
			fe->levels[l].n = k;
			mean_interval(buf, k, &fe->levels[l].mean, &fe->levels[l].ci);
			if (df_err > 0) {
				double half = prob_t_critical(SWEEP_CONF, (double)df_err) *
					      sqrt(ms_err / (double)k);
				fe->levels[l].ci.lo = fe->levels[l].mean - half;
				fe->levels[l].ci.hi = fe->levels[l].mean + half;
				fe->levels[l].ci.conf = SWEEP_CONF;
			}
			if (l == 0 || goal_better(&a->goal, fe->levels[l].mean,
						  fe->levels[fe->best].mean))
				fe->best = l;
		}
	}
	free(buf);
}

/* The best level of factor x among the runs where factor y is at level yl;
 * nr_levels of x when no run is there. */
static size_t best_given(const struct sweep_analysis *a, const struct obs *o, size_t n, size_t x,
			 size_t y, const char *yl)
{
	const struct sweep_factor_effect *fx = &a->factors[x];
	size_t best = fx->nr_levels;
	double bm = 0;
	for (size_t l = 0; l < fx->nr_levels; l++) {
		double s = 0;
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			if (same(o[i].lv[y], yl) && same(o[i].lv[x], fx->levels[l].name)) {
				s += o[i].y;
				k++;
			}
		if (!k)
			continue;
		double m = s / (double)k;
		if (best == fx->nr_levels || goal_better(&a->goal, m, bm)) {
			best = l;
			bm = m;
		}
	}
	return best;
}

static void pair_notes(struct sweep_analysis *a, const struct obs *o, size_t n)
{
	for (size_t p = 0; p < a->nr_pairs; p++) {
		const struct sweep_interaction *in = &a->pairs[p];
		if (!in->matters)
			continue;
		size_t fs[2] = { in->a, in->b };
		for (int side = 0; side < 2; side++) {
			size_t x = fs[side], y = fs[1 - side];
			const struct sweep_factor_effect *fx = &a->factors[x], *fy = &a->factors[y];
			bool noted = false;
			for (size_t l = 0; l < fy->nr_levels && !noted; l++) {
				size_t b = best_given(a, o, n, x, y, fy->levels[l].name);
				if (b < fx->nr_levels && b != fx->best) {
					note_add(a, "%s=%s is best overall but not where %s=%s (%s=%s is "
						 "better there): the %s x %s interaction (%.1f%%) makes "
						 "the main effect of %s misleading",
						 fx->name, fx->levels[fx->best].name, fy->name,
						 fy->levels[l].name, fx->name, fx->levels[b].name,
						 a->factors[in->a].name, a->factors[in->b].name,
						 100 * in->share, fx->name);
					noted = true;
				}
			}
			if (!noted && in->share > fx->share)
				note_add(a, "%s's main effect (%.1f%%) understates it: with %s it explains "
					 "%.1f%% more (interaction)", fx->name, 100 * fx->share, fy->name,
					 100 * in->share);
		}
	}
}

static void analysis_notes(struct sweep_analysis *a, const struct obs *o, size_t n, size_t nf)
{
	if (a->skipped_no_level)
		note_add(a, "%zu run(s) left out: no label for every factor", a->skipped_no_level);
	if (a->skipped_no_value)
		note_add(a, "%zu run(s) left out: no figure for goal '%s'", a->skipped_no_value,
			 a->goal.text);
	for (size_t f = 0; f < nf; f++)
		if (a->factors[f].within) {
			size_t have = 0;
			for (size_t i = 0; i < n; i++)
				have += o[i].lv[f] != NULL;
			note_add(a, "%s is nested: it has levels only where %s (%zu of %zu runs); its "
				 "effect and share are within %s, beyond what %s explains",
				 a->factors[f].name, a->factors[f].within, have, n,
				 a->factors[f].within, a->factors[a->factors[f].parent].name);
		}
	if (a->ss_total == 0) {
		note_add(a, "the goal is the same in every run: no factor changes it");
		return;
	}
	bool reps = false;
	for (size_t i = 0; i < a->nr_points; i++)
		reps |= a->points[i].n > 1;
	if (!reps)
		note_add(a, "every point ran once: the spread of repetitions is unknown and the "
			 "highest-order interaction is not told apart from it");
	if (!a->balanced)
		note_add(a, "the design is not a balanced full factorial: each share is what its "
			 "factor or pair explains alone (eta squared) and the shares overlap");
	if (a->overlap)
		note_add(a, "the shares add up to more than 100%%: correlated factors in this "
			 "design; the rest is shown as 0");
	for (size_t p = 0; p < a->nr_pairs; p++)
		if (a->pairs[p].incomplete)
			note_add(a, "%s x %s: not every combination ran; its share comes from the "
				 "combinations that did", a->factors[a->pairs[p].a].name,
				 a->factors[a->pairs[p].b].name);
	pair_notes(a, o, n);
	/* the best point against each factor's best level */
	if (a->nr_points > 1) {
		const struct sweep_point *top = &a->points[0];
		bool eq = true;
		for (size_t f = 0; f < nf; f++)
			if (top->levels[f])
				eq &= !strcmp(top->levels[f],
						a->factors[f].levels[a->factors[f].best].name);
		if (!eq)
			note_add(a, "the best point (%s) is not every factor at its best level", top->name);
	}
}

/* Between-cell sum of squares of factor x (nf: none) with its parent
 * when it is nested; the cells' count in groups. */
static double cells_ss(const struct obs *o, size_t n, double grand, const struct sweep_analysis *a,
		       bool *use, size_t x, size_t *groups)
{
	size_t nf = a->nr_factors;
	memset(use, 0, nf * sizeof(bool));
	if (x < nf) {
		use[x] = true;
		if (a->factors[x].parent != SIZE_MAX)
			use[a->factors[x].parent] = true;
	}
	return between_ss(o, n, grand, nf, use, groups);
}

/* The cells of the parents of factors i and j, with i and/or j. */
static double pair_cells(const struct obs *o, size_t n, const struct sweep_analysis *a, bool *use,
			 const size_t *parent, size_t i, size_t j, bool with_i, bool with_j,
			 size_t *groups)
{
	size_t nf = a->nr_factors;
	memset(use, 0, nf * sizeof(bool));
	if (parent[i] < nf)
		use[parent[i]] = true;
	if (parent[j] < nf)
		use[parent[j]] = true;
	use[i] |= with_i;
	use[j] |= with_j;
	return between_ss(o, n, a->grand_mean, nf, use, groups);
}

/* The nested factors' "within" text: their parent's levels that have them. */
static void name_nested(struct sweep_analysis *a, const struct obs *o, size_t n, size_t nf)
{
	for (size_t f = 0; f < nf; f++) {
		struct sweep_factor_effect *fe = &a->factors[f];
		if (fe->parent == SIZE_MAX) {
			fe->label = xstrdup(fe->name);
			continue;
		}
		const struct sweep_factor_effect *pe = &a->factors[fe->parent];
		char *w = xstrdup("");
		for (size_t l = 0; l < pe->nr_levels; l++) {
			if (!present_at(o, n, f, fe->parent, pe->levels[l].name))
				continue;
			char *nw = xasprintf("%s%s%s", w, *w ? "|" : "", pe->levels[l].name);
			free(w);
			w = nw;
		}
		fe->within = xasprintf("%s=%s", pe->name, w);
		fe->label = xasprintf("%s (within %s)", fe->name, fe->within);
		free(w);
	}
}

/* The points a full design of these factors has: the crossed factors'
 * levels multiplied, where a parent's level counts as the product of the
 * levels of the factors nested in it (1 when none is). */
static size_t expected_points(const struct sweep_analysis *a, const struct obs *o, size_t n,
			      size_t nf)
{
	size_t grid = 1;
	for (size_t f = 0; f < nf; f++) {
		const struct sweep_factor_effect *fe = &a->factors[f];
		if (fe->parent != SIZE_MAX)
			continue;
		bool is_parent = false;
		for (size_t g = 0; g < nf; g++)
			is_parent |= a->factors[g].parent == f;
		if (!is_parent) {
			grid *= fe->nr_levels;
			continue;
		}
		size_t sum = 0;
		for (size_t l = 0; l < fe->nr_levels; l++) {
			size_t prod = 1;
			for (size_t g = 0; g < nf; g++)
				if (a->factors[g].parent == f &&
				    present_at(o, n, g, f, fe->levels[l].name))
					prod *= a->factors[g].nr_levels;
			sum += prod;
		}
		grid *= sum;
	}
	return grid;
}

int sweep_analyse(const struct cmp_run *runs, size_t n, const char *const *factors, size_t nf,
		  const struct sweep_goal *goal, struct sweep_analysis *out)
{
	memset(out, 0, sizeof(*out));
	if (!nf)
		return error("sweep analysis: no factors named");
	out->goal = *goal;
	struct obs *all = collect(runs, n, factors, nf, goal);
	size_t *parent = xcalloc(nf, sizeof(size_t));
	resolve_nesting(out, all, n, nf, parent);
	struct obs *o = xcalloc(n ? n : 1, sizeof(*o));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (all[i].keep && all[i].has_y)
			o[k++] = all[i];
		else
			free(all[i].lv);
	free(all);
	if (!k) {
		free(o);
		free(parent);
		error("sweep analysis: no run to analyse: of %zu run(s), %zu lack a label of every "
		      "factor and %zu a figure for goal '%s'", n, out->skipped_no_level,
		      out->skipped_no_value, goal->text);
		return -ENOENT;
	}
	out->nr_runs = k;
	out->nr_factors = nf;
	out->factors = xcalloc(nf, sizeof(*out->factors));
	for (size_t f = 0; f < nf; f++) {
		out->factors[f].name = xstrdup(factors[f]);
		out->factors[f].parent = parent[f] < nf ? parent[f] : SIZE_MAX;
	}
	double s = 0;
	for (size_t i = 0; i < k; i++)
		s += o[i].y;
	out->grand_mean = s / (double)k;
	for (size_t i = 0; i < k; i++)
		out->ss_total += (o[i].y - out->grand_mean) * (o[i].y - out->grand_mean);
	/* a total that is rounding noise of equal values is none */
	if (out->ss_total <= 1e-24 * out->grand_mean * out->grand_mean * (double)k)
		out->ss_total = 0;
	build_points(out, o, k, nf);
	double ss_err = 0;
	for (size_t i = 0; i < out->nr_points; i++)
		for (size_t j = 0; j < out->points[i].n; j++) {
			double d = out->points[i].values[j] - out->points[i].mean;
			ss_err += d * d;
		}
	out->error_df = k - out->nr_points;
	double ms_err = out->error_df ? ss_err / (double)out->error_df : 0;
	build_levels(out, o, k, nf, ms_err, out->error_df);
	name_nested(out, o, k, nf);

	bool *use = xcalloc(nf, sizeof(bool));
	double *ss_main = xcalloc(nf, sizeof(double));
	for (size_t f = 0; f < nf; f++) {
		/* a nested factor: what it explains beyond its parent */
		size_t g_fp, g_p;
		double fp = cells_ss(o, k, out->grand_mean, out, use, f, &g_fp);
		memset(use, 0, nf * sizeof(bool));
		if (parent[f] < nf)
			use[parent[f]] = true;
		double pp = between_ss(o, k, out->grand_mean, nf, use, &g_p);
		ss_main[f] = fmax(0, fp - pp);
		out->factors[f].share = out->ss_total ? ss_main[f] / out->ss_total : 0;
		out->factors[f].p = f_pvalue(ss_main[f], (double)g_fp - (double)g_p, ms_err,
					     (double)out->error_df);
	}
	size_t grid = expected_points(out, o, k, nf);
	out->pairs = xcalloc(nf * nf + 1, sizeof(*out->pairs));
	double ss_pairs = 0, ss_mains = 0;
	for (size_t f = 0; f < nf; f++)
		ss_mains += ss_main[f];
	for (size_t i = 0; i < nf; i++)
		for (size_t j = i + 1; j < nf; j++) {
			if (parent[i] == j || parent[j] == i)
				continue; /* nested in the other: no pair */
			/* the cells with the parents of the nested ones among the
			 * two: the pair's interaction within the parents' levels */
			size_t g_ab, g_a, g_b, g_p;
			double sp = pair_cells(o, k, out, use, parent, i, j, false, false, &g_p);
			double sa = pair_cells(o, k, out, use, parent, i, j, true, false, &g_a);
			double sb = pair_cells(o, k, out, use, parent, i, j, false, true, &g_b);
			double ab = pair_cells(o, k, out, use, parent, i, j, true, true, &g_ab);
			double inter = fmax(0, ab - sa - sb + sp);
			ss_pairs += inter;
			struct sweep_interaction *in = &out->pairs[out->nr_pairs++];
			in->a = i;
			in->b = j;
			in->share = out->ss_total ? inter / out->ss_total : 0;
			/* its df: the cells less what the two mains took */
			double df = (double)g_ab - (double)g_a - (double)g_b + (double)g_p;
			in->p = f_pvalue(inter, df, ms_err, (double)out->error_df);
			in->matters = in->share >= SWEEP_INTERACTION_SHARE &&
				      (isnan(in->p) ? out->error_df == 0 : in->p < SWEEP_ALPHA);
			in->incomplete = g_ab * g_p < g_a * g_b;
		}
	double ss_points = 0;
	size_t n0 = out->points[0].n;
	bool same_n = true;
	for (size_t i = 0; i < out->nr_points; i++) {
		const struct sweep_point *pt = &out->points[i];
		ss_points += (double)pt->n * (pt->mean - out->grand_mean) * (pt->mean - out->grand_mean);
		same_n &= pt->n == n0;
	}
	out->balanced = same_n && out->nr_points == grid;
	if (out->ss_total) {
		double higher = ss_points - ss_mains - ss_pairs;
		double tol = 1e-9 * out->ss_total;
		out->overlap = higher < -tol;
		out->share_higher = higher > tol ? higher / out->ss_total : 0;
		out->share_noise = fmax(0, out->ss_total - ss_points) / out->ss_total;
	}
	free(use);
	free(ss_main);
	free(parent);
	out->rank = xcalloc(nf, sizeof(size_t));
	for (size_t f = 0; f < nf; f++) {
		size_t at = f;
		while (at > 0 && out->factors[out->rank[at - 1]].share < out->factors[f].share) {
			out->rank[at] = out->rank[at - 1];
			at--;
		}
		out->rank[at] = f;
	}

	qsort_r(out->points, out->nr_points, sizeof(*out->points), point_order, &out->goal);
	analysis_notes(out, o, k, nf);
	for (size_t i = 0; i < k; i++)
		free(o[i].lv);
	free(o);
	return 0;
}

void sweep_analysis_release(struct sweep_analysis *a)
{
	for (size_t i = 0; i < a->nr_points; i++) {
		for (size_t f = 0; f < a->nr_factors; f++)
			free(a->points[i].levels[f]);
		free(a->points[i].levels);
		free(a->points[i].name);
		free(a->points[i].values);
		free(a->points[i].run_ids);
	}
	free(a->points);
	for (size_t f = 0; f < a->nr_factors; f++) {
		for (size_t l = 0; l < a->factors[f].nr_levels; l++)
			free(a->factors[f].levels[l].name);
		free(a->factors[f].levels);
		free(a->factors[f].name);
		free(a->factors[f].within);
		free(a->factors[f].label);
	}
	free(a->factors);
	free(a->rank);
	free(a->pairs);
	for (size_t i = 0; i < a->nr_notes; i++)
		free(a->notes[i]);
	free(a->notes);
	memset(a, 0, sizeof(*a));
}
