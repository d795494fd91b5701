/*
 * The faulty engine over psync (sync path) and io_uring (async path),
 * driven through its ops table as the runner drives it: init picks the ops
 * of the inner engine's kind; every:N, offset:OFF and random:PCT fail
 * exactly the chosen I/Os with the chosen errno and no others (random is
 * the same set for the same randseed); faulty_dir limits it to one
 * direction; corruption inverts exactly the documented byte (OFF itself, or
 * offset + len/2) of a read's data, or of a write on disk while the caller's
 * buffer comes back intact; a delayed I/O takes at least faulty_delay; with
 * many units in flight every unit is reaped exactly once.
 */
#include "engines/engine.h"
#include "util/timeutil.h"
#include "engines/faulty_int.h"
#include "spec/jobspec.h"
#include "spec/options.h"

#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BS 4096
#define NBLK 64
#define DEPTH 8

struct harness {
	struct engine_ctx ctx;
	struct job_spec spec;
	struct io_unit units[DEPTH];
	void *mem;
	struct job_file file;
	const char *inner;
};

static char path[] = "/tmp/iobench-faulty-XXXXXX";

static void pattern(void *buf, unsigned b, uint64_t salt)
{
	uint64_t *w = buf;
	for (unsigned i = 0; i < BS / 8; i++)
		w[i] = (uint64_t)b * 0x9e3779b97f4a7c15ULL + i + salt;
}

/* Bytes of buf differing from block b's pattern: count, and the first. */
static unsigned diff_bytes(const void *buf, unsigned b, uint64_t salt, unsigned *first)
{
	unsigned char want[BS];
	const unsigned char *got = buf;
	unsigned n = 0;
	pattern(want, b, salt);
	*first = BS;
	for (unsigned i = 0; i < BS; i++) {
		if (got[i] == want[i])
			continue;
		if (!n)
			*first = i;
		n++;
		if ((got[i] ^ want[i]) != 0xff)
			n += 1000; /* not an inversion */
	}
	return n;
}

static void write_file(uint64_t salt)
{
	int fd = open(path, O_WRONLY);
	char buf[BS];
	for (unsigned b = 0; b < NBLK; b++) {
		pattern(buf, b, salt);
		if (pwrite(fd, buf, BS, (off_t)b * BS) != BS)
			CHECK(0, "pwrite of the test file");
	}
	close(fd);
}

/* Set up the faulty engine over h->inner with options "k=v" (NULL-ended). */
static int h_init(struct harness *h, const char *inner, const char *const *opts)
{
	char why[256];
	memset(h, 0, sizeof(*h));
	h->file.fd = -1;
	h->inner = inner;
	job_spec_defaults(&h->spec);
	h->spec.iodepth = DEPTH;
	CHECK(option_set(&h->spec, "ioengine", "faulty", why, sizeof(why)) == 0, "%s", why);
	CHECK(option_set(&h->spec, "faulty_engine", inner, why, sizeof(why)) == 0, "%s", why);
	for (; opts && *opts; opts++) {
		char k[64];
		const char *eq = strchr(*opts, '=');
		snprintf(k, sizeof(k), "%.*s", (int)(eq - *opts), *opts);
		CHECK(option_set(&h->spec, k, eq + 1, why, sizeof(why)) == 0, "%s: %s", *opts, why);
	}
	job_spec_finalize(&h->spec);
	h->ctx.ops = engine_find("faulty");
	CHECK(engine_ctx_setup(&h->ctx, &h->spec) == 0, "faulty over %s: its options", inner);
	h->ctx.priv = calloc(1, h->ctx.ops->priv_size);
	if (posix_memalign(&h->mem, 4096, DEPTH * BS))
		return -ENOMEM;
	for (unsigned i = 0; i < DEPTH; i++) {
		h->units[i].index = i;
		h->units[i].buf = (char *)h->mem + (size_t)i * BS;
	}
	int rc = h->ctx.ops->init(&h->ctx);
	if (rc)
		return rc;
	rc = h->ctx.ops->register_buffers(&h->ctx, h->units, DEPTH, BS);
	if (rc)
		return rc;
	h->file = (struct job_file){ .path = path, .fd = -1, .open_flags = O_RDWR | O_CLOEXEC,
				     .real_size = NBLK * BS, .io_size = NBLK * BS };
	return h->ctx.ops->open_file(&h->ctx, &h->file);
}

static void h_release(struct harness *h)
{
	if (h->file.fd >= 0)
		h->ctx.ops->close_file(&h->ctx, &h->file);
	h->ctx.ops->cleanup(&h->ctx);
	free(h->ctx.priv);
	free(h->mem);
	job_spec_release(&h->spec);
}

