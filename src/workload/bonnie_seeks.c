/*
 * The random-seeks test of the bonnie++ suite, one pass: `seekers` threads
 * share the spec's `seeks` seeks (each thread takes the next one from a
 * shared counter, as bonnie++'s seekers take theirs from a pipe). Each seek
 * is lseek() to a random chunk-aligned offset and read() of one chunk; one
 * seek in ten (bonnie++: "10% of cases") also changes a byte, lseek()s back
 * and write()s the chunk, followed by fsync() with -b. Every seeker opens
 * the file itself (O_DIRECT with -D) and ends with fsync() + close(), as
 * bonnie++'s do. The time runs from starting the seekers to the last one
 * finishing; a latency is one seek with its write-back.
 */
#include "workload/bonnie_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xmalloc.h"

struct seeker {
	struct bon_copy *c;
	atomic_uint_fast64_t *next; /* next seek to take */
	struct rng rng;
	struct hist lat;
	unsigned char *buf;
	uint64_t done;
	uint64_t busy_ns;  /* its time running or waiting for a CPU */
	int rc;
	pthread_t thread;
};

static int seek_one(struct seeker *s, int fd, uint64_t nchunks)
{
	struct bon_copy *c = s->c;
	unsigned chunk = c->spec->chunk_size;
	off_t off = (off_t)(rng_below(&s->rng, nchunks) * chunk);
	if (lseek(fd, off, SEEK_SET) < 0)
		return bon_fail(c, -errno, c->iofile, "lseek");
	ssize_t r = read(fd, s->buf, chunk);
	if (r != (ssize_t)chunk)
		return r < 0 ? bon_fail(c, -errno, c->iofile, "read")
			     : bon_failf(c, -EIO, c->iofile, "read: got %zd of %u bytes", r, chunk);
	if (rng_below(&s->rng, 10))
		return 0;
	s->buf[rng_below(&s->rng, chunk)]++;
	if (lseek(fd, off, SEEK_SET) < 0)
		return bon_fail(c, -errno, c->iofile, "lseek");
	ssize_t w = write(fd, s->buf, chunk);
	if (w != (ssize_t)chunk)
		return w < 0 ? bon_fail(c, -errno, c->iofile, "write")
			     : bon_failf(c, -ENOSPC, c->iofile, "write: wrote %zd of %u bytes", w, chunk);
	if (c->spec->sync_writes && fsync(fd) < 0)
		return bon_fail(c, -errno, c->iofile, "fsync");
	return 0;
}

static void *seeker_main(void *arg)
{
	struct seeker *s = arg;
	struct bon_copy *c = s->c;
	const struct clock *clk = &c->sh->clk;
	uint64_t total = c->spec->seeks, nchunks = c->spec->file_size / c->spec->chunk_size;
	int fd = bon_open_iofile(c, O_RDWR | (c->spec->direct ? O_DIRECT : 0));
	if (fd < 0) {
		s->rc = fd;
		return NULL;
	}
	uint64_t busy0 = bon_thread_busy_ns();
	uint64_t prev = clock_ns(clk);
	while (atomic_fetch_add(s->next, 1) < total) {
		if (bon_stopped(c)) {
			s->rc = -EINTR;
			break;
		}
		int rc = seek_one(s, fd, nchunks);
		uint64_t now = clock_ns(clk);
		hist_add(&s->lat, now - prev);
		prev = now;
		if (rc < 0) {
			s->rc = rc;
			break;
		}
		s->done++;
	}
	if (s->rc == 0 && fsync(fd) < 0)
		s->rc = bon_fail(c, -errno, c->iofile, "fsync");
	if (close(fd) < 0 && s->rc == 0)
		s->rc = bon_fail(c, -errno, c->iofile, "close");
	uint64_t busy = bon_thread_busy_ns();
	s->busy_ns = busy > busy0 ? busy - busy0 : 0;
	return NULL;
}

int bon_seeks(struct bon_copy *c, struct bonnie_phase *p)
{
	unsigned n = c->spec->seekers;
	struct seeker *s = xcalloc(n, sizeof(*s));
	atomic_uint_fast64_t next = 0;
	size_t buflen = c->spec->chunk_size;
	int rc = 0;
	unsigned started = 0;

	for (unsigned i = 0; i < n; i++) {
		s[i].c = c;
		s[i].next = &next;
		rng_seed(&s[i].rng, rng_next(&c->rng));
		if (!(s[i].buf = bon_alloc_buf(c, buflen, "a seeker's buffer"))) {
			for (unsigned k = 0; k < i; k++)
				free(s[k].buf);
			free(s);
			return -ENOMEM;
		}
		bon_fill(c, s[i].buf, buflen);
	}
	struct bon_timer t;
	bon_timer_start(c, &t);
	for (; started < n; started++) {
		int e = pthread_create(&s[started].thread, NULL, seeker_main, &s[started]);
		if (e) {
			rc = bon_failf(c, -e, c->workdir, "cannot start a seeker thread: %s",
				       strerror(e));
			break;
		}
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(s[i].thread, NULL);
	uint64_t waiter = p->busy_ns;
	bon_timer_stop(c, &t, p);
	p->busy_ns = waiter; /* this thread only waited: the seekers' time instead */
	p->threads = n;
	for (unsigned i = 0; i < n; i++) {
		p->work += s[i].done;
		p->busy_ns += s[i].busy_ns;
		hist_merge(&p->lat, &s[i].lat);
		hist_release(&s[i].lat);
		if (s[i].rc < 0 && (rc == 0 || rc == -EINTR))
			rc = s[i].rc; /* an error wins over a stop */
		free(s[i].buf);
	}
	free(s);
	return rc;
}
