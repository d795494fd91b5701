/*
 * The "mmap" engine, fio's: reads copy from a shared mapping of the file into
 * the unit's buffer, writes copy into the mapping. A file is mapped through a
 * window of up to MMAP_WINDOW bytes that moves when an I/O falls outside it,
 * so a large file or device never needs one huge mapping. Reads stop at the
 * end of the file (a short count, then 0) rather than fault; writes past it
 * grow the file first. sync/datasync units msync the window and then
 * fsync/fdatasync the descriptor, which also covers pages written through
 * earlier windows. Trim punches a hole, like the other file engines.
 *
 * thp=1 (the engine's one option) asks for transparent huge pages on each
 * window (madvise MADV_HUGEPAGE), as fio does; unlike fio 3.33, which then
 * maps the file private (MAP_PRIVATE: its writes never reach the file), the
 * mapping stays shared.
 *
 * direct=1 cannot bypass the page cache through a mapping. fio accepts it
 * anyway and only msyncs each write; iobench does the same (so fio job files
 * run unchanged) and says so once.
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"
#include "sys/sysmem.h"
#include "util/array.h"
#include "util/error.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MMAP_WINDOW (256ULL << 20)

struct mmap_opts {
	bool thp; /* madvise(MADV_HUGEPAGE) on each window */
};
static const struct option_def mmap_options[] = {
	{ .name = "thp", .type = OPT_BOOL, .off = offsetof(struct mmap_opts, thp), .type_text = "bool",
	  .def = "0", .is_flag = true,
	  .help = "ask for transparent huge pages on the mapping (madvise MADV_HUGEPAGE)" },
};

struct mmap_file {
	char *base;        /* mapping of [map_off, map_off + map_len), or NULL */
	uint64_t map_off, map_len;
	uint64_t size;     /* file size as far as this engine knows */
	int prot;
	bool sync_writes;  /* msync after each write: O_SYNC or direct=1 */
	bool is_reg;
};

static int mmap_init(struct engine_ctx *ctx)
{
	if (ctx->params.direct)
		warning("mmap: direct=1 cannot bypass the page cache through a mapping; as fio does, "
			"writes are msync'ed one by one and reads may come from the page cache");
	return 0;
}

static int mmap_open(struct engine_ctx *ctx, struct job_file *f)
{
	int flags = f->open_flags & ~O_DIRECT;
	struct mmap_file *m;
	struct stat st;
	off_t end;
	int fd;

	/* a writable shared mapping needs a descriptor open for reading too */
	if ((flags & O_ACCMODE) == O_WRONLY)
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	do
		fd = open(f->path, flags | O_CLOEXEC, 0644);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || (end = lseek(fd, 0, SEEK_END)) < 0) {
		int err = errno;
		close(fd);
		return -err;
	}
	m = xcalloc(1, sizeof(*m));
	m->size = (uint64_t)end;
	m->is_reg = S_ISREG(st.st_mode);
	m->prot = (flags & O_ACCMODE) == O_RDONLY ? PROT_READ : PROT_READ | PROT_WRITE;
	m->sync_writes = (f->open_flags & (O_DIRECT | O_SYNC | O_DSYNC)) != 0;
	f->fd = fd;
	f->engine_data = m;
	return 0;
}

static void unmap_window(struct mmap_file *m)
{
	if (m->base)
		munmap(m->base, m->map_len);
	m->base = NULL;
	m->map_len = 0;
}

static int mmap_close(struct engine_ctx *ctx, struct job_file *f)
{
	struct mmap_file *m = f->engine_data;

	if (m) {
		unmap_window(m);
		free(m);
		f->engine_data = NULL;
	}
	return engine_file_close(ctx, f);
}

