/*
 * How `compare` prints its result (cmp_engine.h): the verdict line of a
 * ratio, the aligned side-by-side table with the verdicts and the context
 * differences under it, and the same as one JSON document.
 */
#include "compare/cmp_engine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/xmalloc.h"

static const char *method_name(enum ratio_method m)
{
	switch (m) {
	case RATIO_FIELLER:
		return "fieller";
	case RATIO_BOOTSTRAP_BCA:
		return "bootstrap-bca";
	default:
		return "bootstrap";
	}
}

static const char *status_name(enum cmp_status s)
{
	static const char *const names[] = { "baseline", "interval", "single", "unbounded",
					     "undefined", "missing" };
	return names[s];
}

/* "write bw", "cpu usr", "seq job write bw", "put_block rate" */
static void figure_text(const struct cmp_result *res, const struct cmp_row *r, char *buf, size_t len)
{
	char job[160] = "";
	if (!res->one_job)
		snprintf(job, sizeof(job), "%s ", r->job);
	if (!strcmp(r->dir, "job"))
		snprintf(buf, len, "%s%s", job, r->def->label);
	else
		snprintf(buf, len, "%s%s %s", job, r->dir, r->def->label);
}

static void reps_text(const struct cmp_result *res, const struct cmp_cell *c, char *buf, size_t len)
{
	if (c->reps_needed)
		snprintf(buf, len,
			 "about %zu runs per side would give an interval within ±%.0f%% "
			 "(from a CV of %.1f%%%s)", c->reps_needed, res->opts.width * 100,
			 c->cv_used * 100, c->cv_within_run ? " within the runs, a lower bound" : "");
	else
		snprintf(buf, len, "repeat each side at least 3 times (--repeat 3) for an interval");
}

void cmp_verdict(const struct cmp_result *res, size_t ri, size_t s, char *buf, size_t len)
{
	const struct cmp_row *r = &res->rows[ri];
	const struct cmp_cell *c = &r->cells[s];
	const char *a = res->sels[0].label, *b = res->sels[s].label;
	char fig[256], more[256];
	figure_text(res, r, fig, sizeof(fig));
	switch (c->status) {
	case CMP_INTERVAL: {
		char noise[96];
		const char *how = "no real difference (the interval contains 1)";
		if (c->real) {
			how = (c->ci.ratio > 1) == r->def->higher_better ? "real, better" : "real, worse";
		} else if (c->noise) {
			snprintf(noise, sizeof(noise), "no real difference (within the %g%% noise "
				 "threshold)", res->opts.threshold * 100);
			how = noise;
		}
		snprintf(buf, len, "%s: %.2f× %s %s (%.2f–%.2f), %s", b, c->ci.ratio, a, fig, c->ci.lo,
			 c->ci.hi, how);
		break;
	}
	case CMP_SINGLE:
		reps_text(res, c, more, sizeof(more));
		snprintf(buf, len, "%s: %.2f× %s %s, a single run on %s: no interval can be given; %s",
			 b, c->ci.ratio, a, fig,
			 r->cells[0].n < 2 && c->n < 2 ? "each side" :
			 r->cells[0].n < 2 ? a : b, more);
		break;
	case CMP_UNBOUNDED:
		snprintf(buf, len, "%s: %.2f× %s %s, the interval is unbounded (%s varies too much "
			 "for its mean to be told from 0): no real difference shown", b, c->ci.ratio,
			 a, fig, a);
		break;
	case CMP_UNDEFINED:
		if (c->center == 0)
			snprintf(buf, len, "%s: %s 0 as for %s, no difference", b, fig, a);
		else
			snprintf(buf, len, "%s: no ratio to %s %s: %s's value is 0", b, a, fig, a);
		break;
	case CMP_MISSING:
	case CMP_BASE:
		if (!r->cells[0].n)
			snprintf(buf, len, "%s: %s has no %s to compare with", b, a, fig);
		else
			snprintf(buf, len, "%s: no %s to compare with %s's", b, fig, a);
		break;
	}
}

/* --- the table ------------------------------------------------------ */

/* Display width of UTF-8 text: its code points. */
static size_t width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

