/*
 * The log writer: opens every log file of a run before the jobs start
 * (through the guarded open, as everything iobench writes), runs one thread
 * that empties the jobs' rings into the files every 20 ms or when a ring is
 * half full, and at the end writes what is left and closes. Text logs go
 * through stdio; a .fz log (log_store_compressed) collects binary samples
 * into chunks of log_compression bytes, each written as one zlib stream, as
 * fio does. The --bandwidth-log files are written here too: every
 * bwavgtime, the summed rate of all jobs from their progress counters.
 */
#include "workload/logs/joblog_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "sys/affinity.h"
#include "sys/dev/guardopen.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "workload/job/job.h"

#define WRITER_TICK_NS (20 * NSEC_PER_MSEC)
/* --bandwidth-log with the progress shown: how often fio 3.33's status
 * (and so its aggregate sample) is looked at */
#define AGG_STATUS_TICK_NS (250 * NSEC_PER_MSEC)
#define DEFAULT_CHUNK (64 * 1024)

static const char *const kind_name[JOBLOG_NR] = {
	"bw", "iops", "lat", "clat", "slat", "clat_hist",
};

static void deadline_in(struct timespec *ts, uint64_t ns)
{
	uint64_t d = now_ns() + ns;
	ts->tv_sec = (time_t)(d / NSEC_PER_SEC);
	ts->tv_nsec = (long)(d % NSEC_PER_SEC);
}

void joblog_kick(struct log_writer *w)
{
	pthread_cond_signal(&w->wake);
}

void *joblog_wait_slot(struct log_writer *w, struct logring *r)
{
	void *slot;
	atomic_fetch_add_explicit(&w->waits, 1, memory_order_relaxed);
	pthread_mutex_lock(&w->lock);
	while (!(slot = logring_slot(r))) {
		pthread_cond_signal(&w->wake);
		struct timespec ts;
		deadline_in(&ts, NSEC_PER_MSEC);
		pthread_cond_timedwait(&w->space, &w->lock, &ts);
	}
	pthread_mutex_unlock(&w->lock);
	return slot;
}

static void file_write(struct log_file *f, const void *p, size_t n)
{
	if (f->err || !n)
		return;
	if (fwrite_unlocked(p, 1, n, f->fp) != n)
		f->err = errno ? -errno : -EIO;
}

/* Compress chunk[0..chunk_len) as one zlib stream (an empty chunk gives an
 * empty stream, fio's empty log). */
static void chunk_flush(struct log_file *f)
{
	uLongf zlen = compressBound((uLong)f->chunk_len);
	unsigned char *z = xmalloc(zlen);
	if (compress2(z, &zlen, f->chunk, (uLong)f->chunk_len, Z_DEFAULT_COMPRESSION) != Z_OK)
		f->err = f->err ? f->err : -ENOMEM;
	else
		file_write(f, z, zlen);
	free(z);
	f->chunk_len = 0;
}

static void write_sample(struct log_stream *st, const struct fiolog_sample *s)
{
	struct log_file *f = st->file;
	if (!f->compressed) {
		char line[FIOLOG_LINE_MAX];
		file_write(f, line, fiolog_format(line, s, st->offset, st->log_prio));
		return;
	}
	if (f->chunk_len + FIOLOG_BIN_SIZE_OFFSET > f->chunk_cap)
		chunk_flush(f);
	f->chunk_len += fiolog_encode(f->chunk + f->chunk_len, s, st->offset, st->log_prio);
}

/* "time, ddir, bs, c0, c1, ...\n" */
static void write_hist(struct log_stream *st, const struct joblog_hist_rec *r)
{
	size_t cap = 64 + (size_t)r->nbins * 22;
	char *buf = xmalloc(cap), *p = buf;
	p = fiolog_put_u64(p, r->time_ms);
	*p++ = ',', *p++ = ' ';
	p = fiolog_put_u64(p, r->ddir);
	*p++ = ',', *p++ = ' ';
	p = fiolog_put_u64(p, r->bs);
	for (uint32_t i = 0; i < r->nbins; i++) {
		*p++ = ',', *p++ = ' ';
		p = fiolog_put_u64(p, r->bins[i]);
	}
	*p++ = '\n';
	file_write(st->file, buf, (size_t)(p - buf));
	free(buf);
}

static bool drain(struct log_writer *w)
{
	bool any = false;
	for (size_t i = 0; i < w->nr_streams; i++) {
		struct log_stream *st = w->streams[i];
		const void *rec;
		while ((rec = logring_peek(&st->ring))) {
			if (st->kind == JOBLOG_HIST)
				write_hist(st, rec);
			else
				write_sample(st, rec);
			logring_pop(&st->ring);
			any = true;
		}
	}
	return any;
}

