/*
 * The asynchronous engines (io_uring in its variants, libaio, posixaio) and
 * mmap, driven directly through their ops tables as the runner drives them:
 * a pattern written with many units in flight reads back intact, buffered
 * and O_DIRECT; queue() says BUSY at iodepth and reap() hands back every
 * queued unit (committed or not); fsync/fdatasync units complete; a bad
 * descriptor, offset or alignment comes back as -errno in the unit. The
 * acceptance test of the unit: under a seeded random interleaving of queue,
 * commit and reap(min, max[, timeout]) over thousands of I/Os, every
 * submitted unit is reaped exactly once, with the data of its own block.
 * mmap: pattern round trip across its 256 MiB window, EOF, growth, msync.
 */
#include "engines/engine.h"
#include "util/array.h"
#include "util/rand.h"
#include "spec/options.h"
#include "spec/jobspec.h"

#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BS 4096
#define NBLK 256
#define DEPTH 16
#define RAND_DEPTH 32
#define RAND_IOS 4000

struct harness {
	struct engine_ctx ctx;
	struct job_spec spec;
	struct io_unit *units;
	unsigned nr;
	void *mem;
	const char *label;
};

/* An engine and one of its own options ("key=value", a bare "key" or NULL),
 * set on a job spec through the option parser as a job file would. */
struct variant {
	const char *engine;
	const char *label;
	const char *opt;
};

static const struct variant variants[] = {
	{ "io_uring", "io_uring", NULL },
	{ "io_uring", "io_uring nonvectored=0", "nonvectored=0" },
	{ "io_uring", "io_uring nonvectored=1", "nonvectored=1" },
	{ "io_uring", "io_uring fixedbufs", "fixedbufs" },
	{ "io_uring", "io_uring registerfiles", "registerfiles" },
	{ "io_uring", "io_uring fixedbufs=0", "fixedbufs=0" },
	{ "io_uring", "io_uring registerfiles=0", "registerfiles=0" },
	{ "io_uring", "io_uring sqthread_poll", "sqthread_poll" },
	{ "libaio", "libaio", NULL },
	{ "libaio", "libaio userspace_reap", "userspace_reap" },
	{ "posixaio", "posixaio", NULL },
};

static char tmpdir[] = "/tmp/iobench-async-XXXXXX";

/* option_set() of "key=value" (or key and val apart; a bare key when
 * neither has a value), failing the test with the parser's message. */
static int spec_opt(struct job_spec *s, const char *kv, const char *val)
{
	char key[64], why[256];
	const char *eq = strchr(kv, '=');
	snprintf(key, sizeof(key), "%.*s", eq ? (int)(eq - kv) : (int)strlen(kv), kv);
	int rc = option_set(s, key, eq ? eq + 1 : val, why, sizeof(why));
	CHECK(rc == 0, "option %s: %s", kv, why);
	return rc;
}

/* Set up an engine of iodepth `depth` with twice as many units (so queue()
 * can be asked for more than it takes) of BS-byte page-aligned buffers. */
static int h_init(struct harness *h, const struct variant *v, unsigned depth, bool direct)
{
	unsigned nunits = 2 * depth;

	memset(h, 0, sizeof(*h));
	h->label = v->label;
	job_spec_defaults(&h->spec);
	h->spec.iodepth = depth;
	h->spec.direct = direct;
	if (spec_opt(&h->spec, "ioengine", v->engine) || (v->opt && spec_opt(&h->spec, v->opt, NULL)))
		return -EINVAL;
	job_spec_finalize(&h->spec);
	h->ctx.ops = engine_find(v->engine);
	if (!h->ctx.ops)
		return -ENOENT;
	if (engine_ctx_setup(&h->ctx, &h->spec) < 0)
		return -EINVAL;
	h->ctx.priv = h->ctx.ops->priv_size ? calloc(1, h->ctx.ops->priv_size) : NULL;
	h->nr = nunits;
	if (posix_memalign(&h->mem, 4096, (size_t)nunits * BS))
		return -ENOMEM;
	h->units = calloc(nunits, sizeof(*h->units));
	for (unsigned i = 0; i < nunits; i++) {
		h->units[i].index = i;
		h->units[i].buf = (char *)h->mem + (size_t)i * BS;
	}
	int ret = h->ctx.ops->init ? h->ctx.ops->init(&h->ctx) : 0;
	if (!ret && h->ctx.ops->register_buffers)
		ret = h->ctx.ops->register_buffers(&h->ctx, h->units, nunits, BS);
	return ret;
}

