/*
 * The figures of a repeated run and their summary, as text and JSON
 * (repeat_table.h).
 */
#include "report/repeat_table.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/xmalloc.h"

#define REP_CONF 0.95

void rep_table_init(struct rep_table *t)
{
	memset(t, 0, sizeof(*t));
}

void rep_table_release(struct rep_table *t)
{
	for (size_t i = 0; i < t->nfig; i++) {
		free(t->fig[i].name);
		free(t->fig[i].job);
		free(t->fig[i].x);
	}
	free(t->fig);
	free(t->rep);
	memset(t, 0, sizeof(*t));
}

void rep_table_begin_row(struct rep_table *t, size_t rep)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->rep = xrealloc(t->rep, t->cap * sizeof(*t->rep));
		for (size_t i = 0; i < t->nfig; i++)
			t->fig[i].x = xrealloc(t->fig[i].x, t->cap * sizeof(double));
	}
	t->rep[t->n] = rep;
	for (size_t i = 0; i < t->nfig; i++)
		t->fig[i].set = false;
	t->in_row = true;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

void rep_table_set(struct rep_table *t, const char *job, const char *ddir, const char *what,
		   const char *unit, double v)
{
	for (size_t i = 0; i < t->nfig; i++) {
		struct rep_figure *f = &t->fig[i];
		if (same(f->job, job) && same(f->ddir, ddir) && !strcmp(f->what, what)) {
			f->x[t->n] = v;
			f->set = true;
			return;
		}
	}
	if (t->n)
		return; /* the first row fixed the set */
	t->fig = xrealloc(t->fig, (t->nfig + 1) * sizeof(*t->fig));
	struct rep_figure *f = &t->fig[t->nfig++];
	*f = (struct rep_figure){
		.name = ddir ? xasprintf("%s %s %s", job, ddir, what) : xasprintf("%s %s", job, what),
		.job = xstrdup(job),
		.ddir = ddir,
		.what = what,
		.unit = unit,
		.x = xmalloc(t->cap * sizeof(double)),
		.set = true,
	};
	f->x[0] = v;
}

void rep_table_end_row(struct rep_table *t)
{
	for (size_t i = 0; i < t->nfig; i++)
		if (!t->fig[i].set)
			t->fig[i].x[t->n] = 0;
	t->n++;
	t->in_row = false;
}

static double rel(double d, double median)
{
	return median != 0 ? d / fabs(median) : d == 0 ? 0 : NAN;
}

int rep_table_summarize(const struct rep_table *t, size_t i, struct rep_figure_summary *out)
{
	if (i >= t->nfig || !t->n)
		return -EINVAL;
	const double *x = t->fig[i].x;
	int rc = sample_summarize(x, t->n, &out->s);
	if (rc < 0)
		return rc;
	rc = median_ci(x, t->n, REP_CONF, &out->ci);
	if (rc < 0 && rc != -EDOM)
		return rc;
	out->has_ci = rc == 0;
	out->rel_lo = rel(out->ci.median - out->ci.lo, out->ci.median);
	out->rel_hi = rel(out->ci.hi - out->ci.median, out->ci.median);
	return 0;
}

static const char *outlier_name(enum outlier_class c)
{
	switch (c) {
	case OUTLIER_FAR_LOW: return "far low";
	case OUTLIER_LOW: return "low";
	case OUTLIER_HIGH: return "high";
	case OUTLIER_FAR_HIGH: return "far high";
	case OUTLIER_NONE: break;
	}
	return "none";
}

/* A figure's value: whole numbers from 1000 up, else 4 significant digits. */
static void num(char *buf, size_t len, double v)
{
	if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
}

static void write_ci_text(const struct rep_figure_summary *m, FILE *out)
{
	char lo[32], hi[32];
	num(lo, sizeof(lo), m->ci.lo);
	num(hi, sizeof(hi), m->ci.hi);
	if (m->has_ci)
		fprintf(out, "95%% CI %s..%s", lo, hi);
	else
		fprintf(out, "no 95%% CI from %zu (min..max covers the median with %.1f%%)", m->s.n,
			100 * m->ci.confidence);
	if (isfinite(m->rel_lo) && isfinite(m->rel_hi))
		fprintf(out, " (-%.1f%%/+%.1f%%)", 100 * m->rel_lo, 100 * m->rel_hi);
}

