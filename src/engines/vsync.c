/*
 * The "vsync" engine, fio's: readv(2)/writev(2) of the unit's one buffer at
 * the descriptor's position, seeking first (in prep) only when the position
 * is not already the unit's offset. Sync, datasync and trim units go to the
 * shared helpers. iodepth has no effect.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"

#include <errno.h>
#include <sys/uio.h>

static int vsync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->buflen };
	int fd = u->file->fd;
	ssize_t r;
	int ret;

	if (engine_handle_other(u))
		return ENGINE_Q_COMPLETED;
	ret = engine_posfile_seek(u);
	if (ret) {
		u->result = ret;
		return ENGINE_Q_COMPLETED;
	}
	do {
		if (u->ddir == DDIR_READ)
			r = readv(fd, &iov, 1);
		else
			r = writev(fd, &iov, 1);
	} while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	engine_posfile_done(u);
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_vsync = {
	.name = "vsync",
	.summary = "readv(2)/writev(2) at the descriptor's position, lseek(2) first when it must move",
	.flags = ENGINE_SYNC,
	.open_file = engine_posfile_open,
	.close_file = engine_posfile_close,
	.prep = engine_posfile_prep,
	.queue = vsync_queue,
};
