/*
 * The metadata workload's run (meta/meta.h): one rank's iteration,
 * phase by phase, each framed by the sync hook as mdtest frames it, and
 * the clean-up after a failure. Creates and removes walk the tree depth
 * first (a directory's items, then each child's subtree), stat and read go
 * by item number, as mdtest 4.1 does; every call on an item names it from
 * its directory's descriptor (mdtest names it by its whole path: the same
 * inode lookups but the first ones, which are the test directory's).
 */
#include "meta/meta.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/guardopen.h"
#include "util/array.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

#define META_PATH 4096

enum item_op { OP_FILE_CREATE, OP_FILE_REMOVE, OP_DIR_CREATE, OP_DIR_REMOVE,
	       OP_FILE_STAT, OP_FILE_READ, OP_DIR_STAT };

struct meta_ctx {
	const struct meta_spec *s;
	const struct meta_tree *t;
	int rank;
	const struct meta_sync *sync;
	struct meta_result *res;
	char testdir[META_PATH];  /* DIR/test-dir.<i>-0 */
	int tfd;                  /* open on it, or -1 */
	char root[64], base[64];  /* the tree's root and base names */
	unsigned char *buf;
	size_t buflen;
	bool tolerant;            /* cleaning up: ENOENT is fine, nothing is recorded */
};

/* The first error of this rank, with what failed. */
static int set_msg(struct meta_result *res, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int set_msg(struct meta_result *res, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
	va_end(ap);
	res->error = err;
	return err;
}

static int fail(struct meta_ctx *c, int err, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(struct meta_ctx *c, int err, const char *rel, const char *fmt, ...)
{
	if (c->tolerant || c->res->error)
		return err;
	char what[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return set_msg(c->res, err, "%s '%s%s%s': %s", what, c->testdir,
		       rel && *rel ? "/" : "", rel ? rel : "", strerror(-err));
}

static int sync_all(struct meta_ctx *c, int rc)
{
	if (c->sync && c->sync->fn)
		return c->sync->fn(c->sync->arg, rc);
	return rc;
}

/* Directory n's path below the test directory. */
static int dir_rel(struct meta_ctx *c, uint64_t n, char *buf, size_t len)
{
	char sub[META_PATH];
	int w = meta_dir_path(c->t, c->base, n, sub, sizeof(sub));
	if (w < 0 || snprintf(buf, len, "%s%s%s", c->root, w ? "/" : "", sub) >= (int)len)
		return fail(c, -ENAMETOOLONG, c->root, "name directory %llu of", (unsigned long long)n);
	return 0;
}

static int open_dir(struct meta_ctx *c, uint64_t n, int *fd, char *rel, size_t len)
{
	int rc = dir_rel(c, n, rel, len);
	if (rc < 0)
		return rc;
	*fd = openat(c->tfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0)
		return fail(c, -errno, rel, "open directory");
	return 0;
}

static int create_file(struct meta_ctx *c, int dfd, const char *name, const char *rel)
{
	const struct meta_spec *s = c->s;
	/* the guarded open: O_EXCL in a directory of the run's own tree */
	struct devguard_use u = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE,
				  .allow = &s->guard, .dir_checked = true };
	struct devguard_fd g;
	char why[256];
	int rc = devguard_openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0644, &u, &g, why,
				 sizeof(why));
	if (rc < 0)
		return fail(c, rc, rel, "create");
	for (uint64_t left = s->write_bytes; left && rc == 0;) {
		size_t len = left < c->buflen ? (size_t)left : c->buflen;
		ssize_t w = write(g.fd, c->buf, len);
		if (w <= 0)
			rc = fail(c, w < 0 ? -errno : -ENOSPC, rel, "write");
		else
			left -= (uint64_t)w;
	}
	if (rc == 0 && s->sync_file && fsync(g.fd) < 0)
		rc = fail(c, -errno, rel, "fsync");
	if (close(g.fd) < 0 && rc == 0)
		rc = fail(c, -errno, rel, "close");
	return rc;
}

static int read_file(struct meta_ctx *c, int dfd, const char *name, const char *rel)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(c, -errno, rel, "open");
	int rc = 0;
	uint64_t got = 0, want = c->s->read_bytes;
	while (got < want && rc == 0) {
		size_t len = want - got < c->buflen ? (size_t)(want - got) : c->buflen;
		ssize_t r = read(fd, c->buf, len);
		if (r < 0)
			rc = fail(c, -errno, rel, "read");
		else if (r == 0)
			rc = fail(c, -EIO, rel, "read -e %llu bytes: end of file after %llu of",
				  (unsigned long long)want, (unsigned long long)got);
		else
			got += (uint64_t)r;
	}
	if (close(fd) < 0 && rc == 0)
		rc = fail(c, -errno, rel, "close");
	return rc;
}

