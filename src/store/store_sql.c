/*
 * SQL helpers for the store: statements that say what failed, in which
 * database, with SQLite's own words, and the transaction verbs.
 */
#include "store/store_int.h"

#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

static int errno_of(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EPROTO;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
		return -EINVAL;
	default:
		return -EIO;
	}
}

int store_sql_fail(struct store *st, int rc, const char *what)
{
	const char *msg = st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc);
	if ((rc & 0xff) == SQLITE_BUSY)
		error("results database '%s': %s: %s (another iobench held it for more than %d s)",
		      st->path, what, msg, STORE_BUSY_TIMEOUT_MS / 1000);
	else
		error("results database '%s': %s: %s", st->path, what, msg);
	return errno_of(rc);
}

int store_exec(struct store *st, const char *sql, const char *what)
{
	int rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : store_sql_fail(st, rc, what);
}

int store_prepare(struct store *st, const char *sql, sqlite3_stmt **stmt)
{
	int rc = sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL);
	if (rc == SQLITE_OK)
		return 0;
	*stmt = NULL;
	return store_sql_fail(st, rc, "cannot prepare a statement");
}

int store_step_done(struct store *st, sqlite3_stmt *stmt, const char *what)
{
	int rc = sqlite3_step(stmt);
	int ret = rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : store_sql_fail(st, rc, what);
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	return ret;
}

int store_begin(struct store *st)
{
	return store_exec(st, "BEGIN IMMEDIATE", "cannot start a write transaction");
}

int store_commit(struct store *st)
{
	return store_exec(st, "COMMIT", "cannot commit");
}

void store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

void store_bind_text(sqlite3_stmt *s, int i, const char *text)
{
	if (text)
		sqlite3_bind_text(s, i, text, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

char *store_column_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}
