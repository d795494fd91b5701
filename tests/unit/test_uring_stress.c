/*
 * A stress test of the io_uring engine's count of what it has queued and
 * what the kernel has in flight, driven through its ops table as the runner
 * drives it (queue, commit, reap with a minimum and a maximum). With
 * sqthread_poll off and on, at iodepths 1, 2, 3, 7, 16, 32, 64, 128 and 256,
 * each iteration moves a random number of 4 KiB units through a seeded mix
 * of queue bursts (some past the depth), commits, and reaps whose bounds
 * follow one of several patterns (min 0, min 1, all outstanding, a max
 * below what is outstanding, never waiting, short timeouts, random; reaps
 * of units never committed among them). The units read blocks of a file in
 * a temporary folder (their bytes checked), rewrite blocks with the same
 * bytes, or write to /dev/null.
 *
 * Around it: two forked children spin on the CPU the test runs on, so its
 * thread is preempted anywhere, while the kernel's submission thread has
 * another CPU (sqthread_poll_cpu) and takes entries the moment they are
 * published; in the sqthread_poll cases a timer signal every 250 us
 * interrupts the thread and its waits (EINTR). In half of the iterations one
 * submit call in four is replaced by an interleaving the kernel allows but
 * timing rarely gives (a count read after the kernel thread took the
 * entries, an error after they were published, a refusal, a partial submit:
 * see `inj` below).
 *
 * Every iteration checks that each unit submitted is reaped exactly once,
 * with its own result; that a reap gives at least its min (unless timed, or
 * the kernel refused what reap submitted); that queue() says BUSY exactly
 * when iodepth units are outstanding; that once all are reaped a reap gives
 * nothing, and the engine takes exactly iodepth units again (its count of
 * units in flight is back to 0) and hands all of them back. Release builds
 * compile the engine's asserts out, so these are what catch a miscount
 * there; a reap that waits for a unit the engine lost ends in the alarm.
 * Each case runs for its share of a time budget (twice as long under the
 * sanitizers), at least a minimum number of iterations, and the totals are
 * checked.
 */
#include "engines/engine.h"
#include "util/array.h"
#include "util/rand.h"
#include "spec/options.h"
#include "spec/jobspec.h"

#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BS 4096
#define NBLK 1024          /* blocks of the data file: 4 MiB */
#define NHOGS 2            /* spinning children */
/* iterations a case runs at least, however long they take: without
 * sqthread_poll 1000 / iodepth (2128 over the nine depths), with it 20 (its
 * round trips wait for the kernel thread to be scheduled) */
#define MIN_ITERS(depth, sqpoll) ((sqpoll) || 1000 / (depth) < 20 ? 20u : 1000 / (depth))
#define MIN_TOTAL 2000     /* iterations over all cases */
#define MIN_IOS 50000      /* units over all cases */

#if defined(__SANITIZE_ADDRESS__)
#define BUDGET_S 30.0
#define ALARM_S 115
#else
#define BUDGET_S 15.0
#define ALARM_S 100
#endif

static const unsigned depths[] = { 1, 2, 3, 7, 16, 32, 64, 128, 256 };
#define NDEPTHS (ARRAY_SIZE(depths))

static char tmpdir[] = "/tmp/iobench-uring-stress-XXXXXX";

/*
 * Interleavings the kernel allows but a test cannot wait for. The engine's
 * calls of io_uring_submit() and io_uring_submit_and_get_events() land in
 * the __wrap_ functions below (meson.build links this test with --wrap for
 * them), and while `on` is set one call in four becomes one of:
 *  - sqthread_poll: liburing's call, returning the count liburing computes
 *    had the job's thread been preempted between publishing the SQ tail and
 *    reading the SQ head: the kernel thread has taken the entries meanwhile
 *    and the count is what it left, usually 0;
 *  - sqthread_poll: liburing's call, then -EINTR, -EAGAIN or -EBUSY, as from
 *    an interrupted or refused wakeup: the entries are published regardless;
 *  - without it: -EINTR, -EAGAIN or -EBUSY with nothing given to the
 *    kernel, or a partial submit (the kernel takes one entry of those
 *    published, as when it stops at a failed one).
 * It is state the interposed functions need without a context argument.
 */
