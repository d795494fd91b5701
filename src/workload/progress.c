/*
 * The terminal progress line (progress.h): job states, percent done, current
 * bandwidth and IOPS per direction, and an ETA from the jobs' time limits or
 * their remaining bytes at the current rate.
 */
#include "workload/progress_int.h"

#include <stdio.h>
#include <string.h>

#include "util/timeutil.h"
#include "workload/job/job.h"

void progress_init(struct progress *p, struct job *jobs, size_t nr, uint64_t now,
		   uint64_t interval_ns, uint64_t newline_ns)
{
	memset(p, 0, sizeof(*p));
	p->interval_ns = interval_ns ? interval_ns : NSEC_PER_SEC;
	p->newline_ns = newline_ns;
	p->line_ns = now;
	p->jobs = jobs;
	p->nr = nr;
	p->start_ns = now;
	p->last_ns = now;
}

static void fmt_rate(char *buf, size_t n, double v, const char *unit)
{
	static const char *const pfx[] = { "", "Ki", "Mi", "Gi", "Ti" };
	int i = 0;
	while (v >= 1024.0 && i < 4) {
		v /= 1024.0;
		i++;
	}
	snprintf(buf, n, i ? "%.1f%s%s" : "%.0f%s%s", v, pfx[i], unit);
}

static void fmt_count(char *buf, size_t n, double v)
{
	if (v >= 1e6)
		snprintf(buf, n, "%.1fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, n, "%.1fk", v / 1e3);
	else
		snprintf(buf, n, "%.0f", v);
}

/* Fraction of one job done, and its remaining seconds (-1 = unknown). */
static double job_done(const struct job *j, uint64_t now, double *eta_s, double rate)
{
	int st = atomic_load(&j->state);
	if (st == JOB_DONE) {
		*eta_s = 0;
		return 1.0;
	}
	if (st == JOB_WAITING || st == JOB_STARTING) {
		*eta_s = j->spec->runtime ? (double)(j->spec->runtime + j->spec->ramp_time) / 1e9 : -1;
		return 0.0;
	}
	double f_time = -1, f_size = -1;
	if (j->end_ns && now < j->end_ns)
		f_time = 1.0 - (double)(j->end_ns - now) /
			(double)(j->end_ns - (j->ramp_end_ns - j->spec->ramp_time));
	uint64_t done = 0;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		if (!j->trimwrite || d != DDIR_TRIM) /* its trims count towards no size */
			done += atomic_load_explicit(&j->prog_bytes[d], memory_order_relaxed);
	uint64_t total = j->bytes_total * (j->spec->loops ? j->spec->loops : 1);
	if (total && !j->spec->time_based)
		f_size = (double)done / (double)total;
	double f = f_time > f_size ? f_time : f_size;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	*eta_s = -1;
	if (f_time >= 0)
		*eta_s = (double)(j->end_ns - now) / 1e9;
	if (f_size >= 0 && rate > 0) {
		double e = (double)(total - (done < total ? done : total)) / rate;
		if (*eta_s < 0 || e < *eta_s)
			*eta_s = e;
	}
	return f;
}

void progress_update(struct progress *p, uint64_t now)
{
	if (now - p->last_ns < p->interval_ns && p->drawn)
		return;
	double dt = (double)(now - p->last_ns) / 1e9;
	uint64_t bytes[DDIR_RWDIR_CNT] = { 0 }, ios[DDIR_RWDIR_CNT] = { 0 };
	char states[64] = "";
	size_t sl = 0;
	unsigned running = 0, files = 0;
	for (size_t i = 0; i < p->nr; i++) {
		struct job *j = &p->jobs[i];
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			bytes[d] += atomic_load_explicit(&j->prog_bytes[d], memory_order_relaxed);
			ios[d] += atomic_load_explicit(&j->prog_ios[d], memory_order_relaxed);
		}
		int st = atomic_load(&j->state);
		if (st != JOB_DONE && st != JOB_WAITING) {
			running++;
			files += j->nr_files;
		}
		if (sl + 2 < sizeof(states))
			states[sl++] = job_state_char(j);
	}
	states[sl] = 0;
	double rate = 0, sum_f = 0, eta = 0;
	double bw[DDIR_RWDIR_CNT], iops[DDIR_RWDIR_CNT];
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		bw[d] = dt > 0 ? (double)(bytes[d] - p->last_bytes[d]) / dt : 0;
		iops[d] = dt > 0 ? (double)(ios[d] - p->last_ios[d]) / dt : 0;
		rate += bw[d];
		p->last_bytes[d] = bytes[d];
		p->last_ios[d] = ios[d];
	}
	for (size_t i = 0; i < p->nr; i++) {
		double e;
		sum_f += job_done(&p->jobs[i], now, &e, running ? rate / running : 0);
		if (e > eta)
			eta = e;
	}
	p->last_ns = now;
	char rbw[32], wbw[32], rio[32], wio[32];
	fmt_rate(rbw, sizeof(rbw), bw[DDIR_READ], "B/s");
	fmt_rate(wbw, sizeof(wbw), bw[DDIR_WRITE], "B/s");
	fmt_count(rio, sizeof(rio), iops[DDIR_READ]);
	fmt_count(wio, sizeof(wio), iops[DDIR_WRITE]);
	unsigned e = eta > 0 ? (unsigned)(eta + 0.5) : 0;
	char line[256];
	int n = snprintf(line, sizeof(line),
			 "Jobs: %u (f=%u): [%s][%.1f%%][r=%s,w=%s][r=%s,w=%s IOPS][eta %02um:%02us]",
			 running, files, states, 100.0 * sum_f / (double)(p->nr ? p->nr : 1),
			 rbw, wbw, rio, wio, e / 60, e % 60);
	fprintf(stderr, "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
	p->width = n;
	p->drawn = true;
	if (p->newline_ns && now - p->line_ns >= p->newline_ns) {
		fputc('\n', stderr); /* --eta-newline: this line stays */
		p->line_ns = now;
		p->width = 0;
	}
	fflush(stderr);
}

void progress_clear(struct progress *p)
{
	if (p->width)
		fprintf(stderr, "\r%*s\r", p->width, "");
	fflush(stderr);
	p->width = 0;
}
