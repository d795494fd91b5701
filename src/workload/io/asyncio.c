/*
 * Driving asynchronous engines with fio's queue-depth semantics:
 *  - up to `iodepth` I/Os in flight;
 *  - queued I/Os are submitted (commit) once `iodepth_batch_submit` of them
 *    are waiting, or when the queue is full;
 *  - a full queue is reaped until no more than `iodepth_low` remain, each
 *    reap asking for at least `iodepth_batch_complete_min` and at most
 *    `iodepth_batch_complete_max` completions;
 *  - slat runs from prep until the submission call returns and clat from
 *    then to completion; iodepth_level, iodepth_submit and iodepth_complete record
 *    the depth at each queue, the size of each submission and of each reap.
 * serialize_overlap: an I/O that overlaps one in flight on the same file
 * waits (completions are reaped) until that one is done, as in fio.
 * io_submit_mode=offload: issue and reap go to the submitting threads
 * (submitq.c), with the same free stack and in-flight count.
 * Units come from a free stack, so finding one is O(1) at any depth. Every
 * error is recorded where it is seen: a failed I/O under the job's error
 * policy (job_io_failed), a failed commit or reap as the engine's.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdlib.h>

#include "util/assert.h"
#include "workload/io/io.h"

/* Every unit is idle (on the free stack) or in flight, counted once; only
 * the unit a caller holds between get and issue is neither. */
static inline bool units_balanced(const struct job *j, unsigned held)
{
	return j->nr_free + j->inflight + held == j->nr_units && j->nr_pending <= j->inflight;
}

int async_init(struct job *j)
{
	j->free_units = calloc(j->nr_units, sizeof(*j->free_units));
	j->pending = calloc(j->nr_units, sizeof(*j->pending));
	if (!j->free_units || !j->pending)
		return -ENOMEM;
	for (unsigned i = 0; i < j->nr_units; i++)
		j->free_units[i] = &j->units[j->nr_units - 1 - i];
	j->nr_free = j->nr_units;
	j->nr_pending = 0;
	IOB_ASSERT(j->inflight == 0 && units_balanced(j, 0));
	return j->spec->io_submit_offload ? submitq_start(j) : 0;
}

void async_release(struct job *j)
{
	submitq_free(j);
	free(j->free_units);
	free(j->pending);
	j->free_units = NULL;
	j->pending = NULL;
}

struct io_unit *async_get_unit(struct job *j)
{
	IOB_ASSERT(units_balanced(j, 0));
	if (j->lat_qd && j->inflight >= j->lat_qd)
		return NULL; /* latency_target: the depth being tried */
	struct io_unit *u = j->nr_free ? j->free_units[--j->nr_free] : NULL;
	IOB_ASSERT(!u || job_unit_ok(j, u));
	return u;
}

void async_put_unit(struct job *j, struct io_unit *u)
{
	IOB_ASSERT(j->nr_free < j->nr_units && u->index < j->nr_units && u == &j->units[u->index]);
	j->free_units[j->nr_free++] = u;
}

/* Submit everything queued; the submission time ends each unit's slat. */
static int commit(struct job *j)
{
	const struct engine_ops *ops = j->eng.ops;
	IOB_ASSERT(j->nr_pending <= j->inflight && j->inflight <= j->nr_units);
	if (!j->nr_pending)
		return 0;
	if (ops->commit) {
		int rc = ops->commit(&j->eng);
		if (rc < 0) {
			job_fail(j, NULL, rc);
			return rc;
		}
	}
	/* as fio: submission (the system call included) is slat, clat starts
	 * once the kernel has the I/O */
	uint64_t now = job_now(j);
	for (unsigned i = 0; i < j->nr_pending; i++)
		j->pending[i]->issue_ns = now;
	j->res.iodepth_submit[iodepth_sc_bucket(j->nr_pending)]++;
	j->nr_pending = 0;
	return 0;
}

int async_reap(struct job *j, unsigned min)
{
	if (j->subq)
		return submitq_reap(j, min);
	const struct engine_ops *ops = j->eng.ops;
	const struct job_spec *s = j->spec;
	int rc = commit(j);
	if (rc < 0)
		return rc;
	if (!j->inflight)
		return 0;
	unsigned max = s->iodepth_batch_complete_max ? s->iodepth_batch_complete_max : j->inflight;
	if (max > j->inflight)
		max = j->inflight;
	if (min > max)
		min = max;
	IOB_ASSERT(min <= max && max <= j->inflight && j->inflight <= j->nr_units);
	int n = ops->reap(&j->eng, min, max, NULL, j->done);
	if (n < 0) {
		job_fail(j, NULL, n);
		return n;
	}
	IOB_ASSERT((unsigned)n <= max); /* done[] holds nr_units */
	uint64_t now = job_now(j);
	if (n)
		j->res.iodepth_complete[iodepth_sc_bucket((unsigned)n)]++;
	int err = 0;
	for (int i = 0; i < n; i++) {
		struct io_unit *u = j->done[i];
		IOB_ASSERT(j->inflight > 0 && job_unit_ok(j, u) && u->ddir < DDIR_INVAL);
		j->inflight--;
		if (u->result < 0) {
			int e = job_io_failed(j, u, (int)u->result);
			if (e < 0 && !err)
				err = e;
		} else if (u->ddir >= DDIR_RWDIR_CNT) {
			job_account_sync(j, u, now);
		} else {
			if ((uint64_t)u->result < u->buflen)
				j->res.dir[u->ddir].short_ios++;
			job_account(j, u, now, true);
		}
		async_put_unit(j, u);
	}
	return err ? err : n;
}

