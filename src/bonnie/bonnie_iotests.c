/*
 * The sequential I/O tests of the bonnie++ suite, one pass each, with
 * bonnie++ 2.00a's system calls (checked with strace):
 *   per-char output  create the file, write(fd, &c, 1) per byte;
 *   block output     unlink, create it again, write() chunk after chunk;
 *   rewrite          read() a chunk, change a byte, lseek() back, write();
 *   per-char input   read(fd, &c, 1) per byte from the start;
 *   block input      read() chunk after chunk.
 * Each pass ends with fsync() + close(), counted in its time; the open is
 * not. Per-char sizes are min(-f, -s) bytes (bonnie++ clamps too).
 *
 * With -D every bulk pass (block output, rewrite, block input; seeks in
 * bonnie_seeks.c) opens the file O_DIRECT with an aligned buffer. One-byte
 * I/O cannot be O_DIRECT, so the per-char passes use the page cache as
 * bonnie++ does; its fsync at the end still writes the data out.
 *
 * Latency of one operation is the time between consecutive clock reads, so
 * a loop step costs its system calls, one clock read and one hist_add, and
 * the stop flag is read after each. A per-char operation is a chunk (-s
 * :chunk bytes, one byte per system call), as bonnie++ 2.00a times it
 * (gettimeofday around each chunk of putc()s or getc()s): per byte, the clock
 * and the histogram cost about a third of the write(2) they would time.
 */
#include "bonnie/bonnie_int.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint64_t putc_bytes(const struct bon_copy *c)
{
	const struct bonnie_spec *s = c->spec;
	return s->putc_size < s->file_size ? s->putc_size : s->file_size;
}

static int open_io(struct bon_copy *c, int flags, bool direct)
{
	int fd = bon_open_iofile(c, flags | (direct ? O_DIRECT : 0));
	if (fd < 0)
		return fd;
	if (flags & O_CREAT)
		c->iofile_exists = true;
	return fd;
}

/* A fresh file, as bonnie++'s block output makes (the unlink is not timed). */
static int create_io(struct bon_copy *c, bool direct)
{
	if (c->iofile_exists && unlinkat(c->wfd, c->iofile_rel, 0) < 0 && errno != ENOENT)
		return bon_fail(c, -errno, c->iofile, "unlink");
	c->iofile_exists = false;
	return open_io(c, O_RDWR | O_CREAT | O_EXCL, direct);
}

/* fsync + close (skipped fsync when stopping, so a stop is quick), then the
 * timer stops. */
static int finish(struct bon_copy *c, int fd, int rc, const struct bon_timer *t,
		  struct bonnie_phase *p)
{
	if (rc == 0 && fsync(fd) < 0)
		rc = bon_fail(c, -errno, c->iofile, "fsync");
	if (close(fd) < 0 && rc == 0)
		rc = bon_fail(c, -errno, c->iofile, "close");
	bon_timer_stop(c, t, p);
	return rc;
}

static int io_error(struct bon_copy *c, ssize_t got, size_t want, const char *what)
{
	if (got < 0 && errno == EINVAL && c->spec->direct)
		return bon_failf(c, -EINVAL, c->iofile,
				 "%s: Invalid argument (with -D the chunk size, %u, must be a multiple of the device's block size)",
				 what, c->spec->chunk_size);
	if (got < 0)
		return bon_fail(c, -errno, c->iofile, what);
	if (what[0] == 'w') /* a short write: the filesystem is full */
		return bon_failf(c, -ENOSPC, c->iofile, "%s: wrote %zd of %zu bytes: %s", what,
				 got, want, "No space left on device");
	return bon_failf(c, -EIO, c->iofile, "%s: got %zd of %zu bytes: unexpected end of file",
			 what, got, want);
}

/* One byte through write(2) / read(2), as bonnie++'s per-char loops, but by
 * syscall(): the copy runs beside other threads (the monitor, the other
 * copies), and there glibc's write() and read(), being cancellation points,
 * wrap each call in two atomic updates of the thread's cancellation state,
 * which single-threaded bonnie++ never pays. No copy thread is ever
 * cancelled, and the kernel sees the same one-byte system call. */
