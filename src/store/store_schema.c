/*
 * The store's schema as forward migrations: step v brings a database of
 * version v-1 to version v (PRAGMA user_version), each in its own
 * transaction, so a database of any earlier version opens and is brought
 * up to date, and a step interrupted half-way leaves the version before it.
 * Steps are never edited once released: a change is a new step.
 *
 *   1  runs, labels, jobs, job options, job files, figures (the tall
 *      table), histograms
 *   2  the machine around a run (JSON), warnings, errors, renderings
 *   3  repetition groups and sweeps (nullable run columns), indexes for
 *      the list filters
 *   4  sweeps (store_sweep.h): the plan, its design, goal, seed and
 *      factors, state and times, and each point's state and message
 *   5  the kind 'meta' (iobench-mpi meta: mdtest's phases): SQLite cannot
 *      change a CHECK, so the runs table is rebuilt with its rows, ids and
 *      AUTOINCREMENT counter, and its indexes made again; the step runs
 *      with foreign keys off (store_migrate), so the tables that reference
 *      runs keep their rows, and it checks them before it commits
 *   6  a text per figure costs its length once per run, not per figure:
 *      the figures' directions become ids of the run's texts, and a
 *      figure's job_name is NULL when it is its job's name (the jobs
 *      table has it once); the tall table is figure_values, and
 *      "figures" is a view with the columns, rows and order of the old
 *      table (queries written for it keep their results); the index by
 *      figure name goes (every reader reads a run's figures by run id, and
 *      its inserts in name order made storing a run cost more than its
 *      size: a run of N jobs took N log N)
 */
#include "store/store_int.h"

#include <errno.h>
#include <stdio.h>

#include "util/error.h"

static const char step1[] =
	/* "iobe": tells an iobench database from another program's */
	"PRAGMA application_id = 1768907365;\n"
	"CREATE TABLE runs (\n"
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,\n" /* never reused after a delete */
	"  kind TEXT NOT NULL CHECK (kind IN ('run', 'quick', 'bonnie', 'import')),\n"
	"  tool TEXT NOT NULL,\n"          /* iobench-0.1.0, fio-3.33, bonnie++ 2.00a */
	"  source TEXT,\n"                 /* import: the file it came from */
	"  source_format TEXT NOT NULL,\n" /* iobench, fio-json, bonnie-csv, ... */
	"  start_ms INTEGER NOT NULL,\n"   /* ms since the epoch, UTC */
	"  end_ms INTEGER,\n"
	"  host TEXT NOT NULL,\n"
	"  argv TEXT,\n"                   /* JSON array of the command's words */
	"  exit_status INTEGER,\n"
	"  interrupted INTEGER NOT NULL DEFAULT 0,\n"
	"  stored_ms INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE labels (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  key TEXT NOT NULL,\n"
	"  value TEXT NOT NULL,\n"
	"  PRIMARY KEY (run_id, key)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX labels_kv ON labels (key, value);\n"
	"CREATE TABLE jobs (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  idx INTEGER NOT NULL,\n"        /* position in the output's job list */
	"  name TEXT NOT NULL,\n"
	"  groupid INTEGER,\n"             /* bonnie: the test (-x) */
	"  nr_jobs INTEGER,\n"             /* clones merged into it */
	"  error INTEGER NOT NULL DEFAULT 0,\n"
	"  error_msg TEXT,\n"
	"  PRIMARY KEY (run_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE job_options (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  job_idx INTEGER NOT NULL,\n"    /* -1: the run's global options */
	"  seq INTEGER NOT NULL,\n"
	"  key TEXT NOT NULL,\n"
	"  value TEXT,\n"                  /* NULL: a bare flag */
	"  PRIMARY KEY (run_id, job_idx, seq)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE job_files (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  name TEXT NOT NULL,\n"
	"  content BLOB NOT NULL,\n"
	"  PRIMARY KEY (run_id, seq)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE figures (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  job_idx INTEGER NOT NULL,\n"    /* -1: the run's devices (disk_util) */
	"  job_name TEXT NOT NULL,\n"
	"  groupid INTEGER,\n"
	"  direction TEXT NOT NULL,\n"     /* read write trim sync job, a bonnie phase, a disk */
	"  name TEXT NOT NULL,\n"          /* bw_bytes, clat_ns.p99, rate, cpu_pct, ... */
	"  value REAL NOT NULL,\n"
	"  PRIMARY KEY (run_id, job_idx, direction, name)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX figures_name ON figures (name, direction);\n"
	"CREATE TABLE histograms (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  job_idx INTEGER NOT NULL,\n"
	"  direction TEXT NOT NULL,\n"
	"  name TEXT NOT NULL,\n"          /* slat, clat, lat */
	"  layout INTEGER NOT NULL,\n"     /* store/store_hist.h */
	"  count INTEGER NOT NULL,\n"
	"  min INTEGER,\n"
	"  max INTEGER,\n"
	"  buckets BLOB NOT NULL,\n"
	"  PRIMARY KEY (run_id, job_idx, direction, name)\n"
	") WITHOUT ROWID;\n";

