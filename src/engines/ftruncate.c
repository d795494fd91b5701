/*
 * The "ftruncate" engine, fio's: each write unit truncates its file to the
 * unit's offset with ftruncate(2) (the block size only moves the offset),
 * so rw=write shrinks the file to the first block and grows it back one
 * block at a time, and rw=randwrite sets it to random sizes. Reads and
 * trims have no meaning here and fail with EINVAL, as in fio; sync and
 * datasync units go to the shared helpers.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"

#include <errno.h>
#include <unistd.h>

static int ftruncate_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	(void)ctx;
	if (u->ddir == DDIR_READ || u->ddir == DDIR_TRIM) {
		u->result = -EINVAL;
		return ENGINE_Q_COMPLETED;
	}
	if (engine_handle_other(u))
		return ENGINE_Q_COMPLETED;
	int r;
	do
		r = ftruncate(u->file->fd, (off_t)u->offset);
	while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : (int64_t)u->buflen;
	return ENGINE_Q_COMPLETED;
}


const struct engine_ops engine_ftruncate = {
	.name = "ftruncate",
	.summary = "fio's: each write truncates the file to its offset (ftruncate(2)); reads and trims fail",
	.flags = ENGINE_SYNC,
	.open_file = engine_file_open,
	.close_file = engine_file_close,
	.queue = ftruncate_queue,
};
