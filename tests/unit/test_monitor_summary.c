/*
 * min <= mean <= max for every figure the monitor summary gives
 * (monitor_sys_figures, monitor_dev_figures), on synthetic series made to
 * break it: samples at irregular times (marks a few ms after a regular
 * sample, a short tail at the stop time), bursts of completions in short
 * intervals (aqu-sz and await spikes), an iowait counter that goes back
 * (tickless kernels do), a device counter reset, idle stretches. Also the
 * case once seen: a 50 ms tail in which a flush completed made the mean
 * aqu-sz 6.45 with a "maximum" of 1.37.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sys/monitor/monitor.h"
#include "sys/monitor/monitor_calc.h"
#include "util/rand.h"

#define NS 1000000000ull

static bool le(double a, double b)
{
	return a <= b + 1e-9 * (fabs(a) + fabs(b)) + 1e-12;
}

/* Check every figure of sum; returns the number of violations. */
static int check_ordered(const struct monitor_summary *sum, const char *what)
{
	int bad = 0;
	for (size_t f = 0; f < monitor_nr_sys_figures; f++) {
		const struct monitor_figure *fig = &monitor_sys_figures[f];
		if (fig->psi >= 0 && !sum->whole.psi_have[fig->psi])
			continue;
		double lo = monitor_figure_value(fig, &sum->min);
		double mean = monitor_figure_value(fig, &sum->whole);
		double hi = monitor_figure_value(fig, &sum->max);
		if (!le(lo, mean) || !le(mean, hi)) {
			bad++;
			printf("# %s: %s min %g mean %g max %g\n", what, fig->name, lo, mean, hi);
		}
	}
	for (unsigned d = 0; d < sum->ndev; d++)
		for (size_t f = 0; f < monitor_nr_dev_figures; f++) {
			const struct monitor_figure *fig = &monitor_dev_figures[f];
			double lo = monitor_figure_value(fig, &sum->devs[d].min);
			double mean = monitor_figure_value(fig, &sum->devs[d].whole);
			double hi = monitor_figure_value(fig, &sum->devs[d].max);
			if (!le(lo, mean) || !le(mean, hi)) {
				bad++;
				printf("# %s: %s %s min %g mean %g max %g\n", what, sum->devs[d].name,
				       fig->name, lo, mean, hi);
			}
		}
	return bad;
}

static uint64_t bump(struct rng *r, uint64_t max)
{
	return rng_below(r, 4) ? rng_below(r, max + 1) : 0; /* idle a quarter of the time */
}

/* A random series of n samples on two devices. */
static void random_series(struct rng *r, size_t n, struct monitor_series *s, char (*names)[64])
{
	memset(s, 0, sizeof(*s));
	s->interval_ns = NS;
	s->ndev = 2;
	s->names = names;
	struct monitor_sample smp;
	struct diskstat d[2];
	memset(&smp, 0, sizeof(smp));
	memset(d, 0, sizeof(d));
	for (int k = 0; k < 2; k++)
		snprintf(d[k].name, sizeof(d[k].name), "%s", names[k]);
	smp.t_ns = 5 * NS;
	for (unsigned p = 0; p < PSI_NR; p++)
		smp.psi[p].have = p != PSI_CPU;
	for (size_t i = 0; i < n; i++) {
		if (i) {
			/* mostly a regular second; sometimes a mark a few ms later, or late */
			uint64_t dt = rng_below(r, 5) ? NS - 2000000 + rng_below(r, 4000000)
			                              : 1000000 + rng_below(r, 300000000);
			if (i == n - 1)
				dt = 1000000 + rng_below(r, 200000000); /* the stop-time sample */
			smp.t_ns += dt;
			struct cpu_ticks *c = &smp.stat.cpu;
			uint64_t ticks = dt / 5000000; /* 2 CPUs at 100 Hz */
			c->user += bump(r, ticks);
			c->system += bump(r, ticks / 2);
			c->idle += bump(r, ticks);
			c->softirq += bump(r, 2);
			if (rng_below(r, 6) == 0 && c->iowait > 5)
				c->iowait -= rng_below(r, 5); /* went back */
			else
				c->iowait += bump(r, ticks);
			smp.stat.intr += bump(r, 5000);
			smp.stat.ctxt += bump(r, 9000);
			smp.stat.procs_running = 1 + rng_below(r, 6);
			smp.stat.procs_blocked = rng_below(r, 4);
			smp.load.avg1 = rng_double(r) * 5;
			smp.load.avg5 = rng_double(r) * 4;
			smp.load.avg15 = rng_double(r) * 3;
			smp.mem.dirty_kb = rng_below(r, 1 << 20);
			smp.mem.writeback_kb = rng_below(r, 1 << 16);
			smp.mem.free_kb = rng_below(r, 1 << 24);
			smp.vm.pgpgout += bump(r, 100000);
			smp.vm.pgscan_kswapd += bump(r, 1000);
			smp.vm.pgscan_direct += bump(r, 100);
			smp.vm.allocstall += bump(r, 3);
			smp.vm.pswpout += bump(r, 50);
			smp.vm.nr_dirty = rng_below(r, 50000);
			for (unsigned p = 0; p < PSI_NR; p++) {
				smp.psi[p].some.total_us += bump(r, dt / 1000);
				smp.psi[p].full.total_us += bump(r, dt / 4000);
			}
			smp.slab.have = true;
			smp.slab.buffer_head_bytes = rng_below(r, 1 << 28);
			for (int k = 0; k < 2; k++) {
				/* the kernel counts sectors, ticks and merges when it counts the
				 * I/O that completes */
				uint64_t ios = bump(r, 2000), wios = bump(r, 500), fios = bump(r, 5);
				d[k].rd_ios += ios;
				d[k].rd_sectors += ios * (8 + rng_below(r, 256));
				d[k].rd_merges += ios ? bump(r, ios) : 0;
				/* a burst of slow completions, now and then in a short interval */
				d[k].rd_ticks += ios * (1 + rng_below(r, dt < NS / 2 ? 400 : 20));
				d[k].wr_ios += wios;
				d[k].wr_sectors += wios * (1 + rng_below(r, 2048));
				d[k].wr_ticks += wios * rng_below(r, 60);
				d[k].fl_ios += fios;
				d[k].fl_ticks += fios * rng_below(r, 20);
				d[k].io_ticks += bump(r, dt / 1000000);
				d[k].time_in_queue += bump(r, dt / 100000);
				d[k].in_flight = rng_below(r, 32);
			}
			if (rng_below(r, 40) == 0) /* the second device was re-created */
				memset(&d[1].rd_ios, 0, sizeof(d[1]) - offsetof(struct diskstat, rd_ios));
		}
		monitor_series_add(s, &smp, d);
	}
}

