/*
 * The "e4defrag" engine, fio's: defragmentation activity on ext4. Each
 * write unit moves its range of the job's file onto the blocks of a donor
 * file with EXT4_IOC_MOVE_EXT (what e4defrag(8) does), in units of the
 * donor's block size; the file's data stay what they were, its layout
 * changes. donorname= is required: the donor is that name in the job's
 * directory= (NAME.N for clone N), created through the guarded open with
 * O_EXCL (a file that exists is refused, never truncated, unless this run
 * created it for an earlier job: fio's examples share one donor) and
 * removed after the job with unlink=1, only while the name still has it. With
 * inplace=0 the donor is allocated once over the job's range when the file
 * opens; with inplace=1 each unit allocates its range of the donor first
 * and empties the donor after. Reads and trims fail with EINVAL, as in fio
 * (the engine only rearranges); sync and datasync go to the shared helpers.
 * A move of no block (beyond the file's size) is EINVAL too, as in fio;
 * ioctl errors are the unit's (EOPNOTSUPP off ext4).
 */
#include "engines/engine.h"
#include "engines/fileio_int.h"
#include "sys/dev/guardopen.h"
#include "util/array.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef EXT4_IOC_MOVE_EXT
struct move_extent {
	__u32 reserved;    /* zero */
	__u32 donor_fd;
	__u64 orig_start;  /* in blocks */
	__u64 donor_start; /* in blocks */
	__u64 len;         /* blocks to move */
	__u64 moved_len;   /* blocks moved, set by the kernel */
};
#define EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct move_extent)
#endif

#define DONOR_MAX 1024

struct e4defrag_opts {
	char donorname[DONOR_MAX];
	unsigned inplace;          /* 0 or 1 */
};

static int opt_donorname(void *target, const char *val, struct opt_ctx *c)
{
	struct e4defrag_opts *o = target;
	if (strlen(val) >= DONOR_MAX)
		return opt_failf(c, -ENAMETOOLONG, "value of option '%s' is longer than %d bytes",
				 c->key, DONOR_MAX - 1);
	strcpy(o->donorname, val);
	return 0;
}

#define O(field) offsetof(struct e4defrag_opts, field)
static const struct option_def e4defrag_options[] = {
	{ .name = "donorname", .type = OPT_FUNC, .parse = opt_donorname, .type_text = "str",
	  .help = "the donor file, in the job's directory (required)" },
	{ .name = "inplace", .type = OPT_UINT, .off = O(inplace), .width = sizeof(unsigned), .max = 1,
	  .type_text = "int", .def = "0",
	  .help = "1: allocate the donor's range before each move and empty it after" },
};
#undef O

struct e4defrag_priv {
	int donor_fd;      /* -1 until opened */
	unsigned bsz;      /* the donor's st_blksize */
	bool allocated;    /* inplace=0: the donor's range is allocated */
	struct stat donor_st;                /* the donor as created */
	char donor_path[2 * DONOR_MAX + 2];
};

static int e4defrag_init(struct engine_ctx *ctx)
{
	const struct e4defrag_opts *o = engine_options(ctx);
	struct e4defrag_priv *p = ctx->priv;
	p->donor_fd = -1;
	if (!o->donorname[0])
		return error("the e4defrag engine needs donorname= (the donor file), as fio's");
	char path[2 * DONOR_MAX + 2], why[2560];
	if (ctx->params.directory && ctx->params.directory[0])
		snprintf(path, sizeof(path), "%s/%s", ctx->params.directory, o->donorname);
	else
		snprintf(path, sizeof(path), "%s", o->donorname);
	if (ctx->params.clone) {
		/* a clone (numjobs) has a donor of its own: NAME.N */
		size_t n = strlen(path);
		snprintf(path + n, sizeof(path) - n, ".%u", ctx->params.clone);
	}
	struct devguard_use use = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE,
				    .allow = ctx->params.guard, .claims = ctx->params.claims };
	struct devguard_fd g;
	/* the donor is iobench's: created here (O_EXCL) or by an earlier job
	 * of the run, never one that exists otherwise (its blocks would be
	 * swapped with the job's file and then emptied); removed after with
	 * unlink=1 */
	int rc = devguard_create_shared(ctx->params.claims, path, O_WRONLY, 0644, &use, &g, why,
					sizeof(why));
	if (rc == -EEXIST)
		return error("e4defrag: refusing the donor file: %s (remove it, name another, or set "
			     "unlink=1 so the donor goes after the job)", why);
	if (rc < 0)
		return why[0] ? error("e4defrag: refusing to create the donor file '%s': %s", path, why)
			      : error_errno(rc, "e4defrag: cannot create the donor file '%s'", path);
	if (g.claimed)
		devguard_unclaim(ctx->params.claims, g.claimed);
	struct stat st;
	if (fstat(g.fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(g.fd);
		return error("e4defrag: the donor '%s' is not a regular file", path);
	}
	p->donor_fd = g.fd;
	p->donor_st = st;
	snprintf(p->donor_path, sizeof(p->donor_path), "%s", path);
	p->bsz = st.st_blksize ? (unsigned)st.st_blksize : 4096;
	return 0;
}

