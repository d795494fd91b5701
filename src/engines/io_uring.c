/*
 * The "io_uring" engine, fio's, on liburing: one ring per job with room for
 * iodepth I/Os. queue() fills an SQE (READ/WRITE, READV/WRITEV with
 * nonvectored=0, READ_FIXED/WRITE_FIXED with fixedbufs, FSYNC for sync and
 * datasync units) and commit() hands every queued SQE to the kernel with one
 * io_uring_enter; reap() takes completions off the CQ in batches and
 * advances it once per batch. Trim is done synchronously, as fio does for
 * io_uring, since no opcode discards on every kind of file.
 *
 * How many SQEs are queued and how many are in flight is read from the ring
 * (the SQ head, or the tail with sqthread_poll; see kernel_has()), never
 * taken from what a submit call returned: with SQPOLL that is a guess the
 * kernel thread can make wrong at any instant. With sqthread_poll the SQ
 * ring has twice iodepth entries, because the kernel thread frees an entry
 * only after its completion can already be reaped.
 *
 * The ring is created in init(), so a refused option fails before any job
 * starts, but disabled when the kernel allows a single issuer: the job's
 * thread enables it at its first open and so becomes that issuer, which lets
 * the kernel defer completion work until we reap (SINGLE_ISSUER and
 * DEFER_TASKRUN, as fio asks for them; dropped on kernels without them).
 * reap() first submits anything still queued, so it never waits for an I/O
 * the kernel has not been given.
 *
 * The engine's options (uring_options) are fio's: hipri, fixedbufs,
 * registerfiles, sqthread_poll and sqthread_poll_cpu; force_async=N (every
 * Nth SQE prepared gets IOSQE_ASYNC, as fio counts them); nowait and uncached,
 * the RWF_ flags of every read and write SQE (rw_flags); and nonvectored, an
 * int whose default -1 means "ask the kernel whether IORING_OP_READ/WRITE
 * exist and use them if so" (0 forces READV/WRITEV, anything positive the
 * plain ones). cmdprio_percentage, cmdprio_class, cmdprio and
 * cmdprio_bssplit (engines/cmdprio_int.h), as fio's: a read or write they pick
 * carries its priority in the SQE's ioprio; the others carry none.
 */
#include "engines/engine.h"
#include "engines/cmdprio_int.h"
#include "engines/fileio_int.h"
#include "engines/rwf_int.h"
#include "util/array.h"
#include "util/error.h"
#include "util/assert.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <liburing.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define REAP_BATCH 64

/* The engine's options. */
struct uring_opts {
	struct cmdprio_opts cmdprio;
	bool hipri;                /* IORING_SETUP_IOPOLL */
	int fixedbufs;             /* registered buffers (READ/WRITE_FIXED); -1 unset */
	int registerfiles;         /* registered files (IOSQE_FIXED_FILE); -1 unset */
	bool sqthread_poll;        /* kernel submission thread (SQPOLL) */
	bool nowait;               /* RWF_NOWAIT on reads and writes */
	bool uncached;             /* RWF_DONTCACHE on reads and writes */
	bool sqthread_poll_cpu_set;
	unsigned sqthread_poll_cpu; /* CPU of that thread, when _set */
	int nonvectored;           /* -1 probe, 0 READV/WRITEV, 1 READ/WRITE */
	unsigned force_async;      /* every Nth SQE gets IOSQE_ASYNC; 0: none */
};

static int opt_nonvectored(void *target, const char *val, struct opt_ctx *c)
{
	struct uring_opts *o = target;
	uint64_t v;
	const char *why = NULL;

	if (!strcmp(val, "-1")) {
		o->nonvectored = -1;
		return 0;
	}
	if (parse_uint(val, 1000, &v, &why))
		return opt_fail(c, -EINVAL, "number", val, why ? why : "use -1, 0 or 1");
	o->nonvectored = v ? 1 : 0;
	return 0;
}

/*
 * fixedbufs and registerfiles: fio's bools, with a third state, unset (-1,
 * the default), in which iobench registers them anyway where it can. They
 * change how the kernel reaches the buffers and files, not what the I/O
 * does, and save the page pinning and file lookup of every request; 0
 * turns them off, as fio has them.
 */
static int opt_auto_bool(void *target, const char *val, struct opt_ctx *c)
{
	int *field = (int *)((char *)target + c->opt->off);
	const char *why = NULL;
	bool b;

	if (val && !strcmp(val, "-1")) {
		*field = -1;
		return 0;
	}
	if (!val) {
		*field = 1;
		return 0;
	}
	if (parse_bool(val, &b, &why) < 0)
		return opt_fail(c, -EINVAL, "boolean", val, why);
	*field = b;
	return 0;
}

