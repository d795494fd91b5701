/*
 * The "posixaio" engine, fio's, on POSIX asynchronous I/O (glibc's
 * implementation, which runs the requests on its own threads): queue()
 * starts aio_read/aio_write/aio_fsync at once, since POSIX AIO has no batch
 * submission, so commit() has nothing to do; reap() collects finished
 * requests with aio_error/aio_return and sleeps in aio_suspend while fewer
 * than `min` are done. A request POSIX AIO refuses to start comes back from
 * the next reap() with its -errno. Trim is done synchronously.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"
#include "util/assert.h"
#include "util/xmalloc.h"

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Waiting on a few requests is enough: glibc runs one descriptor's requests
 * in the order they were started, and aio_suspend's cost grows with its list
 * (it looks each entry up under glibc's global AIO lock). */
#define SUSPEND_MAX 8

struct started {
	unsigned slot;
	uint64_t seq;
};

struct paio_priv {
	unsigned depth;
	struct aiocb *cbs;           /* depth slots */
	struct io_unit **unit;       /* per slot, NULL when free */
	uint64_t *slot_seq;          /* per slot: when it was started */
	unsigned *free_slot, nr_free;
	unsigned inflight;           /* started, not yet reaped */
	struct io_unit **refused;    /* failed to start: handed back by reap */
	unsigned nr_refused;
	unsigned scan;               /* where the next completion scan starts */
	/* requests in the order they were started; finished ones are dropped
	 * lazily (from the head, or all at once when the ring is full) */
	struct started *fifo;
	unsigned fifo_cap, fifo_head, fifo_len;
	uint64_t next_seq;
};

static int paio_init(struct engine_ctx *ctx)
{
	struct paio_priv *p = ctx->priv;
	unsigned depth = ctx->params.iodepth ? ctx->params.iodepth : 1;

	p->depth = depth;
	p->cbs = xcalloc(depth, sizeof(*p->cbs));
	p->unit = xcalloc(depth, sizeof(*p->unit));
	p->slot_seq = xcalloc(depth, sizeof(*p->slot_seq));
	p->free_slot = xcalloc(depth, sizeof(*p->free_slot));
	p->refused = xcalloc(depth, sizeof(*p->refused));
	for (unsigned i = 0; i < depth; i++)
		p->free_slot[i] = depth - 1 - i;
	p->nr_free = depth;
	p->fifo_cap = 2 * depth;
	p->fifo = xcalloc(p->fifo_cap, sizeof(*p->fifo));
	return 0;
}

/* Each slot is free or holds a started request; a refused unit holds none. */
static bool slots_balanced(const struct paio_priv *p)
{
	return p->nr_free + p->inflight == p->depth && p->nr_refused <= p->depth &&
	       p->fifo_len <= p->fifo_cap;
}

static bool still_running(const struct paio_priv *p, const struct started *e)
{
	return p->unit[e->slot] && p->slot_seq[e->slot] == e->seq;
}

static void fifo_push(struct paio_priv *p, unsigned slot)
{
	if (p->fifo_len == p->fifo_cap) { /* keep only the running ones */
		unsigned n = 0;
		for (unsigned i = 0; i < p->fifo_len; i++) {
			struct started e = p->fifo[(p->fifo_head + i) % p->fifo_cap];
			if (still_running(p, &e))
				p->fifo[n++] = e; /* n <= i + head: never overwrites unread */
		}
		p->fifo_head = 0;
		p->fifo_len = n;
	}
	IOB_ASSERT(p->fifo_len < p->fifo_cap); /* at most depth run: the compaction made room */
	p->slot_seq[slot] = ++p->next_seq;
	p->fifo[(p->fifo_head + p->fifo_len++) % p->fifo_cap] =
		(struct started){ .slot = slot, .seq = p->next_seq };
}

/* The oldest running requests, at most SUSPEND_MAX; returns how many. */
static int oldest(struct paio_priv *p, const struct aiocb **list)
{
	int n = 0;

	while (p->fifo_len && !still_running(p, &p->fifo[p->fifo_head])) {
		p->fifo_head = (p->fifo_head + 1) % p->fifo_cap;
		p->fifo_len--;
	}
	for (unsigned i = 0; i < p->fifo_len && n < SUSPEND_MAX; i++) {
		const struct started *e = &p->fifo[(p->fifo_head + i) % p->fifo_cap];
		if (still_running(p, e))
			list[n++] = &p->cbs[e->slot];
	}
	return n;
}

