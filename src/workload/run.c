/*
 * Running a job list (run.h): numjobs cloning, reporting groups, stonewall
 * batches on threads, the progress line, disk statistics around the run and
 * the collection of results, merged per group under group_reporting.
 */
#include "workload/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys/cachestat.h"
#include "sys/cpuidle.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "watch/diskres.h"
#include "workload/files/filelock.h"
#include "workload/job/job.h"
#include "workload/jobsys_int.h"
#include "workload/logs/joblog.h"
#include "spec/options.h"
#include "workload/progress_int.h"
#include "workload/status_int.h"
#include "workload/steadystate_int.h"
#include "workload/trigger_int.h"
#include "workload/files/files.h"
#include "workload/io/io.h"
#include "workload/iogen/iogen.h"
#include "workload/runtime_int.h"
#include "workload/setup/setup.h"

void workload_expand(const struct job_list *in, struct job_list *out)
{
	unsigned group = 0;
	size_t total = 0;
	memset(out, 0, sizeof(*out));
	out->global_opts = job_kv_copy(in->global_opts, in->nr_global_opts);
	out->nr_global_opts = in->nr_global_opts;
	/* every clone's spec in one allocation of the right size: grown by
	 * doubling, 64 clones of 3 KiB left 190 KiB of freed copies in the heap */
	for (size_t i = 0; i < in->nr; i++)
		total += in->jobs[i].numjobs ? in->jobs[i].numjobs : 1;
	out->jobs = xcalloc(total ? total : 1, sizeof(*out->jobs));
	out->alloc = total ? total : 1;
	for (size_t i = 0; i < in->nr; i++) {
		const struct job_spec *src = &in->jobs[i];
		if (i && (src->stonewall || src->new_group))
			group++;
		unsigned n = src->numjobs ? src->numjobs : 1;
		for (unsigned c = 0; c < n; c++) {
			struct job_spec *dst = job_list_add(out);
			job_spec_release(dst); /* job_list_add filled in defaults */
			job_spec_copy(dst, src);
			dst->jobnum = c;
			dst->groupid = group;
			if (c)
				dst->stonewall = false; /* clones run beside the first */
		}
	}
}

int workload_check_threads(const struct job_list *l)
{
	uint64_t total = 0;
	for (size_t i = 0; i < l->nr; i++)
		total += l->jobs[i].numjobs ? l->jobs[i].numjobs : 1;
	if (total > JOB_MAX_THREADS)
		return error("the jobs add up to %llu threads (numjobs summed over %zu job%s); a run "
			     "has at most %u, as in fio: every clone is a thread with its own "
			     "buffers and files", (unsigned long long)total, l->nr,
			     l->nr == 1 ? "" : "s", JOB_MAX_THREADS);
	return 0;
}

static int resolve_wait_for(struct job *jobs, size_t nr, size_t i)
{
	struct job *j = &jobs[i];
	const char *want = j->spec->wait_for;
	if (!want || !*want)
		return 0;
	if (!strcmp(want, j->spec->name))
		return error("job '%s': a job cannot wait for itself (wait_for=%s)", want, want);
	j->wait_jobs = xcalloc(nr, sizeof(*j->wait_jobs));
	for (size_t k = 0; k < i; k++)
		if (!strcmp(jobs[k].spec->name, want))
			j->wait_jobs[j->nr_wait++] = &jobs[k];
	if (!j->nr_wait)
		return error("job '%s': wait_for names '%s', which is not an earlier job",
			     j->spec->name, want);
	return 0;
}