/* Pins the SQPOLL thread, so whether it was given matters as much as its value. */
static int opt_sqthread_poll_cpu(void *target, const char *val, struct opt_ctx *c)
{
	struct uring_opts *o = target;
	uint64_t v;
	const char *why = NULL;

	if (parse_uint(val, 1000, &v, &why))
		return opt_fail(c, -EINVAL, "number", val, why);
	if (v > 65535)
		return opt_fail(c, -ERANGE, "number", val, "must be from 0 to 65535");
	o->sqthread_poll_cpu = (unsigned)v;
	o->sqthread_poll_cpu_set = true;
	return 0;
}

#define O(field) offsetof(struct uring_opts, field)
#define FLAG(n, h) { .name = #n, .type = OPT_BOOL, .off = O(n), .type_text = "bool", .def = "0", \
	.is_flag = true, .help = h }
static const struct option_def uring_options[] = {
	FLAG(hipri, "polled completions (IORING_SETUP_IOPOLL); needs direct=1"),
	{ .name = "fixedbufs", .type = OPT_FUNC, .parse = opt_auto_bool, .off = O(fixedbufs), .type_text = "bool", .def = "-1", .is_flag = true, .help = "register the I/O buffers with the kernel once (READ/WRITE_FIXED); unset, "
																			 "iobench does where it can (0: never)" },
	{ .name = "registerfiles", .type = OPT_FUNC, .parse = opt_auto_bool, .off = O(registerfiles), .type_text = "bool", .def = "-1", .is_flag = true, .help = "register the files with the kernel once (IOSQE_FIXED_FILE); unset, iobench "
																				 "does where it can (0: never)" },
	FLAG(sqthread_poll, "a kernel thread polls for submissions (SQPOLL; implies registerfiles)"),
	{ .name = "sqthread_poll_cpu", .type = OPT_FUNC, .parse = opt_sqthread_poll_cpu, .type_text = "int", .help = "CPU to pin the sqthread_poll thread to" },
	{ .name = "nonvectored", .type = OPT_FUNC, .parse = opt_nonvectored, .type_text = "int", .def = "-1", .help = "1 READ/WRITE, 0 READV/WRITEV, -1 READ/WRITE where the kernel has them" },
	FLAG(nowait, "fail a read or write with EAGAIN instead of blocking (RWF_NOWAIT)"),
	FLAG(uncached, "drop the pages after each read or write (RWF_DONTCACHE, Linux 6.14+)"),
	{ .name = "force_async", .type = OPT_UINT, .off = O(force_async), .width = sizeof(unsigned), .min = 0, .max = 0, .type_text = "int", .def = "0", .help = "issue every Nth request in the kernel's async workers (IOSQE_ASYNC) instead of "
																				 "trying it inline first (0: never)" },
	CMDPRIO_ROWS(struct uring_opts, cmdprio),
};
#undef FLAG
#undef O

struct uring_priv {
	struct io_uring ring;
	bool ring_ready;     /* io_uring_queue_init succeeded */
	bool disabled;       /* created R_DISABLED; the first open enables it */
	unsigned setup_flags;
	bool nonvec, fixedbufs, regfiles, hipri, sqpoll;
	/* fixedbufs and registerfiles left unset: iobench's choice, dropped
	 * quietly where the kernel or the memory will not take it */
	bool auto_bufs, auto_files;
	const char *bufs_off; /* why auto buffers are off, for describe(); NULL: on or asked */
	int rw_flags;        /* RWF_ flags of every read and write (nowait, uncached) */
	unsigned force_async, prepped; /* force_async=N; SQEs since the last IOSQE_ASYNC */
	unsigned depth;      /* most I/Os queued + in flight */
	/* free-running counters that wrap as the ring's indices do: SQEs the
	 * engine filled and completions it reaped; sq0 is where kernel_has()
	 * counts from. queued and inflight follow from them (recount()). */
	unsigned filled, reaped, sq0;
	unsigned queued;     /* filled, not yet the kernel's */
	unsigned inflight;   /* the kernel's, not yet reaped */
	bool wake_owed;      /* SQPOLL: entries published, but waking the thread failed */
	/* READV/WRITEV: one iovec per slot; a unit's engine_data points at it */
	struct iovec *vec;
	unsigned *free_vec, nr_free_vec;
	/* fixedbufs: the registered buffers, indexed by io_unit.index */
	struct iovec *reg;
	unsigned nr_reg;
	/* registerfiles: the table the kernel holds, slot = position, -1 in
	 * a free slot. It is registered empty (sparse, Linux 5.19+), so a
	 * file takes a free slot with one update and gives it back at close */
	int *fds;
	unsigned nr_fds;
	bool legacy_files;   /* the kernel has no sparse table: replaced at each open */
	bool explained;      /* the hipri rejection was explained */
	bool ring_fd_tried;  /* the ring's descriptor was registered, or tried */
	struct cmdprio cmdprio;
};

