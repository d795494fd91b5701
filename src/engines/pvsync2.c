/*
 * The "pvsync2" engine, fio's: one preadv2(2)/pwritev2(2) per unit with the
 * per-I/O flags the job asks for: RWF_HIPRI (hipri, polled completion),
 * RWF_NOWAIT (nowait, fail with EAGAIN rather than block) and RWF_DONTCACHE
 * (uncached, drop the pages once the I/O is done; Linux 6.14+); with
 * hipri_percentage=P only P% of the I/Os, picked by a seeded generator, are
 * RWF_HIPRI (fio's default 100: all of them). A kernel or
 * filesystem that does not know a flag fails the I/O with EOPNOTSUPP (or
 * EINVAL); the first such failure says which flags were asked for. The
 * three flags are this engine's options (pvsync2_options).
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"
#include "engines/rwf_int.h"
#include "util/array.h"
#include "util/error.h"
#include "util/rand.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

/* The engine's options: the per-I/O flags. */
struct pvsync2_opts {
	bool hipri;     /* RWF_HIPRI */
	bool nowait;    /* RWF_NOWAIT */
	bool uncached;  /* RWF_DONTCACHE where the kernel has it */
	unsigned hipri_percentage; /* of the I/Os with RWF_HIPRI when hipri is set */
};

#define O(field) offsetof(struct pvsync2_opts, field)
static const struct option_def pvsync2_options[] = {
	{ .name = "hipri", .type = OPT_BOOL, .off = O(hipri), .type_text = "bool", .def = "0",
	  .is_flag = true, .help = "polled completion (RWF_HIPRI); the kernel polls only O_DIRECT I/O (direct=1)" },
	{ .name = "hipri_percentage", .type = OPT_UINT, .off = O(hipri_percentage),
	  .width = sizeof(unsigned), .min = 0, .max = 100, .type_text = "int", .def = "100",
	  .help = "with hipri: the percent of the I/Os, picked at random, that are RWF_HIPRI" },
	{ .name = "nowait", .type = OPT_BOOL, .off = O(nowait), .type_text = "bool", .def = "0",
	  .is_flag = true, .help = "fail with EAGAIN instead of blocking (RWF_NOWAIT)" },
	{ .name = "uncached", .type = OPT_BOOL, .off = O(uncached), .type_text = "bool", .def = "0",
	  .is_flag = true, .help = "drop the pages after the I/O (RWF_DONTCACHE, Linux 6.14+)" },
};
#undef O

struct pvsync2_priv {
	int rwf;
	unsigned hipri_pct; /* hipri_percentage; 100 with hipri: every I/O */
	struct rng rng;     /* which I/Os are RWF_HIPRI when hipri_pct < 100 */
	bool explained; /* the flag-rejection message was printed */
};

static int opts_rwf(const struct pvsync2_opts *o)
{
	int rwf = 0;

	if (o->hipri)
		rwf |= RWF_HIPRI;
	if (o->nowait)
		rwf |= RWF_NOWAIT;
	if (o->uncached)
		rwf |= RWF_DONTCACHE;
	return rwf;
}

static int pvsync2_init(struct engine_ctx *ctx)
{
	struct pvsync2_priv *p = ctx->priv;

	const struct pvsync2_opts *o = engine_options(ctx);
	if (p) {
		p->rwf = opts_rwf(o);
		p->hipri_pct = o->hipri ? o->hipri_percentage : 100;
		/* the same picks on every run unless randrepeat=0 without a seed */
		uint64_t seed = (ctx->params.seed_set ? ctx->params.seed : 0x68697072ULL);
		if (!ctx->params.randrepeat && !ctx->params.seed_set)
			seed ^= (uint64_t)(uintptr_t)p;
		rng_seed(&p->rng, seed);
	}
	return 0;
}

static void explain_rejection(struct engine_ctx *ctx, const struct io_unit *u, int rwf)
{
	struct pvsync2_priv *p = ctx->priv;
	char names[64] = "";

	if (p) {
		if (p->explained)
			return;
		p->explained = true;
	}
	if (rwf & RWF_HIPRI)
		strcat(names, ",hipri");
	if (rwf & RWF_NOWAIT)
		strcat(names, ",nowait");
	if (rwf & RWF_DONTCACHE)
		strcat(names, ",uncached");
	error("pvsync2: %s of '%s' failed (%s); the kernel or filesystem may not support "
	      "'%s' (RWF_ flags for preadv2/pwritev2)", ddir_name(u->ddir), u->file->path,
	      strerror((int)-u->result), names + 1);
}

static int pvsync2_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct pvsync2_priv *p = ctx->priv;
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->buflen };
	int fd = u->file->fd;
	int rwf = p ? p->rwf : opts_rwf(engine_options(ctx));
	ssize_t r;

	if (engine_handle_other(u))
		return ENGINE_Q_COMPLETED;
	if (p && p->hipri_pct < 100 && (rwf & RWF_HIPRI) && rng_below(&p->rng, 100) >= p->hipri_pct)
		rwf &= ~RWF_HIPRI;
	do {
		if (u->ddir == DDIR_READ)
			r = preadv2(fd, &iov, 1, (off_t)u->offset, rwf);
		else
			r = pwritev2(fd, &iov, 1, (off_t)u->offset, rwf);
	} while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	if (rwf && (u->result == -EOPNOTSUPP || u->result == -EINVAL))
		explain_rejection(ctx, u, rwf);
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.summary = "one preadv2(2)/pwritev2(2) per I/O with the RWF_ flags its options ask for",
	.flags = ENGINE_SYNC,
	.priv_size = sizeof(struct pvsync2_priv),
	.options = pvsync2_options,
	.nr_options = ARRAY_SIZE(pvsync2_options),
	.options_size = sizeof(struct pvsync2_opts),
	.init = pvsync2_init,
	.open_file = engine_file_open,
	.close_file = engine_file_close,
	.queue = pvsync2_queue,
};
