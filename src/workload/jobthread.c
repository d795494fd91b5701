/*
 * The body of one job's thread: wait for its start condition, open files,
 * issue I/O through the engine until the size, time or I/O-count limit is
 * reached or a stop is requested, then fsync/close and turn runtime counters
 * into the job's results. The per-I/O path (issue, complete, account) takes
 * three clock reads on a synchronous engine (start, completion, and the
 * limit check before the next I/O) and touches no shared cache line except
 * the job's own progress counters.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/cpuusage.h"
#include "workload/files/filelock.h"
#include "workload/jobsched_int.h"
#include "workload/jobsys_int.h"
#include "workload/logs/joblog.h"
#include "workload/replay/replay.h"
#include "verify/verify.h"
#include "util/assert.h"
#include "util/checked.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/files/files.h"
#include "workload/io/io.h"
#include "workload/iogen/iogen.h"
#include "workload/logs/iolog.h"
#include "workload/runtime_int.h"
#include "workload/setup/setup.h"
#include "workload/verify/verify_run.h"

static void start_measuring(struct job *j, uint64_t now, struct cpu_usage *cpu0)
{
	j->in_ramp = false;
	j->start_ns = now;
	j->rate_start_ns = now;
	memset(j->rate_bytes, 0, sizeof(j->rate_bytes));
	memset(j->rate_ios, 0, sizeof(j->rate_ios));
	memset(j->rate_next_ns, 0, sizeof(j->rate_next_ns));
	job_rate_min_arm(j, now);
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		sampler_init(&j->bw[d], j->spec->bw_avg_time, now, 0);
		sampler_init(&j->iops[d], j->spec->iops_avg_time, now, 0);
	}
	cpu_usage_thread(cpu0);
	if (j->logs)
		joblog_start(j->logs, now, j->end_ns);
	atomic_store(&j->state, JOB_RUNNING);
}

/* Throttle to rate= / rate_iops= by waiting until the schedule allows.
 * false when the I/O must not be issued: the run stopped, or the job's
 * runtime ends before the schedule would allow it. An async job that must
 * wait first takes back the I/O in flight (the caller holds one unit), as
 * fio quiesces before it sleeps: their completions are logged and counted
 * when they happen, not after the sleep. */
static bool rate_wait(struct job *j, enum ddir d, uint64_t len, bool sync)
{
	const struct job_spec *s = j->spec;
	uint64_t due = 0;
	IOB_ASSERT(d < DDIR_RWDIR_CNT); /* indexes rate[], rate_iops[], rate_bytes[] */
	/* 128-bit products: bytes * 1e9 passes 2^64 after 18 GB */
	if (s->rate_poisson)
		due = job_rate_poisson_due(j, d, len);
	if (s->rate[d] && !s->rate_poisson)
		due = mul_div(j->rate_bytes[d], NSEC_PER_SEC, s->rate[d]);
	if (s->rate_iops[d] && !s->rate_poisson) {
		uint64_t due2 = mul_div(j->rate_ios[d], NSEC_PER_SEC, s->rate_iops[d]);
		if (due2 > due)
			due = due2;
	}
	j->rate_bytes[d] += len;
	j->rate_ios[d]++;
	uint64_t until;
	if (!ck_add(j->rate_start_ns, due, &until))
		until = UINT64_MAX;
	if (!due || job_now(j) >= until)
		return true;
	if (!sync && j->inflight && async_drain_holding(j, 1) < 0)
		return false; /* the error is recorded where it happened */
	if (job_now(j) >= until)
		return true;
	bool capped = j->end_ns && j->end_ns < until;
	if (!job_wait_until(j, capped ? j->end_ns : until))
		return false;
	return !capped;
}

static bool rate_limited(const struct job_spec *s)
{
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		if (s->rate[d] || s->rate_iops[d])
			return true;
	return false;
}

/* Issue a sync/datasync to `only`, or to every file when it is NULL, and
 * time it. An engine that does I/O but opens no file (null) completes a
 * sync at once, and it is counted as fio's null engine counts it. */
static int do_sync_all(struct job *j, enum ddir kind, const struct job_file *only)
{
	struct io_unit u = { .ddir = kind };
	unsigned fl = j->eng.ops->flags;
	bool nofile = (fl & ENGINE_NO_FILE) && !(fl & ENGINE_NO_IO);
	for (unsigned i = 0; i < j->nr_files; i++) {
		if ((j->files[i].fd < 0 && !nofile) || (only && &j->files[i] != only))
			continue;
		u.file = &j->files[i];
		u.offset = 0;
		u.buflen = 0;
		u.start_ns = u.issue_ns = job_now(j);
		if (j->iolog_f)
			iolog_write_sync(j, &u);
		if (j->files[i].fd >= 0)
			engine_do_sync(&u);
		else
			u.result = 0;
		uint64_t now = job_now(j);
		if (u.result < 0) {
			int rc = job_io_error(j, &u, (int)u.result);
			if (rc < 0)
				return rc;
			continue;
		}
		job_account_sync(j, &u, now);
	}
	return 0;
}