static inline ssize_t write1(int fd, const unsigned char *ch)
{
	return syscall(SYS_write, fd, ch, 1);
}

static inline ssize_t read1(int fd, unsigned char *ch)
{
	return syscall(SYS_read, fd, ch, 1);
}

/* Bytes in the per-char operation that starts at byte done of n: a chunk,
 * or what is left. */
static uint64_t char_chunk(const struct bon_copy *c, uint64_t done, uint64_t n)
{
	uint64_t chunk = c->spec->chunk_size;
	return n - done < chunk ? n - done : chunk;
}

static int putc_pass(struct bon_copy *c, struct bonnie_phase *p)
{
	const struct clock *clk = &c->sh->clk;
	uint64_t n = putc_bytes(c), i = 0;
	unsigned mask = c->spec->chunk_size - 1;
	const unsigned char *buf = c->buf;
	bool rnd = c->spec->random_data;
	int rc = 0;
	int fd = c->iofile_exists ? open_io(c, O_RDWR | O_TRUNC, false) : create_io(c, false);
	if (fd < 0)
		return fd;
	struct bon_timer t;
	bon_timer_start(c, &t);
	uint64_t prev = t.t0;
	while (i < n) {
		uint64_t end = i + char_chunk(c, i, n);
		ssize_t w = 1;
		for (; i < end; i++) {
			unsigned char ch = rnd ? buf[i & mask] : (unsigned char)i;
			w = write1(fd, &ch);
			if (__builtin_expect(w != 1, 0))
				break;
		}
		uint64_t now = clock_ns(clk);
		hist_add(&p->lat, now - prev);
		prev = now;
		if (w != 1) {
			rc = io_error(c, w, 1, "write");
			break;
		}
		if (bon_stopped(c)) {
			rc = -EINTR;
			break;
		}
	}
	p->work += i;
	return finish(c, fd, rc, &t, p);
}

static int getc_pass(struct bon_copy *c, struct bonnie_phase *p)
{
	const struct clock *clk = &c->sh->clk;
	uint64_t n = putc_bytes(c), i = 0;
	int rc = 0;
	int fd = open_io(c, O_RDONLY, false);
	if (fd < 0)
		return fd;
	struct bon_timer t;
	bon_timer_start(c, &t);
	uint64_t prev = t.t0;
	while (i < n) {
		uint64_t end = i + char_chunk(c, i, n);
		ssize_t r = 1;
		for (; i < end; i++) {
			unsigned char ch;
			r = read1(fd, &ch);
			if (__builtin_expect(r != 1, 0))
				break;
		}
		uint64_t now = clock_ns(clk);
		hist_add(&p->lat, now - prev);
		prev = now;
		if (r != 1) {
			rc = io_error(c, r, 1, "read");
			break;
		}
		if (bon_stopped(c)) {
			rc = -EINTR;
			break;
		}
	}
	p->work += i;
	return finish(c, fd, rc, &t, p);
}

/* A per-char pass run by a thread of its own whose descriptor table is its
 * own (unshare(CLONE_FILES)). The kernel looks a descriptor up without
 * taking a reference, and skips the file position's lock, only while the
 * calling task's table is not shared; beside the copy's other threads every
 * one-byte write() or read() pays both (about 25 ns of some 250, measured:
 * 10% more CPU per byte), which single-threaded bonnie++ 2.00a does not.
 * The pass opens, uses and closes its file in that thread, so nothing
 * outside it ever sees the descriptor; the table, a copy of the process's,
 * goes when the thread ends. If the thread or the unshare cannot be had,
 * the same pass runs in a shared table, only dearer. */
typedef int (*char_pass)(struct bon_copy *c, struct bonnie_phase *p);

struct char_job {
	struct bon_copy *c;
	struct bonnie_phase *p;
	char_pass pass;
	int rc;
};

static void *char_thread(void *arg)
{
	struct char_job *j = arg;
	(void)unshare(CLONE_FILES);
	j->rc = j->pass(j->c, j->p);
	return NULL;
}

