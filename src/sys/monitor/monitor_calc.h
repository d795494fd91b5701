/*
 * The figures of iostat -x (sysstat 12) and vmstat (procps-ng) from two
 * monitor samples, with those tools' formulas, plus the raw deltas the
 * anomaly checks need (reclaim, swap, dirty pages, PSI, slab growth).
 *
 * iostat -x, per device, over dt (ms) with d = the diskstats delta:
 *   r/s = d.rd_ios / dt_s        rkB/s = d.rd_sectors / 2 / dt_s
 *   rrqm/s = d.rd_merges / dt_s  %rrqm = merges / (merges + ios) * 100
 *   r_await = d.rd_ticks / d.rd_ios (ms)   rareq-sz = d.rd_sectors / 2 / d.rd_ios (kB)
 *   the same for w (writes) and d (discards); f/s = d.fl_ios / dt_s,
 *   f_await = d.fl_ticks / d.fl_ios; aqu-sz = d.time_in_queue / dt_ms;
 *   %util = d.io_ticks / dt_ms * 100 (blk-mq counts a jiffy or ms in which
 *   any request was in flight, so it is "busy time", not saturation).
 *   A ratio with a zero denominator is 0, as in iostat.
 * vmstat: r = procs_running (procps 4.0.2 counts itself too), b =
 *   procs_blocked; swpd = SwapTotal - SwapFree, free = MemFree, buff =
 *   Buffers, cache = Cached + SReclaimable (KiB); si/so = pswpin/out
 *   pages * page KiB / s; bi/bo = pgpgin/pgpgout / s; in/cs = intr/ctxt / s;
 *   us = user + nice - guest - guest_nice, sy = system + irq + softirq,
 *   id = idle, wa = iowait, st = steal, each in percent of their sum (guest
 *   is inside user, so it is not added again); gu = guest + guest_nice.
 * Rates use the measured CLOCK_MONOTONIC interval. iostat divides by the
 * /proc/uptime delta (10 ms steps: up to 1% at 1 s) and vmstat by its
 * nominal delay (its sleep overruns by the time it takes to read), so
 * the tools agree with these figures to well under 5% at 1 s intervals.
 */
#ifndef IOBENCH_SYS_MONITOR_MONITOR_CALC_H
#define IOBENCH_SYS_MONITOR_MONITOR_CALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/monitor/monitor.h"

struct iostat_x {
	double r_s, w_s, d_s, f_s;
	double rkb_s, wkb_s, dkb_s;
	double rrqm_s, wrqm_s, drqm_s;
	double rrqm_pct, wrqm_pct, drqm_pct;
	double r_await, w_await, d_await, f_await;
	double rareq_sz, wareq_sz, dareq_sz;
	double aqu_sz, util_pct;
};

struct vmstat_x {
	uint64_t r, b;
	uint64_t swpd_kb, free_kb, buff_kb, cache_kb;
	double si, so, bi, bo, in, cs;      /* per second */
	double us, sy, id, wa, st, gu;      /* percent */
};

/* d is the delta of two diskstats samples dt_ns apart. */
void iostat_x_compute(const struct diskstat *d, uint64_t dt_ns, struct iostat_x *out);
/* From sample a to the later sample b. */
void vmstat_x_compute(const struct monitor_sample *a, const struct monitor_sample *b,
		      struct vmstat_x *out);
/* b - a for every counter of proc_vmstat; the nr_* gauges take b's value. */
void proc_vmstat_delta(const struct proc_vmstat *a, const struct proc_vmstat *b,
		       struct proc_vmstat *d);

struct monitor_dev_interval {
	char name[64];
	bool active;          /* the device has done I/O since boot (iostat shows only those) */
	struct diskstat delta;
	struct iostat_x x;
};

