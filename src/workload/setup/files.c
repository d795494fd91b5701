/*
 * A job's files: their sizes and I/O regions (their names are
 * filenames.c's), laying them out before the run ("Laying
 * out IO file"), then replanning between loops and pre_read (opening,
 * closing and unlinking are fileopen.c's). Setup is two steps: job_files_plan() decides everything and
 * writes nothing (names, the device guard on every file the job writes or
 * trims, sizes, whether a file may be created, what a verify pass expects
 * to find), and job_files_layout() then creates and extends files, so that
 * the run can make every check of every job before the first byte is
 * written. Every open that writes, the layout's and the engine's at the
 * start of the job, goes through the guarded open (sys/dev/guardopen.h), which
 * insists on what the plan saw: the descriptor the job uses is the one that
 * was checked. Read-only mode (--readonly, readonly=1) refuses writes
 * altogether.
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
#include <sys/statvfs.h>
#include <unistd.h>

#include "sys/dev/devguard.h"
#include "sys/dev/guardopen.h"
#include "sys/dev/devres.h"
#include "util/assert.h"
#include "util/checked.h"
#include "util/error.h"
#include "util/strutil.h"
#include "util/xmalloc.h"
#include "workload/replay/replay.h"
#include "workload/files/files.h"
#include "workload/setup/setup.h"

#define LAYOUT_CHUNK (1024 * 1024)

static int probe_bdev_size(struct job_file *f)
{
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(-errno, "cannot open block device '%s'", f->path);
	int rc = devres_bdev_size(fd, &f->real_size);
	close(fd);
	if (rc < 0)
		return error_errno(rc, "cannot read the size of block device '%s'", f->path);
	return 0;
}

/* Write [from, to) of f with the job's data pattern; ENOSPC and I/O errors
 * name the file, the offset and how much was written. With `full`, a full
 * filesystem (ENOSPC, EDQUOT) ends the writes instead, and *full is where
 * they ended. */
static int layout_fill(struct job *j, struct job_file *f, int fd, uint64_t from, uint64_t to,
		       uint64_t *full, size_t chunk, bool fsync_now)
{
	if (!chunk)
		chunk = LAYOUT_CHUNK;
	/* a small file's buffer is its size: 10,000 files of 4 KiB made
	 * 10,000 random MiB before */
	if (to > from && to - from < chunk)
		chunk = (size_t)(to - from);
	char *buf = xmalloc(chunk);
	struct rng r;
	rng_seed(&r, from ^ to ^ 0x5bd1e995);
	for (size_t i = 0; i + 8 <= chunk; i += 8) {
		uint64_t v = rng_next(&r);
		memcpy(buf + i, &v, 8);
	}
	if (j->spec->zero_buffers)
		memset(buf, 0, chunk);
	uint64_t pos = from;
	int rc = 0;
	while (pos < to && !*j->stop) {
		size_t n = to - pos < chunk ? (size_t)(to - pos) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)pos);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && full && (errno == ENOSPC || errno == EDQUOT))
			break;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			error_errno(rc, "laying out '%s' failed at offset %llu after %llu bytes",
				    f->path, (unsigned long long)pos,
				    (unsigned long long)(pos - from));
			break;
		}
		pos += (uint64_t)w;
	}
	free(buf);
	if (full)
		*full = pos;
	if (!rc && *j->stop)
		rc = -EINTR;
	if (!rc && fsync_now && j->spec->create_fsync && fsync(fd) < 0)
		rc = error_errno(-errno, "fsync of '%s' after laying it out failed", f->path);
	return rc;
}

/* create_fsync of many files: each laid-out file's descriptor waits here
 * for its fsync, done a batch at a time, so one journal commit covers a
 * batch of files instead of each file waiting for its own (10,000 small
 * files waited 41 s for their fsyncs one by one). Every file is synced
 * before the job's I/O starts, as fio's fsync after each layout. */
#define SYNC_BATCH 64
struct sync_batch {
	struct job *j;
	int fd[SYNC_BATCH];
	unsigned file[SYNC_BATCH];
	unsigned n;
};