static int item(struct meta_ctx *c, enum item_op op, int dfd, const char *dirrel, uint64_t i)
{
	char name[96], rel[META_PATH + 96];
	bool dir = op == OP_DIR_CREATE || op == OP_DIR_REMOVE || op == OP_DIR_STAT;
	meta_item_name(c->t, dir ? "dir" : "file", c->rank, i, name, sizeof(name));
	snprintf(rel, sizeof(rel), "%s/%s", dirrel, name);
	struct stat st;
	int rc = 0;
	switch (op) {
	case OP_FILE_CREATE:
		return create_file(c, dfd, name, rel);
	case OP_FILE_READ:
		return read_file(c, dfd, name, rel);
	case OP_FILE_STAT:
	case OP_DIR_STAT:
		if (fstatat(dfd, name, &st, 0) < 0)
			rc = fail(c, -errno, rel, "stat");
		break;
	case OP_FILE_REMOVE:
		if (unlinkat(dfd, name, 0) < 0 && !(c->tolerant && errno == ENOENT))
			rc = fail(c, -errno, rel, "unlink");
		break;
	case OP_DIR_CREATE:
		if (mkdirat(dfd, name, 0755) < 0)
			rc = fail(c, -errno, rel, "mkdir");
		break;
	case OP_DIR_REMOVE:
		if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && !(c->tolerant && errno == ENOENT))
			rc = fail(c, -errno, rel, "rmdir");
		break;
	}
	return rc;
}

/* Depth first from directory n (at depth d): its items, then each child's
 * subtree, in mdtest's order. */
static int walk(struct meta_ctx *c, enum item_op op, uint64_t n, unsigned d,
		struct meta_phase_fig *f)
{
	uint64_t first;
	int rc = 0;
	if (meta_dir_items(c->t, n, &first)) {
		char rel[META_PATH];
		int dfd;
		rc = open_dir(c, n, &dfd, rel, sizeof(rel));
		if (rc < 0)
			return c->tolerant ? 0 : rc;
		for (uint64_t i = first; i < first + c->t->per_dir && rc == 0; i++) {
			rc = item(c, op, dfd, rel, i);
			f->items += rc == 0;
			if (c->tolerant)
				rc = 0;
		}
		close(dfd);
	}
	if (d < c->t->depth)
		for (uint64_t k = 1; k <= c->t->branch && rc == 0; k++)
			rc = walk(c, op, n * c->t->branch + k, d + 1, f);
	return rc;
}

/* Items 0, 1, ... in order, keeping their directory open while it lasts. */
static int by_number(struct meta_ctx *c, enum item_op op, struct meta_phase_fig *f)
{
	char rel[META_PATH];
	uint64_t cur = UINT64_MAX;
	int dfd = -1, rc = 0;
	for (uint64_t i = 0; i < c->t->items && rc == 0; i++) {
		uint64_t n = meta_item_dir(c->t, i);
		if (n != cur) {
			if (dfd >= 0)
				close(dfd);
			dfd = -1;
			if ((rc = open_dir(c, n, &dfd, rel, sizeof(rel))) < 0)
				break;
			cur = n;
		}
		rc = item(c, op, dfd, rel, i);
		f->items += rc == 0;
	}
	if (dfd >= 0)
		close(dfd);
	return rc;
}