static struct {
	bool on;
	unsigned calls, injected;
	unsigned refused;     /* calls answered "took nothing" (reap may then give less than min) */
} inj;

int __real_io_uring_submit(struct io_uring *ring);
int __real_io_uring_submit_and_get_events(struct io_uring *ring);
int __wrap_io_uring_submit(struct io_uring *ring);
int __wrap_io_uring_submit_and_get_events(struct io_uring *ring);

static int inject_error(unsigned k)
{
	return k == 0 ? -EINTR : k == 1 ? -EAGAIN : -EBUSY;
}

/* Give the kernel what is filled, as liburing's submit calls begin. */
static void publish(struct io_uring *ring)
{
	ring->sq.sqe_head = ring->sq.sqe_tail;
	io_uring_smp_store_release(ring->sq.ktail, ring->sq.sqe_tail);
}

int __wrap_io_uring_submit(struct io_uring *ring)
{
	if (!inj.on || !(ring->flags & IORING_SETUP_SQPOLL) || inj.calls++ % 4)
		return __real_io_uring_submit(ring);
	unsigned k = (inj.calls / 4) % 4;
	int r = __real_io_uring_submit(ring);
	inj.injected++;
	if (r < 0 || k < 3)
		return r < 0 ? r : inject_error(k);
	/* wait (a little) for the kernel thread to take what was published */
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (!io_uring_sq_ready(ring))
			break;
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 2000000);
	return (int)io_uring_sq_ready(ring);
}

int __wrap_io_uring_submit_and_get_events(struct io_uring *ring)
{
	if (!inj.on || (ring->flags & IORING_SETUP_SQPOLL) || inj.calls++ % 4)
		return __real_io_uring_submit_and_get_events(ring);
	unsigned k = (inj.calls / 4) % 4;
	inj.injected++;
	if (k < 3) {
		inj.refused += k > 0; /* -EINTR is retried at once */
		return inject_error(k);
	}
	publish(ring);
	if (io_uring_sq_ready(ring) < 2)
		return __real_io_uring_submit_and_get_events(ring);
	return io_uring_enter((unsigned)ring->ring_fd, 1, 0, IORING_ENTER_GETEVENTS, NULL);
}

enum ustate { U_FREE, U_QUEUED };

struct rig {
	struct engine_ctx ctx;
	struct job_spec spec;
	struct io_unit *units;
	enum ustate *state;
	uint64_t *tag;        /* serial number of the unit's current I/O */
	unsigned nr, depth;
	bool sqpoll;
	void *mem;
	struct job_file data, null;
};

/* What one case saw go wrong, summed over its iterations. */
struct faults {
	unsigned lost, dup, stray, bad_result, bad_data, short_reap, over_max;
	unsigned busy_early, queued_past_depth, queue_error, commit_error, reap_error;
	unsigned left_over, refill;
	bool wedged;          /* BUSY with nothing outstanding: the case stops */
	long long bad_value;  /* the first bad result, and what its unit did */
	const char *bad_what;
	long first_iter;      /* the first iteration with a fault, -1 none */
};