void rep_table_write_text(const struct rep_table *t, FILE *out)
{
	fprintf(out, "Repetition summary (%zu finished repetition%s; 95%% confidence interval of "
		"the median, Tukey's outliers kept):\n", t->n, t->n == 1 ? "" : "s");
	for (size_t i = 0; i < t->nfig; i++) {
		const struct rep_figure *f = &t->fig[i];
		struct rep_figure_summary m;
		if (rep_table_summarize(t, i, &m) < 0)
			continue;
		char med[32], mn[32], mx[32];
		num(med, sizeof(med), m.s.median);
		num(mn, sizeof(mn), m.s.min);
		num(mx, sizeof(mx), m.s.max);
		fprintf(out, "  %s: median %s %s, ", f->name, med, f->unit);
		write_ci_text(&m, out);
		if (isfinite(m.s.cv))
			fprintf(out, ", cv %.1f%%", 100 * m.s.cv);
		else
			fprintf(out, ", cv -");
		fprintf(out, ", min %s, max %s, n %zu, outliers: ", mn, mx, m.s.n);
		bool any = false;
		for (size_t k = 0; k < t->n; k++) {
			enum outlier_class c = sample_outlier_class(&m.s, f->x[k]);
			if (c == OUTLIER_NONE)
				continue;
			char v[32];
			num(v, sizeof(v), f->x[k]);
			fprintf(out, "%srepetition %zu %s (%s)", any ? ", " : "", t->rep[k] + 1,
				outlier_name(c), v);
			any = true;
		}
		fprintf(out, "%s\n", any ? "" : "none");
	}
}

void rep_table_write_json(const struct rep_table *t, struct json_writer *w)
{
	json_kv_array_begin(w, "figures");
	for (size_t i = 0; i < t->nfig; i++) {
		const struct rep_figure *f = &t->fig[i];
		struct rep_figure_summary m;
		if (rep_table_summarize(t, i, &m) < 0)
			continue;
		json_object_begin(w);
		json_kv_string(w, "name", f->name);
		json_kv_string(w, "job", f->job);
		json_kv_string(w, "ddir", f->ddir);
		json_kv_string(w, "figure", f->what);
		json_kv_string(w, "unit", f->unit);
		json_kv_uint(w, "n", m.s.n);
		json_kv_double(w, "median", m.s.median);
		json_kv_double(w, "ci_lo", m.ci.lo);
		json_kv_double(w, "ci_hi", m.ci.hi);
		json_kv_double(w, "ci_confidence", m.ci.confidence);
		json_kv_bool(w, "ci_95", m.has_ci);
		json_kv_double(w, "ci_rel_lo_pct", 100 * m.rel_lo);
		json_kv_double(w, "ci_rel_hi_pct", 100 * m.rel_hi);
		json_kv_double(w, "mean", m.s.mean);
		json_kv_double(w, "stddev", m.s.stddev);
		json_kv_double(w, "cv", m.s.cv);
		json_kv_double(w, "min", m.s.min);
		json_kv_double(w, "max", m.s.max);
		json_kv_double(w, "q1", m.s.q1);
		json_kv_double(w, "q3", m.s.q3);
		json_kv_array_begin(w, "values");
		for (size_t k = 0; k < t->n; k++) {
			json_object_begin(w);
			json_kv_uint(w, "repetition", t->rep[k] + 1);
			json_kv_double(w, "value", f->x[k]);
			json_kv_string(w, "outlier", outlier_name(sample_outlier_class(&m.s, f->x[k])));
			json_object_end(w);
		}
		json_array_end(w);
		json_kv_array_begin(w, "outliers");
		for (size_t k = 0; k < t->n; k++)
			if (sample_outlier_class(&m.s, f->x[k]) != OUTLIER_NONE)
				json_uint(w, t->rep[k] + 1);
		json_array_end(w);
		json_object_end(w);
	}
	json_array_end(w);
}