static const char step2[] =
	"CREATE TABLE run_env (\n"
	"  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  json TEXT NOT NULL\n"           /* sysinfo, monitor, process_io, ..., warnings */
	");\n"
	"CREATE TABLE warnings (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  id TEXT NOT NULL,\n"
	"  message TEXT NOT NULL,\n"
	"  evidence TEXT,\n"
	"  advice TEXT,\n"
	"  scope TEXT,\n"
	"  PRIMARY KEY (run_id, seq)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE errors (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  seq INTEGER NOT NULL,\n"
	"  message TEXT NOT NULL,\n"
	"  PRIMARY KEY (run_id, seq)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE renderings (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  format TEXT NOT NULL,\n"
	"  printed INTEGER NOT NULL,\n"
	"  content BLOB NOT NULL,\n"       /* the bytes as printed */
	"  PRIMARY KEY (run_id, format)\n"
	") WITHOUT ROWID;\n";

static const char step3[] =
	"ALTER TABLE runs ADD COLUMN rep_group INTEGER;\n"  /* id of the group's first run */
	"ALTER TABLE runs ADD COLUMN rep_index INTEGER;\n"
	"ALTER TABLE runs ADD COLUMN sweep_id INTEGER;\n"
	"ALTER TABLE runs ADD COLUMN sweep_point TEXT;\n"
	"CREATE INDEX runs_start ON runs (start_ms);\n"
	"CREATE INDEX runs_host ON runs (host);\n"
	"CREATE INDEX runs_rep ON runs (rep_group) WHERE rep_group IS NOT NULL;\n"
	"CREATE INDEX runs_sweep ON runs (sweep_id) WHERE sweep_id IS NOT NULL;\n";

static const char step4[] =
	"CREATE TABLE sweeps (\n"
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
	"  plan_path TEXT NOT NULL,\n"
	"  plan TEXT NOT NULL,\n"         /* the plan file's text as read */
	"  design TEXT NOT NULL,\n"       /* full, ofat, lhs:N, race */
	"  goal TEXT,\n"                  /* as written: write bw, randread p99 */
	"  seed INTEGER NOT NULL,\n"      /* of the run order (and lhs) */
	"  factors TEXT NOT NULL,\n"      /* JSON array of the factor names, in plan order */
	"  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'interrupted', 'failed')),\n"
	"  host TEXT NOT NULL,\n"
	"  start_ms INTEGER NOT NULL,\n"
	"  end_ms INTEGER\n"
	");\n"
	"CREATE TABLE sweep_points (\n"
	"  sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,\n"
	"  idx INTEGER NOT NULL,\n"       /* the point's place in the run order, 0-based */
	"  point TEXT NOT NULL,\n"        /* its labels: fs=xfs read_ahead_kb=128 */
	"  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed')),\n"
	"  message TEXT,\n"               /* why it failed */
	"  start_ms INTEGER,\n"
	"  end_ms INTEGER,\n"
	"  PRIMARY KEY (sweep_id, idx)\n"
	") WITHOUT ROWID;\n";

