/*
 * The results store below the commands: every earlier schema version (the
 * fixtures tests/store/schema_vN.sql) opens and is migrated forward with
 * its rows intact and ends with the columns of a new database; the
 * fixtures are the released steps; a newer schema and another program's
 * database are refused and left byte for byte as they were; labels, the
 * path rules, and histogram blobs that give back the same percentiles.
 */
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "store/store_hist.h"
#include "store/store_int.h"
#include "store/store_query.h"
#include "util/array.h"

static char dir[] = "/tmp/test_store.XXXXXX";

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t alloc = 0;
	*len = 0;
	for (;;) {
		if (*len + 65536 > alloc)
			buf = realloc(buf, alloc = *len + 65536);
		size_t n = fread(buf + *len, 1, alloc - *len, f);
		*len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	return buf;
}

static int raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	char *err = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
	if (rc != SQLITE_OK)
		printf("# sqlite: %s\n", err ? err : "?");
	sqlite3_free(err);
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

/* "table.column ..." of every table and the index names, to compare schemas. */
static char *shape(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	char *out = calloc(1, 65536);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return out;
	sqlite3_prepare_v2(db, "SELECT m.name || '.' || p.name || ':' || p.type || ':' || p.pk "
			   "FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = "
			   "'table' AND m.name NOT LIKE 'sqlite_%' UNION ALL SELECT 'index ' || "
			   "name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE "
			   "'sqlite_%' UNION ALL SELECT 'view ' || name FROM sqlite_schema WHERE "
			   "type = 'view' ORDER BY 1", -1, &s, NULL);
	while (sqlite3_step(s) == SQLITE_ROW) {
		strcat(out, (const char *)sqlite3_column_text(s, 0));
		strcat(out, " ");
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	return out;
}

/* The rows of sql in the database at path, one line each (raw SQLite). */
static char *rows(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK) {
		while (sqlite3_step(s) == SQLITE_ROW) {
			for (int i = 0; i < sqlite3_column_count(s); i++)
				fprintf(f, "%s%s:%s", i ? "|" : "",
					sqlite3_column_type(s, i) == SQLITE_NULL ? "null" : "v",
					(const char *)sqlite3_column_text(s, i));
			fputc('\n', f);
		}
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	fclose(f);
	return buf;
}

static int64_t count(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	int64_t n = -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

static void test_fixtures_are_the_steps(void)
{
	for (unsigned v = 1; v < store_schema_version(); v++) {
		char fx[512], fresh[512], fixture[512], *sql;
		size_t len;
		snprintf(fx, sizeof(fx), "%s/store/schema_v%u.sql", TESTS_DIR, v);
		snprintf(fresh, sizeof(fresh), "%s/steps%u.db", dir, v);
		snprintf(fixture, sizeof(fixture), "%s/fixture%u.db", dir, v);
		CHECK((sql = slurp(fx, &len)) != NULL, "fixture %s for schema version %u", fx, v);
		if (!sql)
			continue;
		sql = realloc(sql, len + 1);
		sql[len] = '\0';
		CHECK(raw_exec(fixture, sql) == 0, "fixture %u loads", v);
		free(sql);
		for (unsigned k = 1; k <= v; k++)
			CHECK(raw_exec(fresh, store_schema_step(k)) == 0, "step %u runs", k);
		char *a = shape(fixture), *b = shape(fresh);
		CHECK(!strcmp(a, b), "fixture %u has the schema of steps 1..%u:\n%s\n%s", v, v, a, b);
		free(a);
		free(b);
	}
}

static void test_migrate_each_version(void)
{
	char fresh[512];
	snprintf(fresh, sizeof(fresh), "%s/fresh.db", dir);
	struct store *st;
	CHECK(store_open(fresh, &st) == 0, "a new database opens");
	store_close(st);
	char *want = shape(fresh);
	CHECK(strstr(want, "runs.rep_group") != NULL, "the current schema has runs.rep_group");
	for (unsigned v = 1; v < store_schema_version(); v++) {
		char fixture[512];
		snprintf(fixture, sizeof(fixture), "%s/fixture%u.db", dir, v);
		static const char figs[] = "SELECT * FROM figures ORDER BY run_id, job_idx, direction, name";
		char *before = rows(fixture, figs);
		CHECK(before && strstr(before, "seq-read"), "version %u: its figures read", v);
		CHECK(store_open(fixture, &st) == 0, "version %u opens", v);
		if (!st)
			continue;
		unsigned now = 0;
		CHECK(store_user_version(st, &now) == 0 && now == store_schema_version(),
		      "version %u migrated to %u (is %u)", v, store_schema_version(), now);
		struct store_run_info i;
		CHECK(store_run_info_get(st, 1, &i) == 0, "version %u: run 1 is there", v);
		CHECK(i.host && !strcmp(i.host, "oldhost"), "version %u: its host", v);
		CHECK(i.nr_labels == 2 && !strcmp(i.labels[0].key, "chunk") &&
		      !strcmp(i.labels[1].value, "xfs"), "version %u: its labels", v);
		CHECK(i.nr_jobs == 1 && !strcmp(i.jobs[0], "seq-read"), "version %u: its job", v);
		CHECK(i.rep_group == 0 && i.rep_index == -1, "version %u: no repetition group", v);
		store_run_info_release(&i);
		CHECK(count(st, "SELECT count(*) FROM figures") == 3, "version %u: the figures", v);
		char *after = rows(fixture, figs);
		CHECK(before && after && !strcmp(before, after),
		      "version %u: the figures read as before:\n%s\n%s", v, before, after);
		free(before);
		free(after);
		CHECK(count(st, "SELECT count(*) FROM runs WHERE rep_group IS NULL") == 2,
		      "version %u: new columns are NULL", v);
		struct store_label l = { "disk", "nvme0" };
		CHECK(store_set_label(st, 2, &l) == 0, "version %u: a label can be added", v);
		CHECK(store_delete_run(st, 1) == 0, "version %u: a run can be deleted", v);
		CHECK(count(st, "SELECT count(*) FROM figures") == 1 &&
		      count(st, "SELECT count(*) FROM labels WHERE run_id = 1") == 0 &&
		      count(st, "SELECT count(*) FROM histograms") == 0,
		      "version %u: deleting a run deletes what it owns", v);
		CHECK(store_delete_run(st, 1) == -ENOENT, "version %u: deleting it twice", v);
		/* step 5 rebuilt runs: the id counter and the sweeps survive it */
		CHECK(count(st, "SELECT seq FROM sqlite_sequence WHERE name = 'runs'") == (v >= 4 ? 7 : 2),
		      "version %u: the runs' id counter is kept", v);
		if (v == 4)
			CHECK(count(st, "SELECT count(*) FROM sweep_points") == 2,
			      "version 4: the sweep's points are kept");
		store_close(st);
		CHECK(raw_exec(fixture, "INSERT INTO runs (kind, tool, source_format, start_ms, host, "
			       "stored_ms) VALUES ('meta', 't', 'iobench', 1, 'h', 1)") == 0,
		      "version %u: the kind meta is accepted", v);
		CHECK(raw_exec(fixture, "INSERT INTO runs (kind, tool, source_format, start_ms, host, "
			       "stored_ms) VALUES ('other', 't', 'iobench', 1, 'h', 1)") != 0,
		      "version %u: another kind is still refused", v);
		char *got = shape(fixture);
		CHECK(!strcmp(got, want), "version %u ends with the new schema:\n%s\n%s", v, got, want);
		free(got);
	}
	free(want);
}

static void test_refusals(void)
{
	char future[512], foreign[512], wal[600];
	snprintf(future, sizeof(future), "%s/future.db", dir);
	snprintf(foreign, sizeof(foreign), "%s/foreign.db", dir);
	struct store *st;
	CHECK(store_open(future, &st) == 0, "a database to make newer");
	store_close(st);
	CHECK(raw_exec(future, "PRAGMA journal_mode = DELETE; PRAGMA user_version = 99") == 0,
	      "user_version set to 99");
	size_t n0, n1;
	char *before = slurp(future, &n0);
	fprintf(stderr, "(a refusal is expected next)\n");
	CHECK(store_open(future, &st) == -EPROTO && !st, "a newer schema is refused");
	char *after = slurp(future, &n1);
	CHECK(before && after && n0 == n1 && !memcmp(before, after, n0),
	      "the newer database is left byte for byte as it was");
	snprintf(wal, sizeof(wal), "%s-wal", future);
	CHECK(access(wal, F_OK) != 0, "no -wal beside the refused database");
	free(before);
	free(after);

	CHECK(raw_exec(foreign, "CREATE TABLE t (x); INSERT INTO t VALUES (1)") == 0, "foreign db");
	before = slurp(foreign, &n0);
	fprintf(stderr, "(a refusal is expected next)\n");
	CHECK(store_open(foreign, &st) == -EPROTO && !st, "another program's database is refused");
	after = slurp(foreign, &n1);
	CHECK(before && after && n0 == n1 && !memcmp(before, after, n0), "and left as it was");
	free(before);
	free(after);
}

static void test_labels_paths(void)
{
	struct store_label l;
	char why[256];
	CHECK(store_label_parse("fs=xfs", &l) == 0 && !strcmp(l.key, "fs") && !strcmp(l.value, "xfs"),
	      "fs=xfs");
	free(l.key);
	free(l.value);
	CHECK(store_label_parse("note=", &l) == 0 && !strcmp(l.value, ""), "an empty value");
	free(l.key);
	free(l.value);
	CHECK(store_label_parse("a=b=c", &l) == 0 && !strcmp(l.value, "b=c"), "'=' in a value");
	free(l.key);
	free(l.value);
	CHECK(store_label_check("novalue", why, sizeof(why)) == -EINVAL && strstr(why, "KEY=VALUE"),
	      "no '=': %s", why);
	CHECK(store_label_check("=x", why, sizeof(why)) == -EINVAL, "empty key");
	CHECK(store_label_check("a b=x", why, sizeof(why)) == -EINVAL && strstr(why, "' '"),
	      "a space in the key: %s", why);

	char *p;
	setenv("IOBENCH_DB", "/env/x.db", 1);
	setenv("XDG_DATA_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	CHECK(store_path_resolve("/opt/a.db", false, &p) == 0 && !strcmp(p, "/opt/a.db"), "--db first");
	free(p);
	CHECK(store_path_resolve(NULL, false, &p) == 0 && !strcmp(p, "/env/x.db"), "then IOBENCH_DB");
	free(p);
	unsetenv("IOBENCH_DB");
	CHECK(store_path_resolve(NULL, false, &p) == 0 && !strcmp(p, "/xdg/iobench/results.db"),
	      "then XDG_DATA_HOME: %s", p);
	free(p);
	setenv("XDG_DATA_HOME", "relative", 1);
	CHECK(store_path_resolve(NULL, false, &p) == 0 &&
	      !strcmp(p, "/home/u/.local/share/iobench/results.db"),
	      "a relative XDG_DATA_HOME is ignored, then HOME: %s", p);
	free(p);
	char made[600];
	snprintf(made, sizeof(made), "%s/a/b/r.db", dir);
	CHECK(store_path_resolve(made, true, &p) == 0, "a named path");
	free(p);
	snprintf(made, sizeof(made), "%s/a", dir);
	struct stat sb;
	CHECK(stat(made, &sb) < 0, "a named path's directories are not made");
	unsetenv("XDG_DATA_HOME");
	snprintf(made, sizeof(made), "%s/home", dir);
	setenv("HOME", made, 1);
	CHECK(store_path_resolve(NULL, true, &p) == 0, "the default path");
	snprintf(made, sizeof(made), "%s/home/.local/share/iobench", dir);
	CHECK(stat(made, &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & 0777) == 0700,
	      "the default's directories are made, 0700");
	free(p);
}

static void test_hist_blob(void)
{
	struct hist h;
	hist_init(&h);
	for (uint64_t v = 1000; v < 5000000; v = v * 11 / 10 + 7)
		hist_add_n(&h, v, v % 13 + 1);
	size_t len;
	void *blob = store_hist_encode(&h, &len);
	struct store_hist d;
	CHECK(store_hist_decode(STORE_HIST_IOBENCH1, blob, len, h.count, h.min, h.max, &d) == 0,
	      "the blob decodes");
	struct hist back;
	hist_init(&back);
	CHECK(store_hist_to_hist(&d, &back) == 0 && back.count == h.count, "and rebuilds");
	static const double ps[] = { 1, 50, 90, 99, 99.9, 100 };
	for (size_t i = 0; i < ARRAY_SIZE(ps); i++) {
		CHECK(hist_percentile(&back, ps[i]) == hist_percentile(&h, ps[i]),
		      "p%g of the rebuilt histogram", ps[i]);
		CHECK(store_hist_percentile(&d, ps[i]) == hist_percentile(&h, ps[i]),
		      "p%g from the blob", ps[i]);
	}
	struct store_hist cut;
	CHECK(store_hist_decode(STORE_HIST_IOBENCH1, blob, len - 1, h.count, h.min, h.max, &cut) ==
		      -EINVAL, "a cut blob is refused");
	store_hist_release(&d);
	hist_release(&back);
	hist_release(&h);
	free(blob);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	test_fixtures_are_the_steps();
	test_migrate_each_version();
	test_refusals();
	test_labels_paths();
	test_hist_blob();
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
	return check_done("test_store");
}
