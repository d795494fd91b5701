/*
 * Writing one run (store_int.h, struct store_tx): the runs row with its
 * labels and groups, then jobs, options, figures, histograms, files,
 * warnings, errors, renderings and the machine's JSON, all inside the one
 * transaction store_tx_begin opened, which store_tx_end commits or rolls
 * back. The first failure sticks; later calls do nothing.
 */
#include "store/store_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store_hist.h"
#include "util/array.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

static char *argv_json(const char *const *argv, size_t argc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputc('[', f);
	for (size_t i = 0; i < argc; i++) {
		if (i)
			fputs(", ", f);
		json_write_escaped(f, argv[i] ? argv[i] : "");
	}
	fputc(']', f);
	fclose(f);
	return buf;
}

static int insert_run(struct store_tx *t, const struct store_run_row *row,
		      const struct store_meta *m)
{
	static const char sql[] =
		"INSERT INTO runs (kind, tool, source, source_format, start_ms, end_ms, host, argv, "
		"exit_status, interrupted, stored_ms, rep_group, rep_index, sweep_id, sweep_point) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)";
	struct store *st = t->st;
	sqlite3_stmt *s;
	char host[256];
	int rc = store_prepare(st, sql, &s);
	if (rc < 0)
		return rc;
	const char *h = row->host ? row->host : m && m->host ? m->host : NULL;
	if (!h) {
		if (gethostname(host, sizeof(host)) < 0)
			snprintf(host, sizeof(host), "localhost");
		host[sizeof(host) - 1] = '\0';
		h = host;
	}
	char *argv = m && m->argc ? argv_json(m->argv, m->argc) : NULL;
	store_bind_text(s, 1, row->kind);
	store_bind_text(s, 2, row->tool);
	store_bind_text(s, 3, row->source);
	store_bind_text(s, 4, row->source_format);
	sqlite3_bind_int64(s, 5, row->start_ms);
	if (row->end_ms >= 0)
		sqlite3_bind_int64(s, 6, row->end_ms);
	store_bind_text(s, 7, h);
	store_bind_text(s, 8, argv);
	if (row->have_exit_status)
		sqlite3_bind_int(s, 9, row->exit_status);
	sqlite3_bind_int(s, 10, row->interrupted);
	sqlite3_bind_int64(s, 11, (int64_t)wall_time_ms());
	/* a new group's id is the run's own: set below, once it is known */
	if (m && m->rep_group > 0)
		sqlite3_bind_int64(s, 12, m->rep_group);
	if (m && m->rep_index >= 0 && m->rep_group)
		sqlite3_bind_int(s, 13, m->rep_index);
	if (m && m->sweep_id > 0)
		sqlite3_bind_int64(s, 14, m->sweep_id);
	store_bind_text(s, 15, m && m->sweep_id ? m->sweep_point : NULL);
	rc = store_step_done(st, s, "cannot store the run");
	sqlite3_finalize(s);
	free(argv);
	if (rc < 0)
		return rc;
	t->run_id = sqlite3_last_insert_rowid(st->db);
	if (m && m->rep_group == STORE_NEW_GROUP)
		rc = store_exec(st, "UPDATE runs SET rep_group = id WHERE id = last_insert_rowid()",
				"cannot store the run's repetition group");
	if (!rc && m && m->sweep_id == STORE_NEW_GROUP)
		rc = store_exec(st, "UPDATE runs SET sweep_id = id WHERE id = last_insert_rowid()",
				"cannot store the run's sweep");
	return rc;
}

static int insert_labels(struct store_tx *t, const struct store_meta *m)
{
	sqlite3_stmt *s;
	if (!m || !m->nr_labels)
		return 0;
	int rc = store_prepare(t->st, "INSERT OR REPLACE INTO labels (run_id, key, value) "
			       "VALUES (?1, ?2, ?3)", &s);
	for (size_t i = 0; !rc && i < m->nr_labels; i++) {
		sqlite3_bind_int64(s, 1, t->run_id);
		store_bind_text(s, 2, m->labels[i].key);
		store_bind_text(s, 3, m->labels[i].value ? m->labels[i].value : "");
		rc = store_step_done(t->st, s, "cannot store the run's labels");
	}
	sqlite3_finalize(s);
	return rc;
}

