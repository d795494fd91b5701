/*
 * Opening and closing a job's files once job_files_plan() and
 * job_files_layout() (files.c) have made them: the flags the spec implies,
 * every open that writes through the guarded open (sys/dev/guardopen.h) on
 * the descriptor the plan checked, the cached pages dropped as fio drops
 * them, openfiles='s one-at-a-time open and close and the reopen of a closed
 * file for verify and trim, and unlinking at the end (files.c releases the
 * list).
 */
#include "workload/job/job.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/devguard.h"
#include "sys/dev/guardopen.h"
#include "sys/dev/devres.h"
#include "util/assert.h"
#include "util/checked.h"
#include "util/error.h"
#include "util/strutil.h"
#include "util/xmalloc.h"
#include "workload/files/files.h"
#include "workload/logs/iolog.h"

/* Drop the files' cached pages, as fio does at open and at every new pass
 * (with direct=1 too), so a second pass over a small file or device is not
 * read from memory: POSIX_FADV_DONTNEED for a file, BLKFLSBUF for a block
 * device (which writes its dirty buffers back first), or DONTNEED where
 * BLKFLSBUF is refused (it needs CAP_SYS_ADMIN). */
void job_files_invalidate(struct job *j)
{
	if (!j->spec->invalidate)
		return;
	for (unsigned i = 0; i < j->nr_files; i++) {
		struct job_file *f = &j->files[i];
		if (f->fd < 0)
			continue;
		if (f->is_bdev && ioctl(f->fd, BLKFLSBUF, 0) == 0)
			continue;
		posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	}
}