/* One I/O through queue (and commit/reap on the async path). */
static int64_t one_io(struct harness *h, struct io_unit *u)
{
	const struct engine_ops *ops = h->ctx.ops;
	struct io_unit *done[1];
	int st = ops->queue(&h->ctx, u);
	if (st == ENGINE_Q_COMPLETED)
		return u->result;
	CHECK(st == ENGINE_Q_QUEUED, "%s: queue gave %d", h->inner, st);
	CHECK(ops->commit(&h->ctx) == 0, "%s: commit", h->inner);
	int n = ops->reap(&h->ctx, 1, 1, NULL, done);
	CHECK(n == 1 && done[0] == u, "%s: reap gave %d", h->inner, n);
	return u->result;
}

/* Block b as unit 0: read it, or write its pattern. */
static int64_t block_io(struct harness *h, enum ddir d, unsigned b, uint64_t salt)
{
	struct io_unit *u = &h->units[0];
	*u = (struct io_unit){ .ddir = d, .file = &h->file, .offset = (uint64_t)b * BS,
			       .buflen = BS, .buf = u->buf, .index = 0 };
	if (d == DDIR_WRITE)
		pattern(u->buf, b, salt);
	else
		memset(u->buf, 0, BS);
	return one_io(h, u);
}

/* Read every block; bit b of the result is set when block b failed with want_err. */
static uint64_t read_all(struct harness *h, int want_err, uint64_t salt)
{
	uint64_t failed = 0;
	for (unsigned b = 0; b < NBLK; b++) {
		int64_t r = block_io(h, DDIR_READ, b, salt);
		unsigned first;
		if (r == -want_err) {
			failed |= 1ULL << b;
			continue;
		}
		CHECK(r == BS, "%s: block %u read gave %lld", h->inner, b, (long long)r);
		CHECK(diff_bytes(h->units[0].buf, b, salt, &first) == 0, "%s: block %u intact",
		      h->inner, b);
	}
	return failed;
}

static uint64_t every_mask(unsigned n)
{
	uint64_t m = 0;
	for (unsigned b = 0; b < NBLK; b++)
		if ((b + 1) % n == 0)
			m |= 1ULL << b;
	return m;
}

static void test_fail(const char *inner)
{
	struct harness h;
	uint64_t got;

	const char *every[] = { "faulty_fail=every:5", NULL };
	if (h_init(&h, inner, every) == 0) {
		CHECK(!!(h.ctx.ops->flags & ENGINE_SYNC) == !strcmp(inner, "psync"),
		      "%s: init picks the ops of the inner engine's kind", inner);
		got = read_all(&h, EIO, 1);
		CHECK(got == every_mask(5), "%s: every:5 fails I/Os 5, 10, ... (got %llx)", inner,
		      (unsigned long long)got);
	}
	h_release(&h);

	/* one offset inside block 7, one at the start of block 20 */
	const char *offs[] = { "faulty_fail=offset:28772,80k", "faulty_errno=ENOSPC", NULL };
	if (h_init(&h, inner, offs) == 0) {
		got = read_all(&h, ENOSPC, 1);
		CHECK(got == ((1ULL << 7) | (1ULL << 20)), "%s: offset: fails exactly blocks 7 and 20 "
		      "with ENOSPC (got %llx)", inner, (unsigned long long)got);
	}
	h_release(&h);

	const char *rnd[] = { "faulty_fail=random:25", "randseed=42", NULL };
	uint64_t first = 0;
	for (int pass = 0; pass < 2; pass++) {
		if (h_init(&h, inner, rnd) == 0) {
			got = read_all(&h, EIO, 1);
			if (!pass)
				first = got;
			else
				CHECK(got == first, "%s: random:25 with randseed=42 repeats (%llx, %llx)",
				      inner, (unsigned long long)first, (unsigned long long)got);
			unsigned n = (unsigned)__builtin_popcountll(got);
			CHECK(n >= 6 && n <= 28, "%s: random:25 failed %u of 64", inner, n);
		}
		h_release(&h);
	}
	const char *rnd2[] = { "faulty_fail=random:25", "randseed=43", NULL };
	if (h_init(&h, inner, rnd2) == 0)
		CHECK(read_all(&h, EIO, 1) != first, "%s: another randseed, another set", inner);
	h_release(&h);

	/* faulty_dir=write: reads pass, every write fails */
	const char *dir[] = { "faulty_fail=every:1", "faulty_dir=write", NULL };
	if (h_init(&h, inner, dir) == 0) {
		CHECK(read_all(&h, EIO, 1) == 0, "%s: faulty_dir=write leaves reads alone", inner);
		CHECK(block_io(&h, DDIR_WRITE, 3, 1) == -EIO, "%s: faulty_dir=write fails writes", inner);
	}
	h_release(&h);
}

