/*
 * The store's queries (store_query.h): selections as SQL built from the
 * filter with every value bound, never spliced into the text; summaries,
 * renderings and figures of one run; deleting runs and setting labels,
 * each in a transaction of its own.
 */
#include "store/store_query.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "util/xmalloc.h"

/* The SQL of f's selection, with ?NNN placeholders bound by bind_filter. */
static char *filter_sql(const struct store_filter *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	int p = 1;
	fputs("SELECT id FROM runs WHERE 1", m);
	if (f->nr_ids) {
		fputs(" AND id IN (", m);
		for (size_t i = 0; i < f->nr_ids; i++)
			fprintf(m, "%s?%d", i ? ", " : "", p++);
		fputs(")", m);
	}
	for (size_t i = 0; i < f->nr_labels; i++, p += 2)
		fprintf(m, " AND EXISTS (SELECT 1 FROM labels l WHERE l.run_id = runs.id AND "
			"l.key = ?%d AND l.value = ?%d)", p, p + 1);
	if (f->since_ms >= 0)
		fprintf(m, " AND start_ms >= ?%d", p++);
	if (f->host)
		fprintf(m, " AND host = ?%d", p++);
	if (f->sweep_id > 0)
		fprintf(m, " AND sweep_id = ?%d", p++);
	fputs(" ORDER BY id", m);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void bind_filter(sqlite3_stmt *s, const struct store_filter *f)
{
	int p = 1;
	for (size_t i = 0; i < f->nr_ids; i++)
		sqlite3_bind_int64(s, p++, f->ids[i]);
	for (size_t i = 0; i < f->nr_labels; i++) {
		store_bind_text(s, p++, f->labels[i].key);
		store_bind_text(s, p++, f->labels[i].value);
	}
	if (f->since_ms >= 0)
		sqlite3_bind_int64(s, p++, f->since_ms);
	if (f->host)
		store_bind_text(s, p++, f->host);
	if (f->sweep_id > 0)
		sqlite3_bind_int64(s, p++, f->sweep_id);
}

int store_select(struct store *st, const struct store_filter *f, int64_t **ids, size_t *n)
{
	sqlite3_stmt *s;
	size_t alloc = 0;
	*ids = NULL;
	*n = 0;
	char *sql = filter_sql(f);
	if (!sql)
		return -ENOMEM;
	int rc = store_prepare(st, sql, &s);
	free(sql);
	if (rc < 0)
		return rc;
	bind_filter(s, f);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*ids = xgrow(*ids, &alloc, *n, sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(s, 0);
	}
	rc = rc == SQLITE_DONE ? 0 : store_sql_fail(st, rc, "cannot select runs");
	sqlite3_finalize(s);
	if (rc < 0) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return rc;
}

/* Rows of "SELECT a, b FROM ... WHERE run_id = ?1" as string pairs. */
static int pairs(struct store *st, const char *sql, int64_t id, char ***a, char ***b,
		 int64_t **c, size_t *n)
{
	sqlite3_stmt *s;
	size_t alloc = 0, alloc_b = 0, alloc_c = 0;
	*n = 0;
	*a = NULL;
	if (b)
		*b = NULL;
	if (c)
		*c = NULL;
	int rc = store_prepare(st, sql, &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*a = xgrow(*a, &alloc, *n, sizeof(**a));
		(*a)[*n] = store_column_dup(s, 0);
		if (!(*a)[*n])
			(*a)[*n] = xstrdup("");
		if (b) {
			*b = xgrow(*b, &alloc_b, *n, sizeof(**b));
			(*b)[*n] = store_column_dup(s, 1);
			if (!(*b)[*n])
				(*b)[*n] = xstrdup("");
		}
		if (c) {
			*c = xgrow(*c, &alloc_c, *n, sizeof(**c));
			(*c)[*n] = sqlite3_column_int64(s, 1);
		}
		(*n)++;
	}
	rc = rc == SQLITE_DONE ? 0 : store_sql_fail(st, rc, "cannot read a run");
	sqlite3_finalize(s);
	return rc;
}

int store_run_info_get(struct store *st, int64_t id, struct store_run_info *out)
{
	sqlite3_stmt *s;
	memset(out, 0, sizeof(*out));
	int rc = store_prepare(st, "SELECT kind, tool, source, source_format, host, start_ms, "
			       "end_ms, exit_status, interrupted, rep_group, rep_index, argv, "
			       "sweep_id, sweep_point FROM runs WHERE id = ?1", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		rc = rc == SQLITE_DONE ? -ENOENT : store_sql_fail(st, rc, "cannot read a run");
		sqlite3_finalize(s);
		return rc;
	}
	out->id = id;
	out->kind = store_column_dup(s, 0);
	out->tool = store_column_dup(s, 1);
	out->source = store_column_dup(s, 2);
	out->source_format = store_column_dup(s, 3);
	out->host = store_column_dup(s, 4);
	out->start_ms = sqlite3_column_int64(s, 5);
	out->end_ms = sqlite3_column_type(s, 6) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 6);
	out->have_exit_status = sqlite3_column_type(s, 7) != SQLITE_NULL;
	out->exit_status = sqlite3_column_int(s, 7);
	out->interrupted = sqlite3_column_int(s, 8) != 0;
	out->rep_group = sqlite3_column_int64(s, 9);
	out->rep_index = sqlite3_column_type(s, 10) == SQLITE_NULL ? -1 : sqlite3_column_int(s, 10);
	out->argv_json = store_column_dup(s, 11);
	out->sweep_id = sqlite3_column_int64(s, 12);
	out->sweep_point = store_column_dup(s, 13);
	sqlite3_finalize(s);

	char **keys, **values, **fmts;
	int64_t *printed;
	size_t n;
	if ((rc = pairs(st, "SELECT key, value FROM labels WHERE run_id = ?1 ORDER BY key", id,
			&keys, &values, NULL, &n)) < 0)
		goto fail;
	out->labels = xcalloc(n ? n : 1, sizeof(*out->labels));
	for (size_t i = 0; i < n; i++)
		out->labels[i] = (struct store_label){ keys[i], values[i] };
	out->nr_labels = n;
	free(keys);
	free(values);
	if ((rc = pairs(st, "SELECT name FROM jobs WHERE run_id = ?1 ORDER BY idx", id, &out->jobs,
			NULL, NULL, &out->nr_jobs)) < 0)
		goto fail;
	if ((rc = pairs(st, "SELECT format, printed FROM renderings WHERE run_id = ?1 ORDER BY "
			"printed DESC, CASE format WHEN 'normal' THEN 0 WHEN 'table' THEN 1 WHEN "
			"'json+' THEN 2 WHEN 'json' THEN 3 WHEN 'terse' THEN 4 ELSE 5 END, format", id, &fmts, NULL, &printed, &n)) < 0)
		goto fail;
	out->formats = fmts;
	out->printed = xcalloc(n ? n : 1, sizeof(*out->printed));
	for (size_t i = 0; i < n; i++)
		out->printed[i] = printed[i] != 0;
	out->nr_formats = n;
	free(printed);
	return 0;
fail:
	store_run_info_release(out);
	return rc;
}