static void h_release(struct harness *h)
{
	if (h->ctx.ops && h->ctx.ops->cleanup)
		h->ctx.ops->cleanup(&h->ctx);
	job_spec_release(&h->spec);
	free(h->ctx.priv);
	free(h->units);
	free(h->mem);
	memset(h, 0, sizeof(*h));
}

/* The bytes block b holds: 8-byte words naming the block and the word. */
static void pattern(void *buf, unsigned b, uint64_t salt)
{
	uint64_t *w = buf;
	for (unsigned i = 0; i < BS / 8; i++)
		w[i] = (uint64_t)b * 0x9e3779b97f4a7c15ULL + i + salt;
}

static bool pattern_ok(const void *buf, unsigned b, uint64_t salt)
{
	const uint64_t *w = buf;
	for (unsigned i = 0; i < BS / 8; i++)
		if (w[i] != (uint64_t)b * 0x9e3779b97f4a7c15ULL + i + salt)
			return false;
	return true;
}

/* One I/O through queue/commit/reap; returns its result. */
static int64_t one_io(struct harness *h, struct io_unit *u)
{
	const struct engine_ops *ops = h->ctx.ops;
	struct io_unit *done[1];
	int st;

	u->result = INT64_MIN;
	st = ops->queue(&h->ctx, u);
	if (st == ENGINE_Q_COMPLETED)
		return u->result;
	if (st != ENGINE_Q_QUEUED)
		return st < 0 ? st : -EBUSY;
	if (ops->commit)
		CHECK(ops->commit(&h->ctx) == 0, "%s: commit", h->label);
	int n = ops->reap(&h->ctx, 1, 1, NULL, done);
	CHECK(n == 1 && done[0] == u, "%s: reap of one I/O gave %d", h->label, n);
	return n == 1 ? done[0]->result : INT64_MIN;
}

/*
 * Move NBLK blocks in the order given, keeping up to iodepth in flight:
 * queue until BUSY, then commit and reap. Writes send pattern(b); reads
 * check it. Returns how often queue said BUSY.
 */
static unsigned pump(struct harness *h, struct job_file *f, enum ddir d, const unsigned *order,
		     uint64_t salt)
{
	const struct engine_ops *ops = h->ctx.ops;
	struct io_unit **freel = calloc(h->nr, sizeof(*freel)), **done = calloc(h->nr, sizeof(*done));
	unsigned nfree = h->nr, inflight = 0, busy = 0, bad = 0, next = 0;

	for (unsigned i = 0; i < h->nr; i++)
		freel[i] = &h->units[i];
	while (next < NBLK || inflight) {
		if (next < NBLK && nfree) {
			struct io_unit *u = freel[nfree - 1];
			unsigned b = order[next];
			*u = (struct io_unit){ .ddir = d, .file = f, .offset = (uint64_t)b * BS,
					       .buflen = BS, .buf = u->buf, .index = u->index };
			if (d == DDIR_WRITE)
				pattern(u->buf, b, salt);
			else
				memset(u->buf, 0xee, BS);
			int st = ops->queue(&h->ctx, u);
			if (st == ENGINE_Q_QUEUED) {
				nfree--;
				inflight++;
				next++;
				continue;
			}
			CHECK(st == ENGINE_Q_BUSY, "%s: queue gave %d", h->label, st);
			if (st != ENGINE_Q_BUSY)
				break;
			busy++;
		}
		CHECK(ops->commit(&h->ctx) == 0, "%s: commit", h->label);
		int n = ops->reap(&h->ctx, 1, inflight, NULL, done);
		CHECK(n >= 1 && (unsigned)n <= inflight, "%s: reap gave %d of %u", h->label, n, inflight);
		if (n < 1)
			break;
		for (int i = 0; i < n; i++) {
			struct io_unit *u = done[i];
			unsigned b = (unsigned)(u->offset / BS);
			bool dup = false;
			for (unsigned k = 0; k < nfree; k++)
				dup |= freel[k] == u;
			if (dup) { /* reaped twice */
				bad++;
				continue;
			}
			if (u->result != BS || (d == DDIR_READ && !pattern_ok(u->buf, b, salt)))
				bad++;
			freel[nfree++] = u;
			inflight--;
		}
	}
	CHECK(bad == 0 && next == NBLK, "%s: %u of %u %ss bad", h->label, bad, next, ddir_name(d));
	free(freel);
	free(done);
	return busy;
}

