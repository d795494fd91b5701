/*
 * The "sync" engine, fio's: read(2)/write(2) at the descriptor's position,
 * after an lseek(2) when the position is not already the unit's offset (done
 * in prep, as fio does, so queue() is one system call). Sync, datasync and
 * trim units go to the shared helpers. iodepth has no effect.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"

#include <errno.h>
#include <unistd.h>

static int sync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
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
			r = read(fd, u->buf, u->buflen);
		else
			r = write(fd, u->buf, u->buflen);
	} while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : r;
	engine_posfile_done(u);
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.summary = "read(2)/write(2) at the descriptor's position, lseek(2) first when it must move",
	.flags = ENGINE_SYNC,
	.open_file = engine_posfile_open,
	.close_file = engine_posfile_close,
	.prep = engine_posfile_prep,
	.queue = sync_queue,
};
