/*
 * The job's accounting, the one place every part of the runtime reports
 * to: a finished data I/O or sync (latency statistics, bytes and I/Os,
 * progress counters, bandwidth samples, the logs, block_error_percentiles,
 * latency_target, and the verify check of a read through the job's hook),
 * and an error under the job's error policy. It calls nothing above it:
 * the I/O paths (asyncio.c, submitq.c, syncio.c), the replay and verify's
 * read-backs call it.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spec/errpolicy.h"
#include "workload/logs/joblog.h"
#include "util/assert.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/io/io.h"

static inline void counter_add(_Atomic uint64_t *c, uint64_t v)
{
	/* single writer: a relaxed load+store avoids a locked instruction */
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + v,
			      memory_order_relaxed);
}

static inline void acc_add(struct latacc *a, uint64_t v)
{
	a->sum += v;
	a->sumsq += (unsigned __int128)v * v;
}

/* Count error err (< 0) of u (NULL: the engine itself failed), keep the
 * first error's details and say so: a fatal error always, one the job goes
 * on after only when it is the first or error_dump asks for all of them. */
static void record_error(struct job *j, const struct io_unit *u, int err, bool fatal)
{
	struct job_result *r = &j->res;
	enum ddir d = u ? u->ddir : DDIR_INVAL;
	uint64_t done = 0;
	char *msg;

	IOB_ASSERT(err < 0 && d <= DDIR_INVAL);
	r->total_err++;
	r->nr_err[err_kind_of(d, -err)]++;
	for (int k = 0; k < DDIR_RWDIR_CNT; k++)
		done += r->dir[k].io_bytes;
	if (u)
		msg = xasprintf("%s of %llu bytes at offset %llu of '%s' failed: %s "
				"(after %llu bytes)", d < DDIR_INVAL ? ddir_name(d) : "io",
				(unsigned long long)u->buflen, (unsigned long long)u->offset,
				u->file ? u->file->path : "?", strerror(-err),
				(unsigned long long)done);
	else
		msg = xasprintf("the %s engine failed: %s (after %llu bytes)", j->eng.ops->name,
				strerror(-err), (unsigned long long)done);
	bool first = !r->error;
	if (fatal)
		error("job '%s': %s", j->spec->name, msg);
	else if (first || j->spec->error_dump)
		warning("job '%s': %s; going on (continue_on_error)", j->spec->name, msg);
	if (first) {
		r->error = -err;
		r->error_offset = u ? u->offset : 0;
		r->error_msg = msg;
	} else {
		free(msg);
	}
}

void job_fail(struct job *j, const struct io_unit *u, int err)
{
	record_error(j, u, err, true);
}

int job_io_error(struct job *j, const struct io_unit *u, int err)
{
	/* fill_device: the full filesystem is the end of the job, not an error */
	if (j->spec->fill_device && u && u->ddir == DDIR_WRITE && (err == -ENOSPC || err == -EDQUOT)) {
		j->fill_full = true;
		return err;
	}
	bool go_on = u && error_policy_continues(j->spec, err_kind_of(u->ddir, -err), -err);
	record_error(j, u, err, !go_on);
	return go_on ? 0 : err;
}

int job_io_failed(struct job *j, struct io_unit *u, int err)
{
	/* as fio: a failed I/O was still issued (total_ios, iops) */
	IOB_ASSERT(u->ddir < DDIR_INVAL);
	if (j->block_bs)
		job_blocks_note(j, u, false);
	if (!j->in_ramp && u->ddir < DDIR_RWDIR_CNT) {
		j->res.dir[u->ddir].total_ios++;
		counter_add(&j->prog_ios[u->ddir], 1);
	}
	return job_io_error(j, u, err);
}

/* Account one finished data I/O. */
void job_account(struct job *j, struct io_unit *u, uint64_t now, bool async)
{
	const struct job_spec *s = j->spec;
	enum ddir d = u->ddir;
	/* fio's FIO_NOIO engines (cpuio, exec) count I/Os without bytes */
	uint64_t bytes = j->eng.ops->flags & ENGINE_NO_IO ? 0 : (uint64_t)u->result;
	/* a data direction (indexes dir[], acc_*[], bw[], prog_*[]), and no
	 * more bytes than the unit asked for */
	IOB_ASSERT(d < DDIR_RWDIR_CNT);
	IOB_ASSERT(u->result >= 0 && bytes <= u->buflen);
	if (__builtin_expect(j->vfy != NULL, 0))
		j->vfy_io_done(j, u); /* verify_io_done: the verify glue sits above this file */
	if (__builtin_expect(d != DDIR_READ && j->block_bs != 0, 0))
		job_blocks_note(j, u, true); /* block_error_percentiles: writes and trims */
	j->ios_completed++;
	if (j->in_ramp)
		return;
	struct dir_result *dr = &j->res.dir[d];
	if (j->eng.ops->flags & ENGINE_META) {
		/* as fio's metadata engines: the operation's clat only */
		if (u->meta_op && !s->disable_clat) {
			hist_add(&dr->clat_hist, now - u->issue_ns);
			acc_add(&j->acc_clat[d], now - u->issue_ns);
		}
	} else if (job_measures_slat(j, async) && !s->disable_slat) {
		uint64_t slat = u->issue_ns - u->start_ns;
		hist_add(&dr->slat_hist, slat);
		acc_add(&j->acc_slat[d], slat);
	}
	if (!s->disable_clat && !(j->eng.ops->flags & ENGINE_META)) {
		uint64_t clat = now - u->issue_ns;
		hist_add(&dr->clat_hist, clat);
		acc_add(&j->acc_clat[d], clat);
		lat_bucket_add(&j->res, clat);
	}
	if (!s->disable_lat && !(j->eng.ops->flags & ENGINE_META)) {
		uint64_t lat = now - u->start_ns;
		hist_add(&dr->lat_hist, lat);
		acc_add(&j->acc_lat[d], lat);
	}
	if (__builtin_expect(j->eng.per_prio, 0)) {
		/* as fio's per-priority stats: one kind of latency only */
		uint64_t v = s->lat_percentiles ? now - u->start_ns : now - u->issue_ns;
		struct prio_result *p = dir_result_prio(dr, u->ioprio);
		runstat_add(&p->stat, (double)v);
		hist_add(&p->hist, v);
	}
	if (__builtin_expect(s->latency_target || s->max_latency[d], 0))
		job_latency_io(j, u, now - u->start_ns, now);
	dr->io_bytes += bytes;
	dr->total_ios++;
	dr->drop_ios += u->dropped;
	counter_add(&j->prog_bytes[d], bytes);
	counter_add(&j->prog_ios[d], 1);
	if (!s->disable_bw) {
		sampler_update(&j->bw[d], now, dr->io_bytes);
		sampler_update(&j->iops[d], now, dr->total_ios);
	}
	if (j->logs)
		joblog_io(j->logs, u, bytes, now, job_measures_slat(j, async));
}

/* Account one finished sync/datasync. */
void job_account_sync(struct job *j, struct io_unit *u, uint64_t now)
{
	IOB_ASSERT(u->ddir == DDIR_SYNC || u->ddir == DDIR_DATASYNC);
	IOB_ASSERT(now >= u->start_ns);
	if (j->in_ramp)
		return;
	job_account_sync_lat(j, u->start_ns, now);
	j->res.sync.total_ios++;
}

void job_account_sync_lat(struct job *j, uint64_t start_ns, uint64_t now)
{
	if (j->in_ramp)
		return;
	hist_add(&j->res.sync.lat_hist, now - start_ns);
	acc_add(&j->acc_sync, now - start_ns);
}
