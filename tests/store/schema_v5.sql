-- A results database of schema version 5, as iobench wrote it before
-- version 6 (the figures' texts stored once per run, "figures" a view)
-- existed: the schema steps 1..5 of src/store/store_schema.c as released,
-- a few rows in every table (a figure of a device, job -1, whose job_name
-- is no job's), a sweep with its points, and the runs' id counter above the
-- last id. test_store opens it to check that the migrations bring it
-- forward with its rows intact and the figures read as before. Never edit
-- a released fixture: a new schema version gets a new file.
BEGIN;
PRAGMA application_id = 1768907365;
CREATE TABLE runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('run', 'quick', 'bonnie', 'import', 'meta')),
  tool TEXT NOT NULL,
  source TEXT,
  source_format TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER,
  host TEXT NOT NULL,
  argv TEXT,
  exit_status INTEGER,
  interrupted INTEGER NOT NULL DEFAULT 0,
  stored_ms INTEGER NOT NULL,
  rep_group INTEGER,
  rep_index INTEGER,
  sweep_id INTEGER,
  sweep_point TEXT
);
CREATE TABLE labels (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE INDEX labels_kv ON labels (key, value);
CREATE TABLE jobs (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  name TEXT NOT NULL,
  groupid INTEGER,
  nr_jobs INTEGER,
  error INTEGER NOT NULL DEFAULT 0,
  error_msg TEXT,
  PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
CREATE TABLE job_options (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  job_idx INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  key TEXT NOT NULL,
  value TEXT,
  PRIMARY KEY (run_id, job_idx, seq)
) WITHOUT ROWID;
CREATE TABLE job_files (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  name TEXT NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE figures (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  job_idx INTEGER NOT NULL,
  job_name TEXT NOT NULL,
  groupid INTEGER,
  direction TEXT NOT NULL,
  name TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (run_id, job_idx, direction, name)
) WITHOUT ROWID;
CREATE INDEX figures_name ON figures (name, direction);
CREATE TABLE histograms (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  job_idx INTEGER NOT NULL,
  direction TEXT NOT NULL,
  name TEXT NOT NULL,
  layout INTEGER NOT NULL,
  count INTEGER NOT NULL,
  min INTEGER,
  max INTEGER,
  buckets BLOB NOT NULL,
  PRIMARY KEY (run_id, job_idx, direction, name)
) WITHOUT ROWID;
CREATE TABLE run_env (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  json TEXT NOT NULL
);
CREATE TABLE warnings (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  message TEXT NOT NULL,
  evidence TEXT,
  advice TEXT,
  scope TEXT,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE errors (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE renderings (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  format TEXT NOT NULL,
  printed INTEGER NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (run_id, format)
) WITHOUT ROWID;
INSERT INTO runs (id, kind, tool, source, source_format, start_ms, end_ms, host, argv,
  exit_status, interrupted, stored_ms)
VALUES (1, 'run', 'iobench-0.1.0', NULL, 'iobench', 1764000000000, 1764000060000, 'oldhost',
  '["iobench", "run", "seq.fio"]', 0, 0, 1764000061000),
  (2, 'bonnie', 'iobench-0.1.0', NULL, 'iobench', 1764000100000, NULL, 'oldhost', NULL,
  130, 1, 1764000101000);
INSERT INTO labels VALUES (1, 'fs', 'xfs'), (1, 'chunk', '64k'), (2, 'fs', 'ext4');
INSERT INTO jobs VALUES (1, 0, 'seq-read', 0, 1, 0, NULL), (2, 0, 'aggregate', 0, NULL, 0, NULL);
INSERT INTO job_options VALUES (1, -1, 0, 'ioengine', 'psync'), (1, 0, 0, 'rw', 'read');
INSERT INTO job_files VALUES (1, 0, 'seq.fio', X'5b7365712d726561645d0a72773d726561640a');
INSERT INTO figures VALUES (1, 0, 'seq-read', 0, 'read', 'bw_bytes', 104857600.0),
  (1, -1, 'disk_util', NULL, 'loop7', 'util', 12.5),
  (2, 0, 'aggregate', 0, 'put_block', 'rate', 228605.0);
INSERT INTO histograms VALUES (1, 0, 'read', 'clat', 1, 3, 1000, 1200,
  X'000000000300000000000000');
INSERT INTO run_env VALUES (1, '{"sysinfo": {}}');
INSERT INTO warnings VALUES (1, 0, 'load', 'the system was busy', NULL, NULL, 'group 0');
INSERT INTO errors VALUES (2, 0, 'stopped by a signal');
INSERT INTO renderings VALUES (1, 'json', 1, CAST('{"jobs": []}' || char(10) AS BLOB));
CREATE INDEX runs_start ON runs (start_ms);
CREATE INDEX runs_host ON runs (host);
CREATE INDEX runs_rep ON runs (rep_group) WHERE rep_group IS NOT NULL;
CREATE INDEX runs_sweep ON runs (sweep_id) WHERE sweep_id IS NOT NULL;
CREATE TABLE sweeps (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  plan_path TEXT NOT NULL,
  plan TEXT NOT NULL,
  design TEXT NOT NULL,
  goal TEXT,
  seed INTEGER NOT NULL,
  factors TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'done', 'interrupted', 'failed')),
  host TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER
);
CREATE TABLE sweep_points (
  sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  point TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed')),
  message TEXT,
  start_ms INTEGER,
  end_ms INTEGER,
  PRIMARY KEY (sweep_id, idx)
) WITHOUT ROWID;
INSERT INTO sweeps VALUES (1, '/tmp/plan.sweep', '[sweep]' || char(10), 'full', 'write bw', 1,
  '["fs"]', 'done', 'oldhost', 1764000200000, 1764000300000);
INSERT INTO sweep_points VALUES (1, 0, 'fs=xfs', 'done', NULL, 1764000200000, 1764000250000),
  (1, 1, 'fs=ext4', 'failed', 'mkfs failed', 1764000250000, 1764000300000);
UPDATE sqlite_sequence SET seq = 7 WHERE name = 'runs';
PRAGMA user_version = 5;
COMMIT;
