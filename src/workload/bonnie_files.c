/*
 * The file tests of the bonnie++ suite: -n N×1024 files, created, stat()ed
 * and deleted, first in sequential and then in random order, with bonnie++
 * 2.00a's system calls (checked with strace):
 *   names    sequential: 10 hex digits of the file's number, then 0..12
 *            random letters and digits, so names sort in creation order;
 *            random: the random characters first, then the number;
 *   dirs     with -n :::dirs (more than 1), subdirectories 00000, 00001...;
 *            both tests fill them in order, n/dirs + 1 files each
 *            (bon_file_dir: 257, 257, 257, 253 for -n 1:0:0:4; only 512 of
 *            -n 1:0:0:1000's directories get files), as 2.00a does; the
 *            random test differs by its names, and by the order of its
 *            stat and delete, which is random across all the files. Each
 *            subdirectory stays open during the test (as 2.00a's do with
 *            -b), and a file's calls name it from its directory's fd
 *            ("name" where 2.00a says "00000/name" from its working
 *            directory: the same file, one path lookup fewer);
 *   create   open(O_CREAT|O_EXCL), a random size in [min,max] written in
 *            file-chunk pieces, close; max -1 makes the first file and
 *            hard-links the rest to it, -2 symlinks them; -b adds fsync()
 *            of the file and then of its directory, before the close. The
 *            phase ends with a sync of the filesystem, counted in its time
 *            (bonnie++ calls sync(); syncfs() on the test directory flushes
 *            the same filesystem without waiting for every other one on the
 *            machine);
 *   stat     sequential: readdir() order, directory by directory; random:
 *            every file once in a shuffled order; stat() and, when the
 *            file has data, open, read it all in file-chunk pieces, close;
 *   delete   sequential: readdir() order; random: a shuffled order;
 *            unlink (and fsync() of the directory with -b), then the
 *            subdirectories are removed and the filesystem synced, all
 *            counted in the time.
 * A latency is one file's whole operation. The work of each phase is the
 * number of files.
 *
 * --precise on file tests: stat changes nothing, so its pass is repeated
 * inside its phase until the passes have lasted 0.5 s, on the same files.
 * Create and delete depend on each other (delete needs the files create
 * made, create needs them gone), so neither can be repeated on its own:
 * the runner repeats the whole cycle instead, create, stat, delete, each
 * measured separately and each added to its own phase, again until each of
 * the three phases has lasted at least 0.5 s in total (a phase that was
 * long enough keeps accumulating; its rate stays the mean over all its
 * passes). `repeats` counts the passes of a phase. With -c the copies agree
 * by vote after each cycle, so they all run the same cycles.
 */
#include "workload/bonnie_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/guardopen.h"
#include "util/randperm.h"
#include "util/xmalloc.h"

#define NAME_LEN 48 /* "ddddd/" + 12 random + 10 hex + NUL, with room gcc can prove */
#define DIR_PREFIX 6 /* "ddddd/" */
#define DIR_FDS_MAX 4096 /* without -b, more subdirectories are named by path */

struct bon_files {
	struct bon_copy *c;
	const struct bonnie_spec *s;
	bool random;
	uint64_t n;
	unsigned ndirs;          /* subdirectories; 0 = all in the working dir */
	char (*path)[NAME_LEN];  /* relative to the working directory */
	uint32_t *dir;           /* its subdirectory */
	int *dfd;                /* each directory's fd (ndirs, or 1), or NULL */
	unsigned char *buf;      /* file_chunk_size */
	uint64_t perm_seed;
	struct rng rng;          /* names, sizes, orders: from the run's seed alone */
};