static int kernel_has_plain_rw(struct uring_priv *p)
{
	struct io_uring_probe *pr = io_uring_get_probe_ring(&p->ring);
	int ok = 0;

	if (pr) {
		ok = io_uring_opcode_supported(pr, IORING_OP_READ) &&
		     io_uring_opcode_supported(pr, IORING_OP_WRITE);
		io_uring_free_probe(pr);
	}
	return ok;
}

static void option_names(const struct uring_priv *p, bool sqpoll, char *out, size_t len)
{
	snprintf(out, len, "%s%s%s%s", sqpoll ? ",sqthread_poll" : "", p->hipri ? ",hipri" : "",
		 p->fixedbufs ? ",fixedbufs" : "", p->regfiles ? ",registerfiles" : "");
}

/* Set the ring up, dropping the optional flags a kernel does not know. */
static int ring_setup(struct uring_priv *p, const struct uring_opts *o, unsigned entries)
{
	struct io_uring_params prm;
	unsigned want = IORING_SETUP_CLAMP | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
			IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			IORING_SETUP_R_DISABLED;
	const unsigned droppable[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED,
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
		IORING_SETUP_CLAMP,
	};
	unsigned base = 0;
	int ret;

	if (p->hipri)
		base |= IORING_SETUP_IOPOLL;
	if (o->sqthread_poll) {
		base |= IORING_SETUP_SQPOLL;
		if (o->sqthread_poll_cpu_set)
			base |= IORING_SETUP_SQ_AFF;
	}
	/* SQPOLL: the kernel thread moves the SQ head only once a whole batch
	 * is issued, and a batch is at most what was in flight when it began
	 * (iodepth), so the entries of up to iodepth reaped completions may
	 * still be taken: with twice iodepth entries a free one is always
	 * there below the depth */
	unsigned ask = o->sqthread_poll ? 2 * entries : entries;
	for (size_t i = 0;; i++) {
		memset(&prm, 0, sizeof(prm));
		prm.flags = base | want;
		if (base & IORING_SETUP_SQ_AFF)
			prm.sq_thread_cpu = o->sqthread_poll_cpu;
		ret = io_uring_queue_init_params(ask, &p->ring, &prm);
		if (ret != -EINVAL || i == ARRAY_SIZE(droppable))
			break;
		want &= ~droppable[i];
	}
	if (ret < 0)
		return ret;
	p->setup_flags = prm.flags;
	p->disabled = prm.flags & IORING_SETUP_R_DISABLED;
	unsigned room = o->sqthread_poll ? prm.sq_entries / 2 : prm.sq_entries;
	p->depth = entries < room ? entries : room;
	p->sq0 = o->sqthread_poll ? *p->ring.sq.ktail : *p->ring.sq.khead;
	return 0;
}