static int own_table(struct bon_copy *c, struct bonnie_phase *p, char_pass pass)
{
	struct char_job j = { .c = c, .p = p, .pass = pass };
	pthread_t th;
	if (pthread_create(&th, NULL, char_thread, &j) != 0)
		return pass(c, p);
	pthread_join(th, NULL);
	return j.rc;
}

int bon_putc(struct bon_copy *c, struct bonnie_phase *p)
{
	return own_table(c, p, putc_pass);
}

int bon_getc(struct bon_copy *c, struct bonnie_phase *p)
{
	return own_table(c, p, getc_pass);
}

/* Make each chunk differ from the last, as bonnie++ does by bumping a byte;
 * with --random-data a fresh 64-bit word, so no two chunks are the same. */
static inline void dirty(struct bon_copy *c, uint64_t k, bool rnd)
{
	unsigned chunk = c->spec->chunk_size;
	if (rnd) {
		uint64_t v = rng_next(&c->rng);
		__builtin_memcpy(c->buf + ((k * 8) & (chunk - 1) & ~7u), &v, 8);
	} else {
		c->buf[k & (chunk - 1)]++;
	}
}

/* One step of a block pass: chunk k's system calls on fd; 0 or an error. */
typedef int (*block_step)(struct bon_copy *c, int fd, uint64_t k);

/* A block pass over the file: step() for every chunk, each timed as one
 * operation, the stop flag polled between chunks, fsync + close by finish(). */
static int block_pass(struct bon_copy *c, struct bonnie_phase *p, int fd, block_step step)
{
	if (fd < 0)
		return fd;
	const struct clock *clk = &c->sh->clk;
	unsigned chunk = c->spec->chunk_size;
	uint64_t n = c->spec->file_size / chunk, k;
	int rc = 0;
	struct bon_timer t;
	bon_timer_start(c, &t);
	uint64_t prev = t.t0;
	for (k = 0; k < n; k++) {
		rc = step(c, fd, k);
		uint64_t now = clock_ns(clk);
		hist_add(&p->lat, now - prev);
		prev = now;
		if (rc < 0)
			break;
		if (bon_stopped(c)) {
			rc = -EINTR;
			k++;
			break;
		}
	}
	p->work += k * chunk;
	return finish(c, fd, rc, &t, p);
}

static int put_step(struct bon_copy *c, int fd, uint64_t k)
{
	unsigned chunk = c->spec->chunk_size;
	dirty(c, k, c->spec->random_data);
	ssize_t w = write(fd, c->buf, chunk);
	return w == (ssize_t)chunk ? 0 : io_error(c, w, chunk, "write");
}

/* Read a chunk, change a byte, lseek back and write it. */
static int rewrite_step(struct bon_copy *c, int fd, uint64_t k)
{
	unsigned chunk = c->spec->chunk_size;
	ssize_t r = read(fd, c->buf, chunk);
	if (r != (ssize_t)chunk)
		return io_error(c, r, chunk, "read");
	c->buf[k & (chunk - 1)]++;
	if (lseek(fd, -(off_t)chunk, SEEK_CUR) < 0)
		return bon_fail(c, -errno, c->iofile, "lseek");
	ssize_t w = write(fd, c->buf, chunk);
	return w == (ssize_t)chunk ? 0 : io_error(c, w, chunk, "write");
}

static int get_step(struct bon_copy *c, int fd, uint64_t k)
{
	(void)k;
	unsigned chunk = c->spec->chunk_size;
	ssize_t r = read(fd, c->buf, chunk);
	return r == (ssize_t)chunk ? 0 : io_error(c, r, chunk, "read");
}

int bon_put_block(struct bon_copy *c, struct bonnie_phase *p)
{
	return block_pass(c, p, create_io(c, c->spec->direct), put_step);
}

int bon_rewrite(struct bon_copy *c, struct bonnie_phase *p)
{
	return block_pass(c, p, open_io(c, O_RDWR, c->spec->direct), rewrite_step);
}

int bon_get_block(struct bon_copy *c, struct bonnie_phase *p)
{
	return block_pass(c, p, open_io(c, O_RDONLY, c->spec->direct), get_step);
}
