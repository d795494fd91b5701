/*
 * Synchronous engines and the registry: every file engine writes a pattern
 * out of order and reads it back, gives a short count at EOF and 0 past it,
 * reports a bad descriptor as -EBADF in result, does sync/datasync/trim
 * units; pvsync2 honours its flags or says the kernel refused them; null
 * does no I/O at all; the registry validates and finds engines by name.
 */
#include "engines/engine.h"
#include "util/array.h"
#include "util/optdef.h"
#include "spec/jobspec.h"

#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BS 4096
#define NBLK 3

struct harness {
	struct engine_ctx ctx;
	void *opts; /* the engine's options struct, NULL = its defaults */
};

/* Set the engine's option key (a bare flag when val is NULL) through its
 * own rows, as the job option parser does; call before harness_init(). */
static void harness_opt(struct harness *h, const struct engine_ops *ops, const char *key, const char *val)
{
	char why[256];
	struct opt_ctx c = { .key = key, .kb_base = 1024, .why = why, .whylen = sizeof(why) };
	const struct option_def *o = engine_option_find(ops, key);
	CHECK(o != NULL, "%s declares no option '%s'", ops->name, key);
	if (!o)
		return;
	if (!h->opts) {
		h->opts = malloc(ops->options_size);
		CHECK(engine_options_init(ops, h->opts, 1024, why, sizeof(why)) == 0, "%s's defaults: %s",
		      ops->name, why);
	}
	c.opt = o;
	CHECK(optdef_set(o, h->opts, val, &c) == 0, "%s %s: %s", ops->name, key, why);
}

static int harness_init(struct harness *h, const struct engine_ops *ops)
{
	char why[256];
	if (!h->opts && ops->nr_options) { /* the defaults, as a finalized spec holds them */
		h->opts = malloc(ops->options_size);
		if (!h->opts || engine_options_init(ops, h->opts, 1024, why, sizeof(why)))
			return -EINVAL;
	}
	h->ctx.ops = ops;
	h->ctx.opts = h->opts;
	h->ctx.params.iodepth = 1;
	h->ctx.priv = ops->priv_size ? calloc(1, ops->priv_size) : NULL;
	return ops->init ? ops->init(&h->ctx) : 0;
}

static void harness_release(struct harness *h)
{
	if (h->ctx.ops->cleanup)
		h->ctx.ops->cleanup(&h->ctx);
	free(h->ctx.priv);
	h->ctx.priv = NULL;
	free(h->opts);
	h->opts = NULL;
}

/* One prep+queue as the runner does it; returns u->result. */
static int64_t submit(struct harness *h, struct io_unit *u)
{
	const struct engine_ops *ops = h->ctx.ops;
	int st;

	u->result = INT64_MIN;
	if (ops->prep)
		CHECK(ops->prep(&h->ctx, u) == 0, "%s: prep failed", ops->name);
	st = ops->queue(&h->ctx, u);
	CHECK(st == ENGINE_Q_COMPLETED, "%s: queue returned %d", ops->name, st);
	return u->result;
}

static int64_t io(struct harness *h, struct job_file *f, enum ddir d, void *buf,
		  uint64_t len, uint64_t off)
{
	struct io_unit u = { .ddir = d, .file = f, .offset = off, .buflen = len, .buf = buf };
	return submit(h, &u);
}

static void fill(unsigned char *b, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		b[i] = (unsigned char)(i * 31 + seed * 7 + i / 4096);
}

