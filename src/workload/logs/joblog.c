/*
 * The job side of the logs: per completion, the samples of each log the job
 * writes, in fio's units (as measured against fio 3.33): latencies
 * in ns; per-I/O bandwidth as bytes * 10^6 / clat_ns (bytes per ms, which
 * is what fio prints); per-I/O IOPS 1; and with log_avg_msec=M, one line per
 * direction per window: the mean (rounded) or, with log_max_value, the
 * maximum latency, KiB/s and I/Os per second over the window. Latency
 * windows close at the first completion M ms after the last window start,
 * which is then aligned down to a multiple of M; their last partial
 * windows are written when the job ends. The bw and iops lines are fio's
 * timer samples: due at every multiple of M from time 0 and stamped with
 * it, each the rate of the I/Os completed since the previous due time over
 * M ms, no line for a direction without I/O in the window (a job thread
 * writes the lines that fell due at its next completion, or when it ends:
 * joblog_rate_due). The line due when the runtime ends is written, fio's
 * last full interval; a job that ends between two due times (size
 * reached) has no line for that partial interval, as fio's timer finds it
 * stopped. The histogram log counts clat per direction in fio's
 * 1856 bins (merged 2^coarseness at a time) and writes them at the first
 * completion log_hist_msec after the window start (the direction's first
 * completion past 0 ms, then every log_hist_msec); as fio, it has no last
 * partial line, so the I/Os of the last window are in the JSON only.
 */
#include "workload/logs/joblog_int.h"

#include <string.h>

#include "engines/engine.h"
#include "stats/hist.h"
#include "util/assert.h"
#include "util/timeutil.h"
#include "workload/job/job.h"

/* a job that ends this close before a due time has reached it: the
 * runtime's end in log time is rounded to the millisecond */
#define JOBLOG_RATE_SLACK_MS 1

bool joblog_wanted(const struct job_spec *s)
{
	return s->bw_log || s->iops_log || s->lat_log || s->hist_log;
}

static void push(struct job_logs *l, struct log_stream *st, const struct fiolog_sample *smp)
{
	void *slot = logring_slot(&st->ring);
	if (__builtin_expect(!slot, 0))
		slot = joblog_wait_slot(l->w, &st->ring);
	memcpy(slot, smp, sizeof(*smp));
	if (logring_publish(&st->ring) == st->ring.cap / 2)
		joblog_kick(l->w);
}

static inline uint64_t elapsed_ms(const struct job_logs *l, uint64_t now_ns)
{
	return now_ns > l->epoch_ns ? (now_ns - l->epoch_ns) / 1000000ULL : 0;
}

void joblog_start(struct job_logs *l, uint64_t now_ns, uint64_t end_ns)
{
	l->started = true;
	l->epoch_ns = now_ns;
	l->stop_ms = end_ns && end_ns != UINT64_MAX && end_ns > now_ns
		   ? (end_ns - now_ns + 500000ULL) / 1000000ULL : UINT64_MAX;
	l->base_ms = 0;
	if (l->clock_id >= 0) {
		struct timespec ts;
		if (clock_gettime(l->clock_id, &ts) == 0) /* checked when the logs were set up */
			l->base_ms = (uint64_t)ts.tv_sec * 1000ULL + (uint64_t)ts.tv_nsec / 1000000ULL;
	}
	memset(l->last_ms, 0, sizeof(l->last_ms));
	for (int k = 0; k < JOBLOG_NR; k++)
		l->next_ms[k] = l->avg_ms;
	memset(l->win, 0, sizeof(l->win));
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		l->hist_on[d] = false;
		l->hist_n[d] = 0;
		if (l->hbins[d])
			memset(l->hbins[d], 0, FIOLOG_HIST_BINS * sizeof(uint64_t));
	}
}

