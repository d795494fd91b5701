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
#ifndef IOBENCH_SYS_MONITOR_CALC_H
#define IOBENCH_SYS_MONITOR_CALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/monitor.h"

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

/* What a run's normal output and the anomaly warnings need from a series. */
struct monitor_dev_summary {
	char name[64];
	bool active;
	struct iostat_x whole;       /* from the first to the last sample */
	struct diskstat delta;       /* the same, raw */
	double util_max, aqu_max, r_await_max, w_await_max; /* worst full interval */
};

struct monitor_summary {
	size_t nsamples, nintervals;
	double dt_s;                 /* first to last sample */
	struct monitor_interval whole; /* the whole window as one interval (devs: NULL) */
	double load1_max;
	uint64_t procs_blocked_max;
	double wa_max, us_max, sy_max;
	double psi_some_max[PSI_NR], psi_full_max[PSI_NR];
	uint64_t dirty_max_kb, writeback_max_kb;
	uint64_t nr_dirty_max, nr_writeback_max;
	uint64_t buffer_head_max_bytes;
	double pgscan_direct_max_s, allocstall_max_s, pswpout_max_s;
	unsigned ndev;
	struct monitor_dev_summary *devs; /* xmalloc'ed, freed by monitor_summary_release */
};

/* Summarize a series of at least one sample. Maxima are over intervals at
 * least half the nominal interval long (a short last one is left out). */
void monitor_summarize(const struct monitor_series *s, struct monitor_summary *sum);
void monitor_summary_release(struct monitor_summary *sum);

#endif