struct table {
	char **cell;     /* rows x cols */
	size_t rows, cols, alloc;
};

static void put(struct table *t, size_t row, size_t col, char *text)
{
	size_t need = (row + 1) * t->cols;
	if (need > t->alloc) {
		size_t old = t->alloc;
		t->cell = xgrow(t->cell, &t->alloc, need - 1, sizeof(*t->cell));
		memset(t->cell + old, 0, (t->alloc - old) * sizeof(*t->cell));
	}
	free(t->cell[row * t->cols + col]);
	t->cell[row * t->cols + col] = text;
	if (row + 1 > t->rows)
		t->rows = row + 1;
}

static void print_table(const struct table *t, FILE *out)
{
	size_t *w = xcalloc(t->cols, sizeof(*w));
	for (size_t r = 0; r < t->rows; r++)
		for (size_t c = 0; c < t->cols; c++) {
			const char *s = t->cell[r * t->cols + c];
			if (s && width(s) > w[c])
				w[c] = width(s);
		}
	for (size_t r = 0; r < t->rows; r++) {
		size_t last = 0;
		for (size_t c = 0; c < t->cols; c++)
			if (t->cell[r * t->cols + c] && *t->cell[r * t->cols + c])
				last = c;
		fputs("  ", out);
		for (size_t c = 0; c <= last; c++) {
			const char *s = t->cell[r * t->cols + c];
			if (!s)
				s = "";
			fputs(s, out);
			if (c < last)
				fprintf(out, "%*s", (int)(w[c] - width(s) + 2), "");
		}
		fputc('\n', out);
	}
	free(w);
}

static void free_table(struct table *t)
{
	for (size_t i = 0; i < t->alloc; i++)
		free(t->cell[i]);
	free(t->cell);
}

static char *value_text(const struct cmp_row *r, const struct cmp_cell *c)
{
	char v[64];
	if (!c->n)
		return xstrdup("-");
	cmp_format_value(v, sizeof(v), r->def, r->dir, c->center);
	if (c->n >= 2 && isfinite(c->cv))
		return xasprintf("%s ±%.1f%% (%zu)", v, c->cv * 100, c->n);
	return xasprintf("%s (%zu)", v, c->n);
}

static void ratio_cells(struct table *t, size_t row, size_t col, const struct cmp_cell *c)
{
	switch (c->status) {
	case CMP_INTERVAL:
		put(t, row, col, xasprintf("%.2f×", c->ci.ratio));
		put(t, row, col + 1, xasprintf("(%.2f–%.2f)", c->ci.lo, c->ci.hi));
		put(t, row, col + 2, xstrdup(c->real ? "real" : c->noise ? "noise" : ""));
		break;
	case CMP_SINGLE:
		put(t, row, col, xasprintf("%.2f×", c->ci.ratio));
		put(t, row, col + 1, xstrdup("no interval"));
		break;
	case CMP_UNBOUNDED:
		put(t, row, col, xasprintf("%.2f×", c->ci.ratio));
		put(t, row, col + 1, xstrdup("unbounded"));
		break;
	default:
		put(t, row, col, xstrdup("-"));
		break;
	}
}

static void runs_text(const struct cmp_sel *s, FILE *out)
{
	fprintf(out, "%zu run%s", s->runs.n, s->runs.n == 1 ? "" : "s");
	const char *sep = ": ";
	for (size_t k = 0; k < s->runs.n; k++) {
		const struct cmp_run *r = &s->runs.v[k];
		if (r->id > 0)
			fprintf(out, "%s%lld", sep, (long long)r->id);
		else if (r->source && strcmp(r->source, s->name) &&
			 (!k || !s->runs.v[k - 1].source || strcmp(s->runs.v[k - 1].source, r->source)))
			fprintf(out, "%s%s", sep, r->source);
		else
			continue;
		sep = ",";
	}
	/* where the runs came from, when not from iobench itself */
	const char *tool = s->runs.n ? s->runs.v[0].tool : NULL;
	if (tool && strncmp(tool, "iobench", 7))
		fprintf(out, " (%s)", tool);
}