static int sync_flush(struct sync_batch *b)
{
	int rc = 0;
	/* start every file's writeback first (its blocks allocated): the
	 * first fsync's commit then covers them all, and the later ones
	 * find their files written */
	for (unsigned i = 0; i < b->n; i++)
		sync_file_range(b->fd[i], 0, 0, SYNC_FILE_RANGE_WRITE);
	for (unsigned i = 0; i < b->n; i++) {
		if (!rc && fsync(b->fd[i]) < 0)
			rc = error_errno(-errno, "fsync of '%s' after laying it out failed",
					 b->j->files[b->file[i]].path);
		close(b->fd[i]);
	}
	b->n = 0;
	return rc;
}

/* Hand fd of file i to the batch (it closes it). */
static int sync_add(struct sync_batch *b, unsigned i, int fd)
{
	b->fd[b->n] = fd;
	b->file[b->n++] = i;
	return b->n == SYNC_BATCH ? sync_flush(b) : 0;
}

/* A write-only job's file, as fio makes it: created, preallocated if the
 * filesystem can, and otherwise left as it is; only fallocate=truncate
 * extends it with ftruncate. On a filesystem without fallocate (ext3)
 * fio's file stays empty until the writes grow it, and that is not the same
 * work as writing into a sparse file of full size: an O_DIRECT write into a
 * hole below i_size of an ext3 file is done as a buffered write. */
static int layout_alloc(const struct job_spec *s, struct job_file *f, int fd, uint64_t end)
{
	int rc = 0;
	switch (s->fallocate) {
	case FALLOC_NATIVE:
		rc = fallocate(fd, 0, 0, (off_t)end) < 0 ? -errno : 0;
		break;
	case FALLOC_KEEP:
		rc = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)end) < 0 ? -errno : 0;
		break;
	case FALLOC_POSIX:
		rc = -posix_fallocate(fd, 0, (off_t)end);
		break;
	case FALLOC_TRUNCATE:
		if (ftruncate(fd, (off_t)end) < 0)
			return error_errno(-errno, "cannot extend '%s' to %llu bytes", f->path,
					   (unsigned long long)end);
		break;
	default:
		break;
	}
	if (rc == -EOPNOTSUPP || rc == -ENOSYS)
		rc = 0; /* the filesystem cannot preallocate: as fio, go on without */
	if (rc == -ENOSPC) {
		/* as fio: the writes themselves will meet the full disk, and
		 * report how far they got */
		warning("cannot preallocate %llu bytes for '%s': %s; continuing without preallocation",
			(unsigned long long)end, f->path, strerror(-rc));
		rc = 0;
	}
	if (rc)
		return error_errno(rc, "cannot allocate %llu bytes for '%s'",
				   (unsigned long long)end, f->path);
	return 0;
}

/* Ask the device guard before doing `what` to f; the refusal names the job. */
static int guard_file(const struct job *j, const struct job_file *f, unsigned what,
		      const char *doing, const struct devguard_allow *g)
{
	char why[2560];
	int rc = devguard_check(f->path, what, g, why, sizeof(why));
	if (rc < 0)
		return error("job '%s': refusing to %s '%s': %s", j->spec->name,
			     doing ? doing : devguard_verb(what), f->path, why);
	return 0;
}

/* The shortest prefix of path's directory that does not exist (malloc'ed),
 * or NULL when the whole directory is there. */
static char *first_missing_dir(const char *path)
{
	char *d = xstrdup(path);
	struct stat st;
	for (char *p = strchr(d + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (stat(d, &st) < 0 && errno == ENOENT)
			return d;
		*p = '/';
	}
	free(d);
	return NULL;
}

/* As fio: the missing directories of a file's name are made (mode 0700). */
static int make_parent_dirs(const struct job *j, const char *path)
{
	char *d = xstrdup(path);
	int rc = 0;
	for (char *p = strchr(d + 1, '/'); p && !rc; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(d, 0700) < 0 && errno != EEXIST)
			rc = error_errno(-errno, "job '%s': cannot create directory '%s' for '%s'",
					 j->spec->name, d, path);
		*p = '/';
	}
	free(d);
	return rc;
}

