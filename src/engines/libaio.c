/*
 * The "libaio" engine, fio's, on Linux native AIO through libaio: one
 * io_context of iodepth events per job. queue() prepares an iocb (pread,
 * pwrite, fsync or fdatasync) and collects it; commit() hands every collected
 * iocb to io_submit, keeping the rest queued when the kernel takes only some
 * (or none: EAGAIN); reap() calls io_getevents(min, max, timeout). An iocb
 * the kernel refuses at submission (bad descriptor, bad offset) comes back
 * from the next reap() with that -errno as its result, so every queued unit
 * is reaped exactly once. Trim is done synchronously, as fio does.
 *
 * userspace_reap, as fio defines it: when reaping with a minimum of 0 the
 * completions are read straight from the ring the kernel maps at the
 * io_context address (checked by its magic number; io_getevents otherwise).
 * nowait, as fio's: every read and write iocb carries RWF_NOWAIT, so one
 * that would block fails with EAGAIN.
 *
 * cmdprio_percentage, cmdprio_class, cmdprio and cmdprio_bssplit
 * (engines/cmdprio_int.h), as fio's: a read or write they pick carries its
 * priority in aio_reqprio with IOCB_FLAG_IOPRIO; the others carry none (the
 * job's prio/prioclass applies, set on the thread).
 */
#include "engines/engine.h"
#include "engines/cmdprio_int.h"
#include "engines/fileio_int.h"
#include "engines/rwf_int.h"
#include "util/array.h"
#include "util/error.h"
#include "util/assert.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <libaio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AIO_RING_MAGIC 0xa10a10a1
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1) /* linux/aio_abi.h: aio_reqprio is valid */
#endif

/* The kernel's completion ring header (fs/aio.c), followed by the events. */
struct aio_ring {
	unsigned id;
	unsigned nr;
	unsigned head;
	unsigned tail;
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event io_events[];
};

struct laio_priv {
	io_context_t aio;
	bool aio_ready;
	bool user_reap;         /* userspace_reap asked for and the ring is usable */
	int rw_flags;           /* aio_rw_flags of every read and write (nowait) */
	unsigned depth;         /* most iocbs queued + in flight */
	struct iocb *iocbs;     /* depth slots; a unit's engine_data points at its own */
	unsigned *free_slot, nr_free;
	struct iocb **pending;  /* queued, not yet submitted, in order */
	unsigned nr_pending;
	unsigned inflight;      /* submitted, not yet reaped */
	struct io_unit **refused; /* refused by io_submit: handed back by reap */
	unsigned nr_refused;
	struct io_event *events;
	struct cmdprio cmdprio;
};

/* The engine's options. */
struct laio_opts {
	struct cmdprio_opts cmdprio;
	bool userspace_reap; /* read completions from the ring when min is 0 */
	bool nowait;         /* RWF_NOWAIT on reads and writes */
};

static const struct option_def laio_options[] = {
	{ .name = "userspace_reap", .type = OPT_BOOL, .off = offsetof(struct laio_opts, userspace_reap),
	  .type_text = "bool", .def = "0", .is_flag = true,
	  .help = "read completions from the ring in user space when reaping with minimum 0" },
	{ .name = "nowait", .type = OPT_BOOL, .off = offsetof(struct laio_opts, nowait),
	  .type_text = "bool", .def = "0", .is_flag = true,
	  .help = "fail a read or write with EAGAIN instead of blocking (RWF_NOWAIT)" },
	CMDPRIO_ROWS(struct laio_opts, cmdprio),
};

