/*
 * trim_percentage and its friends (verify_trim.h): which writes are picked,
 * the list of those waiting, and the trims issued for them through the
 * job's engine (counted as the job's trims, as fio counts them). The
 * writes a trim follows are completed first (the queue is drained), so a
 * trim never races the write it undoes.
 */
#include "workload/verify_trim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/assert.h"
#include "workload/job.h"

void vtrim_init(struct vtrim *t, unsigned percent, uint64_t seed)
{
	*t = (struct vtrim){ .percent = percent, .seed = seed };
}

void vtrim_release(struct vtrim *t)
{
	free(t->pending);
	t->pending = NULL;
	t->n = t->cap = 0;
}

/* splitmix64's finaliser: every bit of seq reaches every bit of the result */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

bool vtrim_picked(const struct vtrim *t, uint64_t seq)
{
	return t->percent && mix(t->seed ^ mix(seq)) % 100 < t->percent;
}

int vtrim_note_write(struct vtrim *t, struct job_file *f, uint64_t off, uint64_t len, uint64_t seq)
{
	if (!vtrim_picked(t, seq))
		return 0;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct vtrim_rec *p = realloc(t->pending, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->pending = p;
		t->cap = cap;
	}
	t->pending[t->n++] = (struct vtrim_rec){ f, off, len };
	return 0;
}

/* Trim the oldest `count` pending blocks (all of them at most). */
static int trim_some(struct job *j, struct vtrim *t, size_t count)
{
	bool sync = j->eng.ops->flags & ENGINE_SYNC;
	int rc = 0;
	if (count > t->n)
		count = t->n;
	if (!count)
		return 0;
	if (!sync && (rc = async_drain(j)) < 0)
		return rc;
	size_t i = 0;
	for (; i < count && !job_stopping(j); i++) {
		struct io_unit *u = &j->units[0];
		if (!sync)
			while (!(u = async_get_unit(j)))
				if ((rc = async_reap(j, 1)) < 0)
					return rc;
		IOB_ASSERT(job_unit_ok(j, u));
		u->ddir = DDIR_TRIM;
		u->file = t->pending[i].f;
		u->offset = t->pending[i].off;
		u->buflen = t->pending[i].len;
		if (sync) {
			if ((rc = job_sync_issue(j, u)) < 0 && (rc = job_io_failed(j, u, rc)) < 0)
				break;
		} else if ((rc = async_issue(j, u)) < 0) {
			break; /* recorded where it happened */
		}
	}
	memmove(t->pending, t->pending + i, (t->n - i) * sizeof(*t->pending));
	t->n -= i;
	if (!sync) {
		int rc2 = async_drain(j);
		if (rc >= 0 && rc2 < 0)
			rc = rc2;
	}
	return rc < 0 ? rc : 0;
}

int vtrim_after_write(struct job *j, struct vtrim *t)
{
	const struct job_spec *s = j->spec;
	if (!t->percent || !s->trim_backlog || ++t->since < s->trim_backlog)
		return 0;
	t->since = 0;
	return trim_some(j, t, s->trim_backlog_batch ? s->trim_backlog_batch : t->n);
}

int vtrim_flush(struct job *j, struct vtrim *t)
{
	t->since = 0;
	return trim_some(j, t, t->n);
}
