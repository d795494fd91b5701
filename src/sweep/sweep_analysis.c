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
	const char **lv; /* nf levels, pointing into the runs' labels */
	double y;
	int64_t id;
};

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
			bool same = true;
			for (size_t f = 0; f < nf && same; f++)
				if (use[f] && strcmp(o[i].lv[f], o[j].lv[f]))
					same = false;
			if (same) {
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

static int collect(const struct cmp_run *runs, size_t n, const char *const *factors, size_t nf,
		   const struct sweep_goal *goal, struct sweep_analysis *a, struct obs **out,
		   size_t *nobs)
{
	struct obs *o = xcalloc(n ? n : 1, sizeof(*o));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char **lv = xcalloc(nf, sizeof(*lv));
		bool all = true;
		for (size_t f = 0; f < nf && all; f++)
			all = (lv[f] = cmp_kvs_get(&runs[i].labels, factors[f])) != NULL;
		double y;
		if (!all) {
			a->skipped_no_level++;
			free(lv);
			continue;
		}
		if (sweep_goal_value_quiet(goal, &runs[i], &y) < 0) {
			a->skipped_no_value++;
			free(lv);
			continue;
		}
		o[k].lv = lv;
		o[k].y = y;
		o[k].id = runs[i].id;
		k++;
	}
	*out = o;
	*nobs = k;
	return 0;
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
			p->levels[f] = xstrdup(o[i].lv[f]);
			len += strlen(a->factors[f].name) + strlen(o[i].lv[f]) + 2;
		}
		p->name = xcalloc(len + 1, 1);
		for (size_t f = 0; f < nf; f++)
			sprintf(p->name + strlen(p->name), "%s%s=%s", f ? " " : "", a->factors[f].name,
				o[i].lv[f]);
		for (size_t j = i; j < n; j++) {
			bool same = true;
			for (size_t f = 0; f < nf && same; f++)
				same = !strcmp(o[i].lv[f], o[j].lv[f]);
			if (!same)
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
			if (level_index(fe, o[i].lv[f]) < fe->nr_levels)
				continue;
			fe->levels = xrealloc(fe->levels, (fe->nr_levels + 1) * sizeof(*fe->levels));
			memset(&fe->levels[fe->nr_levels], 0, sizeof(*fe->levels));
			fe->levels[fe->nr_levels++].name = xstrdup(o[i].lv[f]);
		}
		for (size_t l = 0; l < fe->nr_levels; l++) {
			size_t k = 0;
			for (size_t i = 0; i < n; i++)
				if (!strcmp(o[i].lv[f], fe->levels[l].name))
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
			if (!strcmp(o[i].lv[y], yl) && !strcmp(o[i].lv[x], fx->levels[l].name)) {
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
		bool same = true;
		for (size_t f = 0; f < nf; f++)
			same &= !strcmp(top->levels[f], a->factors[f].levels[a->factors[f].best].name);
		if (!same)
			note_add(a, "the best point (%s) is not every factor at its best level", top->name);
	}
}

int sweep_analyse(const struct cmp_run *runs, size_t n, const char *const *factors, size_t nf,
		  const struct sweep_goal *goal, struct sweep_analysis *out)
{
	memset(out, 0, sizeof(*out));
	if (!nf)
		return error("sweep analysis: no factors named");
	out->goal = *goal;
	struct obs *o;
	size_t k;
	collect(runs, n, factors, nf, goal, out, &o, &k);
	if (!k) {
		free(o);
		error("sweep analysis: no run to analyse: of %zu run(s), %zu lack a label of every "
		      "factor and %zu a figure for goal '%s'", n, out->skipped_no_level,
		      out->skipped_no_value, goal->text);
		return -ENOENT;
	}
	out->nr_runs = k;
	out->nr_factors = nf;
	out->factors = xcalloc(nf, sizeof(*out->factors));
	for (size_t f = 0; f < nf; f++)
		out->factors[f].name = xstrdup(factors[f]);
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

	bool *use = xcalloc(nf, sizeof(bool));
	double *ss_main = xcalloc(nf, sizeof(double));
	size_t groups, grid = 1;
	for (size_t f = 0; f < nf; f++) {
		memset(use, 0, nf * sizeof(bool));
		use[f] = true;
		ss_main[f] = between_ss(o, k, out->grand_mean, nf, use, &groups);
		out->factors[f].share = out->ss_total ? ss_main[f] / out->ss_total : 0;
		out->factors[f].p = f_pvalue(ss_main[f], (double)out->factors[f].nr_levels - 1,
					     ms_err, (double)out->error_df);
		grid *= out->factors[f].nr_levels;
	}
	out->nr_pairs = nf * (nf - 1) / 2;
	out->pairs = xcalloc(out->nr_pairs ? out->nr_pairs : 1, sizeof(*out->pairs));
	double ss_pairs = 0, ss_mains = 0;
	for (size_t f = 0; f < nf; f++)
		ss_mains += ss_main[f];
	size_t p = 0;
	for (size_t i = 0; i < nf; i++)
		for (size_t j = i + 1; j < nf; j++, p++) {
			memset(use, 0, nf * sizeof(bool));
			use[i] = use[j] = true;
			double cells = between_ss(o, k, out->grand_mean, nf, use, &groups);
			double inter = fmax(0, cells - ss_main[i] - ss_main[j]);
			ss_pairs += inter;
			struct sweep_interaction *in = &out->pairs[p];
			in->a = i;
			in->b = j;
			in->share = out->ss_total ? inter / out->ss_total : 0;
			/* its df: the cells less what the two mains took */
			double df = (double)groups - (double)out->factors[i].nr_levels -
				    (double)out->factors[j].nr_levels + 1;
			in->p = f_pvalue(inter, df, ms_err, (double)out->error_df);
			in->matters = in->share >= SWEEP_INTERACTION_SHARE &&
				      (isnan(in->p) ? out->error_df == 0 : in->p < SWEEP_ALPHA);
			in->incomplete = groups < out->factors[i].nr_levels * out->factors[j].nr_levels;
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
	}
	free(a->factors);
	free(a->rank);
	free(a->pairs);
	for (size_t i = 0; i < a->nr_notes; i++)
		free(a->notes[i]);
	free(a->notes);
	memset(a, 0, sizeof(*a));
}