static int laio_init(struct engine_ctx *ctx)
{
	struct laio_priv *p = ctx->priv;
	unsigned depth = ctx->params.iodepth ? ctx->params.iodepth : 1;
	const struct laio_opts *o = engine_options(ctx);
	int ret;

	if ((ret = cmdprio_init(&p->cmdprio, &o->cmdprio, &ctx->params, "libaio")) < 0)
		return ret;
	ctx->per_prio = p->cmdprio.on;
	ret = io_setup((int)depth, &p->aio);
	if (ret < 0) {
		if (ret == -EAGAIN)
			return error_errno(ret, "libaio: cannot set up a context of %u events: the "
					   "system-wide limit is reached (sysctl fs.aio-max-nr)", depth);
		return error_errno(ret, "libaio: cannot set up a context of %u events", depth);
	}
	p->aio_ready = true;
	p->depth = depth;
	p->rw_flags = o->nowait ? RWF_NOWAIT : 0;
	if (o->userspace_reap) {
		const struct aio_ring *r = (const struct aio_ring *)p->aio;
		p->user_reap = r->magic == AIO_RING_MAGIC && !r->incompat_features;
		if (!p->user_reap)
			warning("libaio: the kernel's completion ring is not the known layout; "
				"userspace_reap falls back to io_getevents");
	}
	p->iocbs = xcalloc(depth, sizeof(*p->iocbs));
	p->free_slot = xcalloc(depth, sizeof(*p->free_slot));
	for (unsigned i = 0; i < depth; i++)
		p->free_slot[i] = depth - 1 - i;
	p->nr_free = depth;
	p->pending = xcalloc(depth, sizeof(*p->pending));
	p->refused = xcalloc(depth, sizeof(*p->refused));
	p->events = xcalloc(depth, sizeof(*p->events));
	return 0;
}

/* Each iocb slot is free, pending or in flight (a refused unit has given
 * its slot back). */
static bool slots_balanced(const struct laio_priv *p)
{
	return p->nr_free + p->nr_pending + p->inflight == p->depth && p->nr_refused <= p->depth;
}

static void release_slot(struct laio_priv *p, struct iocb *cb)
{
	IOB_ASSERT(p->nr_free < p->depth && cb >= p->iocbs && cb < p->iocbs + p->depth);
	p->free_slot[p->nr_free++] = (unsigned)(cb - p->iocbs);
}

static int laio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct laio_priv *p = ctx->priv;
	int fd = u->file->fd;
	struct iocb *cb;

	if (u->ddir == DDIR_TRIM || u->ddir >= DDIR_INVAL) {
		engine_do_other(u);
		return ENGINE_Q_COMPLETED;
	}
	if (p->nr_pending + p->inflight + p->nr_refused >= p->depth || !p->nr_free)
		return ENGINE_Q_BUSY;
	cb = &p->iocbs[p->free_slot[--p->nr_free]];
	switch (u->ddir) {
	case DDIR_READ:
		io_prep_pread(cb, fd, u->buf, u->buflen, (long long)u->offset);
		cb->aio_rw_flags = p->rw_flags;
		break;
	case DDIR_WRITE:
		io_prep_pwrite(cb, fd, u->buf, u->buflen, (long long)u->offset);
		cb->aio_rw_flags = p->rw_flags;
		break;
	case DDIR_SYNC:
		io_prep_fsync(cb, fd);
		break;
	default:
		io_prep_fdsync(cb, fd);
		break;
	}
	if (ctx->per_prio && (u->ddir == DDIR_READ || u->ddir == DDIR_WRITE)) {
		int prio = cmdprio_pick(&p->cmdprio, u->ddir, u->buflen);
		u->ioprio = ctx->params.ioprio;
		if (prio >= 0) {
			cb->aio_reqprio = (short)prio;
			cb->u.c.flags |= IOCB_FLAG_IOPRIO;
			u->ioprio = (uint16_t)prio;
		}
	}
	cb->data = u;
	u->engine_data = cb;
	p->pending[p->nr_pending++] = cb;
	IOB_ASSERT(slots_balanced(p) && p->nr_pending + p->inflight + p->nr_refused <= p->depth);
	return ENGINE_Q_QUEUED;
}

/* Submit the pending iocbs in order; 0, or -EAGAIN when the kernel took
 * none for now. A refused iocb's unit moves to the refused list. */
