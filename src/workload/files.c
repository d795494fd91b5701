/*
 * A job's files: their names (filename= lists, or directory/jobname.jobnum.
 * filenum), sizes and I/O regions, laying them out before the run ("Laying
 * out IO file"), opening with the flags the spec implies, closing, and
 * unlinking. Every file a job writes or trims, and every layout, passes the
 * device guard (sys/devguard.h) first: a block device in use or carrying
 * data is refused before anything runs, and read-only mode (--readonly,
 * readonly=1) refuses writes altogether.
 */
#include "workload/job.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/devguard.h"
#include "sys/devres.h"
#include "util/error.h"
#include "util/strutil.h"
#include "util/xmalloc.h"

#define LAYOUT_CHUNK (1024 * 1024)

/* fio's lstat() test for a job named after what it uses: a section named
 * like an existing file that is not a regular one ([/dev/sdb]) is that file. */
static bool names_special_file(const char *name)
{
	struct stat st;
	return lstat(name, &st) == 0 && !S_ISREG(st.st_mode);
}

/* File names as fio makes them: filename= entries (relative ones under the
 * first directory), or SECTION.JOBNUM.FILENUM in the directory the clone
 * gets from a directory=a:b list (clones are spread over it round robin).
 * SECTION is the section name ([sec] or --name=), not name=: two job files
 * with the same section share their files. A single-file job whose section
 * names an existing non-regular file (a device, a directory) uses it. */
static char **file_paths(const struct job_spec *s, unsigned *n)
{
	char **paths;
	char **dirs = NULL;
	size_t nd = 0;
	if (s->directory && *s->directory)
		nd = str_split_escaped(s->directory, ':', &dirs);
	if (s->filename && *s->filename) {
		char **names;
		*n = (unsigned)str_split_escaped(s->filename, ':', &names);
		paths = xcalloc(*n + 1, sizeof(*paths));
		for (unsigned i = 0; i < *n; i++) {
			bool rel = names[i][0] != '/';
			paths[i] = rel && nd ? xasprintf("%s/%s", dirs[0], names[i]) : xstrdup(names[i]);
		}
		str_list_free(names);
	} else {
		const char *dir = nd ? dirs[s->jobnum % nd] : NULL;
		const char *job = s->section ? s->section : s->name;
		*n = s->nrfiles ? s->nrfiles : 1;
		paths = xcalloc(*n + 1, sizeof(*paths));
		if (*n == 1 && names_special_file(job))
			paths[0] = dir ? xasprintf("%s/%s", dir, job) : xstrdup(job);
		else
			for (unsigned i = 0; i < *n; i++)
				paths[i] = dir ? xasprintf("%s/%s.%u.%u", dir, job, s->jobnum, i)
					       : xasprintf("%s.%u.%u", job, s->jobnum, i);
	}
	if (dirs)
		str_list_free(dirs);
	return paths;
}

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
 * name the file, the offset and how much was written. */