/* --bandwidth-log, as fio 3.33 samples it: when its status is computed
 * (every 250 ms while the progress line is shown: agg_tick; for each
 * JSON report, --status-interval's and the last: agg_final), one line per direction if
 * more than the smallest bwavgtime has passed since the previous line and
 * no job is in its ramp_time; none otherwise, so a run without either
 * leaves the files empty. */
static void agg_sample(struct log_writer *w, bool json)
{
	uint64_t now = now_ns();
	if (json ? !w->agg_final : !w->agg_tick)
		return;
	if (!json) { /* fio looks at its status every 250 ms */
		if (now < w->agg_next_tick)
			return;
		while (w->agg_next_tick <= now)
			w->agg_next_tick += AGG_STATUS_TICK_NS;
	}
	if ((now - w->agg_last) / NSEC_PER_MSEC <= w->agg_interval_ns / NSEC_PER_MSEC)
		return;
	for (size_t i = 0; i < w->nr_jobs; i++)
		if (atomic_load_explicit(&w->jobs[i].state, memory_order_relaxed) == JOB_RAMP)
			return;
	/* in ns, so that the last line of a run shorter than a millisecond
	 * since the previous one is still written */
	uint64_t span_ns = now - w->agg_last;
	if (!span_ns)
		span_ns = 1;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t bytes = 0;
		for (size_t i = 0; i < w->nr_jobs; i++)
			bytes += atomic_load_explicit(&w->jobs[i].prog_bytes[d], memory_order_relaxed);
		struct fiolog_sample s = {
			.time_ms = (now - w->agg_t0) / NSEC_PER_MSEC,
			.value = (uint64_t)((double)(bytes - w->agg_bytes[d]) * 1e9 / (double)span_ns / 1024),
			.ddir = (uint32_t)d,
		};
		char line[FIOLOG_LINE_MAX];
		file_write(w->agg_file[d], line, fiolog_format(line, &s, false, false));
		w->agg_bytes[d] = bytes;
	}
	w->agg_last = now;
}

static void *writer_main(void *arg)
{
	struct log_writer *w = arg;
	for (;;) {
		bool stop = atomic_load(&w->stop);
		if (drain(w)) {
			pthread_mutex_lock(&w->lock);
			pthread_cond_broadcast(&w->space);
			pthread_mutex_unlock(&w->lock);
		}
		if (stop)
			break;
		if (w->agg) {
			if (atomic_exchange(&w->agg_report, false))
				agg_sample(w, true);
			agg_sample(w, false);
		}
		struct timespec ts;
		deadline_in(&ts, WRITER_TICK_NS);
		pthread_mutex_lock(&w->lock);
		if (!atomic_load(&w->stop))
			pthread_cond_timedwait(&w->wake, &w->lock, &ts);
		pthread_mutex_unlock(&w->lock);
	}
	if (w->agg)
		agg_sample(w, true);
	return NULL;
}

void joblog_agg_report(struct log_writer *w)
{
	if (!w || !w->agg_final)
		return;
	atomic_store(&w->agg_report, true);
	joblog_kick(w);
}

/* The file at path, opened once for every stream that names it. */
static int file_get(struct log_writer *w, const char *path, bool compressed, uint64_t chunk,
		    const struct devguard_allow *allow, struct log_file **out)
{
	for (size_t i = 0; i < w->nr_files; i++)
		if (!strcmp(w->files[i]->path, path)) {
			*out = w->files[i];
			return 0;
		}
	char why[512];
	FILE *fp;
	int rc = devguard_fopen(path, false, allow, &fp, why, sizeof(why));
	if (rc < 0)
		return error_errno(rc, "cannot create log '%s': %s", path, why);
	setvbuf(fp, NULL, _IOFBF, 64 * 1024);
	struct log_file *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->fp = fp;
	f->compressed = compressed;
	if (compressed) {
		f->chunk_cap = chunk ? chunk : DEFAULT_CHUNK;
		if (f->chunk_cap < FIOLOG_BIN_SIZE_OFFSET)
			f->chunk_cap = FIOLOG_BIN_SIZE_OFFSET;
		f->chunk = xmalloc(f->chunk_cap);
	}
	w->files = xgrow(w->files, &w->alloc_files, w->nr_files, sizeof(*w->files));
	w->files[w->nr_files++] = f;
	*out = f;
	return 0;
}