static int setup_jobs(struct job *jobs, size_t nr, const struct job_list *l,
		      const struct run_config *cfg, const struct clock *clk,
		      struct devguard_claims *claims)
{
	int rc = 0;
	for (size_t i = 0; i < nr; i++) {
		struct job *j = &jobs[i];
		j->spec = &l->jobs[i];
		j->clk = clk;
		j->index = (unsigned)i;
		j->stop = cfg->stop;
		j->wearout = cfg->wearout && j->spec->runtime && !j->spec->time_based;
		j->aux_path = cfg->ctl.aux_path;
		j->claims = claims;
		job_result_init_zeroed(&j->res); /* jobs[] is calloc'd */
		j->eng.ops = engine_find(j->spec->ioengine ? j->spec->ioengine : "psync");
		if (!j->eng.ops) {
			rc = error("job '%s': unknown ioengine '%s'", j->spec->name, j->spec->ioengine);
			continue;
		}
		if (engine_ctx_setup(&j->eng, j->spec) < 0)
			rc = -EINVAL;
		if (resolve_wait_for(jobs, nr, i) < 0)
			rc = -EINVAL;
	}
	if (rc)
		return rc;
	/* Every check of every job before the first byte is written: names,
	 * the device guard, sizes, direct=1 alignment, free space, engines
	 * and buffers; only then are files laid out. */
	for (size_t i = 0; i < nr; i++)
		if ((rc = job_files_plan(&jobs[i], &cfg->guard, jobs, i)) < 0 ||
		    (rc = job_zones_check(&jobs[i])) < 0 ||
		    (rc = job_write_opts_check(&jobs[i])) < 0 ||
		    (rc = job_check_direct_alignment(&jobs[i])) < 0 || (rc = job_sys_check(&jobs[i])) < 0 ||
		    (rc = job_iosched_check(&jobs[i])) < 0 || (rc = submitq_check(&jobs[i])) < 0 ||
		    (rc = job_exec_check(&jobs[i])) < 0 || (rc = job_blocks_init(&jobs[i])) < 0)
			return rc;
	if ((rc = job_trigger_check(jobs, nr, cfg->ctl.trigger_cmd)) < 0)
		return rc;
	if ((rc = job_files_check_space(jobs, nr)) < 0)
		return rc;
	for (size_t i = 0; i < nr; i++) {
		struct job *j = &jobs[i];
		j->eng.params.guard = &j->guard;
		j->eng.params.claims = j->claims;
		j->eng.params.stop = j->stop;
		if (j->eng.ops->priv_size)
			j->eng.priv = xcalloc(1, j->eng.ops->priv_size);
		if (j->eng.ops->init && (rc = j->eng.ops->init(&j->eng)) < 0)
			return error_errno(rc, "job '%s': cannot initialise the %s engine",
					   j->spec->name, j->eng.ops->name);
		if ((rc = job_buffers_alloc(j)) < 0 || (rc = job_sys_buffers(j)) < 0)
			return rc;
		if (j->eng.ops->register_buffers &&
		    (rc = j->eng.ops->register_buffers(&j->eng, j->units, j->nr_units, j->buf_size)) < 0)
			return error_errno(rc, "job '%s': the %s engine cannot register its buffers",
					   j->spec->name, j->eng.ops->name);
	}
	for (size_t i = 0; i < nr; i++) {
		jobs[i].notes = cfg->notes;
		/* create_serialize=0: the job lays out its own when it starts */
		if (jobs[i].spec->create_serialize && (rc = job_files_layout(&jobs[i], cfg->notes)) < 0)
			return rc;
	}
	return 0;
}

/* --wearout: every job of the batch waits at its deadline or has finished */
static bool wear_ready(struct job *jobs, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (!jobs[i].wear_paused && !atomic_load(&jobs[i].done_flag))
			return false;
	return true;
}

/* --wearout: the counts to cfg->wearout and its targets to the waiting
 * jobs; called with sync->lock held (released meanwhile). */
static void wear_exchange(struct job *jobs, size_t from, size_t to, const struct run_config *cfg,
			  struct run_sync *sync)
{
	size_t n = to - from;
	uint64_t *v = xcalloc(3 * n, sizeof(*v)), *ios = v, *bytes = v + n, *targets = v + 2 * n;
	for (size_t i = from; i < to; i++) {
		ios[i - from] = jobs[i].wear_ios;
		for (int d = 0; d < DDIR_RWDIR_CNT; d++)
			bytes[i - from] += atomic_load(&jobs[i].prog_bytes[d]);
	}
	pthread_mutex_unlock(&sync->lock);
	cfg->wearout(cfg->wearout_arg, ios, bytes, targets, n);
	pthread_mutex_lock(&sync->lock);
	for (size_t i = from; i < to; i++) {
		jobs[i].wear_target = targets[i - from];
		jobs[i].wear_released = true;
	}
	pthread_cond_broadcast(&sync->wake);
	free(v);
}