int store_tx_begin(struct store *st, const struct store_run_row *row, const struct store_meta *m,
		   struct store_tx *t)
{
	memset(t, 0, sizeof(*t));
	t->st = st;
	int rc = store_begin(st);
	if (rc < 0)
		return t->err_code = rc;
	if ((rc = insert_run(t, row, m)) < 0 || (rc = insert_labels(t, m)) < 0) {
		store_rollback(st);
		return t->err_code = rc;
	}
	return 0;
}

int store_tx_end(struct store_tx *t, bool ok)
{
	sqlite3_stmt *all[] = { t->job, t->opt, t->fig, t->hist, t->file, t->warn, t->err, t->rend };
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		sqlite3_finalize(all[i]);
	store_tx_texts_release(t);
	int rc = t->err_code;
	if (ok && !rc)
		rc = store_commit(t->st);
	if (!ok || rc)
		store_rollback(t->st);
	memset(t, 0, sizeof(*t));
	return rc ? rc : ok ? 0 : -ECANCELED;
}

int store_tx_fail(struct store_tx *t, int err)
{
	if (!t->err_code)
		t->err_code = err;
	return err;
}

/* Prepare *s once per run. */
static int ready(struct store_tx *t, sqlite3_stmt **s, const char *sql)
{
	if (t->err_code)
		return t->err_code;
	if (*s)
		return 0;
	return t->err_code = store_prepare(t->st, sql, s);
}

static int done(struct store_tx *t, sqlite3_stmt *s, const char *what)
{
	int rc = store_step_done(t->st, s, what);
	if (rc)
		t->err_code = rc;
	return rc;
}

int store_tx_job(struct store_tx *t, int idx, const char *name, int64_t groupid, int64_t nr_jobs,
		 int error, const char *error_msg)
{
	if (ready(t, &t->job, "INSERT INTO jobs (run_id, idx, name, groupid, nr_jobs, error, "
		  "error_msg) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"))
		return t->err_code;
	sqlite3_stmt *s = t->job;
	sqlite3_bind_int64(s, 1, t->run_id);
	sqlite3_bind_int(s, 2, idx);
	store_bind_text(s, 3, name ? name : "");
	if (groupid >= 0)
		sqlite3_bind_int64(s, 4, groupid);
	if (nr_jobs > 0)
		sqlite3_bind_int64(s, 5, nr_jobs);
	sqlite3_bind_int(s, 6, error);
	store_bind_text(s, 7, error_msg);
	store_tx_note_job(t, idx, name);
	return done(t, s, "cannot store a job");
}

int store_tx_option(struct store_tx *t, int job_idx, int seq, const char *key, const char *value)
{
	if (ready(t, &t->opt, "INSERT INTO job_options (run_id, job_idx, seq, key, value) "
		  "VALUES (?1, ?2, ?3, ?4, ?5)"))
		return t->err_code;
	sqlite3_stmt *s = t->opt;
	sqlite3_bind_int64(s, 1, t->run_id);
	sqlite3_bind_int(s, 2, job_idx);
	sqlite3_bind_int(s, 3, seq);
	store_bind_text(s, 4, key ? key : "");
	store_bind_text(s, 5, value);
	return done(t, s, "cannot store a job option");
}

int store_tx_figure(struct store_tx *t, int job_idx, const char *job_name, int64_t groupid,
		    const char *direction, const char *name, double value)
{
	if (ready(t, &t->fig, "INSERT INTO figure_values (run_id, job_idx, direction, name, "
		  "groupid, job_name, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"))
		return t->err_code;
	/* SQLite would store NaN as NULL: a figure that is no number is absent
	 * (the importers warn of it with its file and field) */
	if (!isfinite(value))
		return 0;
	int64_t dir = store_tx_text(t, direction);
	if (t->err_code)
		return t->err_code;
	sqlite3_stmt *s = t->fig;
	sqlite3_bind_int64(s, 1, t->run_id);
	sqlite3_bind_int(s, 2, job_idx);
	sqlite3_bind_int64(s, 3, dir);
	store_bind_text(s, 4, name);
	if (groupid >= 0)
		sqlite3_bind_int64(s, 5, groupid);
	/* NULL: the name of its job (the view "figures" joins jobs) */
	if (!store_tx_same_job_name(t, job_idx, job_name))
		store_bind_text(s, 6, job_name ? job_name : "");
	sqlite3_bind_double(s, 7, value);
	return done(t, s, "cannot store a figure");
}