/* One per-I/O line. */
static void push_io(struct job_logs *l, enum joblog_kind k, uint64_t t, uint64_t v,
		    const struct io_unit *u)
{
	struct fiolog_sample smp = {
		.time_ms = t + l->base_ms,
		.value = v,
		.ddir = u->ddir,
		/* a priority of its own (cmdprio options), else the job's */
		.prio = u->ioprio ? u->ioprio : l->prio,
		.bs = u->buflen,
		.offset = u->offset,
	};
	push(l, l->st[k], &smp);
}

/* The window lines of log k stamped t, one per direction that has one:
 * latency kinds the mean or max of the window's samples; bw and iops
 * (rates) the window's bytes or I/Os over span_ms, as fio's timer writes
 * them (no line for a direction without I/O in the window). */
static void close_window(struct job_logs *l, enum joblog_kind k, uint64_t t, bool rates,
			 uint64_t span_ms)
{
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct joblog_win *w = &l->win[k][d];
		if (!w->n)
			continue;
		uint64_t v;
		if (rates)
			v = joblog_rate_value(k == JOBLOG_BW, w->sum, w->n, span_ms);
		else
			v = l->max_value ? w->max : (w->sum + w->n / 2) / w->n;
		struct fiolog_sample smp = { .time_ms = t + l->base_ms, .value = v, .ddir = (uint32_t)d };
		push(l, l->st[k], &smp);
		memset(w, 0, sizeof(*w));
	}
}

uint64_t joblog_rate_value(bool bw, uint64_t bytes, uint64_t ios, uint64_t span_ms)
{
	if (!span_ms)
		return 0;
	return bw ? bytes * 1000 / span_ms / 1024 : ios * 1000 / span_ms;
}

unsigned joblog_rate_due(uint64_t *next_ms, uint64_t t, uint64_t stop_ms, unsigned avg_ms,
			 uint64_t *due_ms)
{
	if (!avg_ms || *next_ms > t || *next_ms > stop_ms)
		return 0;
	*due_ms = *next_ms;
	/* the windows after the first are empty (the job thread was away):
	 * they have no line, as fio's timer finds no new I/O in them */
	uint64_t last = t < stop_ms ? t : stop_ms;
	*next_ms += (last - *next_ms) / avg_ms * avg_ms + avg_ms;
	return 1;
}

/* Write the bw/iops lines of log k that fell due by time t (not past the
 * runtime's end), before the I/O completed at t is counted. */
static void rate_lines(struct job_logs *l, enum joblog_kind k, uint64_t t)
{
	uint64_t due;
	if (joblog_rate_due(&l->next_ms[k], t, l->stop_ms, l->avg_ms, &due))
		close_window(l, k, due, true, l->avg_ms);
}

static void window_add(struct job_logs *l, enum joblog_kind k, enum ddir d, uint64_t v,
		       uint64_t t)
{
	struct joblog_win *w = &l->win[k][d];
	if (k == JOBLOG_BW || k == JOBLOG_IOPS) {
		rate_lines(l, k, t);
		w->sum += v;
		w->n++;
		return;
	}
	w->sum += v;
	w->n++;
	if (v > w->max)
		w->max = v;
	if (t - l->last_ms[k] >= l->avg_ms) {
		close_window(l, k, t, false, 0);
		l->last_ms[k] = t - t % l->avg_ms;
	}
}

static void hist_push(struct job_logs *l, enum ddir d, uint64_t t)
{
	struct log_stream *st = l->st[JOBLOG_HIST];
	void *slot = logring_slot(&st->ring);
	if (!slot)
		slot = joblog_wait_slot(l->w, &st->ring);
	struct joblog_hist_rec *r = slot;
	unsigned nb = fiolog_hist_bins(l->coarse), per = 1u << l->coarse;
	r->time_ms = t + l->base_ms;
	r->bs = l->hist_bs[d];
	r->ddir = (uint32_t)d;
	r->nbins = nb;
	const uint64_t *fine = l->hbins[d];
	for (unsigned b = 0; b < nb; b++) {
		uint64_t sum = 0;
		for (unsigned i = 0; i < per; i++)
			sum += fine[b * per + i];
		r->bins[b] = sum;
	}
	logring_publish(&st->ring);
	joblog_kick(l->w); /* a few lines a second: wake the writer for each */
	memset(l->hbins[d], 0, FIOLOG_HIST_BINS * sizeof(uint64_t));
	l->hist_n[d] = 0;
}

