/*
 * fio's --status-interval (status.h): the request counter the main thread
 * raises, the job threads' snapshots (their results so far, computed as
 * the final ones are, on a copy), and the periodic run_result built from
 * them and handed to the reporting callback.
 */
#include "workload/status_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "workload/job/job.h"
#include "workload/logs/joblog.h"
#include "workload/io/io.h"
#include "workload/runtime_int.h"

/* dst (uninitialised memory) becomes a deep copy of src */
static void result_copy(struct job_result *dst, const struct job_result *src)
{
	*dst = *src;
	dst->name = src->name ? xstrdup(src->name) : NULL;
	dst->error_msg = src->error_msg ? xstrdup(src->error_msg) : NULL;
	if (src->spec) {
		dst->spec = xcalloc(1, sizeof(*dst->spec));
		job_spec_copy(dst->spec, src->spec);
	}
	if (src->ss) {
		dst->ss = xmalloc(sizeof(*dst->ss));
		*dst->ss = *src->ss;
		size_t n = src->ss->n * sizeof(uint64_t);
		dst->ss->iops = xmalloc(n ? n : 1);
		dst->ss->bw = xmalloc(n ? n : 1);
		if (n) {
			memcpy(dst->ss->iops, src->ss->iops, n);
			memcpy(dst->ss->bw, src->ss->bw, n);
		}
	}
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		hist_init(&dst->dir[d].slat_hist);
		hist_init(&dst->dir[d].clat_hist);
		hist_init(&dst->dir[d].lat_hist);
		hist_copy(&dst->dir[d].slat_hist, &src->dir[d].slat_hist);
		hist_copy(&dst->dir[d].clat_hist, &src->dir[d].clat_hist);
		hist_copy(&dst->dir[d].lat_hist, &src->dir[d].lat_hist);
	}
	hist_init(&dst->sync.lat_hist);
	hist_copy(&dst->sync.lat_hist, &src->sync.lat_hist);
}

void status_init(struct status_ctl *ctl, struct job *jobs, size_t nr, uint64_t interval_ns,
		 status_report_fn report, void *arg, uint64_t now)
{
	memset(ctl, 0, sizeof(*ctl));
	atomic_init(&ctl->req, 0);
	ctl->jobs = jobs;
	ctl->nr = nr;
	ctl->start_ms = wall_time_ms();
	if (interval_ns && report) {
		ctl->interval_ns = interval_ns;
		ctl->next_ns = now + interval_ns;
		ctl->report = report;
		ctl->arg = arg;
	}
	for (size_t i = 0; i < nr; i++) {
		jobs[i].status_req = &ctl->req;
		jobs[i].status_seen = 0;
		if (!ctl->interval_ns)
			continue;
		struct job_status *st = xcalloc(1, sizeof(*st));
		pthread_mutex_init(&st->lock, NULL);
		job_result_init(&st->snap);
		atomic_init(&st->ack, 0);
		jobs[i].status = st;
	}
}

void job_status_answer(struct job *j, uint64_t now)
{
	unsigned req = atomic_load_explicit(j->status_req, memory_order_acquire);
	j->status_seen = req;
	struct job_status *st = j->status;
	if (!st)
		return;
	struct job_result r;
	result_copy(&r, &j->res);
	job_results_compute(j, &r, now, j->cpu0);
	r.elapsed_s = (now - j->t0_ns + NSEC_PER_SEC / 2) / NSEC_PER_SEC;
	pthread_mutex_lock(&st->lock);
	job_result_release(&st->snap);
	st->snap = r;
	st->have = true;
	pthread_mutex_unlock(&st->lock);
	atomic_store_explicit(&st->ack, req, memory_order_release);
}

/* jobs that are in their I/O loop or about to enter it answer */
static bool will_answer(const struct job *j)
{
	int s = atomic_load(&j->state);
	return !atomic_load(&j->done_flag) &&
	       (s == JOB_STARTING || s == JOB_RAMP || s == JOB_RUNNING);
}

