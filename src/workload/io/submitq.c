/*
 * io_submit_mode=offload, fio's meaning: the job's thread makes the I/Os
 * (offsets, buffers, the rate= / rate_iops= / rate_process=poisson
 * schedule) and hands each to a pool of submitting threads, iodepth of
 * them, which queue it to the engine and wait for its completion; so the
 * job keeps its submission schedule whatever the device's completion rate
 * (no coordinated omission: an I/O that waits for a free thread has that
 * wait in its latency). As in fio, each thread does one I/O at a time:
 * an asynchronous engine gets an instance of its own per thread at depth 1
 * (submit, then reap one), a synchronous engine is called on the job's
 * instance, by all threads at once when it keeps no state of its own
 * (psync, pvsync, null) and one thread at a time otherwise.
 *
 * The job's thread still does all the accounting: a thread that finished
 * an I/O puts it on the done list with its completion time, and the job's
 * thread takes those (submitq_reap) when it needs a unit or drains, with
 * the times the threads measured: lat from when the job made the I/O,
 * clat from when the thread issued it, slat (asynchronous engines only,
 * as fio) between the two. Like fio, the I/O depth reported is 1 per
 * thread. The threads' CPU time counts towards the job's.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/cpuusage.h"
#include "util/assert.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/io/io.h"

struct subq_worker {
	struct submitq *q;
	pthread_t thread;
	bool started;
	struct engine_ctx eng;   /* an asynchronous engine's own instance */
	bool own_eng;
	struct cpu_usage cpu;    /* its CPU use, from its start to its end */
};

struct submitq {
	struct job *j;
	pthread_mutex_t lock;
	pthread_cond_t work_cv;  /* a unit to submit, or the end */
	pthread_cond_t done_cv;  /* a unit is done */
	struct io_unit **work;   /* FIFO ring of nr_units */
	unsigned work_head, work_n;
	struct io_unit **done;   /* done, not yet accounted */
	unsigned done_n;
	uint64_t *done_ns;       /* by unit index: when it completed */
	unsigned *shorts;        /* by unit index: short transfers resubmitted */
	bool *queued;            /* by unit index: an async engine queued it (slat) */
	bool exit;
	bool serialize;          /* the shared synchronous engine, one call at a time */
	pthread_mutex_t eng_lock;
	unsigned nr_workers;
	struct subq_worker *w;
	struct cpu_usage cpu;    /* the stopped threads' CPU use, summed */
	bool stopped;
};

int submitq_check(const struct job *j)
{
	const struct job_spec *s = j->spec;
	const struct engine_ops *ops = j->eng.ops;
	const char *why = NULL;
	if (!s->io_submit_offload)
		return 0;
	if (ops->flags & (ENGINE_META | ENGINE_NO_IO | ENGINE_NO_LAYOUT))
		why = "with this engine (its operations are not data I/O)";
	else if ((ops->flags & ENGINE_ASYNC) && ops->open_file != engine_file_open)
		why = "with this engine (its files and buffers belong to the job's own instance)";
	else if (s->verify != VERIFY_NONE || s->verify_only)
		why = "with verify=";
	else if (s->read_iolog)
		why = "with read_iolog= (replay)";
	else if (s->trim_percentage)
		why = "with trim_percentage=";
	if (!why)
		return 0;
	return error("job '%s': io_submit_mode=offload %s is not implemented yet (the %s engine); "
		     "use io_submit_mode=inline", s->name, why, ops->name);
}

/* A synchronous engine that all threads may call at once: no state of its
 * own (no priv, no init) and plain descriptors. */
static bool shared_engine_concurrent(const struct engine_ops *ops)
{
	return !ops->priv_size && !ops->init &&
	       (ops->open_file == engine_file_open || (ops->flags & ENGINE_NO_FILE));
}

/* One unit through a synchronous engine (or an asynchronous one that
 * completed it inside queue()), short transfers resubmitted as fio does;
 * u->result ends as the bytes done or -errno. */
