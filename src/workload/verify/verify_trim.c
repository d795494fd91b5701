/*
 * trim_percentage and its friends (verify_trim.h): which writes are picked,
 * the list of those waiting, and the trims issued for them through the
 * job's engine (counted as the job's trims, as fio counts them). The
 * writes a trim follows are completed first (the queue is drained), so a
 * trim never races the write it undoes.
 */
#include "workload/verify/verify_trim_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/assert.h"
#include "util/error.h"
#include "workload/job/job.h"
#include "workload/files/files.h"
#include "workload/io/io.h"

void vtrim_init(struct vtrim *t, unsigned percent, uint64_t seed)
{
	*t = (struct vtrim){ .percent = percent, .seed = seed };
}

void vtrim_release(struct vtrim *t)
{
	free(t->pending);
	free(t->done.slot);
	free(t->last.slot);
	t->pending = NULL;
	t->n = t->cap = 0;
	t->done = t->last = (struct vtrim_map){ 0 };
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

/* The block maps: open addressing by (file, offset), seq 0 an empty slot. */
static size_t slot_of(const struct vtrim_map *m, const struct job_file *f, uint64_t off)
{
	return (size_t)(mix(off ^ ((uint64_t)(uintptr_t)f << 7)) & (m->cap - 1));
}

static struct vtrim_done *map_find(const struct vtrim_map *m, const struct job_file *f, uint64_t off)
{
	if (!m->n)
		return NULL;
	for (size_t i = slot_of(m, f, off); m->slot[i].seq; i = (i + 1) & (m->cap - 1))
		if (m->slot[i].f == f && m->slot[i].off == off)
			return &m->slot[i];
	return NULL;
}

/* Set (f, off) to seq (to the larger of the two with keep_max); false
 * without memory. */
static bool map_set(struct vtrim_map *m, struct job_file *f, uint64_t off, uint64_t seq, bool keep_max)
{
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256, oldcap = m->cap;
		struct vtrim_done *d = calloc(cap, sizeof(*d)), *old = m->slot;
		if (!d)
			return false;
		m->slot = d;
		m->cap = cap;
		m->n = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].seq)
				map_set(m, old[i].f, old[i].off, old[i].seq, false);
		free(old);
	}
	size_t i = slot_of(m, f, off);
	while (m->slot[i].seq && (m->slot[i].f != f || m->slot[i].off != off))
		i = (i + 1) & (m->cap - 1);
	if (!m->slot[i].seq)
		m->n++;
	if (!keep_max || seq > m->slot[i].seq)
		m->slot[i] = (struct vtrim_done){ f, off, seq };
	return true;
}

bool vtrim_trimmed_after(const struct vtrim *t, const struct job_file *f, uint64_t off, uint64_t seq)
{
	const struct vtrim_done *d = map_find(&t->done, f, off);
	return d && d->seq > seq;
}

int vtrim_note_write(struct vtrim *t, struct job_file *f, uint64_t off, uint64_t len, uint64_t seq)
{
	if (!t->percent)
		return 0;
	/* a block with a pick waiting: this write is now its newest */
	struct vtrim_done *l = map_find(&t->last, f, off);
	if (l)
		l->seq = seq;
	if (!vtrim_picked(t, seq))
		return 0;
	if (!l && !map_set(&t->last, f, off, seq, false))
		return -ENOMEM;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct vtrim_rec *p = realloc(t->pending, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->pending = p;
		t->cap = cap;
	}
	t->pending[t->n++] = (struct vtrim_rec){ f, off, len, seq };
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
		if ((rc = job_file_reopen(j, t->pending[i].f)) < 0) { /* openfiles= closed it */
			if (!sync)
				async_put_unit(j, u);
			break;
		}
		u->ddir = DDIR_TRIM;
		u->file = t->pending[i].f;
		u->offset = t->pending[i].off;
		u->buflen = t->pending[i].len;
		/* a newer write of the block replaced this pick: its data stays */
		const struct vtrim_done *l = map_find(&t->last, t->pending[i].f, t->pending[i].off);
		if (l && l->seq != t->pending[i].seq) {
			if (!sync)
				async_put_unit(j, u);
			continue;
		}
		if (!map_set(&t->done, t->pending[i].f, t->pending[i].off, t->pending[i].seq, true)) {
			rc = error_errno(-ENOMEM, "job '%s': no memory to remember the trimmed blocks "
					 "(trim_percentage)", j->spec->name);
			if (!sync)
				async_put_unit(j, u);
			break;
		}
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
	job_files_close_reopened(j);
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