static unsigned faults_sum(const struct faults *f)
{
	return f->lost + f->dup + f->stray + f->bad_result + f->bad_data + f->short_reap +
	       f->over_max + f->busy_early + f->queued_past_depth + f->queue_error +
	       f->commit_error + f->reap_error + f->left_over + f->refill;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pattern(void *buf, unsigned b)
{
	uint64_t *w = buf;
	for (unsigned i = 0; i < BS / 8; i++)
		w[i] = (uint64_t)b * 0x9e3779b97f4a7c15ULL + i;
}

static bool pattern_ok(const void *buf, unsigned b)
{
	const uint64_t *w = buf;
	for (unsigned i = 0; i < BS / 8; i++)
		if (w[i] != (uint64_t)b * 0x9e3779b97f4a7c15ULL + i)
			return false;
	return true;
}

static int spec_opt(struct job_spec *s, const char *key, const char *val)
{
	char why[256];
	int rc = option_set(s, key, val, why, sizeof(why));
	CHECK(rc == 0, "option %s: %s", key, why);
	return rc;
}

/* The engine at iodepth `depth` with twice as many units, and both files
 * open (registered with the ring when sqthread_poll is on). */
static int rig_init(struct rig *r, unsigned depth, bool sqpoll, int sq_cpu, const char *path)
{
	char cpu[16];
	unsigned n = 2 * depth;
	int ret;

	memset(r, 0, sizeof(*r));
	r->depth = depth;
	r->sqpoll = sqpoll;
	job_spec_defaults(&r->spec);
	r->spec.iodepth = depth;
	if (spec_opt(&r->spec, "ioengine", "io_uring") ||
	    (sqpoll && spec_opt(&r->spec, "sqthread_poll", NULL)))
		return -EINVAL;
	snprintf(cpu, sizeof(cpu), "%d", sq_cpu);
	if (sqpoll && sq_cpu >= 0 && spec_opt(&r->spec, "sqthread_poll_cpu", cpu))
		return -EINVAL;
	job_spec_finalize(&r->spec);
	r->ctx.ops = engine_find("io_uring");
	if (!r->ctx.ops)
		return -ENOENT;
	if (engine_ctx_setup(&r->ctx, &r->spec) < 0)
		return -EINVAL;
	r->ctx.priv = calloc(1, r->ctx.ops->priv_size);
	r->nr = n;
	if (posix_memalign(&r->mem, 4096, (size_t)n * BS))
		return -ENOMEM;
	r->units = calloc(n, sizeof(*r->units));
	r->state = calloc(n, sizeof(*r->state));
	r->tag = calloc(n, sizeof(*r->tag));
	for (unsigned i = 0; i < n; i++) {
		r->units[i].index = i;
		r->units[i].buf = (char *)r->mem + (size_t)i * BS;
	}
	if ((ret = r->ctx.ops->init(&r->ctx)) < 0)
		return ret;
	r->data = (struct job_file){ .path = (char *)path, .fd = -1, .open_flags = O_RDWR };
	r->null = (struct job_file){ .path = (char *)"/dev/null", .fd = -1, .open_flags = O_WRONLY };
	if ((ret = r->ctx.ops->open_file(&r->ctx, &r->data)) < 0)
		return ret;
	return r->ctx.ops->open_file(&r->ctx, &r->null);
}

static void rig_release(struct rig *r)
{
	if (r->data.fd >= 0)
		r->ctx.ops->close_file(&r->ctx, &r->data);
	if (r->null.fd >= 0)
		r->ctx.ops->close_file(&r->ctx, &r->null);
	if (r->ctx.ops && r->ctx.ops->cleanup)
		r->ctx.ops->cleanup(&r->ctx);
	job_spec_release(&r->spec);
	free(r->ctx.priv);
	free(r->units);
	free(r->state);
	free(r->tag);
	free(r->mem);
}

/* The state of one iteration. */
struct iter {
	struct rig *r;
	struct rng rng;
	struct faults *f;
	unsigned char *seen;  /* per serial: times reaped (saturating) */
	uint64_t base;        /* serial of this iteration's first unit */
	unsigned total, issued, outstanding;
	unsigned style;       /* which reap bounds this iteration uses */
};

/* Prepare a free unit for serial `serial`: mostly reads of the data file,
 * some rewrites of a block with its own bytes, some writes to /dev/null. */
static struct io_unit *prep_unit(struct iter *it, uint64_t serial)
{
	struct rig *r = it->r;
	unsigned start = (unsigned)rng_below(&it->rng, r->nr), slot = r->nr;

	for (unsigned s = 0; s < r->nr; s++)
		if (r->state[(start + s) % r->nr] == U_FREE) {
			slot = (start + s) % r->nr;
			break;
		}
	if (slot == r->nr)
		return NULL;
	struct io_unit *u = &r->units[slot];
	unsigned kind = (unsigned)rng_below(&it->rng, 10), b = (unsigned)rng_below(&it->rng, NBLK);
	*u = (struct io_unit){ .ddir = kind < 7 ? DDIR_READ : DDIR_WRITE,
			       .file = kind < 9 ? &r->data : &r->null, .offset = (uint64_t)b * BS,
			       .buflen = BS, .buf = u->buf, .index = slot };
	if (u->ddir == DDIR_WRITE)
		pattern(u->buf, b);
	else
		memset(u->buf, 0, BS);
	r->tag[slot] = serial;
	return u;
}

static void fault(struct iter *it, long iter_no)
{
	if (it->f->first_iter < 0)
		it->f->first_iter = iter_no;
}

/* queue() one unit; returns its status. BUSY must come exactly when the
 * depth is outstanding, QUEUED only below it. */
static int queue_one(struct iter *it, struct io_unit *u, long iter_no)
{
	struct rig *r = it->r;
	int st = r->ctx.ops->queue(&r->ctx, u);

	if (st == ENGINE_Q_QUEUED) {
		if (it->outstanding >= r->depth) {
			it->f->queued_past_depth++;
			fault(it, iter_no);
		}
		r->state[u->index] = U_QUEUED;
		it->outstanding++;
	} else if (st == ENGINE_Q_BUSY) {
		if (it->outstanding < r->depth) {
			it->f->busy_early++;
			fault(it, iter_no);
		}
		it->f->wedged |= it->outstanding == 0;
	} else {
		it->f->queue_error++;
		fault(it, iter_no);
	}
	return st;
}

/* Reap with these bounds and check what comes back; returns the count or
 * -1 on an engine error. */
static int reap_check(struct iter *it, unsigned min, unsigned max, const struct timespec *ts,
		      long iter_no)
{
	struct rig *r = it->r;
	struct io_unit *done[512];
	unsigned refused = inj.refused;
	int n = r->ctx.ops->reap(&r->ctx, min, max, ts, done);

	if (n < 0) {
		it->f->reap_error++;
		fault(it, iter_no);
		return -1;
	}
	if ((unsigned)n > max) {
		it->f->over_max++;
		fault(it, iter_no);
		n = (int)max;
	}
	/* below min only if timed, or if the kernel took nothing of what was
	 * queued when reap submitted it (the engine keeps it for later) */
	if (!ts && (unsigned)n < min && inj.refused == refused) {
		it->f->short_reap++;
		fault(it, iter_no);
	}
	for (int i = 0; i < n; i++) {
		struct io_unit *u = done[i];
		if (!u || u->index >= r->nr || u != &r->units[u->index] ||
		    r->state[u->index] != U_QUEUED) {
			it->f->stray++;
			fault(it, iter_no);
			continue;
		}
		uint64_t serial = r->tag[u->index];
		if (serial >= it->base && serial - it->base < it->total) {
			unsigned char *s = &it->seen[serial - it->base];
			if (*s < 255)
				(*s)++;
		}
		if (u->result != BS) {
			if (!it->f->bad_result++) {
				it->f->bad_value = (long long)u->result;
				it->f->bad_what = u->file == &r->null ? "a write to /dev/null"
						  : u->ddir == DDIR_READ ? "a read" : "a rewrite";
			}
			fault(it, iter_no);
		} else if (u->ddir == DDIR_READ && !pattern_ok(u->buf, (unsigned)(u->offset / BS))) {
			it->f->bad_data++;
			fault(it, iter_no);
		}
		r->state[u->index] = U_FREE;
		it->outstanding--;
	}
	return n;
}

/* The reap bounds of this iteration's style. */
static void reap_bounds(struct iter *it, unsigned *min, unsigned *max, bool *timed)
{
	unsigned out = it->outstanding, d = it->r->depth;
	struct rng *g = &it->rng;

	*timed = false;
	switch (it->style) {
	case 0: /* poll: nothing waited for, one at a time */
		*min = 0;
		*max = 1;
		break;
	case 1: /* one at least, up to the depth */
		*min = out ? 1 : 0;
		*max = d;
		break;
	case 2: /* all that is outstanding, exactly */
		*min = out;
		*max = out ? out : 1;
		break;
	case 3: /* a maximum below what is outstanding */
		*min = out ? 1 : 0;
		*max = out > 1 ? 1 + (unsigned)rng_below(g, out - 1) : 1;
		break;
	case 4: /* never wait: poll, the thread keeps running */
		*min = 0;
		*max = 1 + (unsigned)rng_below(g, d);
		break;
	case 5: /* a short timeout */
		*min = (unsigned)rng_below(g, out + 1);
		*max = *min + (unsigned)rng_below(g, d + 1);
		*timed = true;
		break;
	default: /* random bounds */
		*min = (unsigned)rng_below(g, out + 1);
		*max = *min + (unsigned)rng_below(g, d + 1);
		*timed = rng_below(g, 8) == 0;
		break;
	}
	if (*max < 1)
		*max = 1;
	if (*max > 2 * d)
		*max = 2 * d;
	if (*min > *max)
		*min = *max;
}

/* Reap until nothing is outstanding: waiting for all of it, or, in the
 * polling styles, with reaps that wait for nothing. */
static void drain(struct iter *it, long iter_no)
{
	bool poll = it->style == 0 || it->style == 4;
	for (unsigned guard = 0; it->outstanding && guard < 10000000; guard++)
		if (reap_check(it, poll ? 0 : it->outstanding, it->r->depth, NULL, iter_no) < 0)
			return;
}

/* One iteration: a random mix, a drain, and the count checks. */
static void one_iter(struct rig *r, struct faults *f, uint64_t seed, long iter_no,
		     uint64_t *serial, unsigned *ios)
{
	struct iter it = { .r = r, .f = f };
	struct io_unit *done[512];

	rng_seed(&it.rng, seed);
	it.total = 1 + (unsigned)rng_below(&it.rng, 4 * r->depth + 8);
	it.style = (unsigned)rng_below(&it.rng, 7);
	it.base = *serial;
	it.seen = calloc(it.total + r->depth + 1, 1);
	inj.on = rng_below(&it.rng, 2);
	while ((it.issued < it.total || it.outstanding) && !f->wedged) {
		unsigned act = (unsigned)rng_below(&it.rng, 10);
		if (it.issued == it.total)
			act = 9;
		if (act < 5) { /* a burst of queue(), sometimes past the depth */
			unsigned k = 1 + (unsigned)rng_below(&it.rng, r->depth + 2);
			for (unsigned i = 0; i < k && it.issued < it.total; i++) {
				struct io_unit *u = prep_unit(&it, it.base + it.issued);
				if (!u)
					break;
				int st = queue_one(&it, u, iter_no);
				if (st != ENGINE_Q_QUEUED)
					break;
				it.issued++;
			}
		} else if (act < 7) {
			if (r->ctx.ops->commit(&r->ctx) != 0) {
				f->commit_error++;
				fault(&it, iter_no);
			}
		} else {
			unsigned min, max;
			bool timed;
			struct timespec ts = { 0, (long)rng_below(&it.rng, 200000) };
			reap_bounds(&it, &min, &max, &timed);
			if (it.issued == it.total) { /* drain with this style's bounds */
				if (!min && it.style != 0 && it.style != 4)
					min = 1;
				timed = false;
			}
			if (reap_check(&it, min, max, timed ? &ts : NULL, iter_no) < 0)
				break;
		}
	}
	drain(&it, iter_no);
	for (unsigned t = 0; t < it.issued; t++) {
		if (!it.seen[t]) {
			f->lost++;
			fault(&it, iter_no);
		} else if (it.seen[t] > 1) {
			f->dup++;
			fault(&it, iter_no);
		}
	}
	/* nothing outstanding: a reap with min 0 gives nothing, */
	if (r->ctx.ops->reap(&r->ctx, 0, r->depth, NULL, done) != 0) {
		f->left_over++;
		fault(&it, iter_no);
	}
	/* the engine takes exactly the depth again, and hands it all back
	 * (committed or, every other time, straight from reap) */
	*serial = it.base + it.issued;
	*ios += it.issued;
	memset(it.seen, 0, it.total + r->depth + 1);
	it.base = *serial;
	it.total = r->depth + 1;
	it.issued = 0;
	unsigned took = 0;
	for (unsigned i = 0; i <= r->depth; i++) {
		struct io_unit *u = prep_unit(&it, it.base + i);
		if (!u)
			break;
		int st = queue_one(&it, u, iter_no);
		if (st != ENGINE_Q_QUEUED)
			break;
		took++;
	}
	it.issued = took;
	if (took != r->depth) {
		f->refill++;
		fault(&it, iter_no);
	}
	if (iter_no % 2 && r->ctx.ops->commit(&r->ctx) != 0) {
		f->commit_error++;
		fault(&it, iter_no);
	}
	drain(&it, iter_no);
	for (unsigned t = 0; t < took; t++)
		if (it.seen[t] != 1) {
			f->refill++;
			fault(&it, iter_no);
		}
	*serial = it.base + took;
	*ios += took;
	inj.on = false;
	free(it.seen);
}

static void run_case(unsigned depth, bool sqpoll, int sq_cpu, const char *path, double slice,
		     unsigned *iters_total, unsigned *ios_total)
{
	struct rig r;
	struct faults f = { .first_iter = -1 };
	uint64_t serial = 0, seed0 = 7000 + depth * 2 + sqpoll;
	unsigned ios = 0;
	long iter = 0;

	printf("# depth %u, sqthread_poll %s\n", depth, sqpoll ? "on" : "off");
	fflush(stdout);
	int ret = rig_init(&r, depth, sqpoll, sq_cpu, path);
	CHECK(ret == 0, "depth %u sqthread_poll=%d: init and open gave %d (%s)", depth, sqpoll, ret,
	      strerror(ret < 0 ? -ret : 0));
	if (ret) {
		rig_release(&r);
		return;
	}
	double t0 = now_s(), end = t0 + slice;
	unsigned injected0 = inj.injected;
	const long min_iters = (long)MIN_ITERS(depth, sqpoll);
	while (iter < min_iters || now_s() < end) {
		one_iter(&r, &f, seed0 * 1000003 + (uint64_t)iter, iter, &serial, &ios);
		iter++;
		if (faults_sum(&f) > 1000 || f.wedged)
			break;
	}
	CHECK(faults_sum(&f) == 0,
	      "depth %u sqthread_poll=%d: from iteration %ld of %ld (seed %llu): %u lost, %u reaped "
	      "twice, %u stray, %u bad results, %u bad data, %u reaps below min, %u above max, "
	      "%u BUSY below the depth, %u queued past it, %u queue, %u commit, %u reap errors, "
	      "%u left over, %u refill faults%s; the first bad result: %lld of %s",
	      depth, sqpoll, f.first_iter, iter,
	      (unsigned long long)(seed0 * 1000003 + (uint64_t)(f.first_iter < 0 ? 0 : f.first_iter)),
	      f.lost, f.dup, f.stray, f.bad_result, f.bad_data, f.short_reap, f.over_max,
	      f.busy_early, f.queued_past_depth, f.queue_error, f.commit_error, f.reap_error,
	      f.left_over, f.refill, f.wedged ? "; then BUSY with nothing outstanding" : "",
	      f.bad_value, f.bad_result ? f.bad_what : "none");
	CHECK(iter >= min_iters, "depth %u sqthread_poll=%d: %ld of %ld iterations", depth, sqpoll,
	      iter, min_iters);
	CHECK(inj.injected > injected0, "depth %u sqthread_poll=%d: no submit call was replaced",
	      depth, sqpoll);
	printf("# %ld iterations, %u units, %u submit calls replaced, in %.2f s\n", iter, ios,
	       inj.injected - injected0, now_s() - t0);
	*iters_total += (unsigned)iter;
	*ios_total += ios;
	rig_release(&r);
}

/* A child that spins until killed (or until the test dies). */
static pid_t start_hog(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return pid;
	signal(SIGUSR1, SIG_IGN);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	for (volatile unsigned long i = 0;; i++)
		;
}

static void on_tick(int sig)
{
	(void)sig; /* only there to interrupt the test's thread and its waits */
}

/* A timer for a signal every 250 us, without SA_RESTART: the thread is
 * interrupted at any instruction (inside a submit, say) and the engine's
 * waits see EINTR. */
static int make_ticks(timer_t *t)
{
	struct sigaction sa = { .sa_handler = on_tick };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) || timer_create(CLOCK_MONOTONIC, &ev, t))
		return -errno;
	return 0;
}