static void shuffle(unsigned *a, unsigned n, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	for (unsigned i = 0; i < n; i++)
		a[i] = i;
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j = (unsigned)rng_below(&r, i + 1), t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

static void test_roundtrip(const struct variant *v, bool direct)
{
	struct harness h;
	char path[128];
	unsigned order[NBLK];
	struct stat st;
	int ret;

	snprintf(path, sizeof(path), "%s/rt", tmpdir);
	unlink(path);
	struct job_file f = { .path = path, .fd = -1 };
	f.open_flags = O_RDWR | O_CREAT | (direct ? O_DIRECT : 0);
	ret = h_init(&h, v, DEPTH, direct);
	if (ret == -EPERM && v->opt && !strcmp(v->opt, "sqthread_poll")) {
		printf("# %s: not permitted here, skipped\n", v->label);
		h_release(&h);
		return;
	}
	CHECK(ret == 0, "%s: init gave %d", v->label, ret);
	if (ret) {
		h_release(&h);
		return;
	}
	CHECK(h.ctx.ops->open_file(&h.ctx, &f) == 0 && f.fd >= 0, "%s: open", v->label);
	shuffle(order, NBLK, 1);
	unsigned busy = pump(&h, &f, DDIR_WRITE, order, direct);
	CHECK(busy > 0, "%s: never BUSY with %u blocks at depth %u", v->label, NBLK, DEPTH);
	struct io_unit su = { .ddir = DDIR_SYNC, .file = &f, .buf = h.units[0].buf };
	CHECK(one_io(&h, &su) == 0, "%s: fsync unit gave %lld", v->label, (long long)su.result);
	su.ddir = DDIR_DATASYNC;
	CHECK(one_io(&h, &su) == 0, "%s: fdatasync unit gave %lld", v->label, (long long)su.result);
	CHECK(h.ctx.ops->close_file(&h.ctx, &f) == 0 && f.fd == -1, "%s: close", v->label);
	CHECK(stat(path, &st) == 0 && st.st_size == NBLK * BS, "%s: size %lld", v->label,
	      (long long)st.st_size);

	f.open_flags = O_RDONLY | (direct ? O_DIRECT : 0);
	CHECK(h.ctx.ops->open_file(&h.ctx, &f) == 0, "%s: reopen", v->label);
	shuffle(order, NBLK, 2);
	pump(&h, &f, DDIR_READ, order, direct);

	/* a write on a read-only descriptor, a bad offset, and EOF */
	struct io_unit u = { .ddir = DDIR_WRITE, .file = &f, .buflen = BS, .buf = h.units[1].buf,
			     .index = 1 };
	int64_t r = one_io(&h, &u);
	CHECK(r == -EBADF, "%s: write on O_RDONLY gave %lld", v->label, (long long)r);
	u = (struct io_unit){ .ddir = DDIR_READ, .file = &f, .buflen = BS, .buf = h.units[1].buf,
			      .index = 1, .offset = (uint64_t)-8192 };
	r = one_io(&h, &u);
	CHECK(r == -EINVAL, "%s: negative offset gave %lld", v->label, (long long)r);
	u.offset = (uint64_t)NBLK * BS;
	r = one_io(&h, &u);
	CHECK(r == 0, "%s: read at EOF gave %lld", v->label, (long long)r);
	if (direct) {
		u.offset = 100; /* not a multiple of any logical block size */
		r = one_io(&h, &u);
		CHECK(r == -EINVAL, "%s: misaligned O_DIRECT gave %lld", v->label, (long long)r);
	} else {
		u.offset = (uint64_t)NBLK * BS - 2048;
		r = one_io(&h, &u);
		CHECK(r == 2048, "%s: read across EOF gave %lld", v->label, (long long)r);
	}
	CHECK(h.ctx.ops->close_file(&h.ctx, &f) == 0, "%s: close", v->label);

	/* a descriptor that is not open */
	struct job_file bad = { .path = path, .fd = 1 << 20 };
	u = (struct io_unit){ .ddir = DDIR_READ, .file = &bad, .buflen = BS, .buf = h.units[2].buf,
			      .index = 2 };
	r = one_io(&h, &u);
	CHECK(r == -EBADF, "%s: bad descriptor gave %lld", v->label, (long long)r);
	h_release(&h);
	unlink(path);
}

/* queue until BUSY without committing, then reap them all at once */
static void test_busy(const struct variant *v)
{
	struct harness h;
	char path[128];
	struct io_unit *done[DEPTH + 1];
	struct io_unit extra = { 0 };
	static char xbuf[BS] __attribute__((aligned(4096)));

	snprintf(path, sizeof(path), "%s/busy", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)DEPTH * BS) == 0, "busy file");
	close(fd);
	struct job_file f = { .path = path, .fd = -1, .open_flags = O_RDONLY };
	CHECK(h_init(&h, v, DEPTH, false) == 0, "%s: init", v->label);
	CHECK(h.ctx.ops->open_file(&h.ctx, &f) == 0, "%s: open", v->label);
	for (unsigned round = 0; round < 2; round++) {
		unsigned q = 0;
		for (unsigned i = 0; i < DEPTH; i++) {
			struct io_unit *u = &h.units[i];
			*u = (struct io_unit){ .ddir = DDIR_READ, .file = &f, .offset = (uint64_t)i * BS,
					       .buflen = BS, .buf = u->buf, .index = i };
			q += h.ctx.ops->queue(&h.ctx, u) == ENGINE_Q_QUEUED;
		}
		CHECK(q == DEPTH, "%s: %u of %u queued", v->label, q, DEPTH);
		extra = (struct io_unit){ .ddir = DDIR_READ, .file = &f, .buflen = BS, .buf = xbuf,
					  .index = DEPTH };
		int st = h.ctx.ops->queue(&h.ctx, &extra);
		CHECK(st == ENGINE_Q_BUSY, "%s: queue past iodepth gave %d", v->label, st);
		/* round 0 reaps without a commit: reap must submit what is queued */
		if (round == 1)
			CHECK(h.ctx.ops->commit(&h.ctx) == 0, "%s: commit", v->label);
		unsigned seen = 0, got = 0;
		while (got < DEPTH) {
			int n = h.ctx.ops->reap(&h.ctx, DEPTH - got, DEPTH, NULL, done);
			CHECK(n >= (int)(DEPTH - got), "%s: reap(min %u) gave %d", v->label, DEPTH - got, n);
			if (n <= 0)
				break;
			for (int i = 0; i < n; i++) {
				unsigned idx = done[i]->index;
				CHECK(idx < DEPTH && !(seen & (1u << idx)) && done[i]->result == BS,
				      "%s: unit %u reaped twice or failed", v->label, idx);
				seen |= 1u << (idx % 32);
			}
			got += (unsigned)n;
		}
		CHECK(got == DEPTH && seen == (1u << DEPTH) - 1, "%s: reaped %u", v->label, got);
		/* nothing in flight: a reap with min 0 returns at once */
		CHECK(h.ctx.ops->reap(&h.ctx, 0, DEPTH, NULL, done) == 0, "%s: empty reap", v->label);
	}
	h.ctx.ops->close_file(&h.ctx, &f);
	h_release(&h);
	unlink(path);
}