/* fsync=N / fdatasync=N as fio: before the next I/O, of any direction,
 * when the job's writes so far are a multiple of N and the I/O before was
 * not that sync; so the job's last write is not followed by one (that is
 * end_fsync's), and a read after the Nth write comes after a sync too. The
 * file synced is f, or the one file_service_type picks next (NULL): as
 * fio's, the sync takes its turn among the files, and the I/O after it
 * goes to the next. */
static int sync_before_next(struct job *j, bool sync, struct job_file *f)
{
	const struct job_spec *s = j->spec;
	unsigned every = s->fsync_blocks ? s->fsync_blocks : s->fdatasync_blocks;
	if (!every || j->last_was_sync || !j->writes_for_sync || j->writes_for_sync % every)
		return 0;
	int rc;
	if (!sync && (rc = async_drain(j)) < 0)
		return rc;
	if (!f && (rc = job_next_sync_file(j, &f)) <= 0)
		return rc; /* no file has I/O left: no sync, as fio's */
	j->last_was_sync = true;
	return do_sync_all(j, s->fsync_blocks ? DDIR_SYNC : DDIR_DATASYNC, f);
}

/* latency_target's last window starts: measure afresh, as fio */
static void reset_measuring(struct job *j, uint64_t now, struct cpu_usage *cpu0)
{
	struct job_result *r = &j->res;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		hist_release(&r->dir[d].slat_hist);
		hist_release(&r->dir[d].clat_hist);
		hist_release(&r->dir[d].lat_hist);
		dir_result_release(&r->dir[d]);
		dir_result_init(&r->dir[d]);
	}
	hist_release(&r->sync.lat_hist);
	memset(&r->sync, 0, sizeof(r->sync));
	runstat_init(&r->sync.lat);
	hist_init(&r->sync.lat_hist);
	memset(j->acc_slat, 0, sizeof(j->acc_slat));
	memset(j->acc_clat, 0, sizeof(j->acc_clat));
	memset(j->acc_lat, 0, sizeof(j->acc_lat));
	memset(&j->acc_sync, 0, sizeof(j->acc_sync));
	memset(r->iodepth_level, 0, sizeof(r->iodepth_level));
	memset(r->iodepth_submit, 0, sizeof(r->iodepth_submit));
	memset(r->iodepth_complete, 0, sizeof(r->iodepth_complete));
	memset(r->lat_ns, 0, sizeof(r->lat_ns));
	memset(r->lat_us, 0, sizeof(r->lat_us));
	memset(r->lat_ms, 0, sizeof(r->lat_ms));
	r->lat_total = 0;
	start_measuring(j, now, cpu0);
}

/* --wearout: at the deadline, wait for the run's count (run.c's
 * wear_exchange); true when the job goes on (its deadline gone). */
static bool wear_wait(struct job *j)
{
	struct run_sync *s = j->sync;
	j->wearout = false; /* once */
	if (!s)
		return false;
	pthread_mutex_lock(&s->lock);
	j->wear_paused = true;
	pthread_cond_broadcast(&s->cond);
	while (!j->wear_released && !atomic_load(&s->stopping) && !*j->stop)
		pthread_cond_wait(&s->wake, &s->lock);
	bool go = j->wear_released && j->wear_target > j->wear_ios;
	pthread_mutex_unlock(&s->lock);
	if (go)
		j->end_ns = 0;
	return go;
}

static bool limits_reached(struct job *j, uint64_t now)
{
	job_status_poll(j, now);
	if (job_stopping(j) || j->lat_stop)
		return true;
	if (j->end_ns && now >= j->end_ns && !(j->wearout && wear_wait(j)))
		return true;
	if (j->wear_target && j->wear_ios >= j->wear_target)
		return true;
	/* as fio: a time-based job runs its runtime whatever number_ios says */
	if (j->spec->number_ios && !j->spec->time_based && j->ios_issued >= j->spec->number_ios)
		return true;
	return false;
}