/* Only with sqthread_poll: without it the kernel starts its io-wq workers
 * from the submitting thread, and when a signal is pending at each of its
 * tries it fails the waiting work with -ECANCELED (seen at depth 128); with
 * SQPOLL the kernel thread submits and the test's thread only waits. */
static int arm_ticks(timer_t t, bool on)
{
	long ns = on ? 250000 : 0;
	struct itimerspec its = { .it_interval = { 0, ns }, .it_value = { 0, ns } };

	return timer_settime(t, 0, &its, NULL) ? -errno : 0;
}

static void on_alarm(int sig)
{
	static const char msg[] = "not ok: timed out: a reap waits for a unit the engine lost "
				  "or the kernel never had (the last '# depth' line is the case)\n";
	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

int main(void)
{
	pid_t hogs[NHOGS];
	char path[128];
	static char blk[BS];
	unsigned iters = 0, ios = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	alarm(ALARM_S);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/data", tmpdir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0, "create %s", path);
	for (unsigned b = 0; fd >= 0 && b < NBLK; b++) {
		pattern(blk, b);
		CHECK(pwrite(fd, blk, BS, (off_t)b * BS) == BS, "lay out block %u", b);
	}
	if (fd >= 0)
		close(fd);
	/* The test's thread and the hogs share one CPU, so the thread is
	 * preempted wherever it is, for a whole time slice; the kernel's
	 * submission thread gets another CPU to itself (sqthread_poll_cpu), so
	 * it takes entries the moment the tail covers them. */
	cpu_set_t allowed, one;
	int cpu_a = -1, cpu_b = -1;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0)
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed)) {
				if (cpu_a < 0)
					cpu_a = c;
				cpu_b = c;
			}
	if (cpu_a >= 0 && cpu_b != cpu_a) {
		CPU_ZERO(&one);
		CPU_SET(cpu_a, &one);
		CHECK(sched_setaffinity(0, sizeof(one), &one) == 0, "pin to CPU %d", cpu_a);
	} else {
		cpu_b = -1; /* one CPU: nothing to spread over */
	}
	printf("# the test and its hogs on CPU %d, the submission thread on %d\n", cpu_a, cpu_b);
	for (unsigned i = 0; i < NHOGS; i++) {
		hogs[i] = start_hog();
		CHECK(hogs[i] > 0, "fork a CPU hog");
	}
	timer_t ticks;
	int tr = make_ticks(&ticks);
	bool made = tr == 0;
	CHECK(made, "a timer signal: %s", strerror(-tr));
	/* a third of the time without sqthread_poll, two thirds with it */
	double t0 = now_s(), slice = BUDGET_S / (3 * NDEPTHS);
	for (unsigned sq = 0; sq < 2; sq++) {
		if (made) {
			tr = arm_ticks(ticks, sq);
			CHECK(tr == 0, "arm the timer: %s", strerror(-tr));
		}
		for (unsigned i = 0; i < NDEPTHS; i++)
			run_case(depths[i], sq, cpu_b, path, (1 + sq) * slice, &iters, &ios);
	}
	if (made)
		timer_delete(ticks);
	for (unsigned i = 0; i < NHOGS; i++)
		if (hogs[i] > 0) {
			kill(hogs[i], SIGKILL);
			waitpid(hogs[i], NULL, 0);
		}
	printf("# %u iterations, %u units in %.1f s beside %d spinning children\n", iters, ios,
	       now_s() - t0, NHOGS);
	CHECK(iters >= MIN_TOTAL && ios >= MIN_IOS, "only %u iterations and %u units ran", iters, ios);
	unlink(path);
	rmdir(tmpdir);
	return check_done("test_uring_stress");
}
