/*
 * The "faulty" engine: fault injection for tests of error policies and of
 * data verification. It wraps another engine (faulty_engine=, default psync;
 * sync and async engines alike), owns that engine's context and private
 * area, and forwards open/close/prep/queue/commit/reap to it, except that
 * the I/Os its selectors choose are
 *  - failed (faulty_fail=): completed with -faulty_errno without reaching
 *    the inner engine;
 *  - corrupted (faulty_corrupt=): one byte inverted (xor 0xff) in the data a
 *    read returns, or in a write's buffer while the inner engine writes it
 *    (the buffer is restored when the write completes);
 *  - delayed (faulty_delay=, faulty_delay_select=): completed faulty_delay
 *    later than the inner engine completes them.
 * Only reads and writes are chosen (faulty_dir= narrows that to one
 * direction); trims and syncs pass untouched. Every candidate I/O gets the
 * next number 1, 2, 3... in queue order, which every:N selects; offset:OFF
 * selects every I/O whose range covers OFF, in any file and pass; random:PCT
 * draws from a stream seeded by randseed (and the clone number), one stream
 * per selector, so a run repeats exactly (unless randrepeat=0 and no
 * randseed: then each run draws anew, as fio's random offsets do).
 *
 * Corrupt bytes are deterministic: with offset:OFF the byte at OFF itself
 * (each listed offset the I/O covers), with every:N and random:PCT the byte
 * at the I/O's offset + length/2 (rounded down).
 *
 * The runner picks its sync or async path from ops->flags, so init() swaps
 * ctx->ops for the table of the inner engine's kind: engine_faulty (async)
 * or faulty_sync_ops. Both share every hook and the option rows
 * (faulty_opts.c). The inner engine runs with its default options: the
 * faulty_* rows are this engine's own, not the inner one's.
 */
#include "engines/engine.h"
#include "engines/engines_list_int.h"
#include "engines/faulty_int.h"
#include "util/assert.h"
#include "util/error.h"
#include "util/rand.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Per-unit marks, kept for units the inner engine still holds. */
enum {
	FU_CORRUPT_READ = 1 << 0,  /* flip after the read completes */
	FU_CORRUPT_WRITE = 1 << 1, /* flipped before queueing: flip back at completion */
	FU_DELAY = 1 << 2,
};

struct faulty {
	const struct engine_ops *inner_ops;
	struct engine_ctx inner;
	void *inner_opts;           /* the inner engine's options: its defaults */
	const struct faulty_opts *o;
	uint64_t seq;               /* candidate I/Os seen */
	struct rng rng_fail, rng_corrupt, rng_delay;
	unsigned char *marks;       /* by io_unit.index */
	size_t nr_marks;
	struct io_unit **failed;    /* async: failed units waiting for reap, FIFO */
	size_t failed_head, failed_tail, failed_alloc;
};

static const struct engine_ops faulty_sync_ops;

static bool covers(const struct faulty_sel *sel, const struct io_unit *u)
{
	for (unsigned i = 0; i < sel->nr_offsets; i++)
		if (sel->offsets[i] >= u->offset && sel->offsets[i] - u->offset < u->buflen)
			return true;
	return false;
}

static bool chosen(const struct faulty_sel *sel, struct rng *r, const struct io_unit *u,
		   uint64_t seq)
{
	switch (sel->kind) {
	case FAULTY_SEL_EVERY:
		return seq % sel->every == 0;
	case FAULTY_SEL_OFFSET:
		return covers(sel, u);
	case FAULTY_SEL_RANDOM:
		/* parts per billion: PCT down to 1e-7 % is honoured */
		return rng_below(r, 1000000000ULL) < (uint64_t)(sel->pct * 1e7 + 0.5);
	default:
		return false;
	}
}

/* Invert the corrupt bytes of u that lie in its first n bytes. */
static void flip(const struct faulty_opts *o, struct io_unit *u, uint64_t n)
{
	const struct faulty_sel *sel = &o->corrupt;
	unsigned char *b = u->buf;
	if (sel->kind != FAULTY_SEL_OFFSET) {
		if (u->buflen / 2 < n)
			b[u->buflen / 2] ^= 0xff;
		return;
	}
	for (unsigned i = 0; i < sel->nr_offsets; i++) {
		uint64_t off = sel->offsets[i];
		if (off >= u->offset && off - u->offset < n)
			b[off - u->offset] ^= 0xff;
	}
}

static void sleep_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	while (now_ns() < end)
		sleep_until_ns(end);
}

static void mark_slot(struct faulty *f, unsigned index)
{
	f->marks = xgrow(f->marks, &f->nr_marks, index, sizeof(*f->marks));
}