static const char alnum[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static void make_name(struct bon_files *f, uint64_t i)
{
	char rnd[13];
	unsigned k = (unsigned)rng_below(&f->rng, 13);
	for (unsigned j = 0; j < k; j++)
		rnd[j] = alnum[rng_below(&f->rng, sizeof(alnum) - 1)];
	rnd[k] = 0;
	char dir[12] = "";
	if (f->ndirs)
		snprintf(dir, sizeof(dir), "%05u/", f->dir[i]);
	if (f->random)
		snprintf(f->path[i], NAME_LEN, "%s%s%010llx", dir, rnd, (unsigned long long)i);
	else
		snprintf(f->path[i], NAME_LEN, "%s%010llx%s", dir, (unsigned long long)i, rnd);
}

struct bon_files *bon_files_new(struct bon_copy *c, bool random)
{
	struct bon_files *f = xcalloc(1, sizeof(*f));
	f->c = c;
	f->s = c->spec;
	f->random = random;
	f->n = (uint64_t)c->spec->num_files * 1024;
	f->ndirs = c->spec->num_dirs > 1 ? c->spec->num_dirs : 0;
	/* Its own stream, so that a seed gives the same names and sizes
	 * whatever the I/O tests before drew (--precise repeats them a number
	 * of times that depends on the machine): each -x line, which reuses
	 * the seed as bonnie++ 2.00a does, creates the same files. */
	uint64_t k = c->sh->seed;
	rng_seed(&f->rng, splitmix64(&k) ^ ((uint64_t)c->index << 1 | random));
	/* -n sizes these (up to 2^31 files): out of memory is an error */
	f->path = calloc(f->n, sizeof(*f->path));
	f->dir = calloc(f->n, sizeof(*f->dir));
	if (!f->path || !f->dir) {
		bon_failf(c, -ENOMEM, c->workdir, "cannot allocate the names of %llu files "
			  "(%llu bytes): %s", (unsigned long long)f->n,
			  (unsigned long long)(f->n * (sizeof(*f->path) + sizeof(*f->dir))),
			  strerror(ENOMEM));
		bon_files_free(f);
		return NULL;
	}
	for (uint64_t i = 0; i < f->n; i++) {
		f->dir[i] = bon_file_dir(i, f->n, f->ndirs);
		make_name(f, i);
	}
	if (!(f->buf = bon_alloc_buf(c, c->spec->file_chunk_size, "the file tests' buffer"))) {
		bon_files_free(f);
		return NULL;
	}
	bon_fill(c, f->buf, c->spec->file_chunk_size);
	f->perm_seed = rng_next(&f->rng);
	return f;
}

static void close_dirs(struct bon_files *f)
{
	if (!f->dfd)
		return;
	for (unsigned d = 0; d < (f->ndirs ? f->ndirs : 1); d++)
		if (f->dfd[d] >= 0 && f->dfd[d] != f->c->wfd)
			close(f->dfd[d]);
	free(f->dfd);
	f->dfd = NULL;
}

void bon_files_free(struct bon_files *f)
{
	if (!f)
		return;
	close_dirs(f);
	free(f->path);
	free(f->dir);
	free(f->buf);
	free(f);
}

static int fail_at(struct bon_files *f, int err, const char *rel, const char *what)
{
	char *p = xasprintf("%s/%s", f->c->workdir, rel);
	int rc = bon_fail(f->c, err, p, what);
	free(p);
	return rc;
}

/* Subdirectories (not timed), and an fd on each: -b fsyncs them, and each
 * call on a file then names it relative to its own directory (one lookup
 * fewer than "ddddd/name"). Without -b, running out of fds (thousands of
 * directories, many -c copies) falls back to the paths. */
static int make_dirs(struct bon_files *f)
{
	unsigned nd = f->ndirs ? f->ndirs : 1;
	if (f->s->sync_writes || (f->ndirs && f->ndirs <= DIR_FDS_MAX)) {
		f->dfd = xmalloc(nd * sizeof(*f->dfd));
		for (unsigned d = 0; d < nd; d++)
			f->dfd[d] = f->ndirs ? -1 : f->c->wfd;
	}
	for (unsigned d = 0; d < f->ndirs; d++) {
		char name[12];
		snprintf(name, sizeof(name), "%05u", d);
		if (mkdirat(f->c->wfd, name, 0700) < 0)
			return fail_at(f, -errno, name, "mkdir");
		if (f->dfd && (f->dfd[d] = openat(f->c->wfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			int err = -errno;
			if (f->s->sync_writes || (err != -EMFILE && err != -ENFILE))
				return fail_at(f, err, name, "open directory");
			close_dirs(f);
		}
	}
	return 0;
}

/* The fd to name file i from and its name there: its directory's fd and
 * its bare name, or the working directory and "ddddd/name". */
static int file_at(const struct bon_files *f, uint64_t i, const char **name)
{
	if (f->dfd && f->ndirs) {
		*name = f->path[i] + DIR_PREFIX;
		return f->dfd[f->dir[i]];
	}
	*name = f->path[i];
	return f->c->wfd;
}

static int remove_dirs(struct bon_files *f)
{
	close_dirs(f);
	for (unsigned d = 0; d < f->ndirs; d++) {
		char name[12];
		snprintf(name, sizeof(name), "%05u", d);
		if (unlinkat(f->c->wfd, name, AT_REMOVEDIR) < 0)
			return fail_at(f, -errno, name, "rmdir");
	}
	return 0;
}

static int sync_dir(struct bon_files *f, uint64_t i)
{
	if (f->s->sync_writes && fsync(f->dfd[f->ndirs ? f->dir[i] : 0]) < 0)
		return fail_at(f, -errno, f->path[i], "fsync of its directory");
	return 0;
}

static int create_one(struct bon_files *f, uint64_t i)
{
	const struct bonnie_spec *s = f->s;
	const char *name, *first;
	int dfd = file_at(f, i, &name), dfd0 = file_at(f, 0, &first);
	if (i && s->max_size == BONNIE_HARD_LINKS) {
		if (linkat(dfd0, first, dfd, name, 0) < 0)
			return fail_at(f, -errno, f->path[i], "link");
		return sync_dir(f, i);
	}
	if (i && s->max_size == BONNIE_SOFT_LINKS) {
		char target[NAME_LEN + 3];
		snprintf(target, sizeof(target), "%s%s", f->ndirs ? "../" : "", f->path[0]);
		if (symlinkat(target, dfd, name) < 0)
			return fail_at(f, -errno, f->path[i], "symlink");
		return sync_dir(f, i);
	}
	/* the guarded open: O_CREAT|O_EXCL in the copy's own directory makes a
	 * new regular file or fails, so it costs no system call more */
	struct devguard_use u = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE,
				  .allow = &s->guard, .dir_checked = true };
	struct devguard_fd g;
	char why[256];
	int grc = devguard_openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0600, &u, &g, why,
				  sizeof(why));
	if (grc < 0)
		return fail_at(f, grc, f->path[i], "create");
	int fd = g.fd;
	uint64_t size = 0;
	if (s->max_size > 0)
		size = (uint64_t)s->min_size + rng_below(&f->rng, (uint64_t)(s->max_size - s->min_size) + 1);
	int rc = 0;
	while (size && rc == 0) {
		size_t len = size < s->file_chunk_size ? (size_t)size : s->file_chunk_size;
		ssize_t w = write(fd, f->buf, len);
		if (w != (ssize_t)len)
			rc = w < 0 ? fail_at(f, -errno, f->path[i], "write")
				   : fail_at(f, -ENOSPC, f->path[i], "write");
		size -= len;
	}
	if (rc == 0 && s->sync_writes && fsync(fd) < 0)
		rc = fail_at(f, -errno, f->path[i], "fsync");
	if (rc == 0)
		rc = sync_dir(f, i); /* before the close, as bonnie++ does */
	if (close(fd) < 0 && rc == 0)
		rc = fail_at(f, -errno, f->path[i], "close");
	return rc;
}

static int sync_fs(struct bon_files *f)
{
	if (syncfs(f->c->wfd) < 0)
		return bon_fail(f->c, -errno, f->c->workdir, "syncfs");
	return 0;
}

int bon_files_create(struct bon_files *f, struct bonnie_phase *p)
{
	const struct clock *clk = &f->c->sh->clk;
	int rc = make_dirs(f);
	if (rc < 0)
		return rc;
	struct bon_timer t;
	bon_timer_start(f->c, &t);
	uint64_t prev = t.t0, done = 0;
	for (uint64_t i = 0; i < f->n && rc == 0; i++) {
		if (bon_stopped(f->c)) {
			rc = -EINTR;
			break;
		}
		rc = create_one(f, i);
		uint64_t now = clock_ns(clk);
		hist_add(&p->lat, now - prev);
		prev = now;
		done += rc == 0;
	}
	p->work += done;
	if (rc == 0)
		rc = sync_fs(f);
	bon_timer_stop(f->c, &t, p);
	return rc;
}

/* stat() and, when there is data, read it all. */
static int stat_one(struct bon_files *f, int dfd, const char *name, const char *rel)
{
	struct stat st;
	if (fstatat(dfd, name, &st, 0) < 0)
		return fail_at(f, -errno, rel, "stat");
	if (st.st_size <= 0)
		return 0;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail_at(f, -errno, rel, "open");
	uint64_t left = (uint64_t)st.st_size;
	int rc = 0;
	while (left && rc == 0) {
		size_t len = left < f->s->file_chunk_size ? (size_t)left : f->s->file_chunk_size;
		ssize_t r = read(fd, f->buf, len);
		if (r <= 0)
			rc = fail_at(f, r < 0 ? -errno : -EIO, rel, "read");
		else
			left -= (uint64_t)r;
	}
	close(fd);
	return rc;
}

/* Walk each directory in readdir() order, calling stat_one or unlinking. */
static int walk_dirs(struct bon_files *f, struct bonnie_phase *p, bool del, uint64_t *count)
{
	const struct clock *clk = &f->c->sh->clk;
	uint64_t prev = clock_ns(clk);
	unsigned nd = f->ndirs ? f->ndirs : 1;
	int rc = 0;
	for (unsigned d = 0; d < nd && rc == 0; d++) {
		char name[12] = ".";
		if (f->ndirs)
			snprintf(name, sizeof(name), "%05u", d);
		int fd = openat(f->c->wfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *dp = fd < 0 ? NULL : fdopendir(fd);
		if (!dp) {
			rc = fail_at(f, -errno, name, "open directory");
			if (fd >= 0)
				close(fd);
			break;
		}
		struct dirent *e;
		while (rc == 0 && (e = readdir(dp))) {
			if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
				continue;
			if (bon_stopped(f->c)) {
				rc = -EINTR;
				break;
			}
			if (!del) {
				rc = stat_one(f, dirfd(dp), e->d_name, e->d_name);
			} else if (unlinkat(dirfd(dp), e->d_name, 0) < 0) {
				rc = fail_at(f, -errno, e->d_name, "unlink");
			} else if (f->s->sync_writes && fsync(dirfd(dp)) < 0) {
				rc = fail_at(f, -errno, name, "fsync");
			}
			uint64_t now = clock_ns(clk);
			hist_add(&p->lat, now - prev);
			prev = now;
			if (rc == 0)
				(*count)++;
		}
		closedir(dp);
	}
	if (rc == 0 && *count != f->n)
		rc = bon_failf(f->c, -EIO, f->c->workdir, "expected %llu files but only got %llu",
			       (unsigned long long)f->n, (unsigned long long)*count);
	return rc;
}

/* Every file once in a shuffled order (a different one for delete). */
static int walk_random(struct bon_files *f, struct bonnie_phase *p, bool del, uint64_t *count)
{
	const struct clock *clk = &f->c->sh->clk;
	struct randperm perm;
	randperm_init(&perm, f->n, f->perm_seed + del);
	uint64_t prev = clock_ns(clk);
	int rc = 0;
	for (uint64_t i = 0; i < f->n && rc == 0; i++) {
		if (bon_stopped(f->c))
			return -EINTR;
		uint64_t k = randperm_at(&perm, i);
		const char *name;
		int dfd = file_at(f, k, &name);
		if (!del)
			rc = stat_one(f, dfd, name, f->path[k]);
		else if (unlinkat(dfd, name, 0) < 0)
			rc = fail_at(f, -errno, f->path[k], "unlink");
		else
			rc = sync_dir(f, k);
		uint64_t now = clock_ns(clk);
		hist_add(&p->lat, now - prev);
		prev = now;
		if (rc == 0)
			(*count)++;
	}
	return rc;
}

int bon_files_stat(struct bon_files *f, struct bonnie_phase *p)
{
	uint64_t count = 0;
	struct bon_timer t;
	bon_timer_start(f->c, &t);
	int rc = f->random ? walk_random(f, p, false, &count) : walk_dirs(f, p, false, &count);
	bon_timer_stop(f->c, &t, p);
	p->work += count;
	return rc;
}

int bon_files_delete(struct bon_files *f, struct bonnie_phase *p)
{
	uint64_t count = 0;
	struct bon_timer t;
	bon_timer_start(f->c, &t);
	int rc = f->random ? walk_random(f, p, true, &count) : walk_dirs(f, p, true, &count);
	if (rc == 0)
		rc = remove_dirs(f);
	if (rc == 0)
		rc = sync_fs(f);
	bon_timer_stop(f->c, &t, p);
	p->work += count;
	return rc;
}
