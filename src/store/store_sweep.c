/*
 * The sweeps and sweep_points tables (store_sweep.h): a sweep is written
 * when it starts, with all its points pending, and each point's state as
 * it runs, so an interrupted sweep can be resumed from what is stored.
 */
#include "store/store_sweep.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store_int.h"
#include "util/error.h"
#include "util/xmalloc.h"

static char *factors_json(const struct store_sweep *in)
{
	struct json_object *a = json_object_new_array();
	for (size_t i = 0; i < in->nr_factors; i++)
		json_object_array_add(a, json_object_new_string(in->factors[i]));
	char *s = xstrdup(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN));
	json_object_put(a);
	return s;
}

int store_sweep_new(struct store *st, const struct store_sweep *in, const char *const *points,
		    size_t nr_points, int64_t *id)
{
	char host[256] = "unknown";
	if (gethostname(host, sizeof(host) - 1) < 0)
		snprintf(host, sizeof(host), "unknown");
	sqlite3_stmt *s = NULL, *p = NULL;
	int rc = store_begin(st);
	if (rc < 0)
		return rc;
	char *fj = factors_json(in);
	rc = store_prepare(st, "INSERT INTO sweeps (plan_path, plan, design, goal, seed, factors, "
			   "state, host, start_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'running', ?7, ?8)",
			   &s);
	if (rc < 0)
		goto out;
	store_bind_text(s, 1, in->plan_path);
	store_bind_text(s, 2, in->plan);
	store_bind_text(s, 3, in->design);
	store_bind_text(s, 4, in->goal);
	sqlite3_bind_int64(s, 5, (int64_t)in->seed);
	store_bind_text(s, 6, fj);
	store_bind_text(s, 7, host);
	sqlite3_bind_int64(s, 8, in->start_ms);
	if ((rc = store_step_done(st, s, "cannot store the sweep")) < 0)
		goto out;
	int64_t sid = sqlite3_last_insert_rowid(st->db);
	rc = store_prepare(st, "INSERT INTO sweep_points (sweep_id, idx, point, state) "
			   "VALUES (?1, ?2, ?3, 'pending')", &p);
	for (size_t i = 0; !rc && i < nr_points; i++) {
		sqlite3_bind_int64(p, 1, sid);
		sqlite3_bind_int64(p, 2, (int64_t)i);
		store_bind_text(p, 3, points[i]);
		rc = store_step_done(st, p, "cannot store the sweep's points");
	}
	if (!rc)
		rc = store_commit(st);
	if (!rc && id)
		*id = sid;
out:
	if (rc < 0)
		store_rollback(st);
	sqlite3_finalize(s);
	sqlite3_finalize(p);
	free(fj);
	return rc;
}

int store_sweep_set_state(struct store *st, int64_t id, const char *state, int64_t end_ms)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st, "UPDATE sweeps SET state = ?1, end_ms = CASE WHEN ?2 >= 0 "
			       "THEN ?2 ELSE end_ms END WHERE id = ?3", &s);
	if (rc < 0)
		return rc;
	store_bind_text(s, 1, state);
	sqlite3_bind_int64(s, 2, end_ms);
	sqlite3_bind_int64(s, 3, id);
	rc = store_step_done(st, s, "cannot store the sweep's state");
	sqlite3_finalize(s);
	return rc;
}

int store_sweep_point_set(struct store *st, int64_t id, size_t idx, const char *state,
			  const char *message, int64_t start_ms, int64_t end_ms)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st, "UPDATE sweep_points SET state = ?1, message = ?2, "
			       "start_ms = CASE WHEN ?3 >= 0 THEN ?3 ELSE start_ms END, "
			       "end_ms = CASE WHEN ?4 >= 0 THEN ?4 ELSE end_ms END "
			       "WHERE sweep_id = ?5 AND idx = ?6", &s);
	if (rc < 0)
		return rc;
	store_bind_text(s, 1, state);
	store_bind_text(s, 2, message);
	sqlite3_bind_int64(s, 3, start_ms);
	sqlite3_bind_int64(s, 4, end_ms);
	sqlite3_bind_int64(s, 5, id);
	sqlite3_bind_int64(s, 6, (int64_t)idx);
	rc = store_step_done(st, s, "cannot store the sweep point's state");
	sqlite3_finalize(s);
	return rc;
}