static uint64_t min_bs_all(const struct job_spec *s);

/* Create or extend f as planned, through the guarded open: what is at the
 * path must still be what the plan saw. */
static int layout(struct job *j, unsigned fi, struct sync_batch *sb, FILE *notes)
{
	struct job_file *f = &j->files[fi];
	struct job_file_plan *p = &j->plans[fi];
	const struct job_spec *s = j->spec;
	bool need_data = (s->rw & RW_READ) || s->overwrite;
	struct devguard_use u = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE, .allow = &j->guard,
				  .seen = &p->seen, .claims = j->claims };
	struct devguard_fd g;
	char why[2560];
	int rc = p->layout_from || !f->path[0] ? 0 : make_parent_dirs(j, f->path);
	if (rc < 0)
		return rc;
	rc = devguard_open(f->path, O_WRONLY | O_CREAT, 0644, &u, &g, why, sizeof(why));
	if (rc < 0)
		return error("job '%s': refusing to lay out '%s': %s", s->name, f->path, why);
	uint64_t size = g.created ? 0 : (uint64_t)g.st.st_size;
	p->seen.type = S_IFREG; /* what the guarded open found: insisted on from now */
	if (!g.created && size >= p->layout_end && !p->fills) {
		/* an earlier job of the run laid it out already */
		close(g.fd);
		f->real_size = size;
		return 0;
	}
	/* as fio: a write-only job's file too short for it is made again from
	 * nothing, so the writes allocate as they would in a new file (fio
	 * unlinks and recreates it; emptying the descriptor the guard judged
	 * does the same without a second lookup of the name) */
	if (!g.created && !need_data && (s->rw & RW_WRITE) && size && !s->file_append) {
		if (ftruncate(g.fd, 0) < 0) {
			rc = error_errno(-errno, "job '%s': cannot empty '%s' to lay it out again",
					 s->name, f->path);
			close(g.fd);
			return rc;
		}
		size = 0;
	}
	f->laid_out_here = g.created && fstat(g.fd, &f->made_st) == 0;
	if (p->fills && !(s->rw & RW_WRITE)) {
		/* as fio: a job that only reads fills the filesystem with its
		 * file first, then reads all of it. fio's size is "all of
		 * it", which no file has: it makes the file again from
		 * nothing, in writes of the largest write block (a full ext4
		 * takes the last partial one: the size fio's file gets). */
		if (notes)
			fprintf(notes, "%s: Laying out IO file (1 file / %lluMiB)\n", s->name,
				(unsigned long long)(UINT64_MAX >> 20));
		uint64_t end = 0, bs = s->max_bs[DDIR_WRITE];
		for (int d = 0; !bs && d < DDIR_RWDIR_CNT; d++)
			bs = s->max_bs[d];
		rc = size && ftruncate(g.fd, 0) < 0
			     ? error_errno(-errno, "job '%s': cannot empty '%s' to lay it out again",
					   s->name, f->path)
			     : layout_fill(j, f, g.fd, 0, UINT64_MAX, &end, bs, true);
		if (!rc && fsync(g.fd) < 0)
			rc = error_errno(-errno, "job '%s': fsync of '%s' after filling the "
					 "filesystem with it failed", s->name, f->path);
		close(g.fd);
		if (rc < 0)
			return rc;
		f->real_size = end;
		uint64_t have = end > f->io_offset ? end - f->io_offset : 0;
		bs = min_bs_all(s);
		f->io_size = have >= bs ? have - have % bs : 0;
		return 0;
	}
	if (p->fills) {
		close(g.fd);
		f->real_size = size;
		return 0;
	}
	if (notes && need_data && p->layout_end)
		fprintf(notes, "%s: Laying out IO file (1 file / %lluMiB)\n", s->name,
			(unsigned long long)(p->layout_end >> 20));
	/* a replay's missing file is only created (layout_end 0): its log's writes fill it */
	bool filled = p->layout_end && need_data;
	rc = !p->layout_end ? 0 : need_data ? layout_fill(j, f, g.fd, size, p->layout_end, NULL, 0,
							  false)
					    : layout_alloc(s, f, g.fd, p->layout_end);
	if (!rc && filled && s->create_fsync)
		rc = sync_add(sb, fi, g.fd);
	else
		close(g.fd);
	if (rc < 0) {
		if (f->laid_out_here)
			job_file_remove_made(f);
		f->laid_out_here = false;
		return rc;
	}
	f->real_size = p->layout_end;
	return 0;
}

