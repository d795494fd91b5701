/*
 * The report's reads of one stored run (store_read.h): its run_env JSON
 * and its histograms.
 */
#include "store/store_read.h"

#include <errno.h>
#include <string.h>

#include "store/store_int.h"
#include "util/xmalloc.h"

int store_env_get(struct store *st, int64_t id, char **json)
{
	sqlite3_stmt *s;
	*json = NULL;
	int rc = store_prepare(st, "SELECT json FROM run_env WHERE run_id = ?1", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*json = store_column_dup(s, 0);
		rc = *json ? 0 : -ENOENT;
	} else if (rc == SQLITE_DONE) {
		rc = -ENOENT;
	} else {
		rc = store_sql_fail(st, rc, "cannot read a run's environment");
	}
	sqlite3_finalize(s);
	return rc;
}

int store_hists_each(struct store *st, int64_t id,
		     int (*fn)(void *arg, const struct store_hist_row *row), void *arg)
{
	sqlite3_stmt *s;
	int rc = store_prepare(st,
			       "SELECT h.job_idx, coalesce(j.name, ''), h.direction, h.name, h.layout, "
			       "h.count, coalesce(h.min, 0), coalesce(h.max, 0), h.buckets "
			       "FROM histograms h LEFT JOIN jobs j ON j.run_id = h.run_id AND "
			       "j.idx = h.job_idx WHERE h.run_id = ?1 "
			       "ORDER BY h.job_idx, h.direction, h.name", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_hist h;
		const void *blob = sqlite3_column_blob(s, 8);
		size_t len = (size_t)sqlite3_column_bytes(s, 8);
		if (store_hist_decode((unsigned)sqlite3_column_int(s, 4), blob, len,
				      (uint64_t)sqlite3_column_int64(s, 5),
				      (uint64_t)sqlite3_column_int64(s, 6),
				      (uint64_t)sqlite3_column_int64(s, 7), &h) < 0)
			continue;
		struct store_hist_row row = {
			.job_idx = sqlite3_column_int(s, 0),
			.job_name = (const char *)sqlite3_column_text(s, 1),
			.direction = (const char *)sqlite3_column_text(s, 2),
			.name = (const char *)sqlite3_column_text(s, 3),
			.hist = &h,
		};
		int r = fn(arg, &row);
		store_hist_release(&h);
		if (r) {
			sqlite3_finalize(s);
			return r;
		}
	}
	if (rc != SQLITE_DONE)
		rc = store_sql_fail(st, rc, "cannot read a run's histograms");
	else
		rc = 0;
	sqlite3_finalize(s);
	return rc;
}
