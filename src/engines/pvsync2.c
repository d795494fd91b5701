/*
 * The "pvsync2" engine, fio's: one preadv2(2)/pwritev2(2) per unit with the
 * per-I/O flags the job asks for: RWF_HIPRI (hipri, polled completion),
 * RWF_NOWAIT (nowait, fail with EAGAIN rather than block) and RWF_DONTCACHE
 * (uncached, drop the pages once the I/O is done; Linux 6.14+). A kernel or
 * filesystem that does not know a flag fails the I/O with EOPNOTSUPP (or
 * EINVAL); the first such failure says which flags were asked for.
 */
#include "engines/engine.h"
#include "engines/fileio.h"
#include "util/error.h"
#include "spec/jobspec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

#ifndef RWF_HIPRI
#define RWF_HIPRI 0x01
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x08
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x80
#endif

struct pvsync2_priv {
	int rwf;
	bool explained; /* the flag-rejection message was printed */
};

static int spec_rwf(const struct job_spec *s)
{
	int rwf = 0;

	if (!s)
		return 0;
	if (s->hipri)
		rwf |= RWF_HIPRI;
	if (s->nowait)
		rwf |= RWF_NOWAIT;
	if (s->uncached)
		rwf |= RWF_DONTCACHE;
	return rwf;
}

static int pvsync2_init(struct engine_ctx *ctx)
{
	struct pvsync2_priv *p = ctx->priv;

	if (p)
		p->rwf = spec_rwf(ctx->spec);
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
	const struct pvsync2_priv *p = ctx->priv;
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->buflen };
	int fd = u->file->fd;
	int rwf = p ? p->rwf : spec_rwf(ctx->spec);
	ssize_t r;

	if (engine_handle_other(u))
		return ENGINE_Q_COMPLETED;
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
	.flags = ENGINE_SYNC,
	.priv_size = sizeof(struct pvsync2_priv),
	.init = pvsync2_init,
	.open_file = engine_file_open,
	.close_file = engine_file_close,
	.queue = pvsync2_queue,
};
