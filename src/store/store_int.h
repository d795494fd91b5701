/*
 * Inside the store: the handle, SQL helpers that print what failed, the
 * schema steps, and the writer of one run (struct store_tx) that the native
 * results (store_put.c) and the importers (store_import.c, store_csv.c)
 * fill: jobs, options, figures and histograms, inside one transaction.
 */
#ifndef IOBENCH_STORE_STORE_INT_H
#define IOBENCH_STORE_STORE_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

struct json_object;

struct store {
	sqlite3 *db;
	char *path;
	/* the guarded VFS: SQLite's default one whose xOpen first opens (or
	 * creates) the file through the device guard (store_vfs.c) */
	sqlite3_vfs vfs;
	sqlite3_vfs *real;
	char vfs_name[48];
	bool vfs_registered;
	char guard_why[2600]; /* why the guard refused the last open */
};

/* store_vfs.c: register st's guarded VFS (st->vfs_name), or unregister it. */
int store_vfs_register(struct store *st);
void store_vfs_unregister(struct store *st);

/* store_schema.c: the migration steps 1..STORE_SCHEMA_STEPS. */
#define STORE_SCHEMA_STEPS 6
#define STORE_APPLICATION_ID 0x696f6265 /* "iobe": PRAGMA application_id */
/* The SQL of step v (1-based). */
const char *store_schema_step(unsigned v);
/* Bring the database from its version to `upto` (<= STORE_SCHEMA_STEPS),
 * each step in its own transaction that re-reads the version first (another
 * process may have migrated meanwhile). For tests, upto may be lower than
 * the current steps. */
int store_migrate(struct store *st, unsigned upto);
/* PRAGMA user_version, or a negative errno. */
int store_user_version(struct store *st, unsigned *v);

/* store_sql.c: print "results database 'PATH': WHAT: SQLITE MESSAGE" and
 * return the negative errno closest to rc. */
int store_sql_fail(struct store *st, int rc, const char *what);
int store_exec(struct store *st, const char *sql, const char *what);
int store_prepare(struct store *st, const char *sql, sqlite3_stmt **stmt);
/* Step a statement that returns no row (INSERT, UPDATE, DELETE) and reset it. */
int store_step_done(struct store *st, sqlite3_stmt *stmt, const char *what);
/* BEGIN IMMEDIATE (waits for other writers up to the busy timeout), COMMIT, ROLLBACK. */
int store_begin(struct store *st);
int store_commit(struct store *st);
void store_rollback(struct store *st);
/* Bind a string of known length, or NULL. */
void store_bind_text(sqlite3_stmt *s, int i, const char *text);
/* A column's text, xstrdup'ed (NULL for SQL NULL). */
char *store_column_dup(sqlite3_stmt *s, int i);

/* One run being written (store_tx.c). Every call after a failure does
 * nothing and returns that failure, so callers check at the end. */
struct store_tx {
	struct store *st;
	int64_t run_id;
	sqlite3_stmt *job, *opt, *fig, *hist, *file, *warn, *err, *rend;
	int job_opt_seq; /* next seq of job_options for the current job */
	int err_code;
	/* store_texts.c: the texts rows of this run (text -> id), the jobs'
	 * names by idx (a figure's job_name equal to its job's is stored as
	 * NULL), the last text looked up */
	struct store_text_slot *texts;
	size_t texts_cap, texts_len;
	char **job_names;
	size_t nr_job_names;
	const struct store_text_slot *last_text;
	sqlite3_stmt *text;
};
/* The run's row as the runs table has it. */
struct store_run_row {
	const char *kind;
	const char *tool;          /* "iobench-0.1.0", "fio-3.33", "bonnie++ 2.00a" */
	const char *source;        /* import: the file; else NULL */
	const char *source_format; /* "fio-json", "bonnie-csv", "iobench-json", ... */
	int64_t start_ms, end_ms;  /* end_ms < 0: unknown */
	const char *host;          /* NULL: this machine's name */
	bool have_exit_status;
	int exit_status;
	bool interrupted;
};
/* BEGIN IMMEDIATE, insert the runs row, its labels and its groups. */
int store_tx_begin(struct store *st, const struct store_run_row *row, const struct store_meta *m,
		   struct store_tx *t);