static int uring_init(struct engine_ctx *ctx)
{
	struct uring_priv *p = ctx->priv;
	const struct uring_opts *o = engine_options(ctx);
	unsigned entries = ctx->params.iodepth ? ctx->params.iodepth : 1;
	char opts[96];
	int ret;

	p->auto_bufs = o->fixedbufs < 0;
	p->auto_files = o->registerfiles < 0 && !o->sqthread_poll;
	/* unset: on, unless nonvectored=0 asks for READV/WRITEV, which have
	 * no registered form */
	p->fixedbufs = o->fixedbufs > 0 || (p->auto_bufs && o->nonvectored != 0);
	if (p->auto_bufs && !p->fixedbufs)
		p->bufs_off = "nonvectored=0";
	/* as fio: the submission thread works on registered files */
	p->regfiles = o->registerfiles != 0 || o->sqthread_poll;
	p->hipri = o->hipri;
	p->sqpoll = o->sqthread_poll;
	p->rw_flags = (o->nowait ? RWF_NOWAIT : 0) | (o->uncached ? RWF_DONTCACHE : 0);
	p->force_async = o->force_async;
	if ((ret = cmdprio_init(&p->cmdprio, &o->cmdprio, &ctx->params, "io_uring")) < 0)
		return ret;
	ctx->per_prio = p->cmdprio.on;
	if (p->hipri && !ctx->params.direct)
		return error("io_uring: hipri (IOPOLL) needs direct=1: polled completion works "
			     "only for O_DIRECT I/O on a device with poll queues");
	ret = ring_setup(p, o, entries);
	if (ret < 0) {
		option_names(p, o->sqthread_poll, opts, sizeof(opts));
		if (ret == -ENOSYS)
			return error_errno(ret, "io_uring: this kernel has no io_uring");
		if (ret == -EPERM)
			return error_errno(ret, "io_uring: not permitted (see sysctl kernel.io_uring_disabled%s)",
					   o->sqthread_poll ? "; sqthread_poll may need CAP_SYS_NICE" : "");
		if (ret == -EINVAL && o->sqthread_poll_cpu_set && o->sqthread_poll)
			return error_errno(ret, "io_uring: cannot set up the ring with sqthread_poll_cpu=%u "
					   "(is that CPU online and allowed?)", o->sqthread_poll_cpu);
		return error_errno(ret, "io_uring: cannot set up a ring of %u entries%s%s", entries,
				   *opts ? " with " : "", *opts ? opts + 1 : "");
	}
	p->ring_ready = true;
	if (o->nonvectored < 0)
		p->nonvec = kernel_has_plain_rw(p);
	else
		p->nonvec = o->nonvectored > 0;
	p->vec = xcalloc(p->depth, sizeof(*p->vec));
	p->free_vec = xcalloc(p->depth, sizeof(*p->free_vec));
	for (unsigned i = 0; i < p->depth; i++)
		p->free_vec[i] = p->depth - 1 - i;
	p->nr_free_vec = p->depth;
	return 0;
}

static int uring_register_buffers(struct engine_ctx *ctx, struct io_unit *units, unsigned n,
				  uint64_t buf_size)
{
	struct uring_priv *p = ctx->priv;
	unsigned max = 0;
	int ret;

	if (!p->fixedbufs || !p->ring_ready || !n)
		return 0;
	for (unsigned i = 0; i < n; i++)
		if (units[i].index + 1 > max)
			max = units[i].index + 1;
	free(p->reg);
	p->reg = xcalloc(max, sizeof(*p->reg));
	p->nr_reg = max;
	for (unsigned i = 0; i < n; i++)
		p->reg[units[i].index] = (struct iovec){ .iov_base = units[i].buf, .iov_len = buf_size };
	ret = io_uring_register_buffers(&p->ring, p->reg, max);
	if (ret < 0) {
		free(p->reg);
		p->reg = NULL;
		p->nr_reg = 0;
		if (p->auto_bufs) { /* not asked for: the plain opcodes do */
			p->fixedbufs = false;
			p->bufs_off = ret == -ENOMEM       ? "the locked-memory limit"
				      : ret == -EOPNOTSUPP ? "file-backed buffers"
							   : "the kernel refused them";
			return 0;
		}
		return error_errno(ret, "io_uring: cannot register %u buffers of %llu bytes (fixedbufs)%s",
				   max, (unsigned long long)buf_size,
				   ret == -ENOMEM ? "; raise the locked-memory limit (ulimit -l)" : "");
	}
	return 0;
}