static void test_corrupt(const char *inner)
{
	struct harness h;
	unsigned first;

	write_file(2);
	const char *every[] = { "faulty_corrupt=every:4", "faulty_dir=read", NULL };
	if (h_init(&h, inner, every) == 0) {
		unsigned bad = 0, wrong = 0;
		for (unsigned b = 0; b < NBLK; b++) {
			CHECK(block_io(&h, DDIR_READ, b, 2) == BS, "%s: read", inner);
			unsigned n = diff_bytes(h.units[0].buf, b, 2, &first);
			bool want = (b + 1) % 4 == 0;
			if (n)
				bad++;
			if (want ? n != 1 || first != BS / 2 : n != 0)
				wrong++;
		}
		CHECK(bad == NBLK / 4 && wrong == 0, "%s: every:4 inverts byte len/2 of reads 4, 8, ... "
		      "and nothing else (%u corrupt, %u wrong)", inner, bad, wrong);
	}
	h_release(&h);

	/* a read covering offset 5*4096+17 has that byte inverted */
	const char *off[] = { "faulty_corrupt=offset:20497", NULL };
	if (h_init(&h, inner, off) == 0) {
		CHECK(block_io(&h, DDIR_READ, 5, 2) == BS, "%s: read", inner);
		CHECK(diff_bytes(h.units[0].buf, 5, 2, &first) == 1 && first == 17,
		      "%s: offset: inverts the byte at OFF of the read (first %u)", inner, first);
		CHECK(block_io(&h, DDIR_READ, 6, 2) == BS &&
		      diff_bytes(h.units[0].buf, 6, 2, &first) == 0, "%s: other reads intact", inner);
	}
	h_release(&h);

	/* a write covering the offset reaches the disk with that byte inverted,
	 * and the caller's buffer is given back intact */
	const char *wr[] = { "faulty_corrupt=offset:12300", NULL };
	if (h_init(&h, inner, wr) == 0) {
		for (unsigned b = 0; b < NBLK; b++) {
			CHECK(block_io(&h, DDIR_WRITE, b, 3) == BS, "%s: write", inner);
			CHECK(diff_bytes(h.units[0].buf, b, 3, &first) == 0,
			      "%s: write buffer of block %u restored", inner, b);
		}
	}
	h_release(&h);
	int fd = open(path, O_RDONLY);
	char buf[BS];
	unsigned wrong = 0;
	for (unsigned b = 0; b < NBLK; b++) {
		if (pread(fd, buf, BS, (off_t)b * BS) != BS)
			wrong++;
		unsigned n = diff_bytes(buf, b, 3, &first);
		if (b == 3 ? n != 1 || first != 12300 - 3 * BS : n != 0)
			wrong++;
	}
	close(fd);
	CHECK(wrong == 0, "%s: on disk only byte 12300 is inverted (%u wrong blocks)", inner, wrong);
}

static void test_delay(const char *inner)
{
	struct harness h;
	const uint64_t delay = 30 * 1000000ULL;
	write_file(1);
	const char *opts[] = { "faulty_delay=30ms", "faulty_delay_select=offset:12k", NULL };
	if (h_init(&h, inner, opts) == 0) {
		unsigned slow = 0, fast_ok = 0;
		for (unsigned b = 0; b < 8; b++) {
			uint64_t t0 = now_ns();
			CHECK(block_io(&h, DDIR_READ, b, 1) == BS, "%s: delayed read", inner);
			uint64_t t = now_ns() - t0;
			if (b == 3)
				slow = t >= delay;
			else
				fast_ok += t < delay;
		}
		CHECK(slow, "%s: the selected I/O took at least faulty_delay", inner);
		CHECK(fast_ok == 7, "%s: the others were not delayed (%u of 7 fast)", inner, fast_ok);
	}
	h_release(&h);
}