static void wait_answers(struct status_ctl *ctl, unsigned req)
{
	uint64_t until = now_ns() + 250 * NSEC_PER_MSEC; /* fio waits a bounded time too */
	for (;;) {
		bool all = true;
		for (size_t i = 0; i < ctl->nr && all; i++) {
			struct job *j = &ctl->jobs[i];
			if (will_answer(j) &&
			    atomic_load_explicit(&j->status->ack, memory_order_acquire) != req)
				all = false;
		}
		if (all || now_ns() >= until)
			return;
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

/* job i's results as they stand, into r (uninitialised) */
static void job_now_result(struct job *j, struct job_result *r)
{
	if (atomic_load_explicit(&j->done_flag, memory_order_acquire)) {
		result_copy(r, &j->res); /* final: its thread wrote it and ended */
		return;
	}
	pthread_mutex_lock(&j->status->lock);
	if (j->status->have)
		result_copy(r, &j->status->snap);
	else
		job_result_init(r); /* not started: nothing done yet */
	pthread_mutex_unlock(&j->status->lock);
}

/* the reported entries, as the final report's: one per job with stats=1,
 * or one per group under group_reporting */
static void build(struct status_ctl *ctl, struct run_result *out)
{
	out->jobs = xcalloc(ctl->nr ? ctl->nr : 1, sizeof(*out->jobs));
	for (size_t i = 0; i < ctl->nr; i++) {
		struct job *j = &ctl->jobs[i];
		const struct job_spec *s = j->spec;
		if (!s->stats)
			continue;
		bool merge_group = false;
		for (size_t k = 0; k < ctl->nr; k++)
			if (ctl->jobs[k].spec->groupid == s->groupid &&
			    ctl->jobs[k].spec->group_reporting && ctl->jobs[k].spec->stats)
				merge_group = true;
		struct job_result r;
		job_now_result(j, &r);
		struct job_result *dst = NULL;
		for (size_t k = 0; merge_group && k < out->nr_jobs; k++)
			if (out->jobs[k].groupid == s->groupid)
				dst = &out->jobs[k];
		if (dst) {
			job_result_merge(dst, &r);
			job_result_release(&r);
			continue;
		}
		dst = &out->jobs[out->nr_jobs++];
		*dst = r;
		free(dst->name);
		dst->name = xstrdup(s->name);
		dst->groupid = s->groupid;
		dst->nr_jobs = 1;
		if (!dst->spec) {
			dst->spec = xcalloc(1, sizeof(*dst->spec));
			job_spec_copy(dst->spec, s);
		}
	}
}

void status_tick(struct status_ctl *ctl, uint64_t now)
{
	if (!ctl->interval_ns || now < ctl->next_ns)
		return;
	while (ctl->next_ns <= now)
		ctl->next_ns += ctl->interval_ns;
	unsigned req = atomic_fetch_add_explicit(&ctl->req, 1, memory_order_release) + 1;
	wait_answers(ctl, req);
	struct run_result r;
	memset(&r, 0, sizeof(r));
	r.version = RESULTS_VERSION;
	r.start_ms = ctl->start_ms;
	r.global_opts = job_kv_copy(ctl->global_opts, ctl->nr_global_opts);
	r.nr_global_opts = ctl->nr_global_opts;
	build(ctl, &r);
	r.timestamp_ms = wall_time_ms();
	r.timestamp = r.timestamp_ms / 1000;
	time_t t = (time_t)r.timestamp;
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(r.time_str, sizeof(r.time_str), "%a %b %e %H:%M:%S %Y", &tm);
	ctl->report(ctl->arg, &r);
	run_result_release(&r);
	joblog_agg_report(ctl->agg_logs);
}

void status_release(struct status_ctl *ctl)
{
	for (size_t i = 0; i < ctl->nr; i++) {
		struct job_status *st = ctl->jobs[i].status;
		if (!st)
			continue;
		job_result_release(&st->snap);
		pthread_mutex_destroy(&st->lock);
		free(st);
		ctl->jobs[i].status = NULL;
		ctl->jobs[i].status_req = NULL;
	}
}
