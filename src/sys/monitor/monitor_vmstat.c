/*
 * vmstat figures and /proc/vmstat deltas between two samples
 * (monitor_calc.h), with procps-ng's formulas.
 */
#include "sys/monitor/monitor_calc.h"

#include <string.h>
#include <unistd.h>

static uint64_t delta(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0; /* a counter that went back (CPU hot-plug): 0 */
}

void proc_vmstat_delta(const struct proc_vmstat *a, const struct proc_vmstat *b,
		       struct proc_vmstat *d)
{
	struct proc_vmstat r = *b;

	r.pgpgin = delta(a->pgpgin, b->pgpgin);
	r.pgpgout = delta(a->pgpgout, b->pgpgout);
	r.pswpin = delta(a->pswpin, b->pswpin);
	r.pswpout = delta(a->pswpout, b->pswpout);
	r.pgfault = delta(a->pgfault, b->pgfault);
	r.pgmajfault = delta(a->pgmajfault, b->pgmajfault);
	r.pgscan_kswapd = delta(a->pgscan_kswapd, b->pgscan_kswapd);
	r.pgscan_direct = delta(a->pgscan_direct, b->pgscan_direct);
	r.pgsteal_kswapd = delta(a->pgsteal_kswapd, b->pgsteal_kswapd);
	r.pgsteal_direct = delta(a->pgsteal_direct, b->pgsteal_direct);
	r.allocstall = delta(a->allocstall, b->allocstall);
	r.pgscan_anon = delta(a->pgscan_anon, b->pgscan_anon);
	r.pgscan_file = delta(a->pgscan_file, b->pgscan_file);
	*d = r; /* nr_* gauges keep b's values */
}

void vmstat_x_compute(const struct monitor_sample *a, const struct monitor_sample *b,
		      struct vmstat_x *v)
{
	const struct cpu_ticks *ca = &a->stat.cpu, *cb = &b->stat.cpu;
	double s = (double)(b->t_ns - a->t_ns) / 1e9;
	double page_kb = (double)sysconf(_SC_PAGESIZE) / 1024.0;
	double use, sys, idl, iow, sto, gue, div;

	memset(v, 0, sizeof(*v));
	v->r = b->stat.procs_running;
	v->b = b->stat.procs_blocked;
	v->swpd_kb = delta(b->mem.swap_free_kb, b->mem.swap_total_kb);
	v->free_kb = b->mem.free_kb;
	v->buff_kb = b->mem.buffers_kb;
	v->cache_kb = b->mem.cached_kb + b->mem.sreclaimable_kb;
	if (s > 0) {
		v->si = (double)delta(a->vm.pswpin, b->vm.pswpin) * page_kb / s;
		v->so = (double)delta(a->vm.pswpout, b->vm.pswpout) * page_kb / s;
		v->bi = (double)delta(a->vm.pgpgin, b->vm.pgpgin) / s;
		v->bo = (double)delta(a->vm.pgpgout, b->vm.pgpgout) / s;
		v->in = (double)delta(a->stat.intr, b->stat.intr) / s;
		v->cs = (double)delta(a->stat.ctxt, b->stat.ctxt) / s;
	}
	use = (double)(delta(ca->user, cb->user) + delta(ca->nice, cb->nice));
	sys = (double)(delta(ca->system, cb->system) + delta(ca->irq, cb->irq) +
		       delta(ca->softirq, cb->softirq));
	idl = (double)delta(ca->idle, cb->idle);
	iow = (double)delta(ca->iowait, cb->iowait);
	sto = (double)delta(ca->steal, cb->steal);
	gue = (double)(delta(ca->guest, cb->guest) + delta(ca->guest_nice, cb->guest_nice));
	div = use + sys + idl + iow + sto;
	if (div <= 0) {
		v->id = 100.0;
		return;
	}
	use = use >= gue ? use - gue : 0;
	v->us = use * 100.0 / div;
	v->sy = sys * 100.0 / div;
	v->id = idl * 100.0 / div;
	v->wa = iow * 100.0 / div;
	v->st = sto * 100.0 / div;
	v->gu = gue * 100.0 / div;
}