/* Reap down to the low-water mark once the queue is full. */
static int make_room(struct job *j)
{
	const struct job_spec *s = j->spec;
	unsigned depth = j->nr_units;
	IOB_ASSERT(depth > 0 && j->inflight <= depth);
	unsigned low = s->iodepth_low && s->iodepth_low < depth ? s->iodepth_low : depth - 1;
	unsigned min = s->iodepth_batch_complete_min ? s->iodepth_batch_complete_min : 1;
	while (j->inflight > low) {
		unsigned want = j->inflight - low;
		int rc = async_reap(j, want < min ? want : min);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* serialize_overlap: whether u overlaps an I/O in flight (or queued) on
 * its file; the units not on the free stack other than u are in flight. */
static bool overlaps_inflight(const struct job *j, const struct io_unit *u)
{
	if (!j->inflight)
		return false;
	for (unsigned k = 0; k < j->nr_units; k++) {
		const struct io_unit *o = &j->units[k];
		if (o == u || o->file != u->file || o->ddir >= DDIR_RWDIR_CNT ||
		    o->offset >= u->offset + u->buflen || u->offset >= o->offset + o->buflen)
			continue;
		bool idle = false;
		for (unsigned f = 0; f < j->nr_free && !idle; f++)
			idle = j->free_units[f] == o;
		if (!idle)
			return true;
	}
	return false;
}

int async_issue(struct job *j, struct io_unit *u)
{
	const struct engine_ops *ops = j->eng.ops;
	const struct job_spec *s = j->spec;
	int rc;
	IOB_ASSERT(units_balanced(j, 1) && job_unit_ok(j, u) && u->ddir < DDIR_INVAL);
	/* offload too: the submitting threads never hold two overlapping
	 * I/Os at once, as the I/O waits here until those are back */
	while (s->serialize_overlap && u->ddir < DDIR_RWDIR_CNT && overlaps_inflight(j, u))
		if ((rc = async_reap(j, 1)) < 0) {
			async_put_unit(j, u);
			return rc;
		}
	if (j->subq)
		return submitq_issue(j, u);
	u->start_ns = job_now(j);
	if (ops->prep && (rc = ops->prep(&j->eng, u)) < 0) {
		rc = job_io_failed(j, u, rc);
		async_put_unit(j, u);
		return rc;
	}
	uint64_t issued = job_now(j);
	for (;;) {
		rc = ops->queue(&j->eng, u);
		if (rc != ENGINE_Q_BUSY)
			break;
		/* the engine is out of slots: submit and reap before retrying */
		if ((rc = async_reap(j, 1)) < 0) {
			async_put_unit(j, u);
			return rc;
		}
	}
	if (rc < 0) {
		rc = job_io_failed(j, u, rc);
		async_put_unit(j, u);
		return rc;
	}
	j->inflight++;
	IOB_ASSERT(j->inflight <= j->nr_units && j->inflight <= s->iodepth + !s->iodepth);
	j->res.iodepth_level[iodepth_level_bucket(j->inflight)]++;
	if (rc == ENGINE_Q_COMPLETED) {
		/* done inside queue(): as fio, clat from the issue and no slat */
		u->issue_ns = issued;
		j->inflight--;
		if (u->result < 0) {
			rc = job_io_failed(j, u, (int)u->result);
			async_put_unit(j, u);
			return rc;
		}
		if (u->ddir >= DDIR_RWDIR_CNT)
			job_account_sync(j, u, job_now(j));
		else
			job_account(j, u, job_now(j), false);
		async_put_unit(j, u);
		return 0;
	}
	IOB_ASSERT(j->nr_pending < j->inflight);
	j->pending[j->nr_pending++] = u;
	unsigned batch = s->iodepth_batch ? s->iodepth_batch : 1;
	if (j->nr_pending >= batch || j->inflight >= j->nr_units)
		if ((rc = commit(j)) < 0)
			return rc;
	if (j->inflight >= j->nr_units)
		return make_room(j);
	return 0;
}

int async_drain(struct job *j)
{
	return async_drain_holding(j, 0);
}

int async_drain_holding(struct job *j, unsigned held)
{
	int err = 0;
	IOB_ASSERT(units_balanced(j, held));
	while (j->inflight) {
		unsigned before = j->inflight;
		int rc = async_reap(j, 1);
		if (rc < 0 && !err)
			err = rc;
		if (rc < 0 && j->inflight == before)
			break; /* the engine itself failed: nothing more will come back */
	}
	return err;
}