static void do_sync(struct submitq *q, struct engine_ctx *e, struct io_unit *u)
{
	void *buf = u->buf;
	uint64_t want = u->buflen, off = u->offset, done = 0;
	unsigned shorts = 0;
	for (;;) {
		int rc = e->ops->queue(e, u);
		if (rc < 0) {
			u->result = rc;
			break;
		}
		if (u->result < 0 || u->ddir >= DDIR_RWDIR_CNT)
			break;
		done += (uint64_t)u->result;
		if (done >= want || u->result == 0)
			break;
		shorts++;
		u->buf = (char *)buf + done;
		u->offset = off + done;
		u->buflen = want - done;
	}
	u->buf = buf;
	u->offset = off;
	u->buflen = want;
	if (u->result >= 0 && u->ddir < DDIR_RWDIR_CNT)
		u->result = done < want ? -ENODATA : (int64_t)done;
	q->shorts[u->index] = shorts;
}

static void run_unit(struct subq_worker *w, struct io_unit *u)
{
	struct submitq *q = w->q;
	struct job *j = q->j;
	struct engine_ctx *e = w->own_eng ? &w->eng : &j->eng;
	int rc;
	q->queued[u->index] = false;
	if (q->serialize)
		pthread_mutex_lock(&q->eng_lock);
	if (u->ddir >= DDIR_RWDIR_CNT) {
		u->issue_ns = job_now(j);
		engine_do_sync(u);
		goto out;
	}
	if (e->ops->prep && (rc = e->ops->prep(e, u)) < 0) {
		u->issue_ns = job_now(j);
		u->result = rc;
		goto out;
	}
	u->issue_ns = job_now(j);
	if (!w->own_eng) {
		do_sync(q, e, u);
		goto out;
	}
	for (;;) {
		rc = e->ops->queue(e, u);
		if (rc != ENGINE_Q_BUSY)
			break;
		struct io_unit *got[1];
		if (e->ops->reap(e, 1, 1, NULL, got) < 0)
			break; /* at depth 1 nothing else is in flight: BUSY is the engine's */
	}
	if (rc < 0) {
		u->result = rc;
	} else if (rc == ENGINE_Q_COMPLETED) {
		if (u->result >= 0 && u->ddir < DDIR_RWDIR_CNT && (uint64_t)u->result < u->buflen)
			q->shorts[u->index] = 1;
	} else {
		if (e->ops->commit && (rc = e->ops->commit(e)) < 0) {
			u->result = rc;
			goto out;
		}
		u->issue_ns = job_now(j); /* as fio: the submission is slat */
		q->queued[u->index] = true;
		struct io_unit *got[1];
		int n;
		do
			n = e->ops->reap(e, 1, 1, NULL, got);
		while (n == 0);
		if (n < 0)
			u->result = n;
		else
			IOB_ASSERT(got[0] == u);
		if (u->result >= 0 && (uint64_t)u->result < u->buflen)
			q->shorts[u->index] = 1;
	}
out:
	if (q->serialize)
		pthread_mutex_unlock(&q->eng_lock);
	q->done_ns[u->index] = job_now(j);
}

static void *worker_main(void *arg)
{
	struct subq_worker *w = arg;
	struct submitq *q = w->q;
	struct cpu_usage c0, c1;
	cpu_usage_thread(&c0);
	pthread_mutex_lock(&q->lock);
	for (;;) {
		while (!q->work_n && !q->exit)
			pthread_cond_wait(&q->work_cv, &q->lock);
		if (!q->work_n)
			break;
		struct io_unit *u = q->work[q->work_head];
		q->work_head = (q->work_head + 1) % q->j->nr_units;
		q->work_n--;
		pthread_mutex_unlock(&q->lock);
		run_unit(w, u);
		pthread_mutex_lock(&q->lock);
		q->done[q->done_n++] = u;
		pthread_cond_signal(&q->done_cv);
	}
	pthread_mutex_unlock(&q->lock);
	cpu_usage_thread(&c1);
	cpu_usage_delta(&c0, &c1, &w->cpu);
	return NULL;
}