/* The jobs over time (results/runenv.h: struct run_job_timeline): their
 * progress counters read from this thread, about once a second. */
#define TIMELINE_NS NSEC_PER_SEC

static void timeline_tick(struct job *jobs, size_t from, size_t to, struct run_job_timeline *tl,
			  uint64_t now, bool all)
{
	for (size_t i = from; i < to; i++) {
		bool done = !tl[i].end_ns && atomic_load(&jobs[i].state) == JOB_DONE;
		if (!all && !done)
			continue;
		uint64_t b[DDIR_RWDIR_CNT], n[DDIR_RWDIR_CNT];
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			b[d] = atomic_load_explicit(&jobs[i].prog_bytes[d], memory_order_relaxed);
			n[d] = atomic_load_explicit(&jobs[i].prog_ios[d], memory_order_relaxed);
		}
		if (!tl[i].end_ns)
			run_job_timeline_tick(&tl[i], now, b, n);
		if (done)
			tl[i].end_ns = now; /* its thread signalled sync->cond as it ended */
	}
}

static int run_batch(struct job *jobs, size_t from, size_t to, const struct run_config *cfg,
		     struct progress *prog, struct trigger *trig, struct run_sync *sync,
		     struct status_ctl *status, struct run_job_timeline *tl)
{
	bool wear_done = !cfg->wearout;
	uint64_t tl_next = now_ns() + TIMELINE_NS;
	timeline_tick(jobs, from, to, tl, now_ns(), true);
	pthread_mutex_lock(&sync->lock);
	sync->done = 0;
	pthread_mutex_unlock(&sync->lock);
	/* flow=: every weight of the batch counts before any job starts, as
	 * in fio, so no job runs ahead while another is still setting up */
	for (size_t i = from; i < to; i++)
		job_flow_join(&jobs[i]);
	ss_batch_begin(jobs, from, to);
	for (size_t i = from; i < to; i++) {
		jobs[i].sync = sync;
		jobs[i].eng.params.io_jobs_left = &sync->io_jobs_left;
		int rc = pthread_create(&jobs[i].thread, NULL, job_thread_main, &jobs[i]);
		if (rc) {
			/* the run cannot be what was asked: stop the jobs that
			 * did start (waking any that sleep) and say why once */
			error("cannot start the thread of job '%s': %s (%zu of the %zu threads "
			      "of its batch had started); the run stops", jobs[i].spec->name,
			      strerror(rc), i - from, to - from);
			run_sync_stop(sync);
			for (size_t k = from; k < i; k++)
				pthread_join(jobs[k].thread, NULL);
			ss_batch_end(jobs, from, to);
			return -rc;
		}
	}
	/* Wake when a job finishes, or every 100 ms for the progress line,
	 * steadystate's samples and to notice a stop request. */
	pthread_mutex_lock(&sync->lock);
	while (sync->done < to - from) {
		if (ss_tick(jobs, from, to, now_ns()))
			pthread_cond_broadcast(&sync->wake); /* steady: end their sleeps */
		uint64_t deadline = now_ns() + 100 * NSEC_PER_MSEC;
		if (status->interval_ns && status->next_ns < deadline)
			deadline = status->next_ns; /* a report on time, as fio's */
		if (tl_next < deadline)
			deadline = tl_next;
		struct timespec ts = { .tv_sec = (time_t)(deadline / NSEC_PER_SEC),
				       .tv_nsec = (long)(deadline % NSEC_PER_SEC) };
		pthread_cond_timedwait(&sync->cond, &sync->lock, &ts);
		if (!wear_done && wear_ready(jobs, from, to)) {
			wear_exchange(jobs, from, to, cfg, sync);
			wear_done = true;
		}
		uint64_t now = now_ns();
		bool ended = false;
		for (size_t i = from; i < to && !ended; i++)
			ended = !tl[i].end_ns && atomic_load(&jobs[i].state) == JOB_DONE;
		if (now >= tl_next || ended) {
			timeline_tick(jobs, from, to, tl, now, now >= tl_next);
			if (now >= tl_next)
				tl_next = now + TIMELINE_NS - (now - tl_next) % TIMELINE_NS;
		}
		if (*cfg->stop && !sync->stopping) {
			sync->stopping = true; /* end every sleep: rate, startdelay, wait_for */
			pthread_cond_broadcast(&sync->wake);
		}
		if (trigger_check(trig, now_ns())) {
			/* as fio: every job stops (not a signal: the results stand)
			 * and the trigger command runs */
			sync->stopping = true;
			pthread_cond_broadcast(&sync->wake);
			pthread_mutex_unlock(&sync->lock);
			trigger_run(trig);
			pthread_mutex_lock(&sync->lock);
		}
		if (prog) {
			pthread_mutex_unlock(&sync->lock);
			progress_update(prog, now_ns());
			pthread_mutex_lock(&sync->lock);
		}
		if (status->interval_ns) { /* --status-interval */
			pthread_mutex_unlock(&sync->lock);
			status_tick(status, now_ns());
			pthread_mutex_lock(&sync->lock);
		}
	}
	if (!wear_done) /* every job finished before its deadline: the others still count */
		wear_exchange(jobs, from, to, cfg, sync);
	pthread_mutex_unlock(&sync->lock);
	for (size_t i = from; i < to; i++)
		pthread_join(jobs[i].thread, NULL);
	uint64_t end = now_ns();
	for (size_t i = from; i < to; i++) {
		if (!tl[i].end_ns) {
			uint64_t b[DDIR_RWDIR_CNT], n[DDIR_RWDIR_CNT];
			for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
				b[d] = atomic_load(&jobs[i].prog_bytes[d]);
				n[d] = atomic_load(&jobs[i].prog_ios[d]);
			}
			run_job_timeline_tick(&tl[i], end, b, n);
			tl[i].end_ns = end;
		}
		/* the measured start: its end less its runtime (after ramp_time) */
		uint64_t rt = jobs[i].res.runtime_ns;
		tl[i].start_ns = rt < tl[i].end_ns ? tl[i].end_ns - rt : tl[i].end_ns;
	}
	ss_batch_end(jobs, from, to);
	return 0;
}

