/*
 * `iobench results export`: one row per run, job, direction and figure,
 * the run's context (id, start, kind, tool, host, status) in the first
 * columns and every label key of the selected runs as a column of its own
 * (empty where a run lacks it), as CSV (RFC 4180, a header line) or a JSON
 * array of flat objects, so either loads straight into a spreadsheet or
 * pandas (read_csv, read_json). Values are written with as few digits as
 * give back the stored double exactly.
 */
#include "cmd/results/results_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/json.h"
#include "util/xmalloc.h"

static const char *const fixed[] = { "run_id", "start", "kind", "tool", "host", "interrupted",
				     "exit_status", "job_idx", "job", "groupid", "direction",
				     "figure", "value" };
#define NR_FIXED (ARRAY_SIZE(fixed))

struct exporter {
	FILE *out;
	bool json;
	struct json_writer w;
	char **keys;          /* the label columns, sorted */
	char **cols;          /* their column names (a key that is a fixed name gets "label:") */
	size_t nr_keys;
	const struct store_run_info *run;
	char start[40];
};

static void csv_field(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!s[strcspn(s, ",\"\r\n")] && s[0] != ' ' && (!*s || s[strlen(s) - 1] != ' ')) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* The shortest %g that reads back as v. */
static void number(double v, char *buf, size_t len)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static const char *label_of(const struct store_run_info *i, const char *key)
{
	for (size_t k = 0; k < i->nr_labels; k++)
		if (!strcmp(i->labels[k].key, key))
			return i->labels[k].value;
	return NULL;
}

static int row(void *arg, const struct store_figure *f)
{
	struct exporter *e = arg;
	const struct store_run_info *i = e->run;
	char v[40];
	number(f->value, v, sizeof(v));
	if (e->json) {
		struct json_writer *w = &e->w;
		json_object_begin(w);
		json_kv_int(w, "run_id", i->id);
		json_kv_string(w, "start", e->start);
		json_kv_string(w, "kind", i->kind);
		json_kv_string(w, "tool", i->tool);
		json_kv_string(w, "host", i->host);
		json_kv_bool(w, "interrupted", i->interrupted);
		if (i->have_exit_status)
			json_kv_int(w, "exit_status", i->exit_status);
		else
			json_kv_string(w, "exit_status", NULL);
		json_kv_int(w, "job_idx", f->job_idx);
		json_kv_string(w, "job", f->job_name);
		if (f->groupid >= 0)
			json_kv_int(w, "groupid", f->groupid);
		else
			json_kv_string(w, "groupid", NULL);
		json_kv_string(w, "direction", f->direction);
		json_kv_string(w, "figure", f->name);
		json_kv_double(w, "value", f->value);
		for (size_t k = 0; k < e->nr_keys; k++)
			json_kv_string(w, e->cols[k], label_of(i, e->keys[k]));
		json_object_end(w);
		return 0;
	}
	FILE *out = e->out;
	fprintf(out, "%lld,%s,", (long long)i->id, e->start);
	csv_field(out, i->kind);
	fputc(',', out);
	csv_field(out, i->tool);
	fputc(',', out);
	csv_field(out, i->host);
	fprintf(out, ",%d,", i->interrupted ? 1 : 0);
	if (i->have_exit_status)
		fprintf(out, "%d", i->exit_status);
	fprintf(out, ",%d,", f->job_idx);
	csv_field(out, f->job_name);
	fputc(',', out);
	if (f->groupid >= 0)
		fprintf(out, "%lld", (long long)f->groupid);
	fputc(',', out);
	csv_field(out, f->direction);
	fputc(',', out);
	csv_field(out, f->name);
	fprintf(out, ",%s", v);
	for (size_t k = 0; k < e->nr_keys; k++) {
		fputc(',', out);
		csv_field(out, label_of(i, e->keys[k]));
	}
	fputs("\r\n", out);
	return ferror(out) ? -EIO : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_key(struct exporter *e, size_t *alloc, const char *key)
{
	for (size_t k = 0; k < e->nr_keys; k++)
		if (!strcmp(e->keys[k], key))
			return;
	e->keys = xgrow(e->keys, alloc, e->nr_keys, sizeof(*e->keys));
	e->keys[e->nr_keys++] = xstrdup(key);
}

static void name_columns(struct exporter *e)
{
	qsort(e->keys, e->nr_keys, sizeof(*e->keys), cmp_str);
	e->cols = xcalloc(e->nr_keys ? e->nr_keys : 1, sizeof(*e->cols));
	for (size_t k = 0; k < e->nr_keys; k++) {
		bool clash = false;
		for (size_t f = 0; f < NR_FIXED; f++)
			clash |= !strcmp(fixed[f], e->keys[k]);
		e->cols[k] = clash ? xasprintf("label:%s", e->keys[k]) : xstrdup(e->keys[k]);
	}
}

int results_export(struct store *st, const struct results_filter *rf, const char *format,
		   FILE *out)
{
	struct exporter e = { .out = out, .json = !strcmp(format, "json") };
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0;
	struct store_run_info *runs = NULL;
	int rc = st ? store_select(st, &rf->f, &ids, &n) : 0;
	if (rc < 0)
		return rc;
	runs = xcalloc(n ? n : 1, sizeof(*runs));
	size_t got = 0;
	for (size_t i = 0; i < n && rc >= 0; i++) {
		rc = store_run_info_get(st, ids[i], &runs[got]);
		if (rc == -ENOENT) {
			rc = 0; /* deleted meanwhile */
			continue;
		}
		for (size_t k = 0; rc >= 0 && k < runs[got].nr_labels; k++)
			add_key(&e, &alloc, runs[got].labels[k].key);
		if (rc >= 0)
			got++;
	}
	name_columns(&e);
	if (rc >= 0 && e.json) {
		json_init(&e.w, out);
		json_array_begin(&e.w);
	} else if (rc >= 0) {
		for (size_t f = 0; f < NR_FIXED; f++)
			fprintf(out, "%s%s", f ? "," : "", fixed[f]);
		for (size_t k = 0; k < e.nr_keys; k++) {
			fputc(',', out);
			csv_field(out, e.cols[k]);
		}
		fputs("\r\n", out);
	}
	for (size_t i = 0; rc >= 0 && i < got; i++) {
		e.run = &runs[i];
		results_iso_time(runs[i].start_ms, e.start, sizeof(e.start));
		rc = store_figures_each(st, runs[i].id, row, &e);
	}
	if (rc >= 0 && e.json) {
		json_array_end(&e.w);
		rc = json_finish(&e.w);
		fputc('\n', out);
	}
	for (size_t i = 0; i < got; i++)
		store_run_info_release(&runs[i]);
	free(runs);
	free(ids);
	for (size_t k = 0; k < e.nr_keys; k++) {
		free(e.keys[k]);
		free(e.cols[k]);
	}
	free(e.keys);
	free(e.cols);
	return rc < 0 ? rc : 0;
}
