/*
 * fio's metadata engines on files: "filecreate" creates each file (an
 * open(2) with O_CREAT, through the guarded open, then closed), "filestat"
 * stats each (stat, lstat or statx: its stat_type option) and "filedelete"
 * unlinks each. As fio's, the operation is the first I/O of each file and
 * its time is that I/O's clat; the other I/Os a file's size makes stand in
 * for the rest of it (bytes and I/Os are counted, no time). The runner does
 * not open the files (ENGINE_META); filecreate's are not laid out first
 * (ENGINE_NO_LAYOUT), filestat's and filedelete's are (filesize=).
 * filecreate and filedelete change the filesystem, so read-only mode
 * refuses them, and filedelete deletes only regular files and symlinks.
 */
#include "engines/engine.h"
#include "util/array.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file's engine_data points at once its operation was done. */
static const char op_done;

static bool first_unit(struct io_unit *u)
{
	struct job_file *f = u->file;
	u->result = (int64_t)u->buflen;
	u->meta_op = f->engine_data != &op_done;
	if (u->meta_op)
		f->engine_data = (void *)&op_done;
	return u->meta_op;
}

static int fileops_open(struct engine_ctx *ctx, struct job_file *f)
{
	(void)ctx;
	f->engine_data = NULL; /* each open does the operation once */
	return 0;
}

static int fileops_close(struct engine_ctx *ctx, struct job_file *f)
{
	(void)ctx;
	f->engine_data = NULL;
	return 0;
}

/* The engines that change the filesystem, under read-only mode. */
static int refuse_readonly(const struct engine_ctx *ctx, const char *does)
{
	const struct devguard_allow *g = ctx->params.guard;
	if (g && g->readonly_by)
		return error("the %s engine %s, but read-only mode (%s) forbids every write",
			     ctx->ops->name, does, g->readonly_by);
	return 0;
}

/* ---- filecreate ---- */

static int filecreate_init(struct engine_ctx *ctx)
{
	return refuse_readonly(ctx, "creates files") ? -EROFS : 0;
}

static int filecreate_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	if (!first_unit(u))
		return ENGINE_Q_COMPLETED;
	struct devguard_use use = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE,
				    .allow = ctx->params.guard, .claims = ctx->params.claims };
	struct devguard_fd g;
	char why[2560];
	int rc = devguard_open(u->file->path, O_RDWR | O_CREAT, 0600, &use, &g, why, sizeof(why));
	if (rc < 0) {
		if (why[0])
			error("filecreate: refusing to create '%s': %s", u->file->path, why);
		u->result = rc;
		return ENGINE_Q_COMPLETED;
	}
	close(g.fd);
	if (g.claimed)
		devguard_unclaim(ctx->params.claims, g.claimed);
	return ENGINE_Q_COMPLETED;
}

/* ---- filestat ---- */

enum stat_type { STAT_STAT, STAT_LSTAT, STAT_STATX };

struct filestat_opts {
	unsigned stat_type; /* enum stat_type */
};

static const struct opt_posval stat_type_words[] = {
	{ .word = "stat", .value = STAT_STAT }, { .word = "lstat", .value = STAT_LSTAT },
	{ .word = "statx", .value = STAT_STATX }, { .word = NULL },
};

static const struct option_def filestat_options[] = {
	{ .name = "stat_type", .type = OPT_WORD, .off = offsetof(struct filestat_opts, stat_type),
	  .width = sizeof(unsigned), .posval = stat_type_words, .word_case = true,
	  .word_what = "stat type", .word_use = "one of", .word_commas = true,
	  .type_text = "str", .def = "stat",
	  .help = "the system call each file's I/O times, to measure lookup/getattr" },
};

static int filestat_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const struct filestat_opts *o = engine_options(ctx);
	const char *path = u->file->path;
	struct stat st;
	struct statx stx;
	int r;

	if (!first_unit(u))
		return ENGINE_Q_COMPLETED;
	switch (o->stat_type) {
	case STAT_LSTAT:
		r = lstat(path, &st);
		break;
	case STAT_STATX:
		r = statx(AT_FDCWD, path, 0, STATX_ALL, &stx);
		break;
	default:
		r = stat(path, &st);
		break;
	}
	if (r < 0)
		u->result = -errno;
	return ENGINE_Q_COMPLETED;
}

/* ---- filedelete ---- */

static int filedelete_init(struct engine_ctx *ctx)
{
	return refuse_readonly(ctx, "deletes files") ? -EROFS : 0;
}

static int filedelete_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const char *path = u->file->path;
	struct stat st;

	(void)ctx;
	if (!first_unit(u))
		return ENGINE_Q_COMPLETED;
	if (lstat(path, &st) < 0) {
		u->result = -errno;
		return ENGINE_Q_COMPLETED;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		error("filedelete: refusing to delete '%s': it is not a regular file", path);
		u->result = -EPERM;
		return ENGINE_Q_COMPLETED;
	}
	if (unlink(path) < 0)
		u->result = -errno;
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_filecreate = {
	.name = "filecreate",
	.summary = "fio's: each file's first I/O creates it (open with O_CREAT); its time is the clat",
	.flags = ENGINE_SYNC | ENGINE_META | ENGINE_NO_LAYOUT,
	.init = filecreate_init,
	.open_file = fileops_open,
	.close_file = fileops_close,
	.queue = filecreate_queue,
};

const struct engine_ops engine_filestat = {
	.name = "filestat",
	.summary = "fio's: each file's first I/O stats it (stat_type); its time is the clat",
	.flags = ENGINE_SYNC | ENGINE_META,
	.options = filestat_options,
	.nr_options = ARRAY_SIZE(filestat_options),
	.options_size = sizeof(struct filestat_opts),
	.open_file = fileops_open,
	.close_file = fileops_close,
	.queue = filestat_queue,
};

const struct engine_ops engine_filedelete = {
	.name = "filedelete",
	.summary = "fio's: each file's first I/O unlinks it; its time is the clat",
	.flags = ENGINE_SYNC | ENGINE_META,
	.init = filedelete_init,
	.open_file = fileops_open,
	.close_file = fileops_close,
	.queue = filedelete_queue,
};