/* After a struct copy moved r's histograms away: r no longer owns their
 * bucket groups (counts read as zero, release frees nothing). */
static void forget_hists(struct job_result *r)
{
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		hist_init(&r->dir[d].slat_hist);
		hist_init(&r->dir[d].clat_hist);
		hist_init(&r->dir[d].lat_hist);
		r->dir[d].prios = NULL;
		r->dir[d].nr_prios = 0;
	}
	hist_init(&r->sync.lat_hist);
}

/* Build the reported entries: one per job, or one per group when the group
 * asks for group_reporting. */
static void collect(struct job *jobs, size_t nr, struct run_result *out)
{
	out->jobs = xcalloc(nr ? nr : 1, sizeof(*out->jobs));
	for (size_t i = 0; i < nr; i++) {
		struct job *j = &jobs[i];
		const struct job_spec *s = j->spec;
		if (!s->stats)
			continue; /* stats=0: not reported, not in its group's totals */
		bool merge_group = false;
		for (size_t k = 0; k < nr; k++)
			if (jobs[k].spec->groupid == s->groupid && jobs[k].spec->group_reporting &&
			    jobs[k].spec->stats)
				merge_group = true;
		struct job_result *dst = NULL;
		if (merge_group)
			for (size_t k = 0; k < out->nr_jobs; k++)
				if (out->jobs[k].groupid == s->groupid)
					dst = &out->jobs[k];
		if (dst) {
			job_result_merge(dst, &j->res);
			continue;
		}
		dst = &out->jobs[out->nr_jobs++];
		*dst = j->res; /* moves the error message and histograms too */
		j->res.error_msg = NULL;
		j->res.ss = NULL;
		j->res.blocks = NULL;
		forget_hists(&j->res);
		dst->name = xstrdup(s->name);
		dst->groupid = s->groupid;
		dst->nr_jobs = 1;
		dst->spec = xcalloc(1, sizeof(*dst->spec));
		job_spec_copy(dst->spec, s);
	}
}