enum ustate { U_FREE, U_QUEUED };

/*
 * The acceptance test: a seeded random mix of queue (1..8 units), commit
 * and reap(min in [0, outstanding], max in [1, depth], sometimes with a
 * short timeout) over RAND_IOS I/Os; reads check their block's data, a few
 * writes rewrite a block with the same bytes. Every tag is reaped once.
 */
static void test_random(const struct variant *v, bool direct, uint64_t seed)
{
	const unsigned nb = 512;
	struct harness h;
	char path[128];
	struct rng r;
	unsigned char *seen = calloc(RAND_IOS, 1);
	unsigned *tag = calloc(RAND_DEPTH, sizeof(*tag));
	enum ustate *state = calloc(RAND_DEPTH, sizeof(*state));
	struct io_unit *done[RAND_DEPTH];
	unsigned issued = 0, outstanding = 0, bad_data = 0, stray = 0, short_reap = 0;
	unsigned reaps = 0, commits = 0, busy = 0, queued_at_reap = 0;
	static char blk[BS] __attribute__((aligned(4096)));
	int ret;

	snprintf(path, sizeof(path), "%s/rand", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	for (unsigned b = 0; b < nb; b++) {
		pattern(blk, b, seed);
		CHECK(pwrite(fd, blk, BS, (off_t)b * BS) == BS, "lay out block %u", b);
	}
	fsync(fd);
	close(fd);
	ret = h_init(&h, v, RAND_DEPTH / 2, direct); /* RAND_DEPTH units */
	if (ret == -EPERM && v->opt && !strcmp(v->opt, "sqthread_poll")) {
		h_release(&h);
		free(seen);
		free(tag);
		free(state);
		return;
	}
	CHECK(ret == 0, "%s: init", v->label);
	struct job_file f = { .path = path, .fd = -1, .open_flags = O_RDWR | (direct ? O_DIRECT : 0) };
	CHECK(h.ctx.ops->open_file(&h.ctx, &f) == 0, "%s: open", v->label);
	rng_seed(&r, seed);
	unsigned uncommitted = 0;
	for (unsigned iter = 0; (issued < RAND_IOS || outstanding) && iter < 50 * RAND_IOS; iter++) {
		unsigned act = (unsigned)rng_below(&r, 10);
		if (issued == RAND_IOS)
			act = 9; /* drain */
		if (act < 5) {
			unsigned k = 1 + (unsigned)rng_below(&r, 8);
			for (unsigned i = 0; i < k && issued < RAND_IOS; i++) {
				unsigned slot = RAND_DEPTH;
				unsigned start = (unsigned)rng_below(&r, RAND_DEPTH);
				for (unsigned s = 0; s < RAND_DEPTH; s++)
					if (state[(start + s) % RAND_DEPTH] == U_FREE) {
						slot = (start + s) % RAND_DEPTH;
						break;
					}
				if (slot == RAND_DEPTH)
					break;
				struct io_unit *u = &h.units[slot];
				unsigned b = (unsigned)rng_below(&r, nb);
				bool wr = rng_below(&r, 10) == 0;
				*u = (struct io_unit){ .ddir = wr ? DDIR_WRITE : DDIR_READ, .file = &f,
						       .offset = (uint64_t)b * BS, .buflen = BS,
						       .buf = u->buf, .index = slot };
				if (wr)
					pattern(u->buf, b, seed);
				else
					memset(u->buf, 0, BS);
				int st = h.ctx.ops->queue(&h.ctx, u);
				if (st == ENGINE_Q_BUSY) {
					busy++;
					break;
				}
				CHECK(st == ENGINE_Q_QUEUED, "%s: queue gave %d", v->label, st);
				if (st != ENGINE_Q_QUEUED)
					break;
				tag[slot] = issued++;
				state[slot] = U_QUEUED;
				outstanding++;
				uncommitted++;
			}
		} else if (act < 7) {
			CHECK(h.ctx.ops->commit(&h.ctx) == 0, "%s: commit", v->label);
			commits++;
			uncommitted = 0;
		} else {
			unsigned min = (unsigned)rng_below(&r, outstanding + 1);
			unsigned max = 1 + (unsigned)rng_below(&r, RAND_DEPTH);
			struct timespec ts = { 0, (long)rng_below(&r, 1000000) };
			bool timed = rng_below(&r, 4) == 0;
			if (issued == RAND_IOS) {
				min = outstanding ? 1 : 0;
				max = RAND_DEPTH;
				timed = false;
			}
			if (max < min)
				max = min;
			queued_at_reap += uncommitted > 0;
			uncommitted = 0; /* reap submits whatever is still queued */
			int n = h.ctx.ops->reap(&h.ctx, min, max, timed ? &ts : NULL, done);
			reaps++;
			CHECK(n >= 0 && (unsigned)n <= max, "%s: reap(%u, %u) gave %d", v->label, min, max, n);
			if (n < 0)
				break;
			if (!timed && (unsigned)n < min)
				short_reap++;
			for (int i = 0; i < n; i++) {
				struct io_unit *u = done[i];
				unsigned slot = u->index;
				if (slot >= RAND_DEPTH || u != &h.units[slot] || state[slot] != U_QUEUED) {
					stray++;
					continue;
				}
				unsigned b = (unsigned)(u->offset / BS);
				if (u->result != BS || (u->ddir == DDIR_READ && !pattern_ok(u->buf, b, seed)))
					bad_data++;
				if (seen[tag[slot]] < 255)
					seen[tag[slot]]++;
				state[slot] = U_FREE;
				outstanding--;
			}
		}
	}
	unsigned lost = 0, dup = 0;
	for (unsigned t = 0; t < RAND_IOS; t++) {
		lost += seen[t] == 0;
		dup += seen[t] > 1;
	}
	CHECK(issued == RAND_IOS && outstanding == 0, "%s%s: issued %u, %u outstanding", v->label,
	      direct ? " direct" : "", issued, outstanding);
	CHECK(!lost && !dup && !stray, "%s%s: %u lost, %u reaped twice, %u stray units", v->label,
	      direct ? " direct" : "", lost, dup, stray);
	CHECK(!bad_data && !short_reap, "%s%s: %u bad results, %u reaps below min", v->label,
	      direct ? " direct" : "", bad_data, short_reap);
	CHECK(busy && reaps && commits && queued_at_reap, "%s: the mix lacked BUSY (%u), reaps (%u), "
	      "commits (%u) or reaps of uncommitted units (%u)", v->label, busy, reaps, commits,
	      queued_at_reap);
	h.ctx.ops->close_file(&h.ctx, &f);
	h_release(&h);
	unlink(path);
	free(seen);
	free(tag);
	free(state);
}

static void test_uring_options(void)
{
	const struct variant fixed = { "io_uring", "io_uring fixedbufs", "fixedbufs" };
	struct harness h;
	static char stray[BS] __attribute__((aligned(4096)));
	char path[128];

	/* hipri without direct=1 is refused before any I/O */
	const struct variant plain = { "io_uring", "io_uring", NULL };
	CHECK(h_init(&h, &plain, 4, false) == 0, "plain init");
	h_release(&h);
	const struct variant hv = { "io_uring", "io_uring hipri", "hipri" };
	printf("# an error about hipri follows\n");
	CHECK(h_init(&h, &hv, 4, false) == -EINVAL, "hipri without direct=1 refused");
	h_release(&h);

	/* fixedbufs: a buffer that was not registered cannot be queued */
	snprintf(path, sizeof(path), "%s/fixed", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && ftruncate(fd, BS) == 0, "fixed file");
	close(fd);
	CHECK(h_init(&h, &fixed, 4, false) == 0, "fixedbufs init");
	struct job_file f = { .path = path, .fd = -1, .open_flags = O_RDONLY };
	CHECK(h.ctx.ops->open_file(&h.ctx, &f) == 0, "fixedbufs open");
	struct io_unit u = { .ddir = DDIR_READ, .file = &f, .buflen = BS, .buf = stray, .index = 0 };
	printf("# an error about an unregistered buffer follows\n");
	CHECK(h.ctx.ops->queue(&h.ctx, &u) == -EINVAL, "unregistered buffer refused");
	u.buf = h.units[3].buf;
	u.index = 3;
	CHECK(one_io(&h, &u) == BS, "registered buffer read");
	h.ctx.ops->close_file(&h.ctx, &f);
	h_release(&h);

	/* fixedbufs and registerfiles unset: iobench registers both, and a
	 * buffer outside them still goes, through the plain opcode; a file
	 * opened and closed 40 times reuses its slot of the sparse table */
	char setup[160];
	CHECK(h_init(&h, &plain, 4, false) == 0, "unset init");
	for (int i = 0; i < 40; i++) {
		struct job_file g = { .path = path, .fd = -1, .open_flags = O_RDONLY };
		CHECK(h.ctx.ops->open_file(&h.ctx, &g) == 0, "unset: open %d", i);
		CHECK((uintptr_t)g.engine_data == 1, "unset: open %d took slot %ju", i,
		      (uintptr_t)g.engine_data - 1);
		struct io_unit v = { .ddir = DDIR_READ, .file = &g, .buflen = BS, .buf = i % 2 ? stray : h.units[1].buf, .index = 1 };
		CHECK(one_io(&h, &v) == BS, "unset: read %d (%s buffer)", i,
		      i % 2 ? "an unregistered" : "a registered");
		h.ctx.ops->close_file(&h.ctx, &g);
	}
	h.ctx.ops->describe(&h.ctx, setup, sizeof(setup));
	CHECK(!strcmp(setup, "registered files on (iobench's default), registered buffers on "
			     "(iobench's default), single issuer, deferred task work"),
	      "unset: described as '%s'", setup);
	h_release(&h);

	/* 0 turns them off, as fio has them */
	const struct variant off = { "io_uring", "io_uring fixedbufs=0", "fixedbufs=0" };
	CHECK(h_init(&h, &off, 4, false) == 0, "fixedbufs=0 init");
	h.ctx.ops->describe(&h.ctx, setup, sizeof(setup));
	CHECK(!strcmp(setup, "registered files on (iobench's default), registered buffers off, "
			     "single issuer, deferred task work"),
	      "fixedbufs=0: described as '%s'", setup);
	h_release(&h);
	unlink(path);
}

static void test_mmap(bool direct)
{
	const struct variant v = { "mmap", direct ? "mmap direct" : "mmap", NULL };
	struct harness h;
	char path[128];
	static unsigned char buf[BS], chk[BS];
	struct stat st;
	/* both sides of the 256 MiB window boundary, one I/O straddling it,
	 * and blocks far apart so the window moves back and forth */
	const uint64_t win = 256ULL << 20;
	const uint64_t offs[] = { 0, BS, win - 2048, win + BS, 2 * win + 5 * BS, 7 * BS, win - BS };
	const unsigned n = ARRAY_SIZE(offs);

	snprintf(path, sizeof(path), "%s/mmap", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)(2 * win + 8 * BS)) == 0, "sparse file");
	close(fd);
	if (direct)
		printf("# a warning about mmap and direct=1 follows\n");
	CHECK(h_init(&h, &v, 1, direct) == 0, "%s: init", v.label);
	CHECK(h.ctx.ops->flags & ENGINE_SYNC, "mmap is synchronous");
	struct job_file f = { .path = path, .fd = -1, .open_flags = O_RDWR | (direct ? O_DIRECT : 0) };
	CHECK(h.ctx.ops->open_file(&h.ctx, &f) == 0, "%s: open", v.label);
	struct io_unit u = { .file = &f, .buf = buf, .buflen = BS };
	for (unsigned i = 0; i < n; i++) {
		pattern(buf, i, 7);
		u.ddir = DDIR_WRITE;
		u.offset = offs[i];
		CHECK(one_io(&h, &u) == BS, "%s: write at %llu", v.label, (unsigned long long)offs[i]);
	}
	u.ddir = DDIR_SYNC;
	CHECK(one_io(&h, &u) == 0, "%s: fsync unit (msync)", v.label);
	u.ddir = DDIR_DATASYNC;
	CHECK(one_io(&h, &u) == 0, "%s: fdatasync unit", v.label);
	/* the bytes are in the file, seen through a plain descriptor */
	fd = open(path, O_RDONLY);
	for (unsigned i = 0; i < n; i++) {
		bool later = false; /* the straddling write was partly overwritten */
		for (unsigned k = i + 1; k < n; k++)
			later |= offs[k] < offs[i] + BS && offs[k] + BS > offs[i];
		CHECK(pread(fd, chk, BS, (off_t)offs[i]) == BS && (later || pattern_ok(chk, i, 7)),
		      "%s: file data at %llu", v.label, (unsigned long long)offs[i]);
	}
	close(fd);
	for (unsigned i = n; i-- > 0;) {
		bool later = false;
		for (unsigned k = i + 1; k < n; k++)
			later |= offs[k] < offs[i] + BS && offs[k] + BS > offs[i];
		memset(buf, 0, BS);
		u.ddir = DDIR_READ;
		u.offset = offs[i];
		CHECK(one_io(&h, &u) == BS && (later || pattern_ok(buf, i, 7)), "%s: read at %llu",
		      v.label, (unsigned long long)offs[i]);
	}
	/* EOF: a short read, then 0; a write past the end grows the file */
	uint64_t size = 2 * win + 8 * BS;
	u.ddir = DDIR_READ;
	u.offset = size - 1024;
	CHECK(one_io(&h, &u) == 1024, "%s: read across EOF", v.label);
	u.offset = size;
	CHECK(one_io(&h, &u) == 0, "%s: read at EOF", v.label);
	u.ddir = DDIR_WRITE;
	u.offset = size + BS;
	pattern(buf, 99, 7);
	CHECK(one_io(&h, &u) == BS, "%s: write past EOF", v.label);
	CHECK(stat(path, &st) == 0 && (uint64_t)st.st_size == size + 2 * BS, "%s: grew to %lld",
	      v.label, (long long)st.st_size);
	u.ddir = DDIR_READ;
	memset(buf, 0, BS);
	CHECK(one_io(&h, &u) == BS && pattern_ok(buf, 99, 7), "%s: read the grown block", v.label);
	u.offset = (uint64_t)-8192;
	CHECK(one_io(&h, &u) == -EINVAL, "%s: negative offset", v.label);
	CHECK(h.ctx.ops->close_file(&h.ctx, &f) == 0 && f.fd == -1, "%s: close", v.label);

	/* read-only: reads work, a write fails cleanly instead of faulting */
	f.open_flags = O_RDONLY;
	CHECK(h.ctx.ops->open_file(&h.ctx, &f) == 0, "%s: open read-only", v.label);
	u.ddir = DDIR_READ;
	u.offset = offs[1];
	CHECK(one_io(&h, &u) == BS && pattern_ok(buf, 1, 7), "%s: read-only read", v.label);
	h.ctx.ops->close_file(&h.ctx, &f);
	h_release(&h);
	unlink(path);
}

static void on_alarm(int sig)
{
	static const char msg[] = "not ok: timed out: a reap is waiting for an I/O the engine "
				  "lost or the kernel never had\n";
	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

int main(void)
{
	const size_t nv = ARRAY_SIZE(variants);
	bool direct_ok;

	signal(SIGALRM, on_alarm);
	alarm(100);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	char probe[128];
	snprintf(probe, sizeof(probe), "%s/probe", tmpdir);
	int fd = open(probe, O_RDWR | O_CREAT | O_DIRECT, 0644);
	direct_ok = fd >= 0;
	if (fd >= 0)
		close(fd);
	unlink(probe);
	if (!direct_ok)
		printf("# %s refuses O_DIRECT: direct cases skipped\n", tmpdir);

	for (size_t i = 0; i < nv; i++) {
		test_roundtrip(&variants[i], false);
		if (direct_ok)
			test_roundtrip(&variants[i], true);
		if (!variants[i].opt)
			test_busy(&variants[i]);
		test_random(&variants[i], false, 1000 + i);
		if (direct_ok)
			test_random(&variants[i], true, 2000 + i);
	}
	test_uring_options();
	test_mmap(false);
	test_mmap(true);
	rmdir(tmpdir);
	return check_done("test_async_engines");
}
