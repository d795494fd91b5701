/*
 * `iobench-mpi bonnie` (dist_bonnie.h): the rank's directory, the barrier
 * before each phase, and the results of each test gathered to rank 0 and
 * added up there as bonnie's -c adds its copies (bonnie_run.c), one copy
 * per rank. A rank's figures travel as a flat record per phase plus its
 * latency histogram's non-empty buckets; the disks under -d are each
 * node's own and are not sent (the aggregate has none).
 */
#include "dist/dist_bonnie.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bonnie/bonnie.h"
#include "stats/hist.h"
#include "util/error.h"
#include "util/xmalloc.h"

struct dist_bonnie {
	struct dist_comm *c;
	char *dir;          /* this rank's directory, or NULL */
	bool made;
	unsigned phases;    /* barriers so far (every rank names the same one) */
	unsigned tests;
	bool failed;
};

/* ---- a growing byte buffer and a cursor over one ---- */

struct buf {
	char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *v, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void put_u64(struct buf *b, uint64_t v) { put(b, &v, sizeof(v)); }

struct cur {
	const char *p;
	size_t left;
	bool bad;
};

static void get(struct cur *c, void *v, size_t n)
{
	if (c->bad || n > c->left) {
		c->bad = true;
		memset(v, 0, n);
		return;
	}
	memcpy(v, c->p, n);
	c->p += n;
	c->left -= n;
}

static uint64_t get_u64(struct cur *c) { uint64_t v; get(c, &v, sizeof(v)); return v; }

/* ---- a rank's figures ---- */

/* One phase without its pointers. */
struct flat_phase {
	uint64_t ran, work, elapsed_ns, cpu_ns, busy_ns, threads, repeats, max_lat_ns;
	double rate;
};

static void put_phase(struct buf *b, const struct bonnie_phase *p)
{
	struct flat_phase f = { p->ran, p->work, p->elapsed_ns, p->cpu_ns, p->busy_ns, p->threads,
				p->repeats, p->max_lat_ns, p->rate };
	put(b, &f, sizeof(f));
	const struct hist *h = &p->lat;
	uint64_t nz = 0;
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++)
		nz += hist_count_at(h, i) != 0;
	put_u64(b, h->count);
	put_u64(b, h->min);
	put_u64(b, h->max);
	put_u64(b, nz);
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++) {
		uint64_t k = hist_count_at(h, i);
		if (k) {
			put_u64(b, i);
			put_u64(b, k);
		}
	}
}

static void get_phase(struct cur *c, struct bonnie_phase *p)
{
	struct flat_phase f;
	get(c, &f, sizeof(f));
	memset(p, 0, sizeof(*p));
	*p = (struct bonnie_phase){ .ran = f.ran != 0, .work = f.work, .elapsed_ns = f.elapsed_ns,
				    .cpu_ns = f.cpu_ns, .busy_ns = f.busy_ns,
				    .threads = (unsigned)f.threads, .repeats = (unsigned)f.repeats,
				    .max_lat_ns = f.max_lat_ns, .rate = f.rate };
	hist_init(&p->lat);
	uint64_t count = get_u64(c), min = get_u64(c), max = get_u64(c), nz = get_u64(c);
	for (uint64_t k = 0; k < nz && !c->bad; k++) {
		uint64_t i = get_u64(c), n = get_u64(c);
		if (i >= HIST_NR_BUCKETS) {
			c->bad = true;
			break;
		}
		hist_add_n(&p->lat, hist_bucket_value((unsigned)i), n);
	}
	if (p->lat.count == count) { /* the exact extremes, not the buckets' */
		p->lat.min = min;
		p->lat.max = max;
	}
}

/* The rank's aggregate (its -c copies added up by bonnie_run), its seed,
 * whether it was stopped, and its error. */
static void put_result(struct buf *b, const struct bonnie_result *r)
{
	put_u64(b, r->seed);
	put_u64(b, r->interrupted);
	put_u64(b, (uint64_t)(int64_t)r->error);
	uint64_t n = r->error_msg ? strlen(r->error_msg) + 1 : 0;
	put_u64(b, n);
	if (n)
		put(b, r->error_msg, n);
	for (int t = 0; t < BON_IO_TESTS; t++)
		put_phase(b, &r->total.io[t]);
	for (int t = 0; t < BON_FILE_TESTS; t++)
		put_phase(b, &r->total.file[t]);
}

static void get_figures(struct cur *c, struct bonnie_figures *f, uint64_t *seed, bool *stopped,
			int *error, char **msg)
{
	*seed = get_u64(c);
	*stopped = get_u64(c) != 0;
	*error = (int)(int64_t)get_u64(c);
	uint64_t n = get_u64(c);
	*msg = NULL;
	if (n && n <= c->left) {
		*msg = xmalloc(n);
		get(c, *msg, n);
		(*msg)[n - 1] = 0;
	} else if (n) {
		c->bad = true;
	}
	for (int t = 0; t < BON_IO_TESTS; t++)
		get_phase(c, &f->io[t]);
	for (int t = 0; t < BON_FILE_TESTS; t++)
		get_phase(c, &f->file[t]);
}

/* ---- the hooks ---- */