/* For the buffered writers of jobs from..to: how much of their files' page
 * cache the device has not written yet, each file counted once. */
static void measure_unwritten(struct job *jobs, size_t from, size_t to)
{
	const char **done = NULL;
	size_t nr = 0, alloc = 0;
	for (size_t i = from; i < to; i++) {
		struct job *j = &jobs[i];
		if (j->spec->direct || !(j->spec->rw & RW_WRITE) ||
		    (j->eng.ops->flags & ENGINE_NO_FILE))
			continue;
		for (unsigned f = 0; f < j->nr_files; f++) {
			const char *path = j->files[f].path;
			bool seen = !path;
			for (size_t k = 0; k < nr && !seen; k++)
				seen = !strcmp(done[k], path);
			uint64_t bytes;
			if (seen || cachestat_unwritten(path, &bytes) < 0)
				continue;
			done = xgrow(done, &alloc, nr, sizeof(*done));
			done[nr++] = path;
			j->res.have_unwritten = true;
			j->res.unwritten_bytes += bytes;
		}
	}
	free(done);
}

/* The devices under every file of jobs from..to that do file I/O (for the
 * run's disk_util section, report: only of the jobs with disk_util=1). */
static void disks_collect(struct job *jobs, size_t from, size_t to, struct diskres *d, bool report)
{
	for (size_t i = from; i < to; i++) {
		if (jobs[i].eng.ops->flags & (ENGINE_NO_FILE | ENGINE_META))
			continue; /* no device does this job's I/O (fio's diskless engines) */
		if (report && !jobs[i].spec->disk_util)
			continue;
		for (unsigned f = 0; f < jobs[i].nr_files; f++)
			diskres_add_path(d, jobs[i].files[f].path);
	}
}

static void release_jobs(struct job *jobs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct job *j = &jobs[i];
		if (j->eng.ops && j->eng.ops->cleanup && j->eng.priv)
			j->eng.ops->cleanup(&j->eng);
		free(j->eng.priv);
		async_release(j);
		job_buffers_free(j);
		job_sys_release(j);
		job_gens_free(j); /* before the files: it frees one map per file */
		job_files_release(j);
		free(j->wait_jobs);
		job_result_release(&j->res);
		free(j->own_spec);
	}
	free(jobs);
}

/* Setup failed (a layout hit ENOSPC, say): with unlink=1, remove the files
 * this run created before it stopped; files that were there stay. */
static void remove_laid_out(struct job *jobs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct job *j = &jobs[i];
		if (!j->spec || !j->spec->unlink)
			continue;
		for (unsigned f = 0; f < j->nr_files; f++)
			if (j->files[f].laid_out_here && j->files[f].path)
				job_file_remove_made(&j->files[f]);
	}
}

/* timestamp, timestamp_ms and time are the end of the run, as fio's */
static void set_end_time(struct run_result *out)
{
	out->timestamp_ms = wall_time_ms();
	out->timestamp = out->timestamp_ms / 1000;
	time_t t = (time_t)out->timestamp;
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(out->time_str, sizeof(out->time_str), "%a %b %e %H:%M:%S %Y", &tm);
}

int workload_run(const struct job_list *list, const struct run_config *cfg,
		 struct run_result *out)
{
	int rc;
	memset(out, 0, sizeof(*out));
	if ((rc = workload_check_threads(list)) < 0)
		return rc;
	struct job_list expanded;
	workload_expand(list, &expanded);
	size_t nr = expanded.nr;
	struct job *jobs = xcalloc(nr ? nr : 1, sizeof(*jobs));

	out->version = RESULTS_VERSION;
	out->start_ms = wall_time_ms();
	uint64_t run_start_ns = now_ns();
	out->global_opts = job_kv_copy(list->global_opts, list->nr_global_opts);
	out->nr_global_opts = list->nr_global_opts;