static uint16_t job_ioprio(const struct job_spec *s)
{
	int cls = s->ioprio_class >= 0 ? s->ioprio_class : (s->ioprio >= 0 ? 2 : 0);
	int lvl = s->ioprio >= 0 ? s->ioprio : 0;
	return (uint16_t)((cls << 13) | lvl);
}

static int stream_add(struct log_writer *w, struct job *j, enum joblog_kind k, const char *prefix,
		      const struct devguard_allow *allow)
{
	const struct job_spec *s = j->spec;
	bool fz = s->log_store_compressed && k != JOBLOG_HIST; /* histogram logs stay text */
	const char *pre = prefix && *prefix ? prefix : s->name;
	char *path = s->per_job_logs
			     ? xasprintf("%s_%s.%u.log%s", pre, kind_name[k], j->index + 1, fz ? ".fz" : "")
			     : xasprintf("%s_%s.log%s", pre, kind_name[k], fz ? ".fz" : "");
	struct log_file *f;
	int rc = file_get(w, path, fz, s->log_compression, allow, &f);
	free(path);
	if (rc < 0)
		return rc;
	if (k == JOBLOG_SLAT && (j->eng.ops->flags & ENGINE_SYNC) && !job_measures_slat(j, false))
		return 0; /* as fio: created, and empty (no submission latency) */
	struct log_stream *st = xmemalign(64, sizeof(*st));
	memset(st, 0, sizeof(*st));
	st->kind = k;
	st->file = f;
	st->offset = s->log_offset;
	st->log_prio = s->log_prio;
	if (k == JOBLOG_HIST)
		logring_init(&st->ring,
			     sizeof(struct joblog_hist_rec) +
				     fiolog_hist_bins(s->log_hist_coarseness) * sizeof(uint64_t),
			     JOBLOG_HIST_RING_RECORDS);
	else
		logring_init(&st->ring, sizeof(struct fiolog_sample), JOBLOG_RING_RECORDS);
	w->streams = xgrow(w->streams, &w->alloc_streams, w->nr_streams, sizeof(*w->streams));
	w->streams[w->nr_streams++] = st;
	j->logs->st[k] = st;
	return 0;
}

static int job_logs_setup(struct log_writer *w, struct job *j, const struct devguard_allow *allow)
{
	const struct job_spec *s = j->spec;
	struct job_logs *l = xcalloc(1, sizeof(*l));
	j->logs = l;
	l->w = w;
	l->avg_ms = s->log_avg_msec;
	l->hist_ms = s->log_hist_msec;
	l->coarse = s->log_hist_coarseness;
	l->max_value = s->log_max_value;
	l->offset = s->log_offset;
	l->prio = job_ioprio(s);
	l->clock_id = -1;
	if (s->log_unix_epoch || s->log_alternate_epoch) {
		struct timespec ts;
		l->clock_id = (int)s->log_alternate_epoch_clock_id;
		if (clock_gettime(l->clock_id, &ts) < 0)
			return error_errno(-errno, "job '%s': log_alternate_epoch_clock_id=%d", s->name,
					   l->clock_id);
	}
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		if (s->rw & (1u << d)) /* RW_READ, RW_WRITE, RW_TRIM are 1 << ddir */
			l->dirs |= 1u << d;
	int rc = 0;
	if (s->bw_log && !s->disable_bw)
		rc = stream_add(w, j, JOBLOG_BW, s->bw_log, allow);
	if (!rc && s->iops_log && !s->disable_bw)
		rc = stream_add(w, j, JOBLOG_IOPS, s->iops_log, allow);
	if (!rc && s->lat_log && !s->disable_lat)
		rc = stream_add(w, j, JOBLOG_LAT, s->lat_log, allow);
	if (!rc && s->lat_log && !s->disable_slat)
		rc = stream_add(w, j, JOBLOG_SLAT, s->lat_log, allow);
	if (!rc && s->lat_log && !s->disable_clat)
		rc = stream_add(w, j, JOBLOG_CLAT, s->lat_log, allow);
	if (!rc && s->hist_log) {
		rc = stream_add(w, j, JOBLOG_HIST, s->hist_log, allow);
		for (int d = 0; d < DDIR_RWDIR_CNT && !rc; d++)
			if (l->dirs & (1u << d))
				l->hbins[d] = xcalloc(FIOLOG_HIST_BINS, sizeof(uint64_t));
	}
	return rc;
}