/* One pass over the job's work; returns 0, or -errno on an I/O error. */
static int run_pass(struct job *j, struct cpu_usage *cpu0)
{
	const struct job_spec *s = j->spec;
	bool sync = job_inline_sync(j);
	bool paced = rate_limited(s);
	uint64_t now = job_now(j);
	while (!limits_reached(j, now)) {
		if (j->in_ramp && now >= j->ramp_end_ns) {
			if (!sync && async_drain(j) < 0)
				return j->res.error ? -j->res.error : -EIO;
			start_measuring(j, now, cpu0);
			/* as fio: I/O done in the ramp counts towards size,
			 * not towards number_ios */
			j->ios_issued = 0;
		}
		if (j->lat_reset && !j->in_ramp) {
			if (!sync && async_drain(j) < 0)
				return j->res.error ? -j->res.error : -EIO;
			j->lat_reset = false;
			now = job_now(j);
			reset_measuring(j, now, cpu0);
		}
		if (j->ratemin_next_ns && now >= j->ratemin_next_ns) {
			int rc = job_rate_min_check(j, now);
			if (rc < 0)
				return rc;
		}
		if (j->bytes_total && j->bytes_issued >= j->bytes_total) {
			if (!s->time_based)
				break;
			job_gens_new_pass(j);
			j->bytes_issued = 0;
		}
		if ((s->fsync_blocks || s->fdatasync_blocks) && !j->replay) {
			int rc = sync_before_next(j, sync, NULL);
			if (rc < 0)
				return rc;
		}
		struct io_unit *u = sync ? &j->units[0] : async_get_unit(j);
		if (!u) {
			int rc = async_reap(j, 1);
			if (rc < 0)
				return rc;
			continue;
		}
		int got = job_next_io(j, u);
		if (got < 0) {
			if (!sync)
				async_put_unit(j, u);
			/* a replayed action recorded its own error; openfiles= says where it failed */
			if (!j->res.error) {
				j->res.error = -got;
				j->res.error_msg = xasprintf("opening the next file failed: %s",
							     strerror(-got));
			}
			return got;
		}
		if (!got) {
			if (!sync)
				async_put_unit(j, u);
			if (!s->time_based || j->replay) /* as fio: a log is replayed once */
				break;
			job_gens_new_pass(j);
			j->bytes_issued = 0;
			continue;
		}
		if (j->pass_wrapped) {
			/* as fio: a pass over the files (sequential, or through the
			 * random map) ends when its last block is issued, and the
			 * next begins when the I/O in flight is back; so a 4 KiB file
			 * with io_size= above it has one I/O in flight at a time. A
			 * time-based job goes straight on, as fio's does. */
			j->pass_wrapped = false;
			int rc = sync || s->time_based ? 0 : async_drain_holding(j, 1);
			if (rc < 0) {
				async_put_unit(j, u);
				return rc;
			}
		}
		if (u->ddir == DDIR_WRITE) {
			job_buffer_fill(j, u);
			if (s->sync_file_range_every) {
				int rc = job_sfr_before_write(j, sync);
				if (rc < 0)
					return rc;
				job_sfr_note(j, u->file, u->offset, u->buflen);
			}
		}
		if (j->flow && !job_flow_admit(j)) {
			if (!sync)
				async_put_unit(j, u);
			break;
		}
		if (paced && !rate_wait(j, u->ddir, u->buflen, sync)) {
			if (!sync)
				async_put_unit(j, u);
			break;
		}
		/* as fio: a trimwrite's trims count towards neither size nor number_ios */
		if (!j->trimwrite || u->ddir != DDIR_TRIM) {
			j->bytes_issued += u->buflen;
			j->ios_issued++;
		}
		j->wear_ios++;
		enum ddir d = u->ddir; /* u may be recycled once issued */
		struct job_file *wf = u->file;
		int rc;
		uint64_t done_ns = 0;
		if (j->iolog_f)
			iolog_write_io(j, u);
		if (j->file_locks) /* lockfile=: until the I/O is issued, as fio */
			job_file_lock(j, (unsigned)(wf - j->files), d);
		if (sync) {
			rc = job_sync_issue_at(j, u, &done_ns);
			job_file_unlock(j, rc < 0);
			if (rc == 1)
				break;
			if (rc < 0) {
				done_ns = 0;
				if (rc == -ENODATA)
					rc = -EIO;
				if ((rc = job_io_failed(j, u, rc)) < 0)
					return rc;
			}
		} else if ((rc = async_issue(j, u)) < 0) {
			job_file_unlock(j, true);
			return rc; /* recorded where it happened */
		} else {
			job_file_unlock(j, false);
		}
		if (__builtin_expect(j->vfy != NULL, 0)) {
			if ((rc = verify_after_io(j, d)) < 0)
				return rc;
			done_ns = 0;
		}
		if (d < DDIR_RWDIR_CNT && (s->fsync_blocks || s->fdatasync_blocks)) {
			j->last_was_sync = false;
			if (d == DDIR_WRITE) {
				j->writes_for_sync++;
				j->last_written = wf;
			}
		}
		if (s->thinktime) {
			if ((rc = job_think(j)) < 0)
				return rc;
			done_ns = 0;
		}
		/* a sync I/O's completion time is now enough for the limits */
		now = done_ns ? done_ns : job_now(j);
	}
	int rc = sync ? 0 : async_drain(j);
	return j->lat_stop < 0 ? j->lat_stop : rc;
}