static const char step5[] =
	"CREATE TABLE runs_new (\n"
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
	"  kind TEXT NOT NULL CHECK (kind IN ('run', 'quick', 'bonnie', 'import', 'meta')),\n"
	"  tool TEXT NOT NULL,\n"
	"  source TEXT,\n"
	"  source_format TEXT NOT NULL,\n"
	"  start_ms INTEGER NOT NULL,\n"
	"  end_ms INTEGER,\n"
	"  host TEXT NOT NULL,\n"
	"  argv TEXT,\n"
	"  exit_status INTEGER,\n"
	"  interrupted INTEGER NOT NULL DEFAULT 0,\n"
	"  stored_ms INTEGER NOT NULL,\n"
	"  rep_group INTEGER,\n"
	"  rep_index INTEGER,\n"
	"  sweep_id INTEGER,\n"
	"  sweep_point TEXT\n"
	");\n"
	"INSERT INTO runs_new (id, kind, tool, source, source_format, start_ms, end_ms, host, argv,\n"
	"  exit_status, interrupted, stored_ms, rep_group, rep_index, sweep_id, sweep_point)\n"
	"  SELECT id, kind, tool, source, source_format, start_ms, end_ms, host, argv,\n"
	"  exit_status, interrupted, stored_ms, rep_group, rep_index, sweep_id, sweep_point FROM runs;\n"
	/* the counter of ids never reused: deleted runs may have been above the last id */
	"INSERT INTO sqlite_sequence (name, seq) SELECT 'runs_new', 0 WHERE NOT EXISTS\n"
	"  (SELECT 1 FROM sqlite_sequence WHERE name = 'runs_new');\n"
	"UPDATE sqlite_sequence SET seq = max(seq, coalesce((SELECT seq FROM sqlite_sequence\n"
	"  WHERE name = 'runs'), 0)) WHERE name = 'runs_new';\n"
	"DROP TABLE runs;\n"
	"ALTER TABLE runs_new RENAME TO runs;\n"
	"CREATE INDEX runs_start ON runs (start_ms);\n"
	"CREATE INDEX runs_host ON runs (host);\n"
	"CREATE INDEX runs_rep ON runs (rep_group) WHERE rep_group IS NOT NULL;\n"
	"CREATE INDEX runs_sweep ON runs (sweep_id) WHERE sweep_id IS NOT NULL;\n";

static const char step6[] =
	"CREATE TABLE texts (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  text TEXT NOT NULL\n"         /* a direction: read, a device, a bonnie phase */
	");\n"
	"CREATE INDEX texts_run ON texts (run_id);\n"
	"CREATE TABLE figure_values (\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  job_idx INTEGER NOT NULL,\n"  /* -1: the run's devices (disk_util) */
	"  direction INTEGER NOT NULL,\n" /* texts.id, a text of the same run */
	"  name TEXT NOT NULL,\n"        /* bw_bytes, clat_ns.p99, rate, cpu_pct, ... */
	"  groupid INTEGER,\n"
	"  job_name TEXT,\n"             /* NULL: the name of job (run_id, job_idx) */
	"  value REAL NOT NULL,\n"
	"  PRIMARY KEY (run_id, job_idx, direction, name)\n"
	") WITHOUT ROWID;\n"
	"INSERT INTO texts (run_id, text) SELECT DISTINCT run_id, direction FROM figures\n"
	"  ORDER BY run_id, direction;\n"
	"INSERT INTO figure_values (run_id, job_idx, direction, name, groupid, job_name, value)\n"
	"  SELECT f.run_id, f.job_idx, d.id, f.name, f.groupid,\n"
	"  CASE WHEN j.name IS f.job_name THEN NULL ELSE f.job_name END, f.value\n"
	"  FROM figures f JOIN texts d ON d.run_id = f.run_id AND d.text = f.direction\n"
	"  LEFT JOIN jobs j ON j.run_id = f.run_id AND j.idx = f.job_idx;\n"
	"DROP TABLE figures;\n"
	"CREATE VIEW figures (run_id, job_idx, job_name, groupid, direction, name, value) AS\n"
	"  SELECT f.run_id, f.job_idx, coalesce(f.job_name, j.name), f.groupid, d.text, f.name,\n"
	"  f.value FROM figure_values f JOIN texts d ON d.id = f.direction\n"
	"  LEFT JOIN jobs j ON j.run_id = f.run_id AND j.idx = f.job_idx;\n";