/* The smallest block of any direction: as fio, file sizes picked from a
 * range and I/O regions are whole multiples of it, so no I/O is ever
 * shorter than bs (a short tail would fail with direct=1). */
static uint64_t min_bs_all(const struct job_spec *s)
{
	uint64_t m = 0;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		if (s->min_bs[d] && (!m || s->min_bs[d] < m))
			m = s->min_bs[d];
	return m ? m : 1;
}

static uint64_t pick_filesize(const struct job_spec *s, unsigned nfiles, unsigned i)
{
	if (s->filesize_max) {
		if (s->filesize_max <= s->filesize_min)
			return s->filesize_max;
		struct rng r;
		rng_seed(&r, (s->randseed_set ? s->randseed : 0x243f6a88) + i + 1000u * s->jobnum);
		uint64_t v = s->filesize_min + rng_below(&r, s->filesize_max - s->filesize_min + 1);
		uint64_t bs = min_bs_all(s);
		return v - v % bs >= s->filesize_min ? v - v % bs : v;
	}
	return s->size ? s->size / nfiles : 0;
}

/* What the job does to its files that the guard must allow: verify_only
 * replaces the writes (and with them the whole loop) by reads of what they
 * wrote; trim_percentage trims what a verify job wrote. */
static unsigned job_what(const struct job_spec *s)
{
	if (s->verify_only && (s->rw & RW_WRITE))
		return 0;
	bool trims = (s->rw & RW_TRIM) || (s->trim_percentage && s->verify != VERIFY_NONE);
	return (s->rw & RW_WRITE ? DEVGUARD_WRITE : 0) | (trims ? DEVGUARD_TRIM : 0);
}

/* A pass that checks what an earlier write pass wrote and writes nothing:
 * verify= on a job that neither writes nor trims, or verify_only. It never
 * creates, extends or lays out the file it verifies. */
static bool verify_pass_only(const struct job_spec *s)
{
	return s->verify != VERIFY_NONE && s->verify != VERIFY_NULL &&
	       (s->verify_only || !(s->rw & (RW_WRITE | RW_TRIM)));
}

/* An earlier job of the run that lays out path: the file will be there, at
 * the largest size they plan (0: none does). */
static uint64_t planned_before(const char *path, const struct job *prev, size_t nprev)
{
	uint64_t end = 0;
	for (size_t k = 0; k < nprev; k++)
		for (unsigned i = 0; prev[k].plans && i < prev[k].nr_files; i++)
			if (prev[k].plans[i].layout && prev[k].plans[i].layout_end > end &&
			    !strcmp(prev[k].files[i].path, path))
				end = prev[k].plans[i].layout_end;
			else if (prev[k].plans[i].fills && !strcmp(prev[k].files[i].path, path) &&
				 prev[k].files[i].io_offset + prev[k].files[i].io_size > end)
				end = prev[k].files[i].io_offset + prev[k].files[i].io_size;
	return end;
}