static int paio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct paio_priv *p = ctx->priv;
	struct aiocb *cb;
	unsigned slot;
	int ret;

	if (u->ddir == DDIR_TRIM || u->ddir >= DDIR_INVAL) {
		engine_do_other(u);
		return ENGINE_Q_COMPLETED;
	}
	if (!p->nr_free || p->inflight + p->nr_refused >= p->depth)
		return ENGINE_Q_BUSY;
	slot = p->free_slot[--p->nr_free];
	cb = &p->cbs[slot];
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = u->file->fd;
	cb->aio_buf = u->buf;
	cb->aio_nbytes = u->buflen;
	cb->aio_offset = (off_t)u->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	switch (u->ddir) {
	case DDIR_READ:
		ret = aio_read(cb);
		break;
	case DDIR_WRITE:
		ret = aio_write(cb);
		break;
	case DDIR_SYNC:
		ret = aio_fsync(O_SYNC, cb);
		break;
	default:
		ret = aio_fsync(O_DSYNC, cb);
		break;
	}
	if (ret < 0) {
		int err = errno;
		p->free_slot[p->nr_free++] = slot;
		if (err == EAGAIN && p->inflight)
			return ENGINE_Q_BUSY; /* out of resources: reap first */
		u->result = -err;
		IOB_ASSERT(p->nr_refused < p->depth);
		p->refused[p->nr_refused++] = u;
		return ENGINE_Q_QUEUED;
	}
	IOB_ASSERT(!p->unit[slot]);
	p->unit[slot] = u;
	fifo_push(p, slot);
	p->inflight++;
	IOB_ASSERT(slots_balanced(p));
	return ENGINE_Q_QUEUED;
}

static int paio_commit(struct engine_ctx *ctx)
{
	return 0; /* every request started in queue() */
}

/* Still running? aio_error() takes glibc's one global AIO lock, which the
 * worker threads need to finish requests, so asking it about every request
 * on every scan slows them down; glibc's own field says "running" without
 * the lock, and aio_error() confirms the ones that look finished. */
static bool running(const struct aiocb *cb)
{
#ifdef __GLIBC__
	if (__atomic_load_n(&cb->__error_code, __ATOMIC_ACQUIRE) == EINPROGRESS)
		return true;
#endif
	return aio_error(cb) == EINPROGRESS;
}

/* Collect finished requests into done[n..max); returns the new n. */
static unsigned collect(struct paio_priv *p, unsigned n, unsigned max, struct io_unit **done)
{
	for (unsigned k = 0; k < p->depth && n < max && p->inflight; k++) {
		unsigned s = (p->scan + k) % p->depth;
		struct io_unit *u = p->unit[s];
		int err;

		if (!u || running(&p->cbs[s]))
			continue;
		err = aio_error(&p->cbs[s]);
		ssize_t r = aio_return(&p->cbs[s]);
		u->result = err ? -err : r;
		p->unit[s] = NULL;
		IOB_ASSERT(p->inflight > 0 && p->nr_free < p->depth);
		p->free_slot[p->nr_free++] = s;
		p->inflight--;
		done[n++] = u;
		p->scan = s + 1;
	}
	return n;
}

static int paio_reap(struct engine_ctx *ctx, unsigned min, unsigned max,
		     const struct timespec *timeout, struct io_unit **done)
{
	struct paio_priv *p = ctx->priv;
	unsigned n = 0;

	IOB_ASSERT(slots_balanced(p));
	while (p->nr_refused && n < max)
		done[n++] = p->refused[--p->nr_refused];
	if (min > n + p->inflight)
		min = n + p->inflight;
	for (;;) {
		const struct aiocb *list[SUSPEND_MAX];
		n = collect(p, n, max, done);
		if (n >= min || n >= max)
			break;
		if (aio_suspend(list, oldest(p, list), timeout) < 0) {
			int err = errno;
			if (err == EAGAIN) /* timed out */
				return (int)collect(p, n, max, done);
			if (err != EINTR)
				return n ? (int)n : -err;
		}
	}
	return (int)n;
}

static void paio_cleanup(struct engine_ctx *ctx)
{
	struct paio_priv *p = ctx->priv;

	/* requests still running would write into freed memory: wait for them */
	for (unsigned s = 0; p->unit && s < p->depth; s++) {
		if (!p->unit[s])
			continue;
		const struct aiocb *one = &p->cbs[s];
		aio_cancel(p->cbs[s].aio_fildes, &p->cbs[s]);
		while (aio_error(one) == EINPROGRESS)
			aio_suspend(&one, 1, NULL);
		aio_return(&p->cbs[s]);
	}
	free(p->cbs);
	free(p->unit);
	free(p->slot_seq);
	free(p->free_slot);
	free(p->refused);
	free(p->fifo);
	p->cbs = NULL;
	p->unit = NULL;
	p->slot_seq = NULL;
	p->fifo = NULL;
	p->free_slot = NULL;
	p->refused = NULL;
}

const struct engine_ops engine_posixaio = {
	.name = "posixaio",
	.summary = "POSIX asynchronous I/O: aio_read(3)/aio_write(3), glibc's threads",
	.flags = ENGINE_ASYNC,
	.priv_size = sizeof(struct paio_priv),
	.init = paio_init,
	.open_file = engine_file_open,
	.close_file = engine_file_close,
	.queue = paio_queue,
	.commit = paio_commit,
	.reap = paio_reap,
	.cleanup = paio_cleanup,
};