/* Steps that rebuild a table that others reference: run with foreign keys
 * off (DROP TABLE would delete what the rows own), checked before commit. */
static bool rebuilds(unsigned v)
{
	return v == 5;
}

static const char *const steps[STORE_SCHEMA_STEPS] = { step1, step2, step3, step4, step5,
								 step6 };

_Static_assert(STORE_APPLICATION_ID == 1768907365, "step 1 sets this application_id");

const char *store_schema_step(unsigned v)
{
	return v >= 1 && v <= STORE_SCHEMA_STEPS ? steps[v - 1] : NULL;
}

unsigned store_schema_version(void)
{
	return STORE_SCHEMA_STEPS;
}

int store_user_version(struct store *st, unsigned *v)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st, "PRAGMA user_version", &s);
	if (rc < 0)
		return rc;
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		rc = store_sql_fail(st, rc, "cannot read the schema version");
		sqlite3_finalize(s);
		return rc;
	}
	int64_t n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	*v = n < 0 ? (unsigned)-1 : (unsigned)n;
	return 0;
}

/* After a rebuild, before its commit: no row may reference a missing run. */
static int fk_check(struct store *st, const char *what)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st, "PRAGMA foreign_key_check", &s);
	if (rc < 0)
		return rc;
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return error("results database '%s': %s: a row references a missing one",
			     store_path(st), what);
	return rc == SQLITE_DONE ? 0 : store_sql_fail(st, rc, what);
}

static int migrate_step(struct store *st, unsigned upto, bool *done);

int store_migrate(struct store *st, unsigned upto)
{
	for (;;) {
		bool done = false;
		int rc = migrate_step(st, upto, &done);
		if (rc < 0 || done)
			return rc;
	}
}

/* One step (or none: *done) in its own transaction. */
static int migrate_step(struct store *st, unsigned upto, bool *done)
{
	{
		unsigned cur;
		int rc = store_begin(st);
		if (rc < 0)
			return rc;
		/* under the write lock: another process may have done it */
		if ((rc = store_user_version(st, &cur)) < 0) {
			store_rollback(st);
			return rc;
		}
		if (cur >= upto) {
			store_rollback(st);
			*done = true;
			return 0;
		}
		char what[64], pragma[48];
		snprintf(what, sizeof(what), "cannot migrate the schema to version %u", cur + 1);
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %u", cur + 1);
		if (rebuilds(cur + 1)) {
			/* PRAGMA foreign_keys is a no-op inside a transaction: end
			 * it, turn them off, and take the write lock again (another
			 * process may have done the step meanwhile) */
			store_rollback(st);
			if ((rc = store_exec(st, "PRAGMA foreign_keys = OFF", what)) < 0)
				return rc;
			rc = store_begin(st);
			unsigned before = cur;
			if (rc == 0 && (rc = store_user_version(st, &cur)) == 0 && cur != before) {
				store_rollback(st); /* done meanwhile: the next turn sees it */
				return store_exec(st, "PRAGMA foreign_keys = ON", "cannot turn foreign keys on");
			}
			if (rc < 0 || (rc = store_exec(st, steps[cur], what)) < 0 ||
			    (rc = fk_check(st, what)) < 0 || (rc = store_exec(st, pragma, what)) < 0 ||
			    (rc = store_commit(st)) < 0)
				store_rollback(st);
			int on = store_exec(st, "PRAGMA foreign_keys = ON", "cannot turn foreign keys on");
			return rc < 0 ? rc : on;
		}
		if ((rc = store_exec(st, steps[cur], what)) < 0 ||
		    (rc = store_exec(st, pragma, what)) < 0 || (rc = store_commit(st)) < 0) {
			store_rollback(st);
			return rc;
		}
		return 0;
	}
}