/* The layout f needs to reach end bytes: checked now, done by layout(). */
static int plan_layout(struct job *j, struct job_file *f, struct job_file_plan *p, bool exists,
		       uint64_t end, const struct devguard_allow *g)
{
	const struct job_spec *s = j->spec;
	char why[1024];
	int rc = guard_file(j, f, DEVGUARD_WRITE, "lay out", g);
	if (rc)
		return rc;
	if (!exists && !s->allow_file_create)
		return error("job '%s': '%s' does not exist and allow_file_create=0", s->name, f->path);
	char *missing = exists ? NULL : first_missing_dir(f->path);
	/* a missing directory is made where its parent is: judged there */
	rc = exists ? 0 : devguard_may_create(AT_FDCWD, missing ? missing : f->path, why, sizeof(why));
	free(missing);
	if (rc < 0)
		return why[0] ? error("job '%s': %s", s->name, why)
			      : error_errno(rc, "job '%s': cannot create '%s'", s->name, f->path);
	bool fills = (s->rw & RW_READ) || s->overwrite;
	bool allocates = s->fallocate == FALLOC_NATIVE || s->fallocate == FALLOC_POSIX ||
			 s->fallocate == FALLOC_KEEP;
	p->layout = true;
	p->layout_from = exists ? f->real_size : 0;
	p->layout_end = end;
	/* a write-only job's too-short file is emptied first (layout()) */
	uint64_t kept = fills || !(s->rw & RW_WRITE) || s->file_append ? p->layout_from : 0;
	p->layout_need = fills || allocates ? end - kept : 0;
	return 0;
}

/* The size of the filesystem that holds path (or would hold it: its
 * directory's when it does not exist). */
static int fs_bytes(const char *path, uint64_t *out)
{
	struct statvfs v;
	int rc = statvfs(path, &v);
	if (rc < 0 && errno == ENOENT) {
		char *d = xstrdup(path);
		char *slash = strrchr(d, '/');
		if (slash == d)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		rc = statvfs(slash ? d : ".", &v);
		free(d);
	}
	if (rc < 0)
		return -errno;
	/* the whole filesystem: an upper bound that ENOSPC always comes
	 * before (root writes into the reserved blocks too) */
	*out = (uint64_t)v.f_blocks * v.f_frsize;
	return 0;
}