static void worker_engine_free(struct subq_worker *w)
{
	if (!w->own_eng)
		return;
	if (w->eng.ops->cleanup && w->eng.priv)
		w->eng.ops->cleanup(&w->eng);
	free(w->eng.priv);
	w->own_eng = false;
}

static int worker_engine(struct job *j, struct subq_worker *w)
{
	const struct engine_ops *ops = j->eng.ops;
	int rc;
	w->eng = (struct engine_ctx){ .ops = ops, .params = j->eng.params, .opts = j->eng.opts };
	w->eng.params.iodepth = 1; /* as fio: each thread queues one I/O */
	if (ops->priv_size)
		w->eng.priv = xcalloc(1, ops->priv_size);
	w->own_eng = true;
	if (ops->init && (rc = ops->init(&w->eng)) < 0) {
		free(w->eng.priv);
		w->own_eng = false;
		return error_errno(rc, "job '%s': cannot initialise the %s engine of a submitting "
				   "thread (io_submit_mode=offload)", j->spec->name, ops->name);
	}
	if (ops->register_buffers &&
	    (rc = ops->register_buffers(&w->eng, j->units, j->nr_units, j->buf_size)) < 0) {
		worker_engine_free(w);
		return error_errno(rc, "job '%s': the %s engine of a submitting thread cannot "
				   "register the buffers", j->spec->name, ops->name);
	}
	return 0;
}

int submitq_start(struct job *j)
{
	struct submitq *q = xcalloc(1, sizeof(*q));
	unsigned n = j->nr_units;
	int rc = 0;
	q->j = j;
	pthread_mutex_init(&q->lock, NULL);
	pthread_mutex_init(&q->eng_lock, NULL);
	pthread_cond_init(&q->work_cv, NULL);
	pthread_cond_init(&q->done_cv, NULL);
	q->work = xcalloc(n, sizeof(*q->work));
	q->done = xcalloc(n, sizeof(*q->done));
	q->done_ns = xcalloc(n, sizeof(*q->done_ns));
	q->shorts = xcalloc(n, sizeof(*q->shorts));
	q->queued = xcalloc(n, sizeof(*q->queued));
	q->w = xcalloc(n, sizeof(*q->w));
	bool async = !(j->eng.ops->flags & ENGINE_SYNC);
	q->serialize = !async && !shared_engine_concurrent(j->eng.ops);
	j->subq = q;
	for (unsigned i = 0; i < n && !rc; i++) {
		struct subq_worker *w = &q->w[i];
		w->q = q;
		if (async && (rc = worker_engine(j, w)) < 0)
			break;
		int e = pthread_create(&w->thread, NULL, worker_main, w);
		if (e) {
			worker_engine_free(w);
			rc = error_errno(-e, "job '%s': cannot start submitting thread %u of %u "
					 "(io_submit_mode=offload)", j->spec->name, i + 1, n);
			break;
		}
		w->started = true;
		pthread_setname_np(w->thread, "iob-submit");
		q->nr_workers++;
	}
	return rc;
}

/* Account every unit the threads finished; *got counts them. */
static int account_done(struct job *j, struct io_unit **units, unsigned n)
{
	struct submitq *q = j->subq;
	bool async = !(j->eng.ops->flags & ENGINE_SYNC);
	int err = 0;
	for (unsigned i = 0; i < n; i++) {
		struct io_unit *u = units[i];
		uint64_t now = q->done_ns[u->index];
		IOB_ASSERT(j->inflight > 0 && job_unit_ok(j, u) && u->ddir < DDIR_INVAL);
		j->inflight--;
		/* as fio's threads: each at depth 1, one I/O per submission and reap */
		j->res.iodepth_level[iodepth_level_bucket(1)]++;
		j->res.iodepth_submit[iodepth_sc_bucket(1)]++;
		j->res.iodepth_complete[iodepth_sc_bucket(1)]++;
		if (u->ddir < DDIR_RWDIR_CNT)
			j->res.dir[u->ddir].short_ios += q->shorts[u->index];
		if (u->result < 0) {
			int rc = (int)u->result == -ENODATA ? -EIO : (int)u->result;
			int e = job_io_failed(j, u, rc);
			if (e < 0 && !err)
				err = e;
		} else if (u->ddir >= DDIR_RWDIR_CNT) {
			job_account_sync(j, u, now);
		} else {
			job_account(j, u, now, async && q->queued[u->index]);
		}
		async_put_unit(j, u);
	}
	return err;
}