static void writer_free(struct log_writer *w, struct job *jobs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct job_logs *l = jobs[i].logs;
		if (!l)
			continue;
		for (int d = 0; d < DDIR_RWDIR_CNT; d++)
			free(l->hbins[d]);
		free(l);
		jobs[i].logs = NULL;
	}
	for (size_t i = 0; i < w->nr_streams; i++) {
		logring_release(&w->streams[i]->ring);
		free(w->streams[i]);
	}
	free(w->streams);
	for (size_t i = 0; i < w->nr_files; i++) {
		free(w->files[i]->path);
		free(w->files[i]->chunk);
		free(w->files[i]);
	}
	free(w->files);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	pthread_cond_destroy(&w->space);
	free(w);
}

/* Close every file (compressed ones get their last chunk): 0 or the first
 * error, each one reported. */
static int files_close(struct log_writer *w)
{
	int rc = 0;
	for (size_t i = 0; i < w->nr_files; i++) {
		struct log_file *f = w->files[i];
		if (f->compressed)
			chunk_flush(f);
		if (fclose(f->fp) != 0 && !f->err)
			f->err = -errno;
		f->fp = NULL;
		if (f->err) {
			error_errno(f->err, "cannot write log '%s'", f->path);
			if (!rc)
				rc = f->err;
		}
	}
	return rc;
}

int joblog_run_begin(struct log_writer **out, struct job *jobs, size_t nr,
		     const struct devguard_allow *allow, unsigned bandwidth_log)
{
	*out = NULL;
	bool any = bandwidth_log;
	for (size_t i = 0; i < nr; i++)
		any |= joblog_wanted(jobs[i].spec);
	if (!any)
		return 0;
	struct log_writer *w = xcalloc(1, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &ca);
	pthread_cond_init(&w->space, &ca);
	pthread_condattr_destroy(&ca);
	int rc = 0;
	for (size_t i = 0; i < nr && !rc; i++)
		if (joblog_wanted(jobs[i].spec))
			rc = job_logs_setup(w, &jobs[i], allow);
	if (!rc && bandwidth_log) {
		static const char *const agg_name[DDIR_RWDIR_CNT] = {
			"agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log",
		};
		w->agg = true;
		w->agg_tick = bandwidth_log & JOBLOG_AGG_TICK;
		w->agg_final = bandwidth_log & JOBLOG_AGG_FINAL;
		w->jobs = jobs;
		w->nr_jobs = nr;
		/* the smallest bwavgtime of the jobs, as fio */
		w->agg_interval_ns = nr ? UINT64_MAX : 500 * NSEC_PER_MSEC;
		for (size_t i = 0; i < nr; i++)
			if (jobs[i].spec->bw_avg_time < w->agg_interval_ns)
				w->agg_interval_ns = jobs[i].spec->bw_avg_time;
		w->agg_t0 = w->agg_last = now_ns();
		w->agg_next_tick = w->agg_t0 + AGG_STATUS_TICK_NS;
		for (int d = 0; d < DDIR_RWDIR_CNT && !rc; d++)
			rc = file_get(w, agg_name[d], false, 0, allow, &w->agg_file[d]);
	}
	/* log_compression_cpus: the writer (and compressor) on the CPUs any
	 * of the jobs names */
	cpu_set_t cpus;
	bool pin = false;
	CPU_ZERO(&cpus);
	for (size_t i = 0; i < nr && !rc; i++) {
		const char *l = jobs[i].spec->log_compression_cpus;
		cpu_set_t one;
		char why[160];
		if (!l || !joblog_wanted(jobs[i].spec))
			continue;
		if ((rc = cpuset_parse(l, &one, why, sizeof(why))) < 0)
			error("job '%s': log_compression_cpus=%s: %s", jobs[i].spec->name, l, why);
		CPU_OR(&cpus, &cpus, &one);
		pin = true;
	}
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	if (!rc && pin && (rc = -pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus)) < 0)
		error_errno(rc, "log_compression_cpus: cannot set the log writer thread's CPUs");
	if (!rc && (rc = -pthread_create(&w->thread, &attr, writer_main, w)) < 0)
		error_errno(rc, pin ? "cannot start the log writer thread on the CPUs log_compression_cpus "
				"names (are they online and allowed?)" : "cannot start the log writer thread");
	pthread_attr_destroy(&attr);
	if (rc < 0) {
		files_close(w);
		writer_free(w, jobs, nr);
		return rc;
	}
	w->running = true;
	*out = w;
	return 0;
}

int joblog_run_end(struct log_writer *w, struct job *jobs, size_t nr)
{
	if (!w)
		return 0;
	pthread_mutex_lock(&w->lock);
	atomic_store(&w->stop, true);
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	if (w->running)
		pthread_join(w->thread, NULL);
	int rc = files_close(w);
	writer_free(w, jobs, nr);
	return rc;
}