static int plan_one(struct job *j, struct job_file *f, struct job_file_plan *p, unsigned i,
		    const struct devguard_allow *g, const struct job *prev, size_t nprev)
{
	const struct job_spec *s = j->spec;
	bool nofile = j->eng.ops->flags & ENGINE_NO_FILE;
	unsigned what = job_what(s);
	struct stat st, lst;

	p->what = nofile ? 0 : what;
	if (!nofile && what) {
		int rc = guard_file(j, f, what, NULL, g);
		if (rc)
			return rc;
	}
	bool exists = !nofile && stat(f->path, &st) == 0;
	uint64_t later = nofile ? 0 : planned_before(f->path, prev, nprev);
	if (!nofile && lstat(f->path, &lst) == 0 && S_ISLNK(lst.st_mode))
		p->seen.symlink = true;
	if (exists && S_ISBLK(st.st_mode)) {
		f->is_bdev = true;
		p->seen.type = S_IFBLK;
		p->seen.rdev = st.st_rdev;
		int rc = probe_bdev_size(f);
		if (rc)
			return rc;
	} else if (exists && S_ISDIR(st.st_mode)) {
		return error("job '%s': '%s' is a directory, not a file (use directory= for that)",
			     s->name, f->path);
	} else if (exists) {
		f->real_size = (uint64_t)st.st_size;
		p->seen.type = st.st_mode & S_IFMT;
		p->seen.rdev = S_ISCHR(st.st_mode) ? st.st_rdev : 0;
	}
	if (later && (!exists || (S_ISREG(st.st_mode) && f->real_size < later))) {
		/* as if that job had laid it out already (it will have) */
		exists = true;
		st.st_mode = S_IFREG;
		p->seen.type = S_IFREG;
		f->real_size = later;
	}
	if (!nofile && !exists && verify_pass_only(s))
		return error("job '%s': '%s' does not exist: a verify pass checks what a write pass "
			     "wrote, and never creates the file it verifies", s->name, f->path);

	uint64_t want = pick_filesize(s, j->nr_files, i);
	/* as fio, a size= of the job's own wins over fill_device's */
	bool fill = s->fill_device && !s->size && !s->size_pct && !nofile && !f->is_bdev &&
		    !(exists && S_ISCHR(st.st_mode));
	if (fill) {
		/* as fio: a size larger than the free space, and the writes
		 * go on until ENOSPC ends them */
		int rc = fs_bytes(f->path, &want);
		if (rc < 0)
			return error_errno(rc, "job '%s': fill_device: cannot read the size of "
					   "the filesystem of '%s'", s->name, f->path);
	}
	if (s->size_pct) {
		if (!exists)
			return error("job '%s': size=%u%% needs '%s' to exist", s->name, s->size_pct, f->path);
		want = mul_div(f->real_size, s->size_pct, 100);
	}
	uint64_t off = s->offset, inc, end;
	if (s->file_append && exists && S_ISREG(st.st_mode))
		off = f->real_size; /* as fio: instead of offset=, on regular files only */
	if (s->offset_pct && !(s->file_append && exists && S_ISREG(st.st_mode))) {
		/* fio rounds a percentage offset up to offset_align (or the
		 * smallest block size) */
		off = mul_div(f->real_size, s->offset_pct, 100);
		uint64_t al = s->offset_align;
		if (!al)
			for (int d = 0; d < DDIR_RWDIR_CNT; d++)
				if (s->min_bs[d] && (!al || s->min_bs[d] < al))
					al = s->min_bs[d];
		if (al > 1 && off % al)
			off += al - off % al;
	}
	if (!ck_mul(s->offset_increment, s->jobnum, &inc) || !ck_region_end(off, inc, &off))
		return error("job '%s': offset %llu plus clone %u times offset_increment=%llu is "
			     "beyond the largest file offset (%llu)", s->name,
			     (unsigned long long)off, s->jobnum,
			     (unsigned long long)s->offset_increment, (unsigned long long)OFFSET_MAX);
	/* as fio: filesize= is the file's size, so a region from offset= ends
	 * there */
	if (s->filesize_max && !s->size_pct && !fill && off && off < want)
		want -= off;
	if (!want && (j->eng.ops->flags & ENGINE_NO_IO))
		want = UINT64_C(1) << 50; /* no I/O (cpuio, exec): until the runtime, as fio */
	if (!want) {
		if (!exists || f->real_size <= off)
			return error("job '%s': no size for '%s': give size= or use an existing file",
				     s->name, f->path);
		want = f->real_size - off;
	}
	if (!ck_region_end(off, want, &end))
		return error("job '%s': %llu bytes at offset %llu of '%s' end beyond the largest "
			     "file offset (%llu)", s->name, (unsigned long long)want,
			     (unsigned long long)off, f->path, (unsigned long long)OFFSET_MAX);
	if (f->is_bdev && end > f->real_size)
		return error("job '%s': region %llu+%llu is beyond the end of '%s' (%llu bytes)",
			     s->name, (unsigned long long)off, (unsigned long long)want, f->path,
			     (unsigned long long)f->real_size);
	f->io_offset = off;
	uint64_t bs = min_bs_all(s);
	f->io_size = want >= bs ? want - want % bs : want;
	if (nofile || f->is_bdev)
		return 0;
	if (exists && S_ISCHR(st.st_mode))
		return 0;
	if (exists && f->real_size < end && verify_pass_only(s))
		return error("job '%s': '%s' is %llu bytes, the write pass wrote %llu (offset %llu + "
			     "size %llu): it was truncated or replaced since, and a verify pass never "
			     "extends or lays out the file it verifies", s->name, f->path,
			     (unsigned long long)f->real_size, (unsigned long long)end,
			     (unsigned long long)off, (unsigned long long)want);
	if (j->eng.ops->flags & ENGINE_NO_LAYOUT)
		return 0; /* the engine makes the file itself (filecreate) */
	if (fill) {
		/* the writes make the file: nothing preallocated (that would
		 * fill the filesystem before the first write) */
		int rc = guard_file(j, f, DEVGUARD_WRITE, "fill", g);
		if (rc)
			return rc;
		if (!exists && !s->allow_file_create)
			return error("job '%s': '%s' does not exist and allow_file_create=0", s->name, f->path);
		/* layout() creates it, or empties it as fio recreates a
		 * write job's file, and writes nothing */
		p->fills = true;
		p->layout = true;
		p->layout_from = exists ? f->real_size : 0;
		p->layout_end = 0;
		p->layout_need = 0;
		return 0;
	}
	if (!exists || f->real_size < end)
		return plan_layout(j, f, p, exists, end, g);
	return 0;
}