int submitq_reap(struct job *j, unsigned min)
{
	struct submitq *q = j->subq;
	struct io_unit *got[q->j->nr_units];
	if (min > j->inflight)
		min = j->inflight;
	pthread_mutex_lock(&q->lock);
	while (q->done_n < min)
		pthread_cond_wait(&q->done_cv, &q->lock);
	unsigned n = q->done_n;
	memcpy(got, q->done, n * sizeof(*got));
	q->done_n = 0;
	pthread_mutex_unlock(&q->lock);
	int err = account_done(j, got, n);
	return err ? err : (int)n;
}

int submitq_issue(struct job *j, struct io_unit *u)
{
	struct submitq *q = j->subq;
	IOB_ASSERT(j->inflight < j->nr_units && u->ddir < DDIR_INVAL);
	u->start_ns = job_now(j); /* as fio: lat from when the job made it */
	u->result = 0;
	j->inflight++;
	pthread_mutex_lock(&q->lock);
	q->work[(q->work_head + q->work_n) % j->nr_units] = u;
	q->work_n++;
	pthread_cond_signal(&q->work_cv);
	bool any = q->done_n > 0;
	pthread_mutex_unlock(&q->lock);
	if (any) { /* account what is done, without waiting */
		int rc = submitq_reap(j, 0);
		return rc < 0 ? rc : 0;
	}
	return 0;
}

void submitq_stop(struct job *j)
{
	struct submitq *q = j->subq;
	if (!q || q->stopped)
		return;
	pthread_mutex_lock(&q->lock);
	q->exit = true;
	pthread_cond_broadcast(&q->work_cv);
	pthread_mutex_unlock(&q->lock);
	for (unsigned i = 0; i < q->nr_workers; i++) {
		struct subq_worker *w = &q->w[i];
		pthread_join(w->thread, NULL);
		q->cpu.user_ns += w->cpu.user_ns;
		q->cpu.sys_ns += w->cpu.sys_ns;
		q->cpu.ctx += w->cpu.ctx;
		q->cpu.majflt += w->cpu.majflt;
		q->cpu.minflt += w->cpu.minflt;
		q->cpu.run_ns += w->cpu.run_ns;
		q->cpu.wait_ns += w->cpu.wait_ns;
	}
	q->stopped = true;
}

void submitq_cpu(const struct job *j, struct cpu_usage *dc)
{
	const struct submitq *q = j->subq;
	if (!q || !q->stopped)
		return;
	dc->user_ns += q->cpu.user_ns;
	dc->sys_ns += q->cpu.sys_ns;
	dc->ctx += q->cpu.ctx;
	dc->majflt += q->cpu.majflt;
	dc->minflt += q->cpu.minflt;
	dc->run_ns += q->cpu.run_ns;
	dc->wait_ns += q->cpu.wait_ns;
}

void submitq_free(struct job *j)
{
	struct submitq *q = j->subq;
	if (!q)
		return;
	submitq_stop(j);
	for (unsigned i = 0; i < q->nr_workers; i++)
		worker_engine_free(&q->w[i]);
	pthread_mutex_destroy(&q->lock);
	pthread_mutex_destroy(&q->eng_lock);
	pthread_cond_destroy(&q->work_cv);
	pthread_cond_destroy(&q->done_cv);
	free(q->work);
	free(q->done);
	free(q->done_ns);
	free(q->shorts);
	free(q->queued);
	free(q->w);
	free(q);
	j->subq = NULL;
}
