/*
 * One I/O on a synchronous engine: prepared, queued (a short transfer's
 * rest queued again, as fio does) and accounted when it completes, in the
 * job's thread.
 */
#include "workload/job/job.h"

#include <errno.h>

#include "util/assert.h"
#include "workload/io/io.h"

/* Synchronous engines: one I/O at a time, completed inside queue(); *done_ns
 * gets the completion time (the caller's next "now", one clock read less). */
int job_sync_issue_at(struct job *j, struct io_unit *u, uint64_t *done_ns)
{
	const struct engine_ops *ops = j->eng.ops;
	void *buf = u->buf;
	uint64_t want = u->buflen, off = u->offset, done = 0;
	int rc;
	IOB_ASSERT(u->ddir < DDIR_RWDIR_CNT && job_unit_ok(j, u));
	u->start_ns = job_now(j);
	if (ops->prep && (rc = ops->prep(&j->eng, u)) < 0)
		return rc;
	/* as fio: lat starts when the unit is prepared, clat when it is
	 * issued, so lat is clat plus the preparation (fio's sync engines
	 * report them some 40 ns apart); gtod_reduce/disable_lat skip it */
	u->issue_ns = j->spec->disable_lat ? u->start_ns : job_now(j);
	for (;;) {
		rc = ops->queue(&j->eng, u);
		if (rc < 0)
			return rc;
		if (rc == ENGINE_Q_DONE)
			return 1; /* the engine ends the job (cpuio's exit_on_io_done) */
		if (u->result < 0)
			break;
		IOB_ASSERT((uint64_t)u->result <= u->buflen); /* an engine moves what it is given */
		done += (uint64_t)u->result;
		if (done >= want || u->result == 0)
			break;
		/* short transfer: resubmit the rest, as fio does */
		j->res.dir[u->ddir].short_ios++;
		u->buf = (char *)buf + done;
		u->offset = off + done;
		u->buflen = want - done;
		IOB_ASSERT(job_unit_ok(j, u));
	}
	uint64_t now = job_now(j);
	*done_ns = now;
	u->buf = buf;
	u->offset = off;
	u->buflen = want;
	if (u->result < 0)
		return (int)u->result;
	if (done < want)
		return -ENODATA; /* end of file before the I/O was complete */
	u->result = (int64_t)done;
	job_account(j, u, now, false);
	return 0;
}

int job_sync_issue(struct job *j, struct io_unit *u)
{
	uint64_t done_ns;
	return job_sync_issue_at(j, u, &done_ns);
}
