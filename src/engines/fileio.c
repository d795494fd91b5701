/*
 * Descriptor plumbing shared by the synchronous engines: open and close a
 * job file, do sync/datasync/trim units, and keep track of the descriptor's
 * file position for the engines that read and write at "the current
 * position" (sync, vsync). Every function reports -errno and retries EINTR.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

int engine_file_open(struct engine_ctx *ctx, struct job_file *f)
{
	int fd;

	do
		fd = open(f->path, f->open_flags | O_CLOEXEC, 0644);
	while (fd < 0 && errno == EINTR);
	/* A filesystem that refuses O_DIRECT fails the open with EINVAL; it is
	 * passed up as is and the runner explains it. */
	if (fd < 0)
		return -errno;
	f->fd = fd;
	return 0;
}

int engine_file_close(struct engine_ctx *ctx, struct job_file *f)
{
	int ret = 0;

	if (f->fd < 0)
		return 0;
	/* Linux releases the descriptor even when close fails: never retry. */
	if (close(f->fd))
		ret = -errno;
	f->fd = -1;
	return ret == -EINTR ? 0 : ret;
}

void engine_do_sync(struct io_unit *u)
{
	int fd = u->file->fd, ret;

	do {
		if (u->ddir == DDIR_SYNC)
			ret = fsync(fd);
		else if (u->ddir == DDIR_DATASYNC)
			ret = fdatasync(fd);
		else {
			u->result = -EINVAL;
			return;
		}
	} while (ret < 0 && errno == EINTR);
	u->result = ret < 0 ? -errno : 0;
}

void engine_do_trim(struct io_unit *u)
{
	struct job_file *f = u->file;
	int ret;

	do {
		if (f->is_bdev) {
			uint64_t range[2] = { u->offset, u->buflen };
			ret = ioctl(f->fd, BLKDISCARD, range);
			/* EBUSY: dirty page cache over the range that the kernel may
			 * not drop while the guard holds the device open O_EXCL
			 * (buffered writes just before): write it back, try again */
			if (ret < 0 && errno == EBUSY &&
			    sync_file_range(f->fd, (off_t)u->offset, (off_t)u->buflen,
					    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
					    SYNC_FILE_RANGE_WAIT_AFTER) == 0)
				ret = ioctl(f->fd, BLKDISCARD, range);
		} else {
			ret = fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					(off_t)u->offset, (off_t)u->buflen);
		}
	} while (ret < 0 && errno == EINTR);
	if (ret < 0) {
		int err = errno;
		/* ENOTTY: a device (or driver) without discard support */
		u->result = err == ENOTTY ? -EOPNOTSUPP : -err;
	} else {
		u->result = (int64_t)u->buflen;
	}
}

void engine_do_other(struct io_unit *u)
{
	switch (u->ddir) {
	case DDIR_SYNC:
	case DDIR_DATASYNC:
		engine_do_sync(u);
		break;
	case DDIR_TRIM:
		engine_do_trim(u);
		break;
	default:
		u->result = -EINVAL;
		break;
	}
}

/* Where the descriptor's position is; known=false after an error or seek
 * failure so the next I/O seeks again. */
struct posfile {
	uint64_t pos;
	bool known;
};

int engine_posfile_open(struct engine_ctx *ctx, struct job_file *f)
{
	int ret = engine_file_open(ctx, f);

	if (ret)
		return ret;
	/* a fresh descriptor is at 0, unless O_APPEND moves each write */
	struct posfile *p = xcalloc(1, sizeof(*p));
	p->known = !(f->open_flags & O_APPEND);
	f->engine_data = p;
	return 0;
}

int engine_posfile_close(struct engine_ctx *ctx, struct job_file *f)
{
	free(f->engine_data);
	f->engine_data = NULL;
	return engine_file_close(ctx, f);
}

int engine_posfile_seek(struct io_unit *u)
{
	struct posfile *p = u->file->engine_data;

	if (p && p->known && p->pos == u->offset)
		return 0;
	if (lseek(u->file->fd, (off_t)u->offset, SEEK_SET) < 0) {
		int err = errno;
		if (p)
			p->known = false;
		return -err;
	}
	if (p) {
		p->pos = u->offset;
		p->known = true;
	}
	return 0;
}

int engine_posfile_prep(struct engine_ctx *ctx, struct io_unit *u)
{
	if (u->ddir == DDIR_READ || u->ddir == DDIR_WRITE)
		(void)engine_posfile_seek(u);
	return 0;
}

void engine_posfile_done(struct io_unit *u)
{
	struct posfile *p = u->file->engine_data;

	if (!p)
		return;
	if (u->result >= 0 && p->known)
		p->pos += (uint64_t)u->result;
	else
		p->known = false;
}