int store_tx_hist(struct store_tx *t, int job_idx, const char *direction, const char *name,
		  unsigned layout, const void *blob, size_t len, uint64_t count, uint64_t min,
		  uint64_t max)
{
	if (ready(t, &t->hist, "INSERT INTO histograms (run_id, job_idx, direction, name, layout, "
		  "count, min, max, buckets) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"))
		return t->err_code;
	sqlite3_stmt *s = t->hist;
	sqlite3_bind_int64(s, 1, t->run_id);
	sqlite3_bind_int(s, 2, job_idx);
	store_bind_text(s, 3, direction);
	store_bind_text(s, 4, name);
	sqlite3_bind_int(s, 5, (int)layout);
	sqlite3_bind_int64(s, 6, (int64_t)count);
	sqlite3_bind_int64(s, 7, (int64_t)min);
	sqlite3_bind_int64(s, 8, (int64_t)max);
	sqlite3_bind_blob(s, 9, blob ? blob : "", (int)len, SQLITE_TRANSIENT);
	return done(t, s, "cannot store a histogram");
}

int store_tx_hist_of(struct store_tx *t, int job_idx, const char *direction, const char *name,
		     const struct hist *h)
{
	size_t len;
	if (!h->count)
		return t->err_code;
	void *blob = store_hist_encode(h, &len);
	int rc = store_tx_hist(t, job_idx, direction, name, STORE_HIST_IOBENCH1, blob, len, h->count,
			       h->min, h->max);
	free(blob);
	return rc;
}

int store_tx_job_file(struct store_tx *t, int seq, const char *name, const char *text, size_t len)
{
	if (ready(t, &t->file, "INSERT INTO job_files (run_id, seq, name, content) "
		  "VALUES (?1, ?2, ?3, ?4)"))
		return t->err_code;
	sqlite3_stmt *s = t->file;
	sqlite3_bind_int64(s, 1, t->run_id);
	sqlite3_bind_int(s, 2, seq);
	store_bind_text(s, 3, name ? name : "");
	sqlite3_bind_blob(s, 4, text ? text : "", (int)len, SQLITE_TRANSIENT);
	return done(t, s, "cannot store a job file");
}

int store_tx_warning(struct store_tx *t, int seq, const char *id, const char *message,
		     const char *evidence, const char *advice, const char *scope)
{
	if (ready(t, &t->warn, "INSERT INTO warnings (run_id, seq, id, message, evidence, advice, "
		  "scope) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"))
		return t->err_code;
	sqlite3_stmt *s = t->warn;
	sqlite3_bind_int64(s, 1, t->run_id);
	sqlite3_bind_int(s, 2, seq);
	store_bind_text(s, 3, id ? id : "");
	store_bind_text(s, 4, message ? message : "");
	store_bind_text(s, 5, evidence);
	store_bind_text(s, 6, advice);
	store_bind_text(s, 7, scope);
	return done(t, s, "cannot store a warning");
}

int store_tx_error(struct store_tx *t, int seq, const char *message)
{
	if (ready(t, &t->err, "INSERT INTO errors (run_id, seq, message) VALUES (?1, ?2, ?3)"))
		return t->err_code;
	sqlite3_stmt *s = t->err;
	sqlite3_bind_int64(s, 1, t->run_id);
	sqlite3_bind_int(s, 2, seq);
	store_bind_text(s, 3, message ? message : "");
	return done(t, s, "cannot store an error");
}

int store_tx_rendering(struct store_tx *t, const char *format, const char *text, size_t len,
		       bool printed)
{
	if (ready(t, &t->rend, "INSERT OR REPLACE INTO renderings (run_id, format, printed, "
		  "content) VALUES (?1, ?2, ?3, ?4)"))
		return t->err_code;
	sqlite3_stmt *s = t->rend;
	sqlite3_bind_int64(s, 1, t->run_id);
	store_bind_text(s, 2, format);
	sqlite3_bind_int(s, 3, printed);
	sqlite3_bind_blob64(s, 4, text ? text : "", len, SQLITE_TRANSIENT);
	return done(t, s, "cannot store an output");
}

int store_tx_env(struct store_tx *t, const char *env_json)
{
	sqlite3_stmt *s = NULL;
	if (ready(t, &s, "INSERT INTO run_env (run_id, json) VALUES (?1, ?2)"))
		return t->err_code;
	sqlite3_bind_int64(s, 1, t->run_id);
	store_bind_text(s, 2, env_json);
	int rc = done(t, s, "cannot store the run's environment");
	sqlite3_finalize(s);
	return rc;
}