/* Async: DEPTH units in flight, every:3 fails; each unit comes back once. */
static void test_inflight(const char *inner)
{
	struct harness h;
	const char *opts[] = { "faulty_fail=every:3", NULL };
	write_file(1);
	if (h_init(&h, inner, opts) == 0) {
		const struct engine_ops *ops = h.ctx.ops;
		struct io_unit *done[DEPTH];
		unsigned seen[DEPTH] = { 0 }, wrong = 0, queued = 0;
		for (unsigned i = 0; i < DEPTH; i++) {
			struct io_unit *u = &h.units[i];
			*u = (struct io_unit){ .ddir = DDIR_READ, .file = &h.file, .offset = (uint64_t)i * BS,
					       .buflen = BS, .buf = u->buf, .index = i };
			int st = ops->queue(&h.ctx, u);
			if (st == ENGINE_Q_COMPLETED)
				seen[i]++;
			else
				queued++;
			if (st == ENGINE_Q_COMPLETED && (u->result == -EIO) != ((i + 1) % 3 == 0))
				wrong++;
		}
		if (ops->commit)
			ops->commit(&h.ctx);
		while (queued) {
			int n = ops->reap(&h.ctx, 1, queued, NULL, done);
			CHECK(n >= 1, "%s: reap gave %d", inner, n);
			if (n < 1)
				break;
			for (int k = 0; k < n; k++) {
				unsigned i = done[k]->index;
				seen[i]++;
				if ((done[k]->result == -EIO) != ((i + 1) % 3 == 0))
					wrong++;
			}
			queued -= (unsigned)n;
		}
		for (unsigned i = 0; i < DEPTH; i++)
			wrong += seen[i] != 1;
		CHECK(wrong == 0, "%s: %u units in flight each come back once, I/Os 3 and 6 "
		      "failed (%u wrong)", inner, DEPTH, wrong);
	}
	h_release(&h);
}

/* The faulty engine's options struct of s (set once an option was). */
static const struct faulty_opts *fo(const struct job_spec *s)
{
	static const struct faulty_opts none;
	return s->engine_opts_of == engine_find("faulty") && s->engine_opts ? s->engine_opts : &none;
}

int main(void)
{
	int fd = mkstemp(path);
	if (fd < 0) {
		printf("not ok: mkstemp(%s): %s\n", path, strerror(errno));
		return 1;
	}
	close(fd);
	CHECK(engines_validate() == 0, "engine tables valid with faulty listed");
	char why[256];
	struct job_spec s;
	job_spec_defaults(&s);
	/* faulty_* belong to the faulty engine: refused for the default one */
	CHECK(option_set(&s, "faulty_fail", "every:2", why, sizeof(why)) == -EINVAL &&
	      !strcmp(why, "'faulty_fail' is not an option of engine 'psync' (faulty has it)"),
	      "faulty_fail with psync: %s", why);
	CHECK(option_set(&s, "ioengine", "faulty", why, sizeof(why)) == 0, "%s", why);
	CHECK(option_set(&s, "faulty_engine", "faulty", why, sizeof(why)) == -EINVAL,
	      "faulty cannot wrap itself");
	CHECK(option_set(&s, "faulty_engine", "nosuch", why, sizeof(why)) == -EINVAL,
	      "an unknown inner engine is refused");
	CHECK(option_set(&s, "faulty_fail", "every:0", why, sizeof(why)) == -EINVAL, "every:0 refused");
	CHECK(option_set(&s, "faulty_fail", "sometimes", why, sizeof(why)) == -EINVAL,
	      "unknown selector refused: %s", why);
	CHECK(option_set(&s, "faulty_errno", "EBOGUS", why, sizeof(why)) == -EINVAL, "bad errno refused");
	CHECK(option_set(&s, "faulty_errno", "28", why, sizeof(why)) == 0 && fo(&s)->err == ENOSPC,
	      "faulty_errno takes numbers");
	CHECK(option_set(&s, "faulty_fail", "offset:4k,1m", why, sizeof(why)) == 0 &&
	      fo(&s)->fail.nr_offsets == 2 && fo(&s)->fail.offsets[1] == 1048576,
	      "offset: takes sizes with units");
	CHECK(!option_is_fio("faulty_fail") && !option_is_fio("faulty_engine") &&
	      !option_is_fio("faulty_corrupt") && !option_is_fio("faulty_delay"),
	      "faulty options are iobench's own, not in fio's list");
	job_spec_release(&s);

	/* the test file: NBLK blocks of pattern salt 1 */
	fd = open(path, O_WRONLY);
	CHECK(ftruncate(fd, NBLK * BS) == 0, "size the test file");
	close(fd);

	const char *inners[] = { "psync", "io_uring" };
	for (unsigned i = 0; i < 2; i++) {
		struct harness h;
		int rc = h_init(&h, inners[i], NULL);
		h_release(&h);
		if (rc) {
			/* psync always works; only io_uring may be off in this kernel */
			CHECK(i != 0, "the psync inner engine sets up (%s)", strerror(-rc));
			SKIP(inners[i], "this kernel does not let it set up (%s)", strerror(-rc));
			continue;
		}
		write_file(1);
		test_fail(inners[i]);
		test_corrupt(inners[i]);
		test_delay(inners[i]);
		if (i)
			test_inflight(inners[i]);
	}
	unlink(path);
	return check_done("test_faulty");
}