static void test_file_engine(const char *name, const char *path)
{
	const struct engine_ops *ops = engine_find(name);
	static unsigned char wbuf[NBLK * BS], rbuf[NBLK * BS], zero[BS];
	struct job_file f = { .path = (char *)path, .fd = -1 };
	struct harness h = { 0 };
	const unsigned order_w[NBLK] = { 2, 0, 1 }, order_r[NBLK] = { 1, 2, 0 };
	struct stat st;
	int64_t r;

	CHECK(ops != NULL, "engine '%s' not found", name);
	if (!ops)
		return;
	CHECK(ops->flags & ENGINE_SYNC, "%s: not sync", name);
	CHECK(harness_init(&h, ops) == 0, "%s: init", name);
	fill(wbuf, sizeof(wbuf), (unsigned)name[0] + (unsigned)strlen(name));

	/* write out of order, so position-based engines must seek */
	f.open_flags = O_RDWR | O_CREAT | O_TRUNC;
	CHECK(ops->open_file(&h.ctx, &f) == 0 && f.fd >= 0, "%s: open for write", name);
	for (unsigned i = 0; i < NBLK; i++) {
		unsigned b = order_w[i];
		r = io(&h, &f, DDIR_WRITE, wbuf + b * BS, BS, (uint64_t)b * BS);
		CHECK(r == BS, "%s: write block %u gave %lld", name, b, (long long)r);
	}
	CHECK(io(&h, &f, DDIR_SYNC, NULL, 0, 0) == 0, "%s: fsync unit", name);
	CHECK(io(&h, &f, DDIR_DATASYNC, NULL, 0, 0) == 0, "%s: fdatasync unit", name);
	CHECK(ops->close_file(&h.ctx, &f) == 0 && f.fd == -1, "%s: close", name);
	CHECK(stat(path, &st) == 0 && st.st_size == NBLK * BS, "%s: file size %lld", name,
	      (long long)st.st_size);

	/* read back out of order, then two sequential ones (no seek needed) */
	f.open_flags = O_RDONLY;
	CHECK(ops->open_file(&h.ctx, &f) == 0, "%s: open for read", name);
	memset(rbuf, 0, sizeof(rbuf));
	for (unsigned i = 0; i < NBLK; i++) {
		unsigned b = order_r[i];
		r = io(&h, &f, DDIR_READ, rbuf + b * BS, BS, (uint64_t)b * BS);
		CHECK(r == BS, "%s: read block %u gave %lld", name, b, (long long)r);
	}
	CHECK(!memcmp(rbuf, wbuf, sizeof(rbuf)), "%s: data read back differs", name);
	memset(rbuf, 0, sizeof(rbuf));
	CHECK(io(&h, &f, DDIR_READ, rbuf, BS, 0) == BS, "%s: sequential read 0", name);
	CHECK(io(&h, &f, DDIR_READ, rbuf + BS, BS, BS) == BS, "%s: sequential read 1", name);
	CHECK(!memcmp(rbuf, wbuf, 2 * BS), "%s: sequential data differs", name);

	/* short count at EOF, zero past it */
	memset(rbuf, 0, sizeof(rbuf));
	r = io(&h, &f, DDIR_READ, rbuf, BS, NBLK * BS - 2048);
	CHECK(r == 2048, "%s: read across EOF gave %lld", name, (long long)r);
	CHECK(!memcmp(rbuf, wbuf + NBLK * BS - 2048, 2048), "%s: short read data differs", name);
	r = io(&h, &f, DDIR_READ, rbuf, BS, NBLK * BS);
	CHECK(r == 0, "%s: read at EOF gave %lld", name, (long long)r);

	/* writing to a read-only descriptor */
	r = io(&h, &f, DDIR_WRITE, wbuf, BS, 0);
	CHECK(r == -EBADF, "%s: write on O_RDONLY gave %lld", name, (long long)r);
	CHECK(ops->close_file(&h.ctx, &f) == 0, "%s: close after read", name);

	/* trim punches a hole and keeps the size */
	f.open_flags = O_RDWR;
	CHECK(ops->open_file(&h.ctx, &f) == 0, "%s: open for trim", name);
	r = io(&h, &f, DDIR_TRIM, NULL, BS, BS);
	if (r == -EOPNOTSUPP) {
		SKIP(name, "trim: the filesystem of the test file cannot punch holes");
	} else {
		CHECK(r == BS, "%s: trim gave %lld", name, (long long)r);
		CHECK(io(&h, &f, DDIR_READ, rbuf, BS, BS) == BS, "%s: read trimmed", name);
		CHECK(!memcmp(rbuf, zero, BS), "%s: trimmed block not zero", name);
		CHECK(io(&h, &f, DDIR_READ, rbuf, BS, 0) == BS && !memcmp(rbuf, wbuf, BS),
		      "%s: block before the hole changed", name);
		CHECK(stat(path, &st) == 0 && st.st_size == NBLK * BS, "%s: trim changed size", name);
	}
	CHECK(ops->close_file(&h.ctx, &f) == 0, "%s: close after trim", name);

	/* a bad descriptor comes back as -EBADF in result, for every kind */
	struct job_file bad = { .path = (char *)"bad", .fd = -1 };
	CHECK(io(&h, &bad, DDIR_READ, rbuf, BS, 0) == -EBADF, "%s: read bad fd", name);
	CHECK(io(&h, &bad, DDIR_WRITE, wbuf, BS, BS) == -EBADF, "%s: write bad fd", name);
	CHECK(io(&h, &bad, DDIR_SYNC, NULL, 0, 0) == -EBADF, "%s: fsync bad fd", name);
	CHECK(io(&h, &bad, DDIR_DATASYNC, NULL, 0, 0) == -EBADF, "%s: fdatasync bad fd", name);
	CHECK(io(&h, &bad, DDIR_TRIM, NULL, BS, 0) == -EBADF, "%s: trim bad fd", name);
	harness_release(&h);
	unlink(path);
}

/* pvsync2 with each flag: the I/O either works or is refused with an errno
 * that names the flag's lack of support. */
