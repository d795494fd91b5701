/*
 * Loading a stored run into the compare model (store_model.h): its summary
 * and labels through store_query.h, its figures from the tall table, its
 * job options and the sysinfo kept in run_env.
 */
#include "store/store_model.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_import.h"
#include "store/store_int.h"
#include "store/store_query.h"
#include "util/xmalloc.h"

static int add_fig(void *arg, const struct store_figure *f)
{
	cmp_run_add_fig(arg, f->job_name ? f->job_name : "", f->direction ? f->direction : "",
			f->name ? f->name : "", f->value);
	return 0;
}

static int options(struct store *st, int64_t id, struct cmp_run *r)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st,
			       "SELECT o.job_idx, j.name, o.key, o.value FROM job_options o LEFT JOIN "
			       "jobs j ON j.run_id = o.run_id AND j.idx = o.job_idx WHERE o.run_id = ?1 "
			       "ORDER BY o.job_idx, o.seq", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int idx = sqlite3_column_int(s, 0);
		const char *job = (const char *)sqlite3_column_text(s, 1);
		const char *key = (const char *)sqlite3_column_text(s, 2);
		const char *val = (const char *)sqlite3_column_text(s, 3);
		if (!key || !strcmp(key, "seed"))
			continue;
		char *k = xasprintf("option.%s.%s", idx < 0 || !job ? "global" : job, key);
		/* a job name twice in a run (bonnie's tests): the first one's */
		if (!cmp_kvs_get(&r->context, k))
			cmp_kvs_add(&r->context, k, val ? val : "");
		free(k);
	}
	rc = rc == SQLITE_DONE ? 0 : store_sql_fail(st, rc, "cannot read the job options");
	sqlite3_finalize(s);
	return rc;
}

static int machine(struct store *st, int64_t id, struct cmp_run *r)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st, "SELECT json FROM run_env WHERE run_id = ?1", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(s, 0);
		struct json_object *root = text ? json_tokener_parse(text) : NULL, *si;
		if (root && json_object_object_get_ex(root, "sysinfo", &si))
			cmp_context_sysinfo(r, si);
		json_object_put(root);
		rc = 0;
	} else {
		rc = rc == SQLITE_DONE ? 0 : store_sql_fail(st, rc, "cannot read the run's machine");
	}
	sqlite3_finalize(s);
	return rc;
}

int store_model_load(struct store *st, int64_t id, struct cmp_run *out)
{
	struct store_run_info info;
	memset(out, 0, sizeof(*out));
	int rc = store_run_info_get(st, id, &info);
	if (rc < 0)
		return rc;
	out->id = id;
	out->host = info.host ? xstrdup(info.host) : NULL;
	out->tool = info.tool ? xstrdup(info.tool) : NULL;
	out->source = info.source ? xstrdup(info.source) : NULL;
	out->source_format = info.source_format ? xstrdup(info.source_format) : NULL;
	out->start_ms = info.start_ms;
	for (size_t i = 0; i < info.nr_labels; i++)
		cmp_kvs_add(&out->labels, info.labels[i].key, info.labels[i].value);
	if (out->host)
		cmp_kvs_add(&out->context, "host", out->host);
	if (out->tool)
		cmp_kvs_add(&out->context, "tool", out->tool);
	store_run_info_release(&info);
	if ((rc = store_figures_each(st, id, add_fig, out)) < 0 || (rc = options(st, id, out)) < 0 ||
	    (rc = machine(st, id, out)) < 0) {
		cmp_run_release(out);
		return rc;
	}
	return 0;
}