int cmp_report_normal(const struct cmp_result *res, FILE *out)
{
	fprintf(out, "compare: each selection as a ratio to the first, %.0f%% intervals, "
		"noise threshold %g%%\n", res->opts.conf * 100, res->opts.threshold * 100);
	for (size_t s = 0; s < res->nsel; s++) {
		const struct cmp_sel *sel = &res->sels[s];
		fprintf(out, "  %c  %s", (int)('A' + (s < 26 ? s : 25)), sel->label);
		if (strcmp(sel->name, sel->label))
			fprintf(out, " (%s)", sel->name);
		fputs(", ", out);
		runs_text(sel, out);
		fputc('\n', out);
	}
	fputc('\n', out);

	struct table t = { .cols = 3 + 4 * (res->nsel - 1) };
	put(&t, 0, 0, xstrdup("job"));
	put(&t, 0, 1, xstrdup("figure"));
	put(&t, 0, 2, xstrdup("A"));
	for (size_t s = 1; s < res->nsel; s++) {
		char l = (char)('A' + (s < 26 ? s : 25));
		put(&t, 0, 3 + 4 * (s - 1), xasprintf("%c", l));
		put(&t, 0, 4 + 4 * (s - 1), xasprintf("%c/A", l));
		put(&t, 0, 5 + 4 * (s - 1), xasprintf("%.0f%% interval", res->opts.conf * 100));
	}
	for (size_t i = 0; i < res->nr_rows; i++) {
		const struct cmp_row *r = &res->rows[i];
		size_t row = i + 1;
		bool first = i == 0 || strcmp(res->rows[i - 1].job, r->job);
		put(&t, row, 0, xstrdup(first ? r->job : ""));
		if (!strcmp(r->dir, "job"))
			put(&t, row, 1, xstrdup(r->def->label));
		else
			put(&t, row, 1, xasprintf("%s %s", r->dir, r->def->label));
		put(&t, row, 2, value_text(r, &r->cells[0]));
		for (size_t s = 1; s < res->nsel; s++) {
			put(&t, row, 3 + 4 * (s - 1), value_text(r, &r->cells[s]));
			ratio_cells(&t, row, 4 + 4 * (s - 1), &r->cells[s]);
		}
	}
	if (res->nr_rows)
		print_table(&t, out);
	else
		fputs("  no figure to compare: the selections have no job or phase in common\n", out);
	free_table(&t);

	bool any_fieller = false, any_boot = false;
	for (size_t i = 0; i < res->nr_rows; i++) {
		if (res->rows[i].method == RATIO_FIELLER)
			any_fieller = true;
		else
			any_boot = true;
	}
	fputs("\n  values: mean (Fieller) or median (bootstrap), ±CV across runs, (runs)\n", out);
	if (any_fieller)
		fputs("  Fieller: interval of the ratio of means (fewer than 5 runs a side)\n", out);
	if (any_boot)
		fputs("  bootstrap: percentile bootstrap of the ratio of medians\n", out);

	size_t missing = 0, shown = 0;
	for (size_t i = 0; i < res->nr_rows; i++)
		for (size_t s = 1; s < res->nsel; s++) {
			if (res->rows[i].cells[s].status == CMP_MISSING) {
				missing++;
				continue;
			}
			char v[768];
			cmp_verdict(res, i, s, v, sizeof(v));
			fprintf(out, "%s  %s\n", shown++ ? "" : "\nverdicts:\n", v);
		}
	if (missing)
		fprintf(out, "%s  %zu figure%s on one side only (shown as -): nothing to compare\n",
			shown ? "" : "\nverdicts:\n", missing, missing == 1 ? "" : "s");
	if (res->nr_diffs) {
		fputs("\ncontext differences:\n", out);
		for (size_t i = 0; i < res->nr_diffs; i++) {
			fprintf(out, "  %s:", res->diffs[i].key);
			for (size_t s = 0; s < res->nsel; s++)
				fprintf(out, "%s %s %s", s ? ";" : "", res->sels[s].label,
					res->diffs[i].values[s] ? res->diffs[i].values[s] : "-");
			fputc('\n', out);
		}
	} else {
		fputs("\ncontext: no difference between the selections\n", out);
	}
	return ferror(out) ? -EIO : 0;
}

