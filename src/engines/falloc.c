/*
 * The "falloc" engine, fio's: each unit is one fallocate(2) of its range
 * instead of a data transfer: a write allocates it (mode 0, the file grows),
 * a read allocates it without changing the size (FALLOC_FL_KEEP_SIZE) and a
 * trim punches a hole (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE), so
 * parallel write and trim jobs fragment a file as fio's falloc example does.
 * A filesystem without fallocate fails the unit with EOPNOTSUPP. Sync and
 * datasync units go to the shared helpers. fallocate(2) needs a descriptor
 * open for writing, so a read job's regular files are opened O_RDWR too
 * (fio opens them so); since every unit changes the file's allocation,
 * read-only mode refuses the engine.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>

#include "util/error.h"

static int falloc_init(struct engine_ctx *ctx)
{
	const struct devguard_allow *g = ctx->params.guard;
	if (g && g->readonly_by)
		return error("the falloc engine allocates and punches file space on every I/O, but "
			     "read-only mode (%s) forbids every write", g->readonly_by) ? -EROFS : 0;
	return 0;
}

static int falloc_open(struct engine_ctx *ctx, struct job_file *f)
{
	if (!f->is_bdev)
		f->open_flags = (f->open_flags & ~O_ACCMODE) | O_RDWR;
	return engine_file_open(ctx, f);
}

static int falloc_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	int mode;

	(void)ctx;
	switch (u->ddir) {
	case DDIR_WRITE:
		mode = 0;
		break;
	case DDIR_READ:
		mode = FALLOC_FL_KEEP_SIZE;
		break;
	case DDIR_TRIM:
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
		break;
	default:
		engine_do_other(u);
		return ENGINE_Q_COMPLETED;
	}
	int r;
	do
		r = fallocate(u->file->fd, mode, (off_t)u->offset, (off_t)u->buflen);
	while (r < 0 && errno == EINTR);
	u->result = r < 0 ? -errno : (int64_t)u->buflen;
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_falloc = {
	.name = "falloc",
	.summary = "fio's: each I/O is a fallocate(2) of its range: write allocates, read keeps the size, trim punches",
	.flags = ENGINE_SYNC,
	.init = falloc_init,
	.open_file = falloc_open,
	.close_file = engine_file_close,
	.queue = falloc_queue,
};
