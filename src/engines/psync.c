/*
 * The "psync" engine, fio's default: one pread(2)/pwrite(2) per unit at its
 * offset. Sync, datasync and trim units go to the shared helpers. iodepth
 * has no effect.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"

#include <errno.h>
#include <unistd.h>

static int psync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	int fd = u->file->fd;
	ssize_t r;

	if (engine_handle_other(u))
		return ENGINE_Q_COMPLETED;
	do {
		if (u->ddir == DDIR_READ)
			r = pread(fd, u->buf, u->buflen, (off_t)u->offset);
		else
			r = pwrite(fd, u->buf, u->buflen, (off_t)u->offset);
	} while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_psync = {
	.name = "psync",
	.summary = "one pread(2)/pwrite(2) per I/O at its offset (the default)",
	.flags = ENGINE_SYNC,
	.open_file = engine_file_open,
	.close_file = engine_file_close,
	.queue = psync_queue,
};
