/*
 * fio's steady-state detection (steadystate=, steadystate_duration=,
 * steadystate_ramp_time=), run by the main thread of a batch on its 100 ms
 * wake-ups. Once a job runs (after ramp_time) and steadystate_ramp_time more
 * has passed, its IOPS and bandwidth (every direction summed, as fio) are
 * sampled once a second into a window of steadystate_duration seconds; when
 * the window is full each new sample judges it: iops/bw, every sample within
 * the limit of the window's mean (the largest deviation, or that as a percent
 * of the mean); iops_slope/bw_slope, the least-squares slope per second below
 * the limit (or its percent of the mean). Steady: the job stops, its results
 * stand. Under group_reporting the group is judged as one, on the sums of its
 * steadystate jobs, and all of them stop, as in fio. The verdict and the
 * window go into each job's results (fio's JSON "steadystate" section).
 */
#include "workload/steadystate_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

struct ss_state {
	struct job **members;  /* the jobs judged together (a group's, or the job alone) */
	size_t nr_members;
	uint64_t running_ns;   /* when the first member was seen running; 0 = not yet */
	uint64_t last_ns;      /* the previous sample (the baseline at first); 0 = none */
	uint64_t last_bytes, last_ios;
	unsigned n, count;     /* window length; samples taken so far */
	uint64_t *iops, *bw;   /* ring: sample k in slot k % n */
	bool done;             /* attained, or every member finished */
	struct ss_result verdict;
};

static bool grouped(const struct job *jobs, size_t from, size_t to, unsigned groupid)
{
	for (size_t i = from; i < to; i++)
		if (jobs[i].spec->groupid == groupid && jobs[i].spec->group_reporting)
			return true;
	return false;
}

void ss_batch_begin(struct job *jobs, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		struct job *j = &jobs[i];
		if (!j->spec->ss_dur || j->ss_leader)
			continue;
		struct ss_state *st = xcalloc(1, sizeof(*st));
		st->n = (unsigned)(j->spec->ss_dur / NSEC_PER_SEC);
		st->iops = xcalloc(st->n, sizeof(*st->iops));
		st->bw = xcalloc(st->n, sizeof(*st->bw));
		st->members = xcalloc(to - i, sizeof(*st->members));
		bool group = grouped(jobs, from, to, j->spec->groupid);
		for (size_t k = i; k < to; k++) {
			struct job *m = &jobs[k];
			if (k != i && (!group || m->spec->groupid != j->spec->groupid || !m->spec->ss_dur))
				continue;
			st->members[st->nr_members++] = m;
			m->ss_leader = j;
		}
		j->ss = st;
	}
}

/* the window's samples, oldest first, into out[0..n) (0 where none yet) */
static void window(const struct ss_state *st, const uint64_t *ring, uint64_t *out)
{
	memset(out, 0, st->n * sizeof(*out));
	if (st->count < st->n) {
		memcpy(out, ring, st->count * sizeof(*out));
		return;
	}
	for (unsigned k = 0; k < st->n; k++)
		out[k] = ring[(st->count + k) % st->n];
}

static bool judge(const struct job_spec *s, struct ss_state *st)
{
	uint64_t *y = xcalloc(st->n, sizeof(*y));
	window(st, s->ss_bw ? st->bw : st->iops, y);
	double n = st->n, sum = 0;
	for (unsigned k = 0; k < st->n; k++)
		sum += (double)y[k];
	double mean = sum / n;
	struct ss_result *v = &st->verdict;
	if (s->ss_slope) {
		double sx = 0, sxx = 0, sxy = 0;
		for (unsigned k = 0; k < st->n; k++) {
			sx += k;
			sxx += (double)k * k;
			sxy += (double)k * (double)y[k];
		}
		double den = sxx - sx * sx / n;
		v->slope = den > 0 ? (sxy - sx * sum / n) / den : 0;
		v->criterion = s->ss_pct ? (mean > 0 ? 100.0 * v->slope / mean : 0) : v->slope;
		v->attained = fabs(v->criterion) < s->ss_limit;
	} else {
		double dev = 0;
		for (unsigned k = 0; k < st->n; k++)
			if (fabs((double)y[k] - mean) > dev)
				dev = fabs((double)y[k] - mean);
		v->max_deviation = dev;
		v->criterion = s->ss_pct ? (mean > 0 ? 100.0 * dev / mean : 0) : dev;
		v->attained = v->criterion < s->ss_limit;
	}
	free(y);
	return v->attained;
}

static void sample(struct job *leader, struct ss_state *st, uint64_t now)
{
	uint64_t bytes = 0, ios = 0;
	bool running = false, all_done = true;
	for (size_t m = 0; m < st->nr_members; m++) {
		struct job *j = st->members[m];
		int state = atomic_load(&j->state);
		running |= state >= JOB_RUNNING && state != JOB_DONE;
		all_done &= state == JOB_DONE;
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			bytes += atomic_load_explicit(&j->prog_bytes[d], memory_order_relaxed);
			ios += atomic_load_explicit(&j->prog_ios[d], memory_order_relaxed);
		}
	}
	if (all_done) {
		st->done = true;
		return;
	}
	if (!st->running_ns) {
		if (!running)
			return;
		st->running_ns = now;
	}
	if (!st->last_ns) {
		if (now - st->running_ns < leader->spec->ss_ramp)
			return;
		st->last_ns = now; /* the baseline: the first sample is a second on */
		st->last_bytes = bytes;
		st->last_ios = ios;
		return;
	}
	uint64_t dt = now - st->last_ns;
	if (dt < NSEC_PER_SEC)
		return;
	unsigned slot = st->count % st->n;
	st->iops[slot] = (uint64_t)((double)(ios - st->last_ios) * NSEC_PER_SEC / dt + 0.5);
	st->bw[slot] = (uint64_t)((double)(bytes - st->last_bytes) * NSEC_PER_SEC / dt + 0.5);
	st->count++;
	st->last_ns = now;
	st->last_bytes = bytes;
	st->last_ios = ios;
	if (st->count >= st->n && judge(leader->spec, st)) {
		st->done = true;
		for (size_t m = 0; m < st->nr_members; m++)
			atomic_store(&st->members[m]->terminate, true);
	}
}

bool ss_tick(struct job *jobs, size_t from, size_t to, uint64_t now)
{
	bool stopped = false;
	for (size_t i = from; i < to; i++) {
		struct ss_state *st = jobs[i].ss;
		if (st && !st->done) {
			sample(&jobs[i], st, now);
			stopped |= st->verdict.attained;
		}
	}
	return stopped;
}

void ss_batch_end(struct job *jobs, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		struct ss_state *st = jobs[i].ss;
		if (!st)
			continue;
		uint64_t isum = 0, bsum = 0;
		for (unsigned k = 0; k < st->n; k++) {
			isum += st->iops[k];
			bsum += st->bw[k];
		}
		for (size_t m = 0; m < st->nr_members; m++) {
			struct job *j = st->members[m];
			struct ss_result *r = xcalloc(1, sizeof(*r));
			*r = st->verdict;
			r->n = st->n;
			r->iops_mean = isum / st->n;
			r->bw_mean = bsum / st->n;
			r->iops = xcalloc(st->n, sizeof(*r->iops));
			r->bw = xcalloc(st->n, sizeof(*r->bw));
			window(st, st->iops, r->iops);
			window(st, st->bw, r->bw);
			j->res.ss = r;
		}
		free(st->iops);
		free(st->bw);
		free(st->members);
		free(st);
		jobs[i].ss = NULL;
	}
}
