/*
 * The "splice" engine, fio's: data moves between the file and the job's
 * buffers through a pipe. A read splices the file's bytes into the pipe
 * (64 KiB at a time) and vmsplices them from the pipe into the buffer
 * (read(2) from the pipe where the kernel cannot vmsplice to user memory);
 * a write vmsplices the buffer into the pipe and splices the pipe into the
 * file at the unit's offset. fio's engine asks for O_DIRECT reads in its
 * init, too late for its files' opens: fio 3.33 opens them buffered (strace),
 * and so does this one.
 * Sync, datasync and trim units go to the shared descriptor helpers. A
 * filesystem that cannot splice fails the I/O with its errno (EINVAL), as
 * in fio ("looks like splice doesn't work on this file system").
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

#define SPLICE_CHUNK 65536 /* a pipe's default capacity */

struct splice_priv {
	int pipe[2];
	bool have_pipe;
	bool no_vmsplice_read; /* vmsplice from the pipe failed with EBADF: read(2) it */
};

static int splice_init(struct engine_ctx *ctx)
{
	struct splice_priv *p = ctx->priv;
	if (pipe2(p->pipe, O_CLOEXEC) < 0)
		return error_errno(-errno, "splice: cannot make its pipe");
	p->have_pipe = true;
	return 0;
}

static void splice_cleanup(struct engine_ctx *ctx)
{
	struct splice_priv *p = ctx->priv;
	if (p->have_pipe) {
		close(p->pipe[0]);
		close(p->pipe[1]);
	}
	p->have_pipe = false;
}

/* Drain n bytes of the pipe into buf; 0 or -errno. */
static int from_pipe(struct splice_priv *p, char *buf, size_t n)
{
	while (n) {
		ssize_t r;
		if (!p->no_vmsplice_read) {
			struct iovec iov = { .iov_base = buf, .iov_len = n };
			r = vmsplice(p->pipe[0], &iov, 1, 0);
			if (r < 0 && errno == EBADF) {
				p->no_vmsplice_read = true;
				continue;
			}
		} else {
			r = read(p->pipe[0], buf, n);
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ENODATA;
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

static int64_t splice_read(struct splice_priv *p, struct io_unit *u)
{
	loff_t off = (loff_t)u->offset;
	char *buf = u->buf;
	uint64_t left = u->buflen, done = 0;
	while (left) {
		size_t len = left > SPLICE_CHUNK ? SPLICE_CHUNK : (size_t)left;
		ssize_t r = splice(u->file->fd, &off, p->pipe[1], NULL, len,
				   left > SPLICE_CHUNK ? SPLICE_F_MORE : 0);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break; /* end of file: a short read */
		int rc = from_pipe(p, buf + done, (size_t)r);
		if (rc < 0)
			return rc;
		done += (uint64_t)r;
		left -= (uint64_t)r;
	}
	return (int64_t)done;
}

static int64_t splice_write(struct splice_priv *p, struct io_unit *u)
{
	loff_t off = (loff_t)u->offset;
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->buflen };
	struct pollfd pfd = { .fd = p->pipe[1], .events = POLLOUT };
	while (iov.iov_len) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		ssize_t in = vmsplice(p->pipe[1], &iov, 1, SPLICE_F_NONBLOCK);
		if (in < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (in < 0)
			return -errno;
		iov.iov_base = (char *)iov.iov_base + in;
		iov.iov_len -= (size_t)in;
		while (in > 0) {
			ssize_t out = splice(p->pipe[0], NULL, u->file->fd, &off, (size_t)in, 0);
			if (out < 0 && errno == EINTR)
				continue;
			if (out <= 0)
				return out < 0 ? -errno : -EIO;
			in -= out;
		}
	}
	return (int64_t)u->buflen;
}

static int splice_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct splice_priv *p = ctx->priv;
	if (engine_handle_other(u))
		return ENGINE_Q_COMPLETED;
	u->result = u->ddir == DDIR_READ ? splice_read(p, u) : splice_write(p, u);
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_splice = {
	.name = "splice",
	.summary = "fio's: reads and writes go through a pipe with splice(2) and vmsplice(2)",
	.flags = ENGINE_SYNC | ENGINE_NEEDS_ALIGN,
	.priv_size = sizeof(struct splice_priv),
	.init = splice_init,
	.open_file = engine_file_open,
	.close_file = engine_file_close,
	.queue = splice_queue,
	.cleanup = splice_cleanup,
};