static int prepare(void *arg, struct bonnie_spec *s, int status)
{
	struct dist_bonnie *b = arg;
	struct dist_comm *c = b->c;
	char msg[512] = "";
	int err = 0;
	if (status < 0) {
		err = EINVAL;
		snprintf(msg, sizeof(msg), "its checks of the command line failed (its message is on "
			 "its standard error)");
	} else if (s->guard.readonly_by) {
		err = EROFS;
		snprintf(msg, sizeof(msg), "%s: refusing to write: read-only mode (set by %s)", s->dir,
			 s->guard.readonly_by);
	} else {
		b->dir = xasprintf("%s/iobench-mpi.rank%d", s->dir, c->rank);
		if (mkdir(b->dir, 0700) < 0) {
			err = errno;
			snprintf(msg, sizeof(msg), "cannot make the rank's directory '%s': %s%s", b->dir,
				 strerror(err), err == EEXIST ? " (left by an earlier run? remove it)" : "");
		} else {
			b->made = true;
			s->dir = b->dir;
		}
	}
	if (dist_sync(c, "the start of iobench-mpi bonnie", err, msg) < 0) {
		b->failed = true;
		if (c->rank == 0)
			error("iobench-mpi bonnie: rank %d (%s) failed: %s", c->fail.rank, c->fail.host,
			      c->fail.msg);
		return -1;
	}
	return 0;
}

static int phase(void *arg, unsigned ph)
{
	struct dist_bonnie *b = arg;
	char point[96];
	snprintf(point, sizeof(point), "bonnie test %u, phase %u (barrier %u)", b->tests + 1, ph,
		 ++b->phases);
	if (dist_sync(b->c, point, 0, NULL) < 0) {
		b->failed = true;
		return -1;
	}
	return 0;
}

/* On the root: res becomes the ranks' results, one copy each, and their sum. */
static void combine(struct dist_bonnie *b, struct bonnie_result *res, void **blobs, size_t *lens)
{
	struct dist_comm *c = b->c;
	struct bonnie_result out = { .version = res->version, .seed = res->seed };
	out.nr_copies = (unsigned)c->size;
	out.copies = xcalloc(out.nr_copies, sizeof(*out.copies));
	for (int t = 0; t < BON_IO_TESTS; t++)
		hist_init(&out.total.io[t].lat);
	for (int t = 0; t < BON_FILE_TESTS; t++)
		hist_init(&out.total.file[t].lat);
	for (int r = 0; r < c->size; r++) {
		struct bonnie_figures *f = &out.copies[r];
		if (!blobs[r]) {
			for (int t = 0; t < BON_IO_TESTS; t++)
				hist_init(&f->io[t].lat);
			for (int t = 0; t < BON_FILE_TESTS; t++)
				hist_init(&f->file[t].lat);
			out.interrupted = true;
			continue;
		}
		struct cur cu = { blobs[r], lens[r], false };
		uint64_t seed;
		bool stopped;
		int err;
		char *msg;
		get_figures(&cu, f, &seed, &stopped, &err, &msg);
		out.interrupted |= stopped;
		if (err && !out.error) {
			out.error = err;
			out.error_msg = msg ? xasprintf("rank %d (%s): %s", r, c->hosts[r], msg) : NULL;
		}
		free(msg);
		for (int t = 0; t < BON_IO_TESTS; t++)
			bonnie_phase_add(&out.total.io[t], &f->io[t]);
		for (int t = 0; t < BON_FILE_TESTS; t++)
			bonnie_phase_add(&out.total.file[t], &f->file[t]);
	}
	bonnie_result_release(res);
	*res = out;
}

static int reduce(void *arg, struct bonnie_result *res, int rc)
{
	struct dist_bonnie *b = arg;
	struct dist_comm *c = b->c;
	int err = rc < 0 && rc != -EINTR ? -rc : 0;
	const char *msg = err ? res->error_msg : NULL;
	char point[64];
	snprintf(point, sizeof(point), "the end of bonnie test %u", ++b->tests);
	if (dist_sync(c, point, err, msg) < 0)
		b->failed = true;
	struct buf bb = { 0 };
	put_result(&bb, res);
	void **blobs = NULL;
	size_t *lens = NULL;
	if (dist_gather(c, bb.p, bb.len, &blobs, &lens) < 0)
		b->failed = true;
	free(bb.p);
	if (c->rank == 0) {
		combine(b, res, blobs, lens);
		for (int r = 0; r < c->size; r++)
			free(blobs[r]);
		free(blobs);
		free(lens);
		if (b->failed)
			error("iobench-mpi bonnie: rank %d (%s) failed: %s", c->fail.rank, c->fail.host,
			      c->fail.msg);
	}
	return b->failed ? -1 : 0;
}

struct dist_bonnie *dist_bonnie_new(struct dist_comm *c)
{
	struct dist_bonnie *b = xcalloc(1, sizeof(*b));
	b->c = c;
	return b;
}

void dist_bonnie_hooks(struct dist_bonnie *b, struct dist_hooks *h)
{
	memset(h, 0, sizeof(*h));
	h->arg = b;
	h->root = b->c->rank == 0;
	h->bonnie_prepare = prepare;
	h->bonnie_phase = phase;
	h->bonnie_reduce = reduce;
}

int dist_bonnie_finish(struct dist_bonnie *b, int status)
{
	if (b->made && rmdir(b->dir) < 0 && errno != ENOENT) {
		error_errno(-errno, "cannot remove the rank's directory '%s'", b->dir);
		status = status ? status : 1;
	}
	b->made = false;
	return b->failed && !status ? 1 : status;
}

void dist_bonnie_free(struct dist_bonnie *b)
{
	if (!b)
		return;
	free(b->dir);
	free(b);
}
