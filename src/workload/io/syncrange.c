/*
 * sync_file_range=FLAGS:N (spec/options_sync.c), as fio 3.33 issues it: once
 * N writes were issued since the last call, the next write is preceded by one
 * sync_file_range(2) per file written, over the range those writes covered
 * (so the last writes of a job are never followed by one, as in fio). The
 * queue is drained first, so the call covers completed writes. Each call's
 * time goes into the sync latencies, and, as in fio, not into the sync
 * I/O count.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <fcntl.h>

#include "util/error.h"
#include "workload/io/io.h"

void job_sfr_note(struct job *j, struct job_file *w, uint64_t off, uint64_t len)
{
	if (!j->spec->sync_file_range_every)
		return;
	if (!w->sfr_dirty || off < w->sfr_lo)
		w->sfr_lo = off;
	if (!w->sfr_dirty || off + len > w->sfr_hi)
		w->sfr_hi = off + len;
	w->sfr_dirty = true;
	j->sfr_writes++;
}

int job_sfr_before_write(struct job *j, bool sync)
{
	const struct job_spec *s = j->spec;
	if (!s->sync_file_range_every || j->sfr_writes < s->sync_file_range_every)
		return 0;
	j->sfr_writes = 0;
	int rc;
	/* the caller holds the unit of the write about to be issued */
	if (!sync && (rc = async_drain_holding(j, 1)) < 0)
		return rc;
	for (unsigned i = 0; i < j->nr_files; i++) {
		struct job_file *f = &j->files[i];
		if (!f->sfr_dirty || f->fd < 0)
			continue;
		f->sfr_dirty = false;
		uint64_t t0 = job_now(j);
		int ret;
		do
			ret = sync_file_range(f->fd, (off_t)f->sfr_lo, (off_t)(f->sfr_hi - f->sfr_lo),
					      s->sync_file_range_flags);
		while (ret < 0 && errno == EINTR);
		if (ret < 0) {
			struct io_unit u = { .ddir = DDIR_DATASYNC, .file = f, .offset = f->sfr_lo,
					     .buflen = f->sfr_hi - f->sfr_lo, .start_ns = t0,
					     .issue_ns = t0 };
			if ((rc = job_io_error(j, &u, -errno)) < 0)
				return rc;
			continue;
		}
		job_account_sync_lat(j, t0, job_now(j));
	}
	return 0;
}