	/* One clock for the whole run (fio's clocksource is global too): the
	 * first job's choice, an invariant TSC when there is one. */
	struct clock clk;
	struct devguard_claims claims; /* the devices the jobs write, held O_EXCL while open */
	devguard_claims_init(&claims);
	rc = clock_init(&clk, nr ? expanded.jobs[0].clocksource : CLOCK_SRC_AUTO);
	if (rc < 0)
		error("%s", clk.why);
	else
		rc = setup_jobs(jobs, nr, &expanded, cfg, &clk, &claims);
	if (rc < 0) {
		remove_laid_out(jobs, nr);
		release_jobs(jobs, nr);
		devguard_claims_release(&claims);
		job_list_release(&expanded);
		set_end_time(out);
		return rc;
	}

	struct log_writer *logs; /* write_*_log files, written while the jobs run */
	bool show = cfg->show_progress && (cfg->progress_always || isatty(STDERR_FILENO));
	/* --bandwidth-log: lines while the progress is shown, and one for
	 * the JSON report (fio samples it with its ETA and its JSON) */
	unsigned agg = !cfg->bandwidth_log ? 0
		     : JOBLOG_AGG | (show ? JOBLOG_AGG_TICK : 0)
		       | (cfg->bandwidth_log_json ? JOBLOG_AGG_FINAL : 0);
	if ((rc = joblog_run_begin(&logs, jobs, nr, &cfg->guard, agg)) < 0) {
		remove_laid_out(jobs, nr);
		release_jobs(jobs, nr);
		devguard_claims_release(&claims);
		job_list_release(&expanded);
		set_end_time(out);
		return rc;
	}

	struct job_flow *flows = job_flows_make(jobs, nr); /* flow= */
	struct file_locks *flocks = file_locks_make(jobs, nr); /* lockfile= */
	struct diskres disks = { 0 };
	disks_collect(jobs, 0, nr, &disks, true);
	diskres_begin(&disks);
	uint64_t t0 = now_ns();
	struct progress prog;
	if (show)
		progress_init(&prog, jobs, nr, t0, cfg->ctl.eta_interval_ns, cfg->ctl.eta_newline_ns);
	struct trigger trig;
	trigger_init(&trig, &cfg->ctl, run_start_ns);
	struct cpuidle_snap *idle0 = NULL;
	if (cfg->ctl.idle_prof) {
		idle0 = xmalloc(sizeof(*idle0));
		if (cpuidle_read(idle0) < 0) {
			warning("--idle-prof: cannot read /proc/stat; no CPU idleness is reported");
			free(idle0);
			idle0 = NULL;
		}
	}