static void finish_results(struct job *j, uint64_t end, const struct cpu_usage *cpu0)
{
	job_results_compute(j, &j->res, end, cpu0);
	if (j->in_ramp) /* never left the ramp: nothing was measured */
		j->start_ns = end;
	if (j->logs)
		joblog_finish(j->logs, end);
}

/* unlink_each_loop: the loop's files are closed and deleted, then laid
 * out and opened again for the next loop, as for a new job. */
static int unlink_loop(struct job *j)
{
	if (!job_inline_sync(j))
		async_drain(j);
	job_files_close(j);
	job_files_unlink(j);
	int rc;
	if (j->spec->rw & RW_READ) {
		/* as fio: a job that reads opens its files as they are, and
		 * they are gone */
		rc = -ENOENT;
		error("job '%s': unlink_each_loop deleted '%s' after loop %u, and a job that reads "
		      "does not lay it out again (as fio: it fails to open it)", j->spec->name,
		      j->files[0].path, j->loop + 1);
	} else {
		rc = job_files_replan(j);
	}
	if (rc >= 0)
		rc = job_files_open(j);
	if (rc >= 0) {
		job_gens_free(j);
		rc = job_gens_init(j);
	}
	if (rc < 0 && !j->res.error) {
		j->res.error = -rc;
		j->res.error_msg = xasprintf("unlink_each_loop: setting up loop %u failed: %s",
					     j->loop + 2, strerror(-rc));
	}
	return rc;
}