/* Read-only mode refuses a job that would write, trim or delete anything,
 * whatever its files are (as fio's --readonly, before any I/O). */
static int check_readonly(const struct job_spec *s, const char *by)
{
	if (!by)
		return 0;
	if (s->rw & (RW_WRITE | RW_TRIM))
		return error("job '%s' writes or trims, but read-only mode (%s) forbids every write "
			     "and trim", s->name, by);
	if (s->unlink)
		return error("job '%s' deletes its files (unlink=1), but read-only mode (%s) forbids "
			     "every write", s->name, by);
	return 0;
}

int job_files_plan(struct job *j, const struct devguard_allow *guard, const struct job *prev,
		   size_t nprev)
{
	const struct job_spec *s = j->spec;
	if (guard)
		j->guard = *guard;
	if (s->readonly && !j->guard.readonly_by)
		j->guard.readonly_by = "readonly=1";
	if (s->read_iolog)
		return replay_plan(j, &j->guard); /* the log's files, and only what it does to them */
	int rc = check_readonly(s, j->guard.readonly_by);
	if (rc)
		return rc;
	unsigned n;
	bool bad = false;
	char **paths = job_file_paths(s, &n, &bad, j->stop);
	if (!paths && j->stop && *j->stop)
		return error("job '%s': stopped by a signal while naming its files (none created)",
			     s->name);
	if (bad)
		return -EINVAL; /* opendir=: said why */
	if (paths) {
		j->files = calloc(n, sizeof(*j->files));
		j->plans = calloc(n, sizeof(*j->plans));
	}
	if (!paths || !j->files || !j->plans) {
		free(j->files);
		free(j->plans);
		j->files = NULL;
		j->plans = NULL;
		if (paths)
			str_list_free(paths);
		return error_errno(-ENOMEM, "job '%s': cannot allocate the state of %u files "
				   "(nrfiles=%u)", s->name, n, n);
	}
	j->nr_files = n;
	for (unsigned i = 0; i < n; i++) {
		j->files[i].path = paths[i];
		j->files[i].fd = -1;
	}
	free(paths);
	uint64_t total = 0;
	for (unsigned i = 0; i < n; i++) {
		if (j->stop && *j->stop)
			return error("job '%s': stopped by a signal while checking its files (%u of "
				     "%u checked, none created)", s->name, i, n);
		rc = plan_one(j, &j->files[i], &j->plans[i], i, &j->guard, prev, nprev);
		if (rc < 0)
			return rc;
		total += j->files[i].io_size;
	}
	/* io_size in whole blocks too: fio rounds it up */
	uint64_t bs = min_bs_all(s);
	j->bytes_total = s->io_size ? (s->io_size + bs - 1) / bs * bs : total;
	int flags = job_what(s) ? O_RDWR : O_RDONLY;
	if (s->direct)
		flags |= O_DIRECT;
	if (s->sync_io)
		flags |= O_SYNC;
	for (unsigned i = 0; i < n; i++) {
		const struct job_file_plan *p = &j->plans[i];
		/* a regular file the job writes is never reached through a
		 * symlink that was not there when it was planned */
		bool nofollow = p->what && (!p->seen.type || p->seen.type == S_IFREG) && !p->seen.symlink;
		j->files[i].open_flags = flags | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0);
	}
	return 0;
}

/* The files of j this run created so far. */
static unsigned created(const struct job *j)
{
	unsigned n = 0;
	for (unsigned i = 0; i < j->nr_files; i++)
		n += j->files[i].laid_out_here;
	return n;
}