static int submit_pending(struct laio_priv *p)
{
	unsigned done = 0;
	int ret = 0;

	while (done < p->nr_pending) {
		int r = io_submit(p->aio, (long)(p->nr_pending - done), p->pending + done);
		if (r > 0) {
			done += (unsigned)r;
			p->inflight += (unsigned)r;
		} else if (r == -EINTR) {
			continue;
		} else if (r == 0 || r == -EAGAIN) {
			ret = -EAGAIN;
			break;
		} else {
			/* the first one is bad: its unit completes with the error */
			struct iocb *cb = p->pending[done++];
			struct io_unit *u = cb->data;
			u->result = r;
			u->engine_data = NULL;
			release_slot(p, cb);
			IOB_ASSERT(p->nr_refused < p->depth);
			p->refused[p->nr_refused++] = u;
		}
	}
	IOB_ASSERT(done <= p->nr_pending);
	memmove(p->pending, p->pending + done, (p->nr_pending - done) * sizeof(*p->pending));
	p->nr_pending -= done;
	IOB_ASSERT(slots_balanced(p));
	return ret;
}

static int laio_commit(struct engine_ctx *ctx)
{
	struct laio_priv *p = ctx->priv;

	/* EAGAIN: the rest stays queued; the next commit or reap retries */
	(void)submit_pending(p);
	return 0;
}

/* userspace_reap: copy up to max events off the kernel's ring. */
static int user_getevents(struct laio_priv *p, unsigned max)
{
	struct aio_ring *r = (struct aio_ring *)p->aio;
	unsigned head = r->head, n = 0;
	unsigned tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);

	while (head != tail && n < max) {
		p->events[n++] = r->io_events[head];
		head = head + 1 == r->nr ? 0 : head + 1;
	}
	if (n)
		__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return (int)n;
}

static int laio_reap(struct engine_ctx *ctx, unsigned min, unsigned max,
		     const struct timespec *timeout, struct io_unit **done)
{
	struct laio_priv *p = ctx->priv;
	unsigned n = 0;

	IOB_ASSERT(slots_balanced(p));
	while (p->nr_refused && n < max)
		done[n++] = p->refused[--p->nr_refused];
	if (p->nr_pending) {
		int ret = submit_pending(p);
		/* nothing in flight and the kernel takes nothing: wait a little */
		if (ret == -EAGAIN && !p->inflight && !n)
			usleep(100);
		while (p->nr_refused && n < max)
			done[n++] = p->refused[--p->nr_refused];
	}
	if (min > n + p->inflight)
		min = n + p->inflight;
	while (n < max && p->inflight) {
		unsigned want_min = min > n ? min - n : 0;
		unsigned want_max = max - n < p->depth ? max - n : p->depth;
		struct timespec ts, *tsp = NULL;
		int r;

		if (timeout) {
			ts = *timeout; /* io_getevents may change it */
			tsp = &ts;
		}
		if (!want_min && p->user_reap)
			r = user_getevents(p, want_max);
		else
			r = io_getevents(p->aio, (long)want_min, (long)want_max, p->events, tsp);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return n ? (int)n : r;
		for (int i = 0; i < r; i++) {
			struct io_unit *u = p->events[i].data;
			/* res is the byte count or a negative errno */
			u->result = (long)p->events[i].res;
			release_slot(p, p->events[i].obj);
			u->engine_data = NULL;
			done[n++] = u;
		}
		IOB_ASSERT((unsigned)r <= p->inflight && n <= max);
		p->inflight -= (unsigned)r;
		if (n >= min || (unsigned)r < want_min)
			break;
	}
	return (int)n;
}

static void laio_cleanup(struct engine_ctx *ctx)
{
	struct laio_priv *p = ctx->priv;

	if (p->aio_ready)
		io_destroy(p->aio);
	p->aio_ready = false;
	free(p->iocbs);
	free(p->free_slot);
	free(p->pending);
	free(p->refused);
	free(p->events);
	p->iocbs = NULL;
	p->free_slot = NULL;
	p->pending = NULL;
	p->refused = NULL;
	p->events = NULL;
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.summary = "Linux native asynchronous I/O: io_submit(2) and io_getevents(2) (libaio)",
	.flags = ENGINE_ASYNC,
	.priv_size = sizeof(struct laio_priv),
	.options = laio_options,
	.nr_options = ARRAY_SIZE(laio_options),
	.options_size = sizeof(struct laio_opts),
	.init = laio_init,
	.open_file = engine_file_open,
	.close_file = engine_file_close,
	.queue = laio_queue,
	.commit = laio_commit,
	.reap = laio_reap,
	.cleanup = laio_cleanup,
};