/* --- JSON ----------------------------------------------------------- */

static void json_cell(struct json_writer *w, const struct cmp_result *res, size_t ri, size_t s)
{
	const struct cmp_row *r = &res->rows[ri];
	const struct cmp_cell *c = &r->cells[s];
	json_object_begin(w);
	json_kv_string(w, "selection", res->sels[s].label);
	json_kv_uint(w, "n", c->n);
	json_kv_array_begin(w, "values");
	for (size_t i = 0; i < c->n; i++)
		json_double(w, c->x[i]);
	json_array_end(w);
	json_kv_double(w, "mean", c->mean);
	json_kv_double(w, "median", c->median);
	json_kv_double(w, "min", c->min);
	json_kv_double(w, "max", c->max);
	json_kv_double(w, "cv", c->cv);
	if (s) {
		json_kv_string(w, "status", status_name(c->status));
		json_kv_double(w, "ratio", c->ci.ratio);
		if (c->status == CMP_INTERVAL) {
			json_kv_double(w, "lo", c->ci.lo);
			json_kv_double(w, "hi", c->ci.hi);
			json_kv_bool(w, "real", c->real);
			json_kv_bool(w, "interval_excludes_1", c->ci.real);
		} else {
			json_kv_bool(w, "real", false);
		}
		if (c->status == CMP_SINGLE) {
			json_kv_uint(w, "reps_needed", c->reps_needed);
			json_kv_double(w, "reps_cv", c->cv_used);
			json_kv_bool(w, "reps_cv_within_run", c->cv_within_run);
		}
		char v[768];
		cmp_verdict(res, ri, s, v, sizeof(v));
		json_kv_string(w, "verdict", v);
	}
	json_object_end(w);
}

int cmp_report_json(const struct cmp_result *res, FILE *out)
{
	struct json_writer w;
	json_init(&w, out);
	json_object_begin(&w);
	json_kv_double(&w, "confidence", res->opts.conf);
	json_kv_double(&w, "noise_threshold", res->opts.threshold);
	json_kv_array_begin(&w, "selections");
	for (size_t s = 0; s < res->nsel; s++) {
		const struct cmp_sel *sel = &res->sels[s];
		json_object_begin(&w);
		json_kv_string(&w, "name", sel->name);
		json_kv_string(&w, "label", sel->label);
		json_kv_array_begin(&w, "runs");
		for (size_t k = 0; k < sel->runs.n; k++) {
			const struct cmp_run *run = &sel->runs.v[k];
			json_object_begin(&w);
			json_kv_int(&w, "id", run->id);
			json_kv_string(&w, "host", run->host);
			json_kv_string(&w, "tool", run->tool);
			json_kv_string(&w, "source", run->source);
			json_object_end(&w);
		}
		json_array_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_kv_array_begin(&w, "rows");
	for (size_t i = 0; i < res->nr_rows; i++) {
		const struct cmp_row *r = &res->rows[i];
		json_object_begin(&w);
		json_kv_string(&w, "job", r->job);
		json_kv_string(&w, "direction", r->dir);
		json_kv_string(&w, "figure", r->def->name);
		json_kv_string(&w, "label", r->def->label);
		json_kv_bool(&w, "higher_is_better", r->def->higher_better);
		json_kv_string(&w, "method", method_name(r->method));
		json_kv_string(&w, "statistic", r->stat == RATIO_OF_MEANS ? "mean" : "median");
		json_kv_array_begin(&w, "cells");
		for (size_t s = 0; s < res->nsel; s++)
			json_cell(&w, res, i, s);
		json_array_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_kv_array_begin(&w, "context_differences");
	for (size_t i = 0; i < res->nr_diffs; i++) {
		json_object_begin(&w);
		json_kv_string(&w, "key", res->diffs[i].key);
		json_kv_array_begin(&w, "values");
		for (size_t s = 0; s < res->nsel; s++)
			json_string(&w, res->diffs[i].values[s]);
		json_array_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_object_end(&w);
	return json_finish(&w);
}