static void hist_io(struct job_logs *l, enum ddir d, uint64_t clat, uint64_t t, uint64_t bs)
{
	unsigned i = hist_index(clat);
	if (i >= FIOLOG_HIST_BINS)
		i = FIOLOG_HIST_BINS - 1; /* as fio: past its last bin, counted in it */
	l->hbins[d][i]++;
	l->hist_n[d]++;
	l->hist_bs[d] = bs;
	if (!l->hist_on[d]) {
		/* as fio: the first window starts at the first completion
		 * after time 0 ms (one within the first millisecond does not
		 * start it) */
		if (t) {
			l->hist_on[d] = true;
			l->hist_last[d] = t;
		}
		return;
	}
	if (t - l->hist_last[d] >= l->hist_ms) {
		/* as fio: the next window starts hist_ms after this one did,
		 * even after a stall (the next completion then writes at once) */
		hist_push(l, d, t);
		l->hist_last[d] += l->hist_ms;
	}
}

void joblog_io(struct job_logs *l, const struct io_unit *u, uint64_t bytes, uint64_t now_ns,
	       bool has_slat)
{
	enum ddir d = u->ddir;
	IOB_ASSERT(d < DDIR_RWDIR_CNT && l->started);
	uint64_t t = elapsed_ms(l, now_ns);
	uint64_t clat = now_ns - u->issue_ns, lat = now_ns - u->start_ns;
	uint64_t slat = u->issue_ns - u->start_ns;
	if (!l->avg_ms) {
		if (l->st[JOBLOG_LAT])
			push_io(l, JOBLOG_LAT, t, lat, u);
		if (l->st[JOBLOG_CLAT])
			push_io(l, JOBLOG_CLAT, t, clat, u);
		if (l->st[JOBLOG_SLAT] && has_slat)
			push_io(l, JOBLOG_SLAT, t, slat, u);
		if (l->st[JOBLOG_BW])
			push_io(l, JOBLOG_BW, t, bytes * 1000000ULL / (clat ? clat : 1), u);
		if (l->st[JOBLOG_IOPS])
			push_io(l, JOBLOG_IOPS, t, 1, u);
	} else {
		if (l->st[JOBLOG_LAT])
			window_add(l, JOBLOG_LAT, d, lat, t);
		if (l->st[JOBLOG_CLAT])
			window_add(l, JOBLOG_CLAT, d, clat, t);
		if (l->st[JOBLOG_SLAT] && has_slat)
			window_add(l, JOBLOG_SLAT, d, slat, t);
		if (l->st[JOBLOG_BW])
			window_add(l, JOBLOG_BW, d, bytes, t);
		if (l->st[JOBLOG_IOPS])
			window_add(l, JOBLOG_IOPS, d, 1, t);
	}
	if (l->hbins[d] && l->hist_ms)
		hist_io(l, d, clat, t, u->buflen);
}

void joblog_finish(struct job_logs *l, uint64_t now_ns)
{
	if (!l->started)
		return;
	uint64_t t = elapsed_ms(l, now_ns);
	/* as fio: the latency logs write their last partial window; the
	 * bw/iops logs the line due at the runtime's end (or just before the
	 * job ended), not a partial interval; the histogram log (written when
	 * a completion ends a window) nothing */
	if (l->avg_ms) {
		for (int k = JOBLOG_LAT; k <= JOBLOG_SLAT; k++)
			if (l->st[k])
				close_window(l, (enum joblog_kind)k, t, false, 0);
		for (int k = JOBLOG_BW; k <= JOBLOG_IOPS; k++)
			if (l->st[k])
				rate_lines(l, (enum joblog_kind)k, t + JOBLOG_RATE_SLACK_MS);
	}
	l->started = false;
}