int job_files_layout(struct job *j, FILE *notes)
{
	bool filled = false;
	struct sync_batch sb = { .j = j };
	for (unsigned i = 0; i < j->nr_files; i++) {
		if (!j->plans[i].layout)
			continue;
		bool stopped = j->stop && *j->stop;
		int rc = stopped ? -EINTR : layout(j, i, &sb, notes);
		if (rc == -EINTR && j->stop && *j->stop) {
			sync_flush(&sb);
			return error("job '%s': stopped by a signal while laying out its files: "
				     "%u of %u created%s", j->spec->name, created(j), j->nr_files,
				     j->spec->unlink ? " (removed again: unlink=1)" : "");
		}
		if (rc < 0) {
			sync_flush(&sb);
			return rc;
		}
		filled |= j->plans[i].fills && !(j->spec->rw & RW_WRITE);
	}
	int rc = sync_flush(&sb);
	if (rc < 0)
		return rc;
	if (!filled)
		return 0;
	/* fill_device on a read job: the first file took what the filesystem
	 * had, the later ones nothing, and the job reads what was taken, as
	 * fio (which leaves the empty files alone) */
	while (j->nr_files > 1 && !j->files[j->nr_files - 1].io_size) {
		struct job_file *f = &j->files[--j->nr_files];
		if (j->spec->unlink && f->laid_out_here)
			job_file_remove_made(f);
		free(f->path);
		f->path = NULL;
	}
	if (!j->spec->io_size) {
		j->bytes_total = 0;
		for (unsigned i = 0; i < j->nr_files; i++)
			j->bytes_total += j->files[i].io_size;
	}
	return 0;
}

bool job_files_nothing_to_read(const struct job *j)
{
	return j->nr_files == 1 && j->plans && j->plans[0].fills && !(j->spec->rw & RW_WRITE) &&
	       !j->files[0].io_size;
}

/* The plan undone: the replay, the names and the arrays. */
void job_files_release(struct job *j)
{
	replay_free(j);
	for (unsigned i = 0; i < j->nr_files; i++)
		free(j->files[i].path);
	free(j->files);
	free(j->plans);
	free(j->is_open);
	free(j->reopened);
	j->files = NULL;
	j->plans = NULL;
	j->is_open = NULL;
	j->reopened = NULL;
	j->nr_open = 0;
	j->nr_files = 0;
}

int job_files_replan(struct job *j)
{
	struct devguard_allow g = j->guard;
	struct job_file *old = j->files;
	struct job_file_plan *oldp = j->plans;
	unsigned n = j->nr_files;
	for (unsigned i = 0; i < n; i++)
		free(old[i].path);
	j->files = NULL;
	j->plans = NULL;
	j->nr_files = 0;
	int rc = job_files_plan(j, &g, NULL, 0);
	if (j->files && j->plans && j->nr_files == n) {
		/* the same names: keep the arrays, so what points into them
		 * (verify's backlog, the generators) stays valid */
		memcpy(old, j->files, n * sizeof(*old));
		memcpy(oldp, j->plans, n * sizeof(*oldp));
		free(j->files);
		free(j->plans);
		j->files = old;
		j->plans = oldp;
	} else {
		free(old);
		free(oldp);
		free(j->is_open);
		free(j->reopened);
		j->is_open = NULL;
		j->reopened = NULL;
		j->nr_open = 0;
	}
	return rc < 0 ? rc : job_files_layout(j, j->notes);
}

int job_files_pre_read(struct job *j)
{
	char *buf = xmalloc(LAYOUT_CHUNK);
	int rc = 0;
	for (unsigned i = 0; i < j->nr_files && !rc && !*j->stop; i++) {
		const struct job_file *f = &j->files[i];
		/* read only: a descriptor of its own, buffered, so the pages stay */
		int fd = open(f->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			rc = error_errno(-errno, "job '%s': pre_read: cannot open '%s'", j->spec->name, f->path);
			break;
		}
		for (uint64_t pos = f->io_offset; pos < f->io_offset + f->io_size && !*j->stop;) {
			uint64_t left = f->io_offset + f->io_size - pos;
			ssize_t n = pread(fd, buf, left < LAYOUT_CHUNK ? (size_t)left : LAYOUT_CHUNK, (off_t)pos);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				rc = error_errno(-errno, "job '%s': pre_read of '%s' failed at offset %llu",
						 j->spec->name, f->path, (unsigned long long)pos);
				break;
			}
			if (n == 0)
				break; /* the file ends before its region: nothing more to cache */
			pos += (uint64_t)n;
		}
		close(fd);
	}
	free(buf);
	return rc;
}