/* The job's thread enables a ring created disabled: it becomes the issuer. */
static int ring_enable(struct uring_priv *p)
{
	if (!p->disabled)
		return 0;
	/* io_uring_enable_rings() is declared by liburing 2.3 but not exported */
	if (syscall(__NR_io_uring_register, p->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0)
		return error_errno(-errno, "io_uring: cannot enable the ring");
	p->disabled = false;
	return 0;
}

/*
 * A sparse table of n slots holding fds[0..n) (-1: free), in place of the
 * one the kernel holds. In-flight requests keep their own reference to a
 * file of the old table, so replacing it while I/O runs is safe.
 */
static int files_table(struct uring_priv *p, unsigned n)
{
	unsigned had = p->nr_fds;
	int ret;

	if (had)
		io_uring_unregister_files(&p->ring);
	p->fds = xrealloc(p->fds, n * sizeof(*p->fds));
	for (unsigned i = had; i < n; i++)
		p->fds[i] = -1;
	p->nr_fds = 0;
	if ((ret = io_uring_register_files_sparse(&p->ring, n)) < 0)
		return ret;
	p->nr_fds = n;
	if (had && (ret = io_uring_register_files_update(&p->ring, 0, p->fds, had)) < 0)
		return ret;
	return 0;
}

/* Kernels before 5.19 have no sparse table: the whole table is replaced
 * at each open (files are opened before any I/O: cheap then). */
static int files_append(struct uring_priv *p, int fd)
{
	int ret;

	p->fds = xrealloc(p->fds, (p->nr_fds + 1) * sizeof(*p->fds));
	p->fds[p->nr_fds++] = fd;
	if (p->nr_fds > 1)
		io_uring_unregister_files(&p->ring);
	if ((ret = io_uring_register_files(&p->ring, p->fds, p->nr_fds)) < 0)
		p->nr_fds--;
	return ret < 0 ? ret : 0;
}

static int register_file(struct uring_priv *p, struct job_file *f)
{
	unsigned slot = 0;
	int ret = 0;

	while (slot < p->nr_fds && p->fds[slot] >= 0)
		slot++;
	if (!p->legacy_files && slot == p->nr_fds) {
		bool first = !p->nr_fds;
		ret = files_table(p, first ? 16 : 2 * p->nr_fds);
		if (ret == -EINVAL && first)
			p->legacy_files = true;
	}
	if (p->legacy_files) {
		slot = p->nr_fds;
		ret = files_append(p, f->fd);
	} else if (ret == 0) {
		p->fds[slot] = f->fd;
		if ((ret = io_uring_register_files_update(&p->ring, slot, &f->fd, 1)) < 0)
			p->fds[slot] = -1;
	}
	if (ret < 0) {
		/* not asked for, and no file is registered yet: the descriptors do */
		if (p->auto_files && p->nr_fds <= 16 && slot == 0) {
			p->regfiles = false;
			f->engine_data = NULL;
			return 0;
		}
		return error_errno(ret, "io_uring: cannot register '%s' (registerfiles)", f->path);
	}
	f->engine_data = (void *)(uintptr_t)(slot + 1);
	return 0;
}

static int uring_open(struct engine_ctx *ctx, struct job_file *f)
{
	struct uring_priv *p = ctx->priv;
	int ret;

	if (!p->ring_ready)
		return -EINVAL;
	if ((ret = ring_enable(p)) < 0)
		return ret;
	if ((ret = engine_file_open(ctx, f)) < 0)
		return ret;
	if (p->regfiles && (ret = register_file(p, f)) < 0) {
		engine_file_close(ctx, f);
		return ret;
	}
	return 0;
}

static int uring_close(struct engine_ctx *ctx, struct job_file *f)
{
	struct uring_priv *p = ctx->priv;
	uintptr_t slot = (uintptr_t)f->engine_data;

	if (p->regfiles && slot) {
		int none = -1;
		p->fds[slot - 1] = -1;
		io_uring_register_files_update(&p->ring, (unsigned)(slot - 1), &none, 1);
		f->engine_data = NULL;
	}
	return engine_file_close(ctx, f);
}

/* Is u's buffer inside the registered buffer of its index (fixedbufs)? */
static bool buf_registered(const struct uring_priv *p, const struct io_unit *u)
{
	const struct iovec *r = u->index < p->nr_reg ? &p->reg[u->index] : NULL;
	const char *b = u->buf;

	return r && b >= (const char *)r->iov_base &&
	       b + u->buflen <= (const char *)r->iov_base + r->iov_len;
}

static void prep_vectored(struct uring_priv *p, struct io_uring_sqe *sqe, int fd, struct io_unit *u)
{
	IOB_ASSERT(p->nr_free_vec > 0); /* one iovec per slot, and a slot is free */
	struct iovec *v = &p->vec[p->free_vec[--p->nr_free_vec]];

	v->iov_base = u->buf;
	v->iov_len = u->buflen;
	u->engine_data = v;
	if (u->ddir == DDIR_READ)
		io_uring_prep_readv(sqe, fd, v, 1, u->offset);
	else
		io_uring_prep_writev(sqe, fd, v, 1, u->offset);
}

static int uring_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct uring_priv *p = ctx->priv;
	struct io_uring_sqe *sqe;
	uintptr_t slot = (uintptr_t)u->file->engine_data;
	int fd = p->regfiles && slot ? (int)(slot - 1) : u->file->fd;
	bool rw = u->ddir == DDIR_READ || u->ddir == DDIR_WRITE;

	u->engine_data = NULL;
	if (!rw && u->ddir != DDIR_SYNC && u->ddir != DDIR_DATASYNC) {
		engine_do_other(u); /* trim, synchronously; or -EINVAL */
		return ENGINE_Q_COMPLETED;
	}
	/* an offset of -1 means "the file position" to io_uring: refuse it
	 * and every other offset a file cannot have */
	if (rw && u->offset > INT64_MAX) {
		u->result = -EINVAL;
		return ENGINE_Q_COMPLETED;
	}
	bool fixed = rw && p->fixedbufs && buf_registered(p, u);
	if (rw && p->fixedbufs && !fixed && !p->auto_bufs)
		return error("io_uring: the buffer of unit %u is not a registered buffer (fixedbufs)",
			     u->index);
	if (p->queued + p->inflight >= p->depth)
		return ENGINE_Q_BUSY;
	/* below the depth an entry is free: the ring has iodepth entries, or
	 * twice that with SQPOLL (ring_setup()) */
	if (!(sqe = io_uring_get_sqe(&p->ring)))
		return ENGINE_Q_BUSY;
	if (u->ddir == DDIR_SYNC || u->ddir == DDIR_DATASYNC) {
		io_uring_prep_fsync(sqe, fd, u->ddir == DDIR_DATASYNC ? IORING_FSYNC_DATASYNC : 0);
	} else if (fixed) {
		if (u->ddir == DDIR_READ)
			io_uring_prep_read_fixed(sqe, fd, u->buf, (unsigned)u->buflen, u->offset,
						 (int)u->index);
		else
			io_uring_prep_write_fixed(sqe, fd, u->buf, (unsigned)u->buflen, u->offset,
						  (int)u->index);
	} else if (p->nonvec) {
		if (u->ddir == DDIR_READ)
			io_uring_prep_read(sqe, fd, u->buf, (unsigned)u->buflen, u->offset);
		else
			io_uring_prep_write(sqe, fd, u->buf, (unsigned)u->buflen, u->offset);
	} else {
		prep_vectored(p, sqe, fd, u);
	}
	if (rw)
		sqe->rw_flags |= p->rw_flags;
	if (rw && ctx->per_prio) {
		int prio = cmdprio_pick(&p->cmdprio, u->ddir, u->buflen);
		u->ioprio = ctx->params.ioprio;
		if (prio >= 0) {
			sqe->ioprio = (uint16_t)prio;
			u->ioprio = (uint16_t)prio;
		}
	}
	if (p->regfiles && slot)
		sqe->flags |= IOSQE_FIXED_FILE;
	/* as fio: count every request prepared, set the flag on the Nth */
	if (p->force_async && ++p->prepped == p->force_async) {
		p->prepped = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
	io_uring_sqe_set_data(sqe, u);
	p->filled++;
	p->queued++;
	IOB_ASSERT(p->queued + p->inflight <= p->depth);
	return ENGINE_Q_QUEUED;
}

/*
 * How many of the engine's SQEs the kernel has been given, read from the
 * ring. Without SQPOLL the kernel takes SQEs only inside io_uring_enter and
 * has moved the SQ head past every one it took by the time the call
 * returns, whatever it returned: the head is the count. With SQPOLL the
 * kernel thread takes an entry as soon as the published tail covers it and
 * moves the head only after its batch is issued, so a completion can be
 * reaped before the head passes its SQE: the tail the engine published is
 * the count (every published entry is taken while the thread is awake,
 * which submit_pending() sees to). Only the engine fills SQEs: a timed
 * reap never lets liburing queue a timeout SQE of its own (wait_ring_fd()).
 */
static unsigned kernel_has(const struct uring_priv *p)
{
	const struct io_uring_sq *sq = &p->ring.sq;

	if (p->sqpoll)
		return IO_URING_READ_ONCE(*sq->ktail) - p->sq0;
	return io_uring_smp_load_acquire(sq->khead) - p->sq0;
}

static void recount(struct uring_priv *p)
{
	unsigned has = kernel_has(p);

	IOB_ASSERT(has - p->reaped <= p->filled - p->reaped); /* reaped <= has <= filled */
	p->queued = p->filled - has;
	p->inflight = has - p->reaped;
	IOB_ASSERT(p->queued + p->inflight <= p->depth);
}

/*
 * Give the kernel everything queued; returns 0 or -errno (-EAGAIN/-EBUSY:
 * retry later). What io_uring_submit() returns is not trusted as a count:
 * with SQPOLL it is the published tail minus the head it read after
 * publishing, so when the kernel thread takes new entries in between (the
 * job's thread preempted there, say) it says fewer than it handed over, and
 * counting from it left entries "queued" that were in flight, whose
 * completions then outnumbered the count. Whatever the call returns, the
 * counts come from the ring (recount()).
 */
static int submit_pending(struct uring_priv *p)
{
	/* the thread that submits registers the ring's descriptor with
	 * itself (the table is the task's), which spares every later enter
	 * a file lookup; a kernel without it enters as before */
	if (!p->ring_fd_tried) {
		p->ring_fd_tried = true;
		io_uring_register_ring_fd(&p->ring);
	}
	for (unsigned tries = 0; p->queued || p->wake_owed; tries++) {
		unsigned before = p->queued;
		/* as fio: entering with GETEVENTS also makes the completions
		 * that arrived meanwhile visible, so reap rarely needs a call;
		 * with SQPOLL the point is not to enter at all */
		int r = p->sqpoll ? io_uring_submit(&p->ring)
				  : io_uring_submit_and_get_events(&p->ring);
		recount(p);
		if (p->sqpoll) {
			/* every entry is published now, whatever r says; a
			 * failed call may not have woken a sleeping thread */
			IOB_ASSERT(p->queued == 0);
			p->wake_owed = r < 0 && io_uring_sq_ready(&p->ring) > 0;
			if (r >= 0 || !p->wake_owed)
				return 0;
		}
		if (r == -EINTR && tries < 16)
			continue;
		if (r < 0)
			return r == -EINTR ? -EAGAIN : r;
		if (p->queued == before) /* took none: out of resources */
			return -EAGAIN;
	}
	return 0;
}

static int uring_commit(struct engine_ctx *ctx)
{
	struct uring_priv *p = ctx->priv;
	int ret = submit_pending(p);

	/* the kernel is short of resources: the SQEs stay in the ring and the
	 * next commit or reap submits them */
	if (ret == -EAGAIN || ret == -EBUSY)
		return 0;
	return ret;
}

static void explain_hipri(struct uring_priv *p, const struct io_unit *u)
{
	if (p->explained)
		return;
	p->explained = true;
	error("io_uring: hipri (IOPOLL): '%s' refused polled I/O (%s); polling needs direct=1 "
	      "and a device with poll queues: loop devices and most filesystems on virtio have "
	      "none (nvme has them with its poll_queues parameter)", u->file->path,
	      strerror((int)-u->result));
}

static void complete_one(struct uring_priv *p, struct io_uring_cqe *cqe, struct io_unit *u)
{
	u->result = cqe->res;
	if (u->engine_data) {
		IOB_ASSERT(p->nr_free_vec < p->depth);
		p->free_vec[p->nr_free_vec++] = (unsigned)((struct iovec *)u->engine_data - p->vec);
	}
	u->engine_data = NULL;
	if (p->hipri && (u->result == -EOPNOTSUPP || u->result == -EINVAL))
		explain_hipri(p, u);
}

/* Move up to max - n ready completions into done[]; returns how many. */
static unsigned take_ready(struct uring_priv *p, unsigned n, unsigned max, struct io_unit **done)
{
	struct io_uring_cqe *cqes[REAP_BATCH];
	unsigned total = 0;

	while (n < max) {
		unsigned want = max - n < REAP_BATCH ? max - n : REAP_BATCH;
		unsigned got = io_uring_peek_batch_cqe(&p->ring, cqes, want);
		for (unsigned i = 0; i < got; i++) {
			struct io_unit *u = io_uring_cqe_get_data(cqes[i]);
			IOB_ASSERT(u != NULL);
			complete_one(p, cqes[i], u);
			done[n++] = u;
		}
		if (!got)
			break;
		io_uring_cq_advance(&p->ring, got);
		IOB_ASSERT(got <= p->inflight); /* only what was submitted completes */
		p->inflight -= got;
		p->reaped += got;
		total += got;
		if (got < want)
			break;
	}
	return total;
}

/*
 * A timed wait on a ring without IORING_FEAT_EXT_ARG (before Linux 5.11),
 * where io_uring_wait_cqes() would queue a timeout SQE of liburing's own
 * that the engine's counts know nothing of: the ring's descriptor polls
 * readable while a completion is there. Returns 0, -ETIME or -errno.
 */
static int wait_ring_fd(struct uring_priv *p, const struct __kernel_timespec *ts)
{
	struct pollfd pfd = { .fd = p->ring.ring_fd, .events = POLLIN };
	struct timespec t = { .tv_sec = (time_t)ts->tv_sec, .tv_nsec = (long)ts->tv_nsec };
	int r = ppoll(&pfd, 1, &t, NULL);

	return r > 0 ? 0 : r == 0 ? -ETIME : -errno;
}

static int uring_reap(struct engine_ctx *ctx, unsigned min, unsigned max,
		      const struct timespec *timeout, struct io_unit **done)
{
	struct uring_priv *p = ctx->priv;
	struct __kernel_timespec ts, *tsp = NULL;
	bool polled = false;
	unsigned n = 0;
	int ret;

	if ((p->queued || p->wake_owed) && (ret = submit_pending(p)) < 0 && ret != -EAGAIN &&
	    ret != -EBUSY)
		return ret;
	if (min > p->inflight)
		min = p->inflight;
	if (timeout) {
		ts.tv_sec = timeout->tv_sec;
		ts.tv_nsec = timeout->tv_nsec;
		tsp = &ts;
	}
	for (;;) {
		n += take_ready(p, n, max, done);
		if (n >= max)
			break;
		if (n >= min) {
			/* nothing visible: completions may wait for a poll (hipri)
			 * or for task work the kernel could not flag; look once */
			bool flagged = p->setup_flags & IORING_SETUP_TASKRUN_FLAG;
			if (n || polled || !p->inflight || (flagged && !p->hipri))
				break;
			polled = true;
			io_uring_get_events(&p->ring);
			continue;
		}
		struct io_uring_cqe *cqe;
		/* SQPOLL with a wakeup that failed: the thread may sleep on
		 * entries it holds, so wait a millisecond at a time and wake
		 * it again in between */
		struct __kernel_timespec owed = { .tv_nsec = 1000000 };
		bool retry = p->wake_owed && !tsp;
		struct __kernel_timespec *wts = retry ? &owed : tsp;
		if (wts && !(p->ring.features & IORING_FEAT_EXT_ARG))
			ret = wait_ring_fd(p, wts);
		else
			ret = io_uring_wait_cqes(&p->ring, &cqe, min - n, wts, NULL);
		if (ret == -ETIME && retry) {
			if ((ret = submit_pending(p)) < 0 && ret != -EAGAIN && ret != -EBUSY)
				return n ? (int)n : ret;
			continue;
		}
		if (ret == -ETIME)
			n += take_ready(p, n, max, done);
		if (ret == -ETIME || (ret < 0 && ret != -EINTR && ret != -EAGAIN))
			return n ? (int)n : (ret == -ETIME ? 0 : ret);
	}
	return (int)n;
}

/* Which of the ways to save the kernel work per I/O the ring has, and
 * whether iobench chose them (the options left unset) or the job did. */
static void uring_describe(const struct engine_ctx *ctx, char *buf, size_t len)
{
	const struct uring_priv *p = ctx->priv;
	const struct uring_opts *o = engine_options(ctx);
	const char *chose = " (iobench's default)";

	snprintf(buf, len, "registered files %s%s, registered buffers %s%s%s%s, %s%s%s",
		 p->regfiles ? "on" : "off", p->regfiles && p->auto_files ? chose : "",
		 p->fixedbufs ? "on" : "off", p->fixedbufs && p->auto_bufs ? chose : "",
		 p->bufs_off ? ": " : "", p->bufs_off ? p->bufs_off : "",
		 p->setup_flags & IORING_SETUP_DEFER_TASKRUN ? "single issuer, deferred task work"
							     : "task work at once",
		 p->sqpoll ? ", sqthread_poll" : "", o->hipri ? ", hipri" : "");
}

static void uring_cleanup(struct engine_ctx *ctx)
{
	struct uring_priv *p = ctx->priv;

	if (p->ring_ready)
		io_uring_queue_exit(&p->ring);
	p->ring_ready = false;
	free(p->vec);
	free(p->free_vec);
	free(p->reg);
	free(p->fds);
	p->vec = p->reg = NULL;
	p->free_vec = NULL;
	p->fds = NULL;
}

const struct engine_ops engine_io_uring = {
	.name = "io_uring",
	.summary = "asynchronous I/O through an io_uring ring of iodepth entries (liburing)",
	.flags = ENGINE_ASYNC,
	.priv_size = sizeof(struct uring_priv),
	.options = uring_options,
	.nr_options = ARRAY_SIZE(uring_options),
	.options_size = sizeof(struct uring_opts),
	.init = uring_init,
	.register_buffers = uring_register_buffers,
	.open_file = uring_open,
	.close_file = uring_close,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
	.describe = uring_describe,
};