/* Everything about one interval (two samples). */
struct monitor_interval {
	double t_s;                  /* end of the interval, seconds after the first sample */
	double dt_s;
	struct vmstat_x vm;
	struct proc_vmstat dvm;      /* counter deltas; nr_* gauges at the end */
	double pgscan_kswapd_s, pgscan_direct_s, pgsteal_kswapd_s, pgsteal_direct_s;
	double allocstall_s, pswpin_s, pswpout_s; /* pages (allocstall: events) per second */
	struct proc_loadavg load;    /* at the end */
	struct proc_meminfo mem;     /* at the end */
	bool psi_have[PSI_NR];
	double psi_some_pct[PSI_NR]; /* stall time / dt * 100, from the totals */
	double psi_full_pct[PSI_NR];
	struct proc_slabs slab;      /* at the end */
	int64_t buffer_head_growth;  /* bytes, over the interval */
	unsigned ndev;
	struct monitor_dev_interval *devs; /* caller's array of ndev */
};

/* Fill iv from samples a and b (a earlier) and their disks; t0_ns is the
 * series start. iv->devs must point at room for ndev entries. */
void monitor_interval_compute(const struct monitor_sample *a, const struct diskstat *da,
			      const struct monitor_sample *b, const struct diskstat *db,
			      const char (*names)[64], unsigned ndev, uint64_t t0_ns,
			      struct monitor_interval *iv);
/* Interval i of a series (between samples i and i + 1). */
void monitor_series_interval(const struct monitor_series *s, size_t i,
			     struct monitor_interval *iv);

/* What a run's normal output and the anomaly warnings need from a series.
 * Every summarised figure has a mean, a minimum and a maximum. The mean is
 * the whole window as one interval (what iostat/vmstat would print for
 * one interval that long). The extremes are over the window's intervals,
 * where an interval shorter than half the nominal one (a last sample at
 * the stop time, a mark between two regular samples) is merged into the one
 * before it, so a 10 ms tail in which a flush completed cannot pose as the
 * worst second; the mean is their weighted mean (by time, I/Os or ticks),
 * so min <= mean <= max holds for every figure. Gauges (load, dirty
 * pages, vmstat's r, b and memory columns) take their extremes over every
 * sample, their "mean" being the value at the end. */
struct monitor_dev_summary {
	char name[64];
	bool active;
	struct iostat_x whole;       /* the mean: from the first to the last sample */
	struct iostat_x min, max;    /* over the intervals */
	struct diskstat delta;       /* the whole window, raw */
};

struct monitor_summary {
	size_t nsamples, nintervals; /* nintervals: after merging the short ones */
	double dt_s;                 /* first to last sample */
	struct monitor_interval whole; /* the whole window as one interval (devs: NULL) */
	struct monitor_interval min, max; /* the figures of monitor_sys_figures, field by field */
	unsigned ndev;
	struct monitor_dev_summary *devs; /* xmalloc'ed, freed by monitor_summary_release */
};

/* The summarised figures: a name (vmstat's, iostat's or /proc's), where
 * the value sits (in a struct monitor_interval, or a struct iostat_x for
 * the device figures), its type, and whether it is a gauge. */
struct monitor_figure {
	const char *name;
	size_t off;
	bool u64;     /* uint64_t, else double */
	bool gauge;   /* a reading at a sample, not a rate over an interval */
	int psi;      /* a PSI figure of this resource (needs psi_have), or -1 */
};
extern const struct monitor_figure monitor_sys_figures[];
extern const size_t monitor_nr_sys_figures;
extern const struct monitor_figure monitor_dev_figures[];
extern const size_t monitor_nr_dev_figures;
/* The value of figure f in base (a struct monitor_interval or iostat_x). */
double monitor_figure_value(const struct monitor_figure *f, const void *base);

/* Summarize a series of at least one sample. */
void monitor_summarize(const struct monitor_series *s, struct monitor_summary *sum);
void monitor_summary_release(struct monitor_summary *sum);
/* Samples first..last (inclusive) of s as a series of their own, sharing
 * s's arrays (never release it). */
void monitor_series_view(const struct monitor_series *s, size_t first, size_t last,
			 struct monitor_series *view);

#endif