int job_file_open_one(struct job *j, unsigned i)
{
	const struct job_spec *s = j->spec;
	char why[2560];
	struct job_file *f = &j->files[i];
	struct job_file_plan *p = &j->plans[i];
	int rc = j->eng.ops->open_file(&j->eng, f);
	if (rc == -EINVAL && s->direct)
		return error_errno(rc, "job '%s': cannot open '%s' with O_DIRECT (direct=1): "
				   "the filesystem does not support direct I/O", s->name, f->path);
	if (rc < 0 && p->what && rc == -ELOOP && (f->open_flags & O_NOFOLLOW)) {
		/* the name became a symlink since it was planned: say to what */
		struct devguard_use u = { .kind = DEVGUARD_DATA, .what = p->what,
					  .allow = &j->guard, .seen = &p->seen };
		struct devguard_fd g;
		if (devguard_open(f->path, O_RDONLY, 0, &u, &g, why, sizeof(why)) == 0)
			close(g.fd);
		else
			return error("job '%s': refusing to %s '%s': %s", s->name,
				     devguard_verb(p->what), f->path, why);
	}
	if (rc < 0 && (rc == -EACCES || rc == -EPERM) && (s->uid >= 0 || s->gid >= 0))
		return error_errno(rc, "job '%s': cannot open '%s' as uid %lld, gid %lld (uid=/gid=)", s->name,
				   f->path, (long long)(s->uid >= 0 ? s->uid : (long long)geteuid()),
				   (long long)(s->gid >= 0 ? s->gid : (long long)getegid()));
	if (rc < 0)
		return error_errno(rc, "job '%s': cannot open '%s'", s->name, f->path);
	if (j->is_open && !j->is_open[i]) {
		j->is_open[i] = true;
		j->nr_open++;
	}
	if (f->fd < 0)
		return 0;
	if (p->what) {
		/* judge the very descriptor the job is about to use */
		struct devguard_use u = { .kind = DEVGUARD_DATA, .what = p->what,
					  .allow = &j->guard, .seen = &p->seen,
					  .claims = j->claims };
		struct devguard_fd g;
		rc = devguard_adopt(f->fd, f->path, &u, &g, why, sizeof(why));
		if (rc < 0) {
			job_file_close_one(j, i);
			return error("job '%s': refusing to %s '%s': %s", s->name,
				     devguard_verb(p->what), f->path, why);
		}
		p->claimed = g.claimed;
	}
	if (s->write_hint) {
		uint64_t hint = s->write_hint;
		if (fcntl(f->fd, F_SET_RW_HINT, &hint) < 0)
			return error_errno(-errno, "job '%s': cannot set write_hint on '%s' "
					   "(fcntl F_SET_RW_HINT)", s->name, f->path);
	}
	/* Without the hint, readahead on each random miss pulls in
	 * neighbouring blocks and later "random" reads hit the cache. */
	if (s->fadvise_hint)
		posix_fadvise(f->fd, 0, 0, spec_is_rand(s) ? POSIX_FADV_RANDOM
							   : POSIX_FADV_SEQUENTIAL);
	/* as fio at each open (openfiles= opens files as the I/O reaches them) */
	if (s->invalidate) {
		if (!(f->is_bdev && ioctl(f->fd, BLKFLSBUF, 0) == 0))
			posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	if (j->iolog_f)
		iolog_write_file(j, i, RP_OPEN);
	return 0;
}

int job_files_open(struct job *j)
{
	int rc = j->spec->write_iolog ? iolog_write_open(j) : 0;
	if (rc < 0)
		return rc;
	/* openfiles=N: the first N now, the others as the I/O reaches them
	 * (iogen.c), as fio */
	unsigned n = job_files_limited(j) ? j->spec->openfiles : j->nr_files;
	if (!j->is_open)
		j->is_open = xcalloc(j->nr_files ? j->nr_files : 1, sizeof(*j->is_open));
	for (unsigned i = 0; i < n; i++) {
		rc = job_file_open_one(j, i);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void job_file_close_one(struct job *j, unsigned i)
{
	struct job_file *f = &j->files[i];
	bool was_open = f->fd >= 0;
	if (j->is_open && j->is_open[i]) {
		j->is_open[i] = false;
		j->nr_open--;
	}
	if (f->fd >= 0 || (j->eng.ops && (j->eng.ops->flags & (ENGINE_NO_FILE | ENGINE_META))))
		j->eng.ops->close_file(&j->eng, f);
	f->fd = -1;
	if (j->plans && j->plans[i].claimed) {
		devguard_unclaim(j->claims, j->plans[i].claimed);
		j->plans[i].claimed = 0;
	}
	if (was_open && j->iolog_f)
		iolog_write_file(j, i, RP_CLOSE);
}

int job_file_reopen(struct job *j, const struct job_file *f)
{
	unsigned i = (unsigned)(f - j->files);
	IOB_ASSERT(i < j->nr_files);
	if (!j->is_open || j->is_open[i])
		return 0;
	if (!j->reopened)
		j->reopened = xcalloc(j->nr_files, sizeof(*j->reopened));
	int rc = job_file_open_one(j, i);
	if (rc == 0)
		j->reopened[i] = true;
	return rc;
}

void job_files_close_reopened(struct job *j)
{
	for (unsigned i = 0; j->reopened && i < j->nr_files; i++)
		if (j->reopened[i]) {
			j->reopened[i] = false;
			if (j->is_open[i])
				job_file_close_one(j, i);
		}
}

int job_files_open_as(struct job *j, const bool *open)
{
	for (unsigned i = 0; j->is_open && i < j->nr_files; i++)
		if (j->is_open[i] && !open[i])
			job_file_close_one(j, i);
	for (unsigned i = 0; j->is_open && i < j->nr_files; i++)
		if (!j->is_open[i] && open[i]) {
			int rc = job_file_open_one(j, i);
			if (rc < 0)
				return rc;
		}
	return 0;
}

void job_files_close(struct job *j)
{
	for (unsigned i = 0; i < j->nr_files; i++)
		job_file_close_one(j, i);
	if (j->iolog_f)
		iolog_write_close(j);
}

void job_files_unlink(struct job *j)
{
	if (!j->eng.ops || (j->eng.ops->flags & ENGINE_NO_FILE))
		return;
	for (unsigned i = 0; i < j->nr_files; i++) {
		struct job_file *f = &j->files[i];
		struct stat st;
		if (f->path && !f->is_bdev && stat(f->path, &st) == 0 && S_ISREG(st.st_mode))
			unlink(f->path);
	}
}

void job_file_remove_made(struct job_file *f)
{
	char why[512];
	int rc = f->path ? devguard_unlink_created(AT_FDCWD, f->path, &f->made_st, why, sizeof(why)) : 0;
	if (rc < 0 && rc != -ENOENT)
		warning("%s", why);
}