	struct run_sync sync = { .done = 0 };
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sync.cond, &ca);
	pthread_cond_init(&sync.wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&sync.lock, NULL);
	sync.jobs = jobs;
	sync.nr_jobs = nr;
	sync.notes = cfg->notes;
	for (size_t i = 0; i < nr; i++)
		sync.exitall |= jobs[i].spec->exitall; /* global in fio */
	for (size_t i = 0; i < nr; i++)
		if (!(jobs[i].eng.ops->flags & ENGINE_NO_IO))
			sync.io_jobs_left++;
	struct status_ctl status; /* --status-interval */
	status_init(&status, jobs, nr, cfg->ctl.status_interval_ns, cfg->status_report,
		    cfg->status_arg, now_ns());
	status.global_opts = list->global_opts;
	status.nr_global_opts = list->nr_global_opts;
	status.start_ms = out->start_ms;
	status.agg_logs = logs; /* --bandwidth-log: a line per JSON report, as fio */
	out->batches = xcalloc(nr ? nr : 1, sizeof(*out->batches));
	out->timelines = xcalloc(nr ? nr : 1, sizeof(*out->timelines));
	out->nr_timelines = nr;
	for (size_t i = 0; i < nr; i++)
		out->timelines[i].name = xstrdup(jobs[i].spec->name);
	for (size_t from = 0; from < nr && !*cfg->stop && !sync.stopping;) {
		size_t to = from + 1;
		while (to < nr && !jobs[to].spec->stonewall)
			to++;
		if (cfg->batch_sync && cfg->batch_sync(cfg->batch_sync_arg, jobs[from].spec->groupid,
							jobs[to - 1].spec->groupid, false, 0, NULL) < 0) {
			rc = -ECANCELED;
			break;
		}
		struct run_batch *b = &out->batches[out->nr_batches++];
		b->group_first = jobs[from].spec->groupid;
		b->group_last = jobs[to - 1].spec->groupid;
		struct diskres bd = { 0 };
		disks_collect(jobs, from, to, &bd, false); /* the batch's: the anomaly rules' */
		if (cfg->batch_edge)
			cfg->batch_edge(cfg->batch_edge_arg, b->group_first, b->group_last, false);
		diskres_begin(&bd);
		uint64_t b0 = now_ns();
		struct iosched_saved *sched; /* ioscheduler= */
		rc = job_iosched_apply(jobs, from, to, &sched);
		if (!rc)
			rc = run_batch(jobs, from, to, cfg, show ? &prog : NULL, &trig, &sync, &status,
				       out->timelines);
		job_iosched_restore(sched);
		b->elapsed_ms = (now_ns() - b0) / NSEC_PER_MSEC;
		diskres_end(&bd, b->elapsed_ms, &b->disks, &b->nr_disks);
		measure_unwritten(jobs, from, to);
		diskres_release(&bd);
		if (cfg->batch_edge)
			cfg->batch_edge(cfg->batch_edge_arg, b->group_first, b->group_last, true);
		if (cfg->batch_sync) {
			int err = rc < 0 ? -rc : 0;
			const char *msg = NULL;
			for (size_t i = from; i < to && !err; i++)
				if (jobs[i].res.error) {
					err = jobs[i].res.error;
					msg = jobs[i].res.error_msg;
				}
			if (cfg->batch_sync(cfg->batch_sync_arg, b->group_first, b->group_last, true,
					    err, msg) < 0 && rc == 0)
				rc = -ECANCELED;
		}
		if (rc < 0)
			break;
		from = to;
	}
	for (size_t i = 0; i < nr; i++)
		jobs[i].sync = NULL;
	status_release(&status);
	int lrc = joblog_run_end(logs, jobs, nr);
	pthread_cond_destroy(&sync.cond);
	pthread_cond_destroy(&sync.wake);
	pthread_mutex_destroy(&sync.lock);
	if (show)
		progress_clear(&prog);
	if (idle0) {
		struct cpuidle_snap *idle1 = xmalloc(sizeof(*idle1));
		if (cpuidle_read(idle1) == 0) {
			out->idle.mode = cfg->ctl.idle_prof;
			out->idle.nr_cpus = cpuidle_pct(idle0, idle1, out->idle.pct);
			cpuidle_unit_work(&out->idle.unit_mean_us, &out->idle.unit_stddev);
		}
		free(idle1);
		free(idle0);
	}
	diskres_end(&disks, (now_ns() - t0) / NSEC_PER_MSEC, &out->disks, &out->nr_disks);
	diskres_release(&disks);

	collect(jobs, nr, out);
	set_end_time(out);
	out->interrupted = *cfg->stop != 0;
	for (size_t i = 0; i < nr && rc == 0; i++)
		if (jobs[i].res.error || (i < out->nr_jobs && out->jobs[i].error))
			rc = -(jobs[i].res.error ? jobs[i].res.error : out->jobs[i].error);
	for (size_t i = 0; i < out->nr_jobs && rc == 0; i++)
		if (out->jobs[i].error)
			rc = -out->jobs[i].error;
	if (out->interrupted && rc == 0)
		rc = -EINTR;
	if (rc == 0)
		rc = lrc;
	for (size_t i = 0; i < nr; i++)
		if (jobs[i].spec->unlink)
			job_files_unlink(&jobs[i]);
	file_locks_free(flocks, jobs, nr);
	release_jobs(jobs, nr);
	job_flows_free(flows);
	devguard_claims_release(&claims);
	job_list_release(&expanded);
	return rc;
}
