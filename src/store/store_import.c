/*
 * Imported runs into the store (store_import.h): the runs row of kind
 * "import", then the file's jobs, options, figures and histograms by its
 * format, and its text as a rendering, all in one transaction.
 */
#include "store/store_import.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_import.h"
#include "store/store_int.h"
#include "util/array.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

/* The machine around an iobench document (its "iobench" member, or the
 * bonnie document itself): sysinfo and what else the reporters put there. */
static void env_of(struct store_tx *t, struct json_object *obj)
{
	static const char *const keys[] = { "sysinfo", "monitor", "process_io", "unwatched",
					     "warnings" };
	struct json_object *env = json_object_new_object(), *v;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (json_object_object_get_ex(obj, keys[i], &v))
			json_object_object_add(env, keys[i], json_object_get(v));
	if (json_object_object_length(env))
		store_tx_env(t, json_object_to_json_string_ext(env, JSON_C_TO_STRING_PRETTY |
								    JSON_C_TO_STRING_SPACED));
	json_object_put(env);
}

static bool has_bins(const char *raw)
{
	return strstr(raw, "\"bins\"") != NULL;
}

/* Parse the run's text as cmp_import parsed it (fio's nan and inf as marked
 * strings, no figures: cmp_import said which). */
static int parse(const struct cmp_run *r, struct json_object **root)
{
	size_t len = 0;
	char *marked = cmp_json_mark_nonfinite(r->raw, r->raw_len, &len);
	int rc = store_json_parse(r->source, marked ? marked : r->raw, marked ? len : r->raw_len,
				  root);
	free(marked);
	return rc;
}

static void fio_doc(struct store_tx *t, const struct cmp_run *r)
{
	struct json_object *root, *ib;
	if (parse(r, &root) < 0) {
		store_tx_fail(t, -EINVAL);
		return;
	}
	store_ingest_fio_json(t, root, STORE_INGEST_OPTIONS | STORE_INGEST_BINS);
	if (json_object_object_get_ex(root, "iobench", &ib))
		env_of(t, ib);
	json_object_put(root);
	store_tx_rendering(t, has_bins(r->raw) ? "json+" : "json", r->raw, r->raw_len, true);
}

static void bonnie_doc(struct store_tx *t, const struct cmp_run *r)
{
	struct json_object *root;
	if (parse(r, &root) < 0) {
		store_tx_fail(t, -EINVAL);
		return;
	}
	store_ingest_bonnie_json(t, root);
	env_of(t, root);
	json_object_put(root);
	store_tx_rendering(t, "json", r->raw, r->raw_len, true);
}

static void csv_lines(struct store_tx *t, const struct cmp_run *r)
{
	int seq = 0, idx = 0;
	const char *pre = "option.global.";
	for (size_t i = 0; i < r->context.n; i++)
		if (!strncmp(r->context.v[i].key, pre, strlen(pre)))
			store_tx_option(t, -1, seq++, r->context.v[i].key + strlen(pre),
					r->context.v[i].value);
	char *copy = xstrndup(r->raw, r->raw_len);
	for (char *line = strtok(copy, "\n"); line && !t->err_code; line = strtok(NULL, "\n")) {
		struct cmp_run one = { 0 };
		if (cmp_bonnie_csv_line(r->source, (size_t)idx + 1, line, &one, "aggregate") < 0) {
			cmp_run_release(&one);
			store_tx_fail(t, -EINVAL);
			break;
		}
		store_tx_job(t, idx, "aggregate", idx, 0, 0, NULL);
		for (size_t k = 0; k < one.nr_figs; k++)
			store_tx_figure(t, idx, "aggregate", idx, one.figs[k].dir, one.figs[k].name,
					one.figs[k].value);
		cmp_run_release(&one);
		idx++;
	}
	free(copy);
	store_tx_rendering(t, "csv", r->raw, r->raw_len, true);
}

int store_import_run(struct store *st, const struct cmp_run *r, const struct store_meta *m,
		     int64_t *id)
{
	if (!r->raw || !r->source_format || !r->source)
		return error("store: an import needs the text it was read from");
	const char *f = r->source_format;
	if (strcmp(f, CMP_FMT_FIO_JSON) && strcmp(f, CMP_FMT_IOBENCH_JSON) &&
	    strcmp(f, CMP_FMT_IOBENCH_BONNIE_JSON) && strcmp(f, CMP_FMT_BONNIE_CSV))
		return error("store: cannot import runs of format '%s'", f);
	struct store_run_row row = {
		.kind = store_kind_name(STORE_KIND_IMPORT),
		.tool = r->tool ? r->tool : "unknown",
		.source = r->source,
		.source_format = f,
		.start_ms = r->start_ms > 0 ? r->start_ms : (int64_t)wall_time_ms(),
		.end_ms = -1,
		.host = r->host ? r->host : m && m->host ? m->host : "unknown",
	};
	struct store_tx t;
	int rc = store_tx_begin(st, &row, m, &t);
	if (rc < 0)
		return rc;
	if (!strcmp(f, CMP_FMT_BONNIE_CSV))
		csv_lines(&t, r);
	else if (!strcmp(f, CMP_FMT_IOBENCH_BONNIE_JSON))
		bonnie_doc(&t, r);
	else
		fio_doc(&t, r);
	int64_t run_id = t.run_id;
	if (t.err_code == -EBADMSG)
		error("store: '%s' is not laid out as expected", r->source);
	if ((rc = store_tx_end(&t, true)) < 0)
		return rc;
	if (id)
		*id = run_id;
	return 0;
}