/* Make [off, off + len) addressable through the window. */
static int map_window(struct engine_ctx *ctx, struct job_file *f, uint64_t off, uint64_t len)
{
	struct mmap_file *m = f->engine_data;
	uint64_t page = sys_pagesize();
	uint64_t start = off - off % MMAP_WINDOW, end = start + MMAP_WINDOW;
	uint64_t need = (off + len + page - 1) / page * page;
	uint64_t fend = (m->size + page - 1) / page * page;
	void *p;

	if (m->base && off >= m->map_off && off + len <= m->map_off + m->map_len)
		return 0;
	if (need > end) { /* straddles a window boundary */
		start = off - off % page;
		end = need;
	}
	if (end > fend) /* do not map far past the end of the file */
		end = fend > need ? fend : need;
	unmap_window(m);
	p = mmap(NULL, end - start, m->prot, MAP_SHARED, f->fd, (off_t)start);
	if (p == MAP_FAILED)
		return -errno;
	m->base = p;
	m->map_off = start;
	m->map_len = end - start;
	const struct mmap_opts *o = engine_options(ctx);
	if (o->thp && madvise(p, m->map_len, MADV_HUGEPAGE) < 0) {
		int err = errno;
		unmap_window(m);
		return error_errno(-err, "mmap: thp=1: madvise(MADV_HUGEPAGE) of '%s' failed (the "
				   "kernel needs transparent huge pages, CONFIG_TRANSPARENT_HUGEPAGE)",
				   f->path);
	}
	if (ctx->params.fadvise)
		madvise(p, m->map_len, ctx->params.random ? MADV_RANDOM : MADV_SEQUENTIAL);
	return 0;
}

/* Writes past the end grow the file, so the mapping never faults there. */
static int grow(struct job_file *f, struct mmap_file *m, uint64_t need)
{
	if (need <= m->size)
		return 0;
	if (!m->is_reg)
		return -ENOSPC;
	if (ftruncate(f->fd, (off_t)need) < 0)
		return -errno;
	m->size = need;
	return 0;
}

static void do_rw(struct engine_ctx *ctx, struct io_unit *u)
{
	struct job_file *f = u->file;
	struct mmap_file *m = f->engine_data;
	uint64_t len = u->buflen;
	int ret;

	if (u->offset > INT64_MAX - len) {
		u->result = -EINVAL;
		return;
	}
	if (u->ddir == DDIR_READ) {
		if (u->offset >= m->size) {
			u->result = 0;
			return;
		}
		if (len > m->size - u->offset)
			len = m->size - u->offset;
	} else if ((ret = grow(f, m, u->offset + len)) < 0) {
		u->result = ret;
		return;
	}
	if (!len) {
		u->result = 0;
		return;
	}
	if ((ret = map_window(ctx, f, u->offset, len)) < 0) {
		u->result = ret;
		return;
	}
	char *at = m->base + (u->offset - m->map_off);
	if (u->ddir == DDIR_READ) {
		memcpy(u->buf, at, len);
	} else {
		memcpy(at, u->buf, len);
		if (m->sync_writes) {
			uint64_t page = sys_pagesize();
			char *from = m->base + ((u->offset - m->map_off) / page * page);
			if (msync(from, (size_t)(at + len - from), MS_SYNC) < 0) {
				u->result = -errno;
				return;
			}
		}
	}
	u->result = (int64_t)len;
}

static int mmap_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct mmap_file *m = u->file->engine_data;

	if (!m) {
		u->result = -EBADF;
		return ENGINE_Q_COMPLETED;
	}
	switch (u->ddir) {
	case DDIR_READ:
	case DDIR_WRITE:
		do_rw(ctx, u);
		break;
	case DDIR_SYNC:
	case DDIR_DATASYNC:
		if (m->base && msync(m->base, m->map_len, MS_SYNC) < 0) {
			u->result = -errno;
			break;
		}
		engine_do_sync(u);
		break;
	default:
		engine_do_other(u);
		break;
	}
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.summary = "copies to and from a shared mapping of the file, moved in 256 MiB windows",
	.flags = ENGINE_SYNC,
	.options = mmap_options,
	.nr_options = ARRAY_SIZE(mmap_options),
	.options_size = sizeof(struct mmap_opts),
	.init = mmap_init,
	.open_file = mmap_open,
	.close_file = mmap_close,
	.queue = mmap_queue,
};