static int e4defrag_open(struct engine_ctx *ctx, struct job_file *f)
{
	const struct e4defrag_opts *o = engine_options(ctx);
	struct e4defrag_priv *p = ctx->priv;
	int rc = engine_file_open(ctx, f);
	if (rc < 0 || o->inplace || p->allocated)
		return rc;
	/* as fio: the donor over the job's range, once */
	if (fallocate(p->donor_fd, 0, (off_t)f->io_offset, (off_t)f->io_size) < 0) {
		rc = -errno;
		engine_file_close(ctx, f);
		return error_errno(rc, "e4defrag: cannot allocate %llu bytes of the donor file",
				   (unsigned long long)f->io_size);
	}
	p->allocated = true;
	return 0;
}

static int e4defrag_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	const struct e4defrag_opts *o = engine_options(ctx);
	struct e4defrag_priv *p = ctx->priv;
	if (u->ddir == DDIR_READ || u->ddir == DDIR_TRIM) {
		u->result = -EINVAL;
		return ENGINE_Q_COMPLETED;
	}
	if (engine_handle_other(u))
		return ENGINE_Q_COMPLETED;
	if (o->inplace && fallocate(p->donor_fd, 0, (off_t)u->offset, (off_t)u->buflen) < 0) {
		u->result = -errno;
		return ENGINE_Q_COMPLETED;
	}
	struct move_extent me = { .donor_fd = (__u32)p->donor_fd };
	me.orig_start = u->offset / p->bsz;
	me.donor_start = me.orig_start;
	me.len = (u->offset + u->buflen + p->bsz - 1) / p->bsz - me.orig_start;
	int rc = ioctl(u->file->fd, EXT4_IOC_MOVE_EXT, &me);
	int err = rc < 0 ? errno : 0;
	uint64_t moved = me.moved_len * p->bsz;
	if (moved > u->buflen)
		moved = u->buflen;
	u->result = err ? -err : moved ? (int64_t)moved : -EINVAL;
	if (o->inplace && ftruncate(p->donor_fd, 0) < 0 && u->result >= 0)
		u->result = -errno;
	return ENGINE_Q_COMPLETED;
}

static void e4defrag_cleanup(struct engine_ctx *ctx)
{
	struct e4defrag_priv *p = ctx->priv;
	if (p->donor_fd < 0)
		return;
	close(p->donor_fd);
	p->donor_fd = -1;
	char why[2560];
	/* a donor shared by jobs of the run: the first to end removes it */
	int rc = ctx->params.unlink ? devguard_unlink_created(AT_FDCWD, p->donor_path, &p->donor_st,
							     why, sizeof(why)) : 0;
	if (rc < 0 && rc != -ENOENT)
		error("e4defrag: the donor file: %s", why);
}

const struct engine_ops engine_e4defrag = {
	.name = "e4defrag",
	.summary = "fio's: each write moves its range onto a donor file's blocks (EXT4_IOC_MOVE_EXT)",
	.flags = ENGINE_SYNC,
	.priv_size = sizeof(struct e4defrag_priv),
	.options = e4defrag_options,
	.nr_options = ARRAY_SIZE(e4defrag_options),
	.options_size = sizeof(struct e4defrag_opts),
	.init = e4defrag_init,
	.open_file = e4defrag_open,
	.close_file = engine_file_close,
	.queue = e4defrag_queue,
	.cleanup = e4defrag_cleanup,
};