void store_run_info_release(struct store_run_info *i)
{
	free(i->kind);
	free(i->tool);
	free(i->source);
	free(i->source_format);
	free(i->host);
	free(i->argv_json);
	free(i->sweep_point);
	store_labels_free(i->labels, i->nr_labels);
	for (size_t k = 0; k < i->nr_jobs; k++)
		free(i->jobs[k]);
	free(i->jobs);
	for (size_t k = 0; k < i->nr_formats; k++)
		free(i->formats[k]);
	free(i->formats);
	free(i->printed);
	memset(i, 0, sizeof(*i));
}

int store_rendering_get(struct store *st, int64_t id, const char *format, char **text,
			size_t *len)
{
	sqlite3_stmt *s;
	*text = NULL;
	*len = 0;
	int rc = store_prepare(st, "SELECT content FROM renderings WHERE run_id = ?1 AND "
			       "format = ?2", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	store_bind_text(s, 2, format);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const void *blob = sqlite3_column_blob(s, 0);
		size_t n = (size_t)sqlite3_column_bytes(s, 0);
		*text = xmalloc(n + 1);
		if (n)
			memcpy(*text, blob, n);
		(*text)[n] = '\0';
		*len = n;
		rc = 0;
	} else {
		rc = rc == SQLITE_DONE ? -ENOENT : store_sql_fail(st, rc, "cannot read an output");
	}
	sqlite3_finalize(s);
	return rc;
}

int store_figures_each(struct store *st, int64_t id,
		       int (*fn)(void *arg, const struct store_figure *f), void *arg)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st, "SELECT job_idx, job_name, groupid, direction, name, value FROM "
			       "figures WHERE run_id = ?1 ORDER BY job_idx, direction, name", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_figure f = {
			.job_idx = sqlite3_column_int(s, 0),
			.job_name = (const char *)sqlite3_column_text(s, 1),
			.groupid = sqlite3_column_type(s, 2) == SQLITE_NULL ? -1
									  : sqlite3_column_int64(s, 2),
			.direction = (const char *)sqlite3_column_text(s, 3),
			.name = (const char *)sqlite3_column_text(s, 4),
			.value = sqlite3_column_double(s, 5),
		};
		if ((rc = fn(arg, &f)) < 0) {
			sqlite3_finalize(s);
			return rc;
		}
	}
	rc = rc == SQLITE_DONE ? 0 : store_sql_fail(st, rc, "cannot read the figures");
	sqlite3_finalize(s);
	return rc;
}

/* Run one statement on run id in its own transaction; -ENOENT when the
 * run does not exist. */
static int change(struct store *st, int64_t id, const char *sql, const struct store_label *l,
		  const char *what)
{
	sqlite3_stmt *s;
	int rc = store_begin(st);
	if (rc < 0)
		return rc;
	if ((rc = store_prepare(st, "SELECT 1 FROM runs WHERE id = ?1", &s)) < 0)
		goto out;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW) {
		rc = rc == SQLITE_DONE ? -ENOENT : store_sql_fail(st, rc, what);
		goto out;
	}
	if ((rc = store_prepare(st, sql, &s)) < 0)
		goto out;
	sqlite3_bind_int64(s, 1, id);
	if (l) {
		store_bind_text(s, 2, l->key);
		store_bind_text(s, 3, l->value);
	}
	rc = store_step_done(st, s, what);
	sqlite3_finalize(s);
	if (!rc)
		rc = store_commit(st);
out:
	store_rollback(st);
	return rc;
}

int store_delete_run(struct store *st, int64_t id)
{
	return change(st, id, "DELETE FROM runs WHERE id = ?1", NULL, "cannot delete the run");
}

int store_set_label(struct store *st, int64_t id, const struct store_label *l)
{
	return change(st, id, "INSERT INTO labels (run_id, key, value) VALUES (?1, ?2, ?3) "
		      "ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value", l,
		      "cannot set the label");
}