static int layout_fill(struct job *j, struct job_file *f, int fd, uint64_t from, uint64_t to)
{
	char *buf = xmalloc(LAYOUT_CHUNK);
	struct rng r;
	rng_seed(&r, from ^ to ^ 0x5bd1e995);
	for (size_t i = 0; i + 8 <= LAYOUT_CHUNK; i += 8) {
		uint64_t v = rng_next(&r);
		memcpy(buf + i, &v, 8);
	}
	if (j->spec->zero_buffers)
		memset(buf, 0, LAYOUT_CHUNK);
	uint64_t pos = from;
	int rc = 0;
	while (pos < to && !*j->stop) {
		size_t n = to - pos < LAYOUT_CHUNK ? (size_t)(to - pos) : LAYOUT_CHUNK;
		ssize_t w = pwrite(fd, buf, n, (off_t)pos);
		if (w < 0 && errno == EINTR)
			continue;
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
	if (!rc && *j->stop)
		rc = -EINTR;
	if (!rc && fsync(fd) < 0)
		rc = error_errno(-errno, "fsync of '%s' after laying it out failed", f->path);
	return rc;
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

static int layout(struct job *j, struct job_file *f, bool exists, uint64_t end, bool quiet,
		  const struct devguard_allow *g)
{
	const struct job_spec *s = j->spec;
	bool need_data = (s->rw & RW_READ) || s->overwrite;
	int grc = guard_file(j, f, DEVGUARD_WRITE, "lay out", g);
	if (grc)
		return grc;
	if (!exists && !s->allow_file_create)
		return error("job '%s': '%s' does not exist and allow_file_create=0", s->name, f->path);
	/* as fio: a write-only job's file too short for it is made again from
	 * nothing, so the writes allocate as they would in a new file */
	if (exists && !need_data && (s->rw & RW_WRITE)) {
		if (unlink(f->path) < 0)
			return error_errno(-errno, "job '%s': cannot remove '%s' to lay it out again",
					   s->name, f->path);
		exists = false;
		f->real_size = 0;
	}
	int fd = open(f->path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_errno(-errno, "job '%s': cannot create '%s'", s->name, f->path);
	f->laid_out_here = !exists;
	if (!quiet && need_data)
		fprintf(stderr, "%s: Laying out IO file (1 file / %lluMiB)\n", s->name,
			(unsigned long long)(end >> 20));
	int rc = need_data ? layout_fill(j, f, fd, exists ? f->real_size : 0, end)
			   : layout_alloc(s, f, fd, end);
	close(fd);
	if (rc < 0) {
		if (f->laid_out_here)
			unlink(f->path);
		f->laid_out_here = false;
		return rc;
	}
	f->real_size = end;
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

static int setup_one(struct job *j, struct job_file *f, unsigned i, bool quiet,
		     const struct devguard_allow *g)
{
	const struct job_spec *s = j->spec;
	bool nofile = j->eng.ops->flags & ENGINE_NO_FILE;
	unsigned what = (s->rw & RW_WRITE ? DEVGUARD_WRITE : 0) | (s->rw & RW_TRIM ? DEVGUARD_TRIM : 0);
	struct stat st;

	if (!nofile && what) {
		int rc = guard_file(j, f, what, NULL, g);
		if (rc)
			return rc;
	}
	bool exists = !nofile && stat(f->path, &st) == 0;
	if (exists && S_ISBLK(st.st_mode)) {
		f->is_bdev = true;
		int rc = probe_bdev_size(f);
		if (rc)
			return rc;
	} else if (exists && S_ISDIR(st.st_mode)) {
		return error("job '%s': '%s' is a directory, not a file (use directory= for that)",
			     s->name, f->path);
	} else if (exists) {
		f->real_size = (uint64_t)st.st_size;
	}

	uint64_t want = pick_filesize(s, j->nr_files, i);
	if (s->size_pct) {
		if (!exists)
			return error("job '%s': size=%u%% needs '%s' to exist", s->name, s->size_pct, f->path);
		want = f->real_size * s->size_pct / 100;
	}
	uint64_t off = s->offset;
	if (s->offset_pct)
		off = f->real_size * s->offset_pct / 100;
	off += s->offset_increment * s->jobnum;
	if (!want) {
		if (!exists || f->real_size <= off)
			return error("job '%s': no size for '%s': give size= or use an existing file",
				     s->name, f->path);
		want = f->real_size - off;
	}
	if (f->is_bdev && off + want > f->real_size)
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
	if (!exists || f->real_size < off + want)
		return layout(j, f, exists, off + want, quiet, g);
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

int job_files_setup(struct job *j, bool quiet, const struct devguard_allow *guard)
{
	const struct job_spec *s = j->spec;
	struct devguard_allow g = { 0 };
	if (guard)
		g = *guard;
	if (s->readonly && !g.readonly_by)
		g.readonly_by = "readonly=1";
	int rc = check_readonly(s, g.readonly_by);
	if (rc)
		return rc;
	unsigned n;
	char **paths = file_paths(s, &n);
	j->files = xcalloc(n, sizeof(*j->files));
	j->nr_files = n;
	for (unsigned i = 0; i < n; i++) {
		j->files[i].path = paths[i];
		j->files[i].fd = -1;
	}
	free(paths);
	if (s->fill_device)
		return error("job '%s': fill_device is not implemented yet", s->name);
	uint64_t total = 0;
	for (unsigned i = 0; i < n; i++) {
		rc = setup_one(j, &j->files[i], i, quiet, &g);
		if (rc < 0)
			return rc;
		total += j->files[i].io_size;
	}
	/* io_size in whole blocks too: fio rounds it up */
	uint64_t bs = min_bs_all(s);
	j->bytes_total = s->io_size ? (s->io_size + bs - 1) / bs * bs : total;
	int flags = (s->rw & (RW_WRITE | RW_TRIM)) ? O_RDWR : O_RDONLY;
	if (s->direct)
		flags |= O_DIRECT;
	if (s->sync_io)
		flags |= O_SYNC;
	for (unsigned i = 0; i < n; i++)
		j->files[i].open_flags = flags | O_CLOEXEC;
	return 0;
}

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

int job_files_open(struct job *j)
{
	const struct job_spec *s = j->spec;
	for (unsigned i = 0; i < j->nr_files; i++) {
		struct job_file *f = &j->files[i];
		int rc = j->eng.ops->open_file(&j->eng, f);
		if (rc == -EINVAL && s->direct)
			return error_errno(rc, "job '%s': cannot open '%s' with O_DIRECT (direct=1): "
					   "the filesystem does not support direct I/O", s->name, f->path);
		if (rc < 0)
			return error_errno(rc, "job '%s': cannot open '%s'", s->name, f->path);
		if (f->fd < 0)
			continue;
		/* Without the hint, readahead on each random miss pulls in
		 * neighbouring blocks and later "random" reads hit the cache. */
		if (s->fadvise_hint)
			posix_fadvise(f->fd, 0, 0, spec_is_rand(s) ? POSIX_FADV_RANDOM
								   : POSIX_FADV_SEQUENTIAL);
	}
	job_files_invalidate(j);
	return 0;
}

void job_files_close(struct job *j)
{
	for (unsigned i = 0; i < j->nr_files; i++) {
		struct job_file *f = &j->files[i];
		if (f->fd >= 0 || (j->eng.ops && (j->eng.ops->flags & ENGINE_NO_FILE)))
			j->eng.ops->close_file(&j->eng, f);
		f->fd = -1;
	}
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

void job_files_release(struct job *j)
{
	for (unsigned i = 0; i < j->nr_files; i++)
		free(j->files[i].path);
	free(j->files);
	j->files = NULL;
	j->nr_files = 0;
}