/* Commit (ok and no failure so far) or roll back; finalizes everything. */
int store_tx_end(struct store_tx *t, bool ok);
int store_tx_job(struct store_tx *t, int idx, const char *name, int64_t groupid, int64_t nr_jobs,
		 int error, const char *error_msg);
/* job_idx -1: the run's global options. value NULL: a bare flag. */
int store_tx_option(struct store_tx *t, int job_idx, int seq, const char *key, const char *value);
int store_tx_figure(struct store_tx *t, int job_idx, const char *job_name, int64_t groupid,
		    const char *direction, const char *name, double value);
int store_tx_hist(struct store_tx *t, int job_idx, const char *direction, const char *name,
		  unsigned layout, const void *blob, size_t len, uint64_t count, uint64_t min,
		  uint64_t max);
int store_tx_hist_of(struct store_tx *t, int job_idx, const char *direction, const char *name,
		     const struct hist *h);
int store_tx_job_file(struct store_tx *t, int seq, const char *name, const char *text, size_t len);
int store_tx_warning(struct store_tx *t, int seq, const char *id, const char *message,
		     const char *evidence, const char *advice, const char *scope);
int store_tx_error(struct store_tx *t, int seq, const char *message);
int store_tx_rendering(struct store_tx *t, const char *format, const char *text, size_t len,
		       bool printed);
int store_tx_env(struct store_tx *t, const char *env_json);
/* store_texts.c: the id of text among this run's texts (inserted the
 * first time), 0 after a failure. */
int64_t store_tx_text(struct store_tx *t, const char *text);
/* Remember job idx's name, for store_tx_same_job_name. */
void store_tx_note_job(struct store_tx *t, int idx, const char *name);
/* Whether name is the name store_tx_job gave job idx. */
bool store_tx_same_job_name(const struct store_tx *t, int idx, const char *name);
void store_tx_texts_release(struct store_tx *t);
/* Record a failure found outside SQL (a bad input file); returns err. */
int store_tx_fail(struct store_tx *t, int err);

/* store_fio.c: jobs and figures of a fio JSON document (fio's or
 * iobench's), and with these flags its "global options" and "job options"
 * (imports: native runs store every option from their specs) and its json+
 * bins as FIO_BINS histograms (imports: native runs store their own). */
#define STORE_INGEST_OPTIONS 0x1u
#define STORE_INGEST_BINS 0x2u
int store_ingest_fio_json(struct store_tx *t, struct json_object *root, unsigned what);
/* The value of a JSON option as text ("4k", "1", "true"), xmalloc'ed. */
char *store_json_text(struct json_object *v);
/* store_bonnie.c: jobs, options and figures of iobench's bonnie JSON. */
int store_ingest_bonnie_json(struct store_tx *t, struct json_object *root);
/* store_meta.c: jobs (a phase each), options and figures of iobench-mpi
 * meta's JSON. */
int store_ingest_meta_json(struct store_tx *t, struct json_object *root);

/* store_flat.c: every number (and boolean, as 0/1) under obj as a figure
 * named by its path ("clat_ns.mean", "clat_ns.p99.9" for fio's percentile
 * maps, "disks.sda.util_pct" for arrays of named objects); "bins" and
 * strings are skipped. */
int store_flatten(struct store_tx *t, struct json_object *obj, const char *prefix, int job_idx,
		  const char *job_name, int64_t groupid, const char *direction);
/* The same for one value v named name (a number, or an object or array
 * below it). */
int store_flatten_value(struct store_tx *t, struct json_object *v, const char *name, int job_idx,
			const char *job_name, int64_t groupid, const char *direction);

/* store_json.c: parse text as one JSON document (json-c); on failure
 * print "NAME:LINE:COL: ..." and return -EINVAL. */
int store_json_parse(const char *name, const char *text, size_t len, struct json_object **out);
/* The JSON text of a run's machine (env_json_members in an object), xmalloc'ed. */
char *store_env_json(const struct run_env *e);

#endif