/* What happens to u: sets *fail and returns its FU_* marks. */
static unsigned decide(struct faulty *f, const struct io_unit *u, bool *fail)
{
	const struct faulty_opts *o = f->o;
	unsigned m = 0;
	*fail = false;
	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE)
		return 0;
	if (o->dir && !(o->dir & (u->ddir == DDIR_READ ? RW_READ : RW_WRITE)))
		return 0;
	uint64_t seq = ++f->seq;
	*fail = chosen(&o->fail, &f->rng_fail, u, seq);
	if (chosen(&o->corrupt, &f->rng_corrupt, u, seq))
		m |= u->ddir == DDIR_READ ? FU_CORRUPT_READ : FU_CORRUPT_WRITE;
	if (o->delay && chosen(&o->delay_select, &f->rng_delay, u, seq))
		m |= FU_DELAY;
	return m;
}

/* A unit is back from the inner engine: undo or apply the corruption. */
static void finish(struct faulty *f, struct io_unit *u, unsigned m)
{
	if ((m & FU_CORRUPT_WRITE))
		flip(f->o, u, u->buflen);
	if ((m & FU_CORRUPT_READ) && u->result > 0)
		flip(f->o, u, (uint64_t)u->result);
}

/* Undo what faulty_init made for the inner engine before its init took. */
static void free_inner(struct faulty *f)
{
	free(f->inner.priv);
	free(f->inner_opts);
	f->inner.priv = f->inner_opts = NULL;
	f->inner_ops = NULL;
}

static int faulty_init(struct engine_ctx *ctx)
{
	struct faulty *f = ctx->priv;
	const struct faulty_opts *o = engine_options(ctx);
	const struct engine_ops *in = engine_find(o->engine);
	if (!in || in == &engine_faulty)
		return -EINVAL;
	f->inner_ops = in;
	f->o = o;
	f->inner = (struct engine_ctx){ .ops = in, .params = ctx->params };
	if (in->priv_size)
		f->inner.priv = xcalloc(1, in->priv_size);
	if (in->nr_options) {
		char why[256];
		f->inner_opts = xmalloc(in->options_size);
		if (engine_options_init(in, f->inner_opts, 1024, why, sizeof(why)) < 0) {
			error("faulty: engine '%s' refuses a default of its options: %s", in->name, why);
			free_inner(f);
			return -EINVAL;
		}
		f->inner.opts = f->inner_opts;
	}
	uint64_t seed = (ctx->params.seed_set ? ctx->params.seed : 0x6661756c7479ULL) +
			0x9e3779b97f4a7c15ULL * ctx->params.clone;
	/* randrepeat=0 without randseed: a different draw each run, as the
	 * job's own offsets and buffers get (fio's meaning of randrepeat) */
	if (!ctx->params.randrepeat && !ctx->params.seed_set)
		seed ^= now_ns();
	rng_seed(&f->rng_fail, seed ^ 0x1);
	rng_seed(&f->rng_corrupt, seed ^ 0x2);
	rng_seed(&f->rng_delay, seed ^ 0x3);
	int rc = in->init ? in->init(&f->inner) : 0;
	if (rc < 0) {
		free_inner(f);
		return rc;
	}
	ctx->ops = (in->flags & ENGINE_SYNC) ? &faulty_sync_ops : &engine_faulty;
	return 0;
}

static void faulty_cleanup(struct engine_ctx *ctx)
{
	struct faulty *f = ctx->priv;
	if (f->inner_ops && f->inner_ops->cleanup)
		f->inner_ops->cleanup(&f->inner);
	free(f->inner.priv);
	free(f->inner_opts);
	free(f->marks);
	free(f->failed);
	memset(f, 0, sizeof(*f));
}

static int faulty_register_buffers(struct engine_ctx *ctx, struct io_unit *units, unsigned n,
				   uint64_t buf_size)
{
	struct faulty *f = ctx->priv;
	if (n)
		mark_slot(f, n - 1);
	if (!f->inner_ops->register_buffers)
		return 0;
	return f->inner_ops->register_buffers(&f->inner, units, n, buf_size);
}

static int faulty_open(struct engine_ctx *ctx, struct job_file *file)
{
	struct faulty *f = ctx->priv;
	return f->inner_ops->open_file(&f->inner, file);
}

static int faulty_close(struct engine_ctx *ctx, struct job_file *file)
{
	struct faulty *f = ctx->priv;
	return f->inner_ops->close_file(&f->inner, file);
}

static int faulty_prep(struct engine_ctx *ctx, struct io_unit *u)
{
	struct faulty *f = ctx->priv;
	return f->inner_ops->prep ? f->inner_ops->prep(&f->inner, u) : 0;
}