static int parse_factors(const char *text, struct store_sweep *out)
{
	struct json_object *a = text ? json_tokener_parse(text) : NULL;
	if (!a || !json_object_is_type(a, json_type_array)) {
		json_object_put(a);
		return error("sweep %lld: its stored factors are not a JSON array",
			     (long long)out->id);
	}
	size_t n = json_object_array_length(a);
	out->factors = xcalloc(n ? n : 1, sizeof(*out->factors));
	for (size_t i = 0; i < n; i++)
		out->factors[i] = xstrdup(json_object_get_string(json_object_array_get_idx(a, i)));
	out->nr_factors = n;
	json_object_put(a);
	return 0;
}

int store_sweep_get(struct store *st, int64_t id, struct store_sweep *out)
{
	memset(out, 0, sizeof(*out));
	sqlite3_stmt *s;
	int rc = store_prepare(st, "SELECT plan_path, plan, design, goal, seed, factors, state, "
			       "host, start_ms, end_ms FROM sweeps WHERE id = ?1", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_DONE) {
		sqlite3_finalize(s);
		return -ENOENT;
	}
	if (rc != SQLITE_ROW) {
		rc = store_sql_fail(st, rc, "cannot read the sweep");
		sqlite3_finalize(s);
		return rc;
	}
	out->id = id;
	out->plan_path = store_column_dup(s, 0);
	out->plan = store_column_dup(s, 1);
	out->design = store_column_dup(s, 2);
	out->goal = store_column_dup(s, 3);
	out->seed = (uint64_t)sqlite3_column_int64(s, 4);
	char *fj = store_column_dup(s, 5);
	out->state = store_column_dup(s, 6);
	out->host = store_column_dup(s, 7);
	out->start_ms = sqlite3_column_int64(s, 8);
	out->end_ms = sqlite3_column_type(s, 9) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 9);
	sqlite3_finalize(s);
	rc = parse_factors(fj, out);
	free(fj);
	if (rc < 0) {
		store_sweep_release(out);
		return -EINVAL;
	}
	return 0;
}

void store_sweep_release(struct store_sweep *s)
{
	free(s->plan_path);
	free(s->plan);
	free(s->design);
	free(s->goal);
	for (size_t i = 0; i < s->nr_factors; i++)
		free(s->factors[i]);
	free(s->factors);
	free(s->state);
	free(s->host);
	memset(s, 0, sizeof(*s));
}

int store_sweep_points(struct store *st, int64_t id, struct store_sweep_point **v, size_t *n)
{
	*v = NULL;
	*n = 0;
	size_t alloc = 0;
	sqlite3_stmt *s;
	int rc = store_prepare(st, "SELECT idx, point, state, message, start_ms, end_ms FROM "
			       "sweep_points WHERE sweep_id = ?1 ORDER BY idx", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*v = xgrow(*v, &alloc, *n + 1, sizeof(**v));
		struct store_sweep_point *p = &(*v)[(*n)++];
		p->idx = (size_t)sqlite3_column_int64(s, 0);
		p->point = store_column_dup(s, 1);
		p->state = store_column_dup(s, 2);
		p->message = store_column_dup(s, 3);
		p->start_ms = sqlite3_column_type(s, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 4);
		p->end_ms = sqlite3_column_type(s, 5) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 5);
	}
	if (rc != SQLITE_DONE) {
		rc = store_sql_fail(st, rc, "cannot read the sweep's points");
		sqlite3_finalize(s);
		store_sweep_points_free(*v, *n);
		*v = NULL;
		*n = 0;
		return rc;
	}
	sqlite3_finalize(s);
	return 0;
}

void store_sweep_points_free(struct store_sweep_point *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].point);
		free(v[i].state);
		free(v[i].message);
	}
	free(v);
}