void *job_thread_main(void *arg)
{
	struct job *j = arg;
	const struct job_spec *s = j->spec;
	struct cpu_usage cpu0;
	uint64_t t0 = job_now(j);
	int rc = 0;
	j->t0_ns = t0;
	j->cpu0 = &cpu0;
	j->res.tid = (int)gettid(); /* fio's "pid=" of the job */

	if (!job_wait_for_jobs(j))
		goto out;
	uint64_t delay = s->startdelay_min;
	if (s->startdelay_max > s->startdelay_min) {
		struct rng r;
		rng_seed(&r, t0 ^ j->index);
		delay += rng_below(&r, s->startdelay_max - s->startdelay_min);
	}
	if (delay && !job_wait_until(j, now_ns() + delay))
		goto out;
	atomic_store(&j->state, JOB_STARTING);
	if (job_stopping(j))
		goto out;
	char why[256];
	if ((rc = job_sched_apply(s, j->index, why, sizeof(why))) < 0 ||
	    (rc = job_sys_enter(j, why, sizeof(why))) < 0) {
		error("job '%s': %s", s->name, why);
		j->res.error = -rc;
		j->res.error_msg = xstrdup(why);
		goto out;
	}
	if (!s->create_serialize && (rc = job_files_replan(j)) < 0) {
		j->res.error = -rc;
		j->res.error_msg = xasprintf("setup failed: %s", strerror(-rc));
		goto out;
	}
	if (s->create_only || job_files_nothing_to_read(j)) {
		/* as fio: laying out the files was the whole job (or, with
		 * fill_device, the filesystem was full already) */
		uint64_t now = job_now(j);
		start_measuring(j, now, &cpu0);
		finish_results(j, now, &cpu0);
		goto out;
	}
	if ((rc = job_files_open(j)) < 0 || (rc = job_gens_init(j)) < 0 ||
	    (!job_inline_sync(j) && (rc = async_init(j)) < 0) ||
	    (rc = verify_init(j)) < 0) {
		j->res.error = -rc;
		j->res.error_msg = xasprintf("setup failed: %s", strerror(-rc));
		goto out;
	}
	/* as fio: a failing exec_prerun leaves the job without I/O, no error,
	 * no exec_postrun and no exitall */
	if (s->exec_prerun && (rc = job_exec(j, s->exec_prerun, "prerun"))) {
		if (rc < 0) {
			j->res.error = -rc;
			j->res.error_msg = xasprintf("exec_prerun: %s", strerror(-rc));
		}
		goto out;
	}
	if (s->pre_read && (rc = job_files_pre_read(j)) < 0) {
		j->res.error = -rc;
		j->res.error_msg = xasprintf("setup failed: %s", strerror(-rc));
		goto out;
	}
	uint64_t now = job_flow_gate(j, job_now(j));
	j->start_ns = now;
	j->in_ramp = s->ramp_time > 0;
	if (!ck_add(now, s->ramp_time, &j->ramp_end_ns))
		j->ramp_end_ns = UINT64_MAX;
	if (s->runtime && !ck_add(j->ramp_end_ns, s->runtime, &j->end_ns))
		j->end_ns = UINT64_MAX;
	if (j->in_ramp) {
		atomic_store(&j->state, JOB_RAMP);
		cpu_usage_thread(&cpu0);
		j->rate_start_ns = now;
	} else {
		start_measuring(j, now, &cpu0);
	}
	job_latency_init(j);
	unsigned loops = s->loops ? s->loops : 1;
	for (j->loop = 0; j->loop < loops; j->loop++) {
		if (j->loop)
			job_gens_new_pass(j);
		j->bytes_issued = 0;
		j->ios_issued = 0; /* number_ios limits each loop, as in fio */
		if (j->vfy)
			verify_loop_start(j);
		if (j->vfy && s->verify_only && (s->rw & RW_WRITE))
			rc = verify_only_pass(j); /* the writes become reads of what they wrote */
		else
			rc = run_pass(j, &cpu0);
		if (rc < 0 && j->fill_full)
			rc = 0; /* fill_device: full, done */
		/* as fio: a loop before the last ends looking for one more I/O,
		 * and so with the sync that is due (the next loop's first I/O
		 * has its own: fio opens the files again) */
		if (rc >= 0 && j->loop + 1 < loops && !s->time_based && j->last_written &&
		    (rc = sync_before_next(j, j->eng.ops->flags & ENGINE_SYNC, j->last_written)) >= 0)
			j->last_was_sync = false;
		if (rc >= 0 && j->vfy)
			rc = verify_loop_end(j); /* do_verify: read back this loop's writes */
		/* as fio: between loops, so the last loop's files stay */
		if (rc >= 0 && s->unlink_each_loop && j->loop + 1 < loops && !s->time_based &&
		    !j->fill_full && !job_stopping(j))
			rc = unlink_loop(j);
		if (rc < 0 || j->fill_full || s->time_based || j->replay || job_stopping(j) || j->lat_stop ||
		    (j->end_ns && job_now(j) >= j->end_ns))
			break;
	}
	/* never leave I/O in flight into buffers that are about to go away */
	if (!job_inline_sync(j))
		async_drain(j);
	if (rc >= 0 && s->end_fsync && (s->rw & RW_WRITE)) {
		atomic_store(&j->state, JOB_FSYNC);
		rc = do_sync_all(j, DDIR_SYNC, NULL);
	}
	if (rc >= 0 && s->fsync_on_close && (s->rw & RW_WRITE))
		rc = do_sync_all(j, DDIR_SYNC, NULL);
	submitq_stop(j); /* offload: its threads' CPU time is the job's */
	finish_results(j, job_now(j), &cpu0);
	job_files_check_present(j);
	if (s->exec_postrun && (rc = job_exec(j, s->exec_postrun, "postrun")) < 0 && !j->res.error) {
		j->res.error = -rc;
		j->res.error_msg = xasprintf("exec_postrun: %s", strerror(-rc));
	}
	job_exit_others(j);
out:
	if (j->file_locks)
		job_file_unlock(j, true); /* a batch the job did not finish */
	job_flow_leave(j);
	verify_finish(j);
	job_files_close(j);
	j->res.elapsed_s = (job_now(j) - t0 + NSEC_PER_SEC / 2) / NSEC_PER_SEC;
	if (j->sync && !(j->eng.ops->flags & ENGINE_NO_IO))
		atomic_fetch_sub(&j->sync->io_jobs_left, 1);
	atomic_store(&j->state, JOB_DONE);
	atomic_store(&j->done_flag, true);
	if (j->sync) {
		pthread_mutex_lock(&j->sync->lock);
		j->sync->done++;
		pthread_cond_signal(&j->sync->cond);
		pthread_cond_broadcast(&j->sync->wake); /* wait_for= */
		pthread_mutex_unlock(&j->sync->lock);
	}
	return NULL;
}