static void push_failed(struct faulty *f, struct io_unit *u)
{
	if (f->failed_head == f->failed_tail)
		f->failed_head = f->failed_tail = 0;
	f->failed = xgrow(f->failed, &f->failed_alloc, f->failed_tail, sizeof(*f->failed));
	f->failed[f->failed_tail++] = u;
}

static int faulty_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct faulty *f = ctx->priv;
	bool fail;
	/* a BUSY inner engine gets the same unit again: decide only once */
	uint64_t seq0 = f->seq;
	struct rng r0[3] = { f->rng_fail, f->rng_corrupt, f->rng_delay };
	unsigned m = decide(f, u, &fail);

	if (fail) {
		u->result = -(int64_t)(f->o->err ? f->o->err : EIO);
		if (ctx->ops == &faulty_sync_ops) {
			if (m & FU_DELAY)
				sleep_ns(f->o->delay);
			return ENGINE_Q_COMPLETED;
		}
		mark_slot(f, u->index);
		f->marks[u->index] = (unsigned char)(m & FU_DELAY);
		push_failed(f, u);
		return ENGINE_Q_QUEUED;
	}
	if ((m & FU_DELAY) && ctx->ops == &faulty_sync_ops)
		sleep_ns(f->o->delay);
	if (m & FU_CORRUPT_WRITE)
		flip(f->o, u, u->buflen);
	int rc = f->inner_ops->queue(&f->inner, u);
	if (rc == ENGINE_Q_QUEUED) {
		mark_slot(f, u->index);
		f->marks[u->index] = (unsigned char)m;
		return rc;
	}
	if (m & FU_CORRUPT_WRITE)
		flip(f->o, u, u->buflen); /* not written: restore the buffer */
	if (rc == ENGINE_Q_COMPLETED) {
		finish(f, u, m & ~FU_CORRUPT_WRITE);
		if ((m & FU_DELAY) && ctx->ops != &faulty_sync_ops)
			sleep_ns(f->o->delay);
		return rc;
	}
	/* busy or an error: the unit was not taken */
	f->seq = seq0;
	f->rng_fail = r0[0];
	f->rng_corrupt = r0[1];
	f->rng_delay = r0[2];
	return rc;
}

static int faulty_commit(struct engine_ctx *ctx)
{
	struct faulty *f = ctx->priv;
	return f->inner_ops->commit ? f->inner_ops->commit(&f->inner) : 0;
}

static int faulty_reap(struct engine_ctx *ctx, unsigned min, unsigned max,
		       const struct timespec *timeout, struct io_unit **done)
{
	struct faulty *f = ctx->priv;
	unsigned got = 0;
	bool delay = false;

	while (got < max && f->failed_head < f->failed_tail) {
		struct io_unit *u = f->failed[f->failed_head++];
		IOB_ASSERT(u->index < f->nr_marks); /* marked when it was queued */
		delay |= f->marks[u->index] & FU_DELAY;
		f->marks[u->index] = 0;
		done[got++] = u;
	}
	if (got < max && (got < min || !got)) {
		int n = f->inner_ops->reap(&f->inner, min > got ? min - got : 0, max - got, timeout,
					   done + got);
		if (n < 0 && !got)
			return n;
		for (int i = 0; i < n; i++) {
			struct io_unit *u = done[got + i];
			unsigned m = u->index < f->nr_marks ? f->marks[u->index] : 0;
			if (m) {
				finish(f, u, m);
				delay |= m & FU_DELAY;
				f->marks[u->index] = 0;
			}
		}
		if (n > 0)
			got += (unsigned)n;
	}
	if (delay)
		sleep_ns(f->o->delay);
	return (int)got;
}

#define FAULTY_HOOKS \
	.summary = "iobench's own: wraps faulty_engine and fails, corrupts or delays chosen I/Os", \
	.priv_size = sizeof(struct faulty), \
	.options = faulty_options, \
	.nr_options = FAULTY_NR_OPTIONS, \
	.options_size = sizeof(struct faulty_opts), \
	.init = faulty_init, \
	.open_file = faulty_open, \
	.close_file = faulty_close, \
	.prep = faulty_prep, \
	.queue = faulty_queue, \
	.commit = faulty_commit, \
	.reap = faulty_reap, \
	.cleanup = faulty_cleanup, \
	.register_buffers = faulty_register_buffers

const struct engine_ops engine_faulty = {
	.name = "faulty",
	.flags = ENGINE_ASYNC,
	FAULTY_HOOKS,
};

static const struct engine_ops faulty_sync_ops = {
	.name = "faulty",
	.flags = ENGINE_SYNC,
	FAULTY_HOOKS,
};
