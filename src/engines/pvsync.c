/*
 * The "pvsync" engine, fio's: one preadv(2)/pwritev(2) of the unit's buffer
 * at its offset. Sync, datasync and trim units go to the shared helpers.
 * iodepth has no effect.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"

#include <errno.h>
#include <sys/uio.h>

static int pvsync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->buflen };
	int fd = u->file->fd;
	ssize_t r;

	if (engine_handle_other(u))
		return ENGINE_Q_COMPLETED;
	do {
		if (u->ddir == DDIR_READ)
			r = preadv(fd, &iov, 1, (off_t)u->offset);
		else
			r = pwritev(fd, &iov, 1, (off_t)u->offset);
	} while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_pvsync = {
	.name = "pvsync",
	.summary = "one preadv(2)/pwritev(2) per I/O at its offset",
	.flags = ENGINE_SYNC,
	.open_file = engine_file_open,
	.close_file = engine_file_close,
	.queue = pvsync_queue,
};