/* The case once seen: 1 s samples, then the stop-time sample 50 ms later after a
 * flush whose requests had queued for seconds completed. */
static void flush_tail(void)
{
	struct monitor_series s = { .interval_ns = NS, .ndev = 1 };
	char names[1][64] = { "vda" };
	s.names = names;
	uint64_t t[] = { 0, NS, 2 * NS, 2 * NS + 50000000 };
	uint64_t queue[] = { 0, 1370, 2600, 13600 }; /* ms of time_in_queue */
	uint64_t ticks[] = { 0, 900, 1800, 1850 };
	for (int i = 0; i < 4; i++) {
		struct monitor_sample smp = { .t_ns = t[i] };
		struct diskstat d = { .name = "vda", .wr_ios = 100 * (uint64_t)i,
				      .time_in_queue = queue[i], .io_ticks = ticks[i] };
		monitor_series_add(&s, &smp, &d);
	}
	struct monitor_summary sum;
	monitor_summarize(&s, &sum);
	const struct monitor_dev_summary *d = &sum.devs[0];
	CHECK(d->whole.aqu_sz <= d->max.aqu_sz && d->min.aqu_sz <= d->whole.aqu_sz,
	      "aqu-sz min %.2f mean %.2f max %.2f", d->min.aqu_sz, d->whole.aqu_sz, d->max.aqu_sz);
	CHECK(fabs(d->whole.aqu_sz - 13600 / 2050.0) < 1e-9, "mean aqu-sz over 2.05 s: %f",
	      d->whole.aqu_sz);
	CHECK(check_ordered(&sum, "flush tail") == 0, "every figure ordered");
	monitor_summary_release(&sum);
	free(s.samples);
	free(s.disks);
}

int main(void)
{
	char names[2][64] = { "vdb", "loop5" };
	struct rng r;
	rng_seed(&r, 11);
	int bad = 0, series = 0;
	for (int it = 0; it < 400; it++) {
		struct monitor_series s;
		size_t n = 1 + rng_below(&r, it < 50 ? 4 : 40);
		random_series(&r, n, &s, names);
		struct monitor_summary sum;
		monitor_summarize(&s, &sum);
		char what[32];
		snprintf(what, sizeof(what), "series %d (%zu samples)", it, n);
		bad += check_ordered(&sum, what);
		series++;
		/* and a window of it, as a group of a run sees it */
		if (n > 3) {
			struct monitor_series view;
			struct monitor_summary ws;
			monitor_series_view(&s, 1, n - 2, &view);
			monitor_summarize(&view, &ws);
			CHECK(ws.nsamples == n - 2, "a view of samples 1..%zu has %zu", n - 2, ws.nsamples);
			bad += check_ordered(&ws, what);
			monitor_summary_release(&ws);
		}
		monitor_summary_release(&sum);
		free(s.samples);
		free(s.disks);
	}
	CHECK(bad == 0, "min <= mean <= max for all %zu system and %zu device figures in %d series "
	      "and their windows: %d violations", monitor_nr_sys_figures, monitor_nr_dev_figures,
	      series, bad);
	flush_tail();
	return check_done("test_monitor_summary");
}
