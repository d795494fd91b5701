/*
 * Opening the store: SQLite through the guarded VFS, the busy timeout and
 * foreign keys, then the checks that keep other databases safe, before
 * anything is written: a schema newer than ours and an SQLite database
 * that is not iobench's are refused untouched. Only then WAL mode (which
 * writes the file's header) and the migrations. Also the look at a file's
 * header that tells, without SQLite, whether opening can wait (store_ready).
 */
#include "store/store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/xmalloc.h"

const char *store_path(const struct store *st)
{
	return st->path;
}

static int pragma_int(struct store *st, const char *sql, int64_t *v)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st, sql, &s);
	if (rc < 0)
		return rc;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int64(s, 0);
		rc = 0;
	} else {
		rc = store_sql_fail(st, rc, "cannot read the database");
	}
	sqlite3_finalize(s);
	return rc;
}

/* Is this a database we may write? */
static int check_ours(struct store *st, unsigned *version)
{
	int64_t app, tables;
	int rc = store_user_version(st, version);
	if (rc < 0)
		return rc;
	if ((rc = pragma_int(st, "PRAGMA application_id", &app)) < 0 ||
	    (rc = pragma_int(st, "SELECT count(*) FROM sqlite_schema", &tables)) < 0)
		return rc;
	if (*version > store_schema_version()) {
		error("results database '%s' has schema version %u, newer than this iobench's (%u): it "
		      "was written by a newer iobench; use that one, or another --db (the database "
		      "was left as it was)", st->path, *version, store_schema_version());
		return -EPROTO;
	}
	if ((*version && app != STORE_APPLICATION_ID) || (!*version && tables)) {
		error("'%s' is an SQLite database of another program, not iobench's results: refusing "
		      "to change it (give another --db)", st->path);
		return -EPROTO;
	}
	return 0;
}

static int set_wal(struct store *st)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st, "PRAGMA journal_mode = WAL", &s);
	if (rc < 0)
		return rc;
	rc = sqlite3_step(s);
	const unsigned char *mode = rc == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL;
	if (rc == SQLITE_ROW && mode && !strcmp((const char *)mode, "wal"))
		rc = 0;
	else if (rc == SQLITE_ROW)
		rc = error("results database '%s': cannot use WAL mode (journal mode stays '%s'): "
			   "is it on a network filesystem?", st->path, mode ? (const char *)mode : "");
	else
		rc = store_sql_fail(st, rc, "cannot switch to WAL mode");
	sqlite3_finalize(s);
	return rc;
}

int store_open(const char *path, struct store **out)
{
	struct store *st = xcalloc(1, sizeof(*st));
	unsigned version;
	int rc;

	*out = NULL;
	st->path = xstrdup(path);
	if ((rc = store_vfs_register(st)) < 0) {
		error("results database '%s': cannot set up SQLite's file access", path);
		goto fail;
	}
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXRESCODE |
		    SQLITE_OPEN_NOMUTEX;
	rc = sqlite3_open_v2(path, &st->db, flags, st->vfs_name);
	if (rc != SQLITE_OK) {
		if (st->guard_why[0])
			rc = error("cannot open the results database '%s': %s", path, st->guard_why);
		else
			rc = store_sql_fail(st, rc, "cannot open");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS);
	if ((rc = store_exec(st, "PRAGMA foreign_keys = ON", "cannot turn foreign keys on")) < 0 ||
	    (rc = check_ours(st, &version)) < 0 || (rc = set_wal(st)) < 0 ||
	    (rc = store_migrate(st, store_schema_version())) < 0)
		goto fail;
	*out = st;
	return 0;
fail:
	store_close(st);
	return rc < 0 ? rc : -EIO;
}

int store_limit_cache(struct store *st)
{
	/* negative: KiB, as PRAGMA cache_size takes it */
	char sql[48];
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%u", STORE_SMALL_CACHE_KIB);
	return store_exec(st, sql, "cannot set the page cache size");
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The database header's fields (SQLite's file format, section 1.3): the
 * magic string, the write and read versions (2: WAL) at 18 and 19, the
 * user version at 60 and the application id at 68. */
bool store_ready(const char *path)
{
	unsigned char h[100];
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	bool ok = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && pread(fd, h, sizeof(h), 0) == sizeof(h);
	close(fd);
	return ok && access(path, R_OK | W_OK) == 0 && !memcmp(h, "SQLite format 3", 16) &&
	       h[18] == 2 && h[19] == 2 && be32(h + 60) == store_schema_version() &&
	       be32(h + 68) == STORE_APPLICATION_ID;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->db)
		sqlite3_close_v2(st->db);
	store_vfs_unregister(st);
	free(st->path);
	free(st);
}