/* The tree's directories, parents first (create) or children first. */
static int tree(struct meta_ctx *c, bool create, uint64_t n, unsigned d, struct meta_phase_fig *f)
{
	char rel[META_PATH];
	int rc = dir_rel(c, n, rel, sizeof(rel));
	if (rc < 0)
		return rc;
	if (create) {
		if (mkdirat(c->tfd, rel, 0755) < 0)
			return fail(c, -errno, rel, "mkdir");
		f->items++;
	}
	if (d < c->t->depth)
		for (uint64_t k = 1; k <= c->t->branch && rc == 0; k++)
			rc = tree(c, create, n * c->t->branch + k, d + 1, f);
	if (!create && rc == 0) {
		if (unlinkat(c->tfd, rel, AT_REMOVEDIR) < 0) {
			if (!c->tolerant)
				return fail(c, -errno, rel, "rmdir");
		} else {
			f->items++;
		}
	}
	return c->tolerant ? 0 : rc;
}

/* Does this rank make (and remove) a tree? Each rank its own with -u, else rank 0. */
static bool tree_owner(const struct meta_ctx *c)
{
	return c->s->unique_dir || c->rank == 0;
}

static int body(struct meta_ctx *c, enum meta_phase p, struct meta_phase_fig *f)
{
	switch (p) {
	case META_TREE_CREATE:
		return tree_owner(c) ? tree(c, true, 0, 0, f) : 0;
	case META_TREE_REMOVE:
		return tree_owner(c) ? tree(c, false, 0, 0, f) : 0;
	case META_DIR_CREATE:
		return walk(c, OP_DIR_CREATE, 0, 0, f);
	case META_DIR_STAT:
		return by_number(c, OP_DIR_STAT, f);
	case META_DIR_REMOVE:
		return walk(c, OP_DIR_REMOVE, 0, 0, f);
	case META_FILE_CREATE:
		return walk(c, OP_FILE_CREATE, 0, 0, f);
	case META_FILE_STAT:
		return by_number(c, OP_FILE_STAT, f);
	case META_FILE_READ:
		return by_number(c, OP_FILE_READ, f);
	case META_FILE_REMOVE:
		return walk(c, OP_FILE_REMOVE, 0, 0, f);
	default:
		return -EINVAL;
	}
}

/* One phase, framed as mdtest frames it: barrier, start, the items, end
 * before the barrier, barrier (agreeing on failure), end. */
static int phase(struct meta_ctx *c, enum meta_phase p)
{
	struct meta_phase_fig *f = &c->res->ph[p];
	int rc = sync_all(c, 0);
	if (rc)
		return rc;
	f->ran = true;
	f->start_ns = now_ns();
	int own = body(c, p, f);
	f->end_bb_ns = now_ns();
	rc = sync_all(c, own);
	f->end_ns = now_ns();
	return rc;
}

/* The parent directory: read-only mode refuses, it must be a directory,
 * and never /dev's own filesystem. */
static int check_dir(struct meta_ctx *c)
{
	const struct meta_spec *s = c->s;
	struct stat st;
	if (s->guard.readonly_by) {
		return set_msg(c->res, -EROFS, "%s: refusing to write: read-only mode (set by %s)",
			       s->dir, s->guard.readonly_by);
	}
	int err = stat(s->dir, &st) < 0 ? -errno : S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	if (err) {
		return set_msg(c->res, err, "%s: cannot use as the test directory's parent: %s",
			       s->dir, strerror(-err));
	}
	char why[512];
	int rc = devguard_may_create(AT_FDCWD, c->testdir, why, sizeof(why));
	if (rc < 0) {
		return set_msg(c->res, rc == -ENOENT ? -EPERM : rc, "%s: %s", s->dir,
			       rc == -ENOENT ? "is /dev's own filesystem, where iobench creates no files; "
					       "give a directory on a mounted filesystem" : why);
	}
	return 0;
}

/* After a failure: every rank removes its own items, then the owners the
 * trees, then rank 0 the test directory if it made it; nothing here is an
 * error. */