static void test_pvsync2_flags(const char *path)
{
	const struct engine_ops *ops = engine_find("pvsync2");
	static unsigned char buf[BS];
	struct job_file f = { .path = (char *)path, .fd = -1, .open_flags = O_RDWR | O_CREAT | O_TRUNC };

	for (int flag = 0; flag < 3; flag++) {
		struct harness h = { 0 };
		int64_t w, r;
		harness_opt(&h, ops, flag == 0 ? "hipri" : flag == 1 ? "nowait" : "uncached", NULL);
		CHECK(harness_init(&h, ops) == 0, "pvsync2 init flag %d", flag);
		CHECK(ops->open_file(&h.ctx, &f) == 0, "pvsync2 open flag %d", flag);
		fill(buf, BS, (unsigned)flag);
		w = io(&h, &f, DDIR_WRITE, buf, BS, 0);
		r = io(&h, &f, DDIR_READ, buf, BS, 0);
		CHECK(w == BS || w == -EOPNOTSUPP || w == -EAGAIN || w == -EINVAL,
		      "pvsync2 flag %d write gave %lld", flag, (long long)w);
		/* after a refused write the (truncated) file is empty */
		CHECK(r == (w == BS ? BS : 0) || r == -EOPNOTSUPP || r == -EAGAIN || r == -EINVAL,
		      "pvsync2 flag %d read gave %lld", flag, (long long)r);
		printf("# pvsync2 %s: write %lld read %lld\n",
		       flag == 0 ? "hipri" : flag == 1 ? "nowait" : "uncached", (long long)w, (long long)r);
		CHECK(ops->close_file(&h.ctx, &f) == 0, "pvsync2 close flag %d", flag);
		harness_release(&h);
	}
	unlink(path);
}

static void test_null(void)
{
	const struct engine_ops *ops = engine_find("null");
	static unsigned char buf[BS], copy[BS];
	char path[64];
	struct job_file f = { .path = path, .fd = -1, .open_flags = O_RDWR | O_CREAT };
	struct harness h = { 0 };

	snprintf(path, sizeof(path), "/tmp/iobench-null-%d", (int)getpid());
	CHECK(ops && (ops->flags & ENGINE_NO_FILE) && (ops->flags & ENGINE_SYNC), "null flags");
	if (!ops)
		return;
	CHECK(harness_init(&h, ops) == 0, "null init");
	CHECK(ops->open_file(&h.ctx, &f) == 0 && f.fd == -1, "null open touched fd");
	CHECK(access(path, F_OK) != 0, "null open created '%s'", path);
	memset(buf, 0xa5, sizeof(buf));
	memcpy(copy, buf, sizeof(buf));
	CHECK(io(&h, &f, DDIR_READ, buf, BS, 0) == BS, "null read result");
	CHECK(io(&h, &f, DDIR_WRITE, buf, 1 << 20, 1ULL << 40) == 1 << 20, "null big write result");
	CHECK(!memcmp(buf, copy, sizeof(buf)), "null touched the buffer");
	CHECK(ops->close_file(&h.ctx, &f) == 0, "null close");
	CHECK(access(path, F_OK) != 0, "null created '%s'", path);
	harness_release(&h);
}

static void test_registry(void)
{
	const char *const *names = engine_names();
	size_t n = 0;

	CHECK(engines_validate() == 0, "engines_validate");
	CHECK(engine_find("nope") == NULL, "engine_find(nope)");
	CHECK(engine_find(NULL) == NULL, "engine_find(NULL)");
	for (; names[n]; n++) {
		const struct engine_ops *e = engine_find(names[n]);
		CHECK(e && !strcmp(e->name, names[n]), "engine '%s' not findable", names[n]);
	}
	CHECK(n >= 6, "only %zu engines", n);
	CHECK(engine_find("psync") && engine_find("null"), "psync and null present");
}

static void test_open_errors(void)
{
	struct job_file f = { .path = (char *)"/proc/self/status", .fd = -1,
			      .open_flags = O_RDONLY | O_DIRECT };
	int ret = engine_file_open(NULL, &f);

	/* procfs refuses O_DIRECT at open time */
	CHECK(ret == -EINVAL && f.fd == -1, "O_DIRECT on procfs gave %d", ret);
	f.path = (char *)"/nonexistent-iobench/x";
	f.open_flags = O_RDONLY;
	ret = engine_file_open(NULL, &f);
	CHECK(ret == -ENOENT && f.fd == -1, "missing file gave %d", ret);
	CHECK(engine_file_close(NULL, &f) == 0, "closing a closed file");
}

int main(void)
{
	static const char *const file_engines[] = { "sync", "psync", "vsync", "pvsync", "pvsync2" };
	char path[64];

	test_registry();
	for (size_t i = 0; i < ARRAY_SIZE(file_engines); i++) {
		snprintf(path, sizeof(path), "/tmp/iobench-eng-%s-%d", file_engines[i], (int)getpid());
		test_file_engine(file_engines[i], path);
	}
	snprintf(path, sizeof(path), "/tmp/iobench-eng-flags-%d", (int)getpid());
	test_pvsync2_flags(path);
	test_null();
	test_open_errors();
	return check_done("test_engines");
}