static void clean_up(struct meta_ctx *c, bool made)
{
	struct meta_phase_fig scratch = { 0 };
	c->tolerant = true;
	if (c->tfd >= 0) {
		if (c->s->files)
			walk(c, OP_FILE_REMOVE, 0, 0, &scratch);
		if (c->s->dirs)
			walk(c, OP_DIR_REMOVE, 0, 0, &scratch);
	}
	sync_all(c, 0);
	if (c->tfd >= 0 && tree_owner(c))
		tree(c, false, 0, 0, &scratch);
	sync_all(c, 0);
	if (made)
		unlinkat(AT_FDCWD, c->testdir, AT_REMOVEDIR);
}

int meta_run(const struct meta_spec *s, const struct meta_tree *t, int rank, int nranks,
	     unsigned iteration, const struct meta_sync *sync, struct meta_result *res)
{
	memset(res, 0, sizeof(*res));
	struct meta_ctx c = { .s = s, .t = t, .rank = rank, .sync = sync, .res = res, .tfd = -1 };
	(void)nranks;
	size_t dl = strlen(s->dir);
	while (dl > 1 && s->dir[dl - 1] == '/')
		dl--;
	if (snprintf(c.testdir, sizeof(c.testdir), "%.*s/test-dir.%u-0", (int)dl, s->dir,
		     iteration) >= (int)sizeof(c.testdir)) {
		set_msg(res, -ENAMETOOLONG, "%s: path too long", s->dir);
	}
	meta_tree_names(s, rank, c.root, sizeof(c.root), c.base, sizeof(c.base));
	bool create = s->ops & META_OP_CREATE;
	bool made = false;
	int own = res->error ? res->error : check_dir(&c);
	if (own == 0 && create && rank == 0) {
		if (mkdir(c.testdir, 0755) < 0)
			own = fail(&c, -errno, NULL, errno == EEXIST ? "make the test directory (left by an "
				   "earlier run? remove it)" : "make the test directory");
		else
			made = true;
	}
	int rc = sync_all(&c, own);
	if (rc == 0) {
		c.tfd = open(c.testdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		own = c.tfd < 0 ? fail(&c, -errno, NULL, create ? "open the test directory"
				       : "open the test directory (made by a run with -C)") : 0;
		rc = sync_all(&c, own);
	}
	if (rc == 0) {
		c.buflen = s->write_bytes > s->read_bytes ? s->write_bytes : s->read_bytes;
		if (c.buflen > 1 << 20)
			c.buflen = 1 << 20;
		if (c.buflen) {
			c.buf = xmalloc(c.buflen);
			memset(c.buf, 'a' + rank % 26, c.buflen);
		}
	}
	static const struct {
		enum meta_phase p;
		bool files;
		unsigned op;
	} order[] = {
		{ META_DIR_CREATE, false, META_OP_CREATE },  { META_DIR_STAT, false, META_OP_STAT },
		{ META_DIR_REMOVE, false, META_OP_REMOVE },  { META_FILE_CREATE, true, META_OP_CREATE },
		{ META_FILE_STAT, true, META_OP_STAT },      { META_FILE_READ, true, META_OP_READ },
		{ META_FILE_REMOVE, true, META_OP_REMOVE },
	};
	if (rc == 0 && create)
		rc = phase(&c, META_TREE_CREATE);
	for (size_t k = 0; k < ARRAY_SIZE(order) && rc == 0; k++)
		if ((order[k].files ? s->files : s->dirs) && (s->ops & order[k].op))
			rc = phase(&c, order[k].p);
	if (rc == 0 && (s->ops & META_OP_REMOVE)) {
		rc = phase(&c, META_TREE_REMOVE);
		if (rc == 0) {
			close(c.tfd);
			c.tfd = -1;
			own = 0;
			if (rank == 0 && rmdir(c.testdir) < 0)
				own = fail(&c, -errno, NULL, "remove the test directory");
			rc = sync_all(&c, own);
		}
	}
	if (rc && (create || made))
		clean_up(&c, made);
	if (c.tfd >= 0)
		close(c.tfd);
	free(c.buf);
	res->agreed = rc;
	return rc;
}
