/*
 * The summary of a monitor series (monitor_calc.h): for every summarised
 * figure its mean over the whole window and its extremes over the
 * window's intervals (or, for gauges, over its samples).
 *
 * Two things keep min <= mean <= max exact. First, the counters are read
 * from a copy of the series in which no counter goes back: a counter that
 * did (/proc/stat's iowait does on tickless kernels; a device re-created)
 * counts 0 over that step in the copy, as in each interval, so the whole
 * window is exactly the sum of its intervals. Second, the intervals the
 * extremes are taken over partition the window: an interval shorter than
 * half the nominal one is merged into the next, and a short tail into the
 * last, rather than left out (leaving out a tail in which a flush
 * completed made the mean of aqu-sz larger than its "maximum").
 */
#include "sys/monitor/monitor_calc.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/xmalloc.h"

#define IV(field) offsetof(struct monitor_interval, field)
#define F(name, field, u64, gauge) { name, IV(field), u64, gauge, -1 }
#define PSI(name, field, r) { name, IV(field), false, false, r }

const struct monitor_figure monitor_sys_figures[] = {
	F("r", vm.r, true, true), F("b", vm.b, true, true),
	F("swpd", vm.swpd_kb, true, true), F("free", vm.free_kb, true, true),
	F("buff", vm.buff_kb, true, true), F("cache", vm.cache_kb, true, true),
	F("si", vm.si, false, false), F("so", vm.so, false, false),
	F("bi", vm.bi, false, false), F("bo", vm.bo, false, false),
	F("in", vm.in, false, false), F("cs", vm.cs, false, false),
	F("us", vm.us, false, false), F("sy", vm.sy, false, false),
	F("id", vm.id, false, false), F("wa", vm.wa, false, false),
	F("st", vm.st, false, false), F("gu", vm.gu, false, false),
	F("pgscan_kswapd/s", pgscan_kswapd_s, false, false),
	F("pgscan_direct/s", pgscan_direct_s, false, false),
	F("pgsteal_kswapd/s", pgsteal_kswapd_s, false, false),
	F("pgsteal_direct/s", pgsteal_direct_s, false, false),
	F("allocstall/s", allocstall_s, false, false),
	F("pswpin/s", pswpin_s, false, false), F("pswpout/s", pswpout_s, false, false),
	F("load1", load.avg1, false, true), F("load5", load.avg5, false, true),
	F("load15", load.avg15, false, true),
	F("available_kb", mem.available_kb, true, true),
	F("dirty_kb", mem.dirty_kb, true, true), F("writeback_kb", mem.writeback_kb, true, true),
	F("nr_dirty", dvm.nr_dirty, true, true), F("nr_writeback", dvm.nr_writeback, true, true),
	F("buffer_head_bytes", slab.buffer_head_bytes, true, true),
	PSI("psi_io_some", psi_some_pct[PSI_IO], PSI_IO),
	PSI("psi_io_full", psi_full_pct[PSI_IO], PSI_IO),
	PSI("psi_memory_some", psi_some_pct[PSI_MEMORY], PSI_MEMORY),
	PSI("psi_memory_full", psi_full_pct[PSI_MEMORY], PSI_MEMORY),
	PSI("psi_cpu_some", psi_some_pct[PSI_CPU], PSI_CPU),
	PSI("psi_cpu_full", psi_full_pct[PSI_CPU], PSI_CPU),
};
const size_t monitor_nr_sys_figures = ARRAY_SIZE(monitor_sys_figures);

#define X(name, field) { name, offsetof(struct iostat_x, field), false, false, -1 }
const struct monitor_figure monitor_dev_figures[] = {
	X("r/s", r_s), X("rkB/s", rkb_s), X("rrqm/s", rrqm_s), X("%rrqm", rrqm_pct),
	X("r_await", r_await), X("rareq-sz", rareq_sz),
	X("w/s", w_s), X("wkB/s", wkb_s), X("wrqm/s", wrqm_s), X("%wrqm", wrqm_pct),
	X("w_await", w_await), X("wareq-sz", wareq_sz),
	X("d/s", d_s), X("dkB/s", dkb_s), X("drqm/s", drqm_s), X("%drqm", drqm_pct),
	X("d_await", d_await), X("dareq-sz", dareq_sz),
	X("f/s", f_s), X("f_await", f_await), X("aqu-sz", aqu_sz), X("%util", util_pct),
};
const size_t monitor_nr_dev_figures = ARRAY_SIZE(monitor_dev_figures);
#undef X
#undef PSI
#undef F
#undef IV

double monitor_figure_value(const struct monitor_figure *f, const void *base)
{
	const char *p = (const char *)base + f->off;
	return f->u64 ? (double)*(const uint64_t *)p : *(const double *)p;
}

static void figure_set(const struct monitor_figure *f, void *base, double v, const void *src)
{
	char *p = (char *)base + f->off;
	if (f->u64)
		memcpy(p, (const char *)src + f->off, sizeof(uint64_t));
	else
		*(double *)p = v;
}

/* lo/hi take x's figure f where it is lower/higher (the first time: always). */
static void extend(const struct monitor_figure *f, void *lo, void *hi, const void *x, bool *seen)
{
	double v = monitor_figure_value(f, x);
	if (!*seen || v < monitor_figure_value(f, lo))
		figure_set(f, lo, v, x);
	if (!*seen || v > monitor_figure_value(f, hi))
		figure_set(f, hi, v, x);
	*seen = true;
}

static uint64_t up(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

/* out[i] = s[i] with every counter the sum of the non-negative steps up
 * to i; gauges as read. */
static void monotone(const struct monitor_series *s, struct monitor_sample *out,
		     struct diskstat *outd)
{
	memcpy(out, s->samples, s->n * sizeof(*out));
	memcpy(outd, s->disks, s->n * s->ndev * sizeof(*outd));
	for (size_t i = 1; i < s->n; i++) {
		const struct monitor_sample *a = &s->samples[i - 1], *b = &s->samples[i];
		struct monitor_sample *p = &out[i - 1], *o = &out[i];
		uint64_t *oc = (uint64_t *)&o->stat.cpu;
		const uint64_t *pc = (const uint64_t *)&p->stat.cpu, *ac = (const uint64_t *)&a->stat.cpu,
			       *bc = (const uint64_t *)&b->stat.cpu;
		for (size_t k = 0; k < sizeof(struct cpu_ticks) / sizeof(uint64_t); k++)
			oc[k] = pc[k] + up(ac[k], bc[k]);
		o->stat.intr = p->stat.intr + up(a->stat.intr, b->stat.intr);
		o->stat.ctxt = p->stat.ctxt + up(a->stat.ctxt, b->stat.ctxt);
		o->stat.forks = p->stat.forks + up(a->stat.forks, b->stat.forks);
		struct proc_vmstat d;
		proc_vmstat_delta(&a->vm, &b->vm, &d);
#define ACC(f) o->vm.f = p->vm.f + d.f
		ACC(pgpgin); ACC(pgpgout); ACC(pswpin); ACC(pswpout); ACC(pgfault); ACC(pgmajfault);
		ACC(pgscan_kswapd); ACC(pgscan_direct); ACC(pgsteal_kswapd); ACC(pgsteal_direct);
		ACC(pgscan_anon); ACC(pgscan_file); ACC(allocstall);
#undef ACC
		for (unsigned r = 0; r < PSI_NR; r++) {
			if (!a->psi[r].have || !b->psi[r].have)
				continue;
			o->psi[r].some.total_us = p->psi[r].some.total_us +
						  up(a->psi[r].some.total_us, b->psi[r].some.total_us);
			o->psi[r].full.total_us = p->psi[r].full.total_us +
						  up(a->psi[r].full.total_us, b->psi[r].full.total_us);
		}
		for (unsigned d2 = 0; d2 < s->ndev; d2++) {
			struct diskstat *od = &outd[i * s->ndev + d2];
			*od = outd[(i - 1) * s->ndev + d2];
			diskstat_accumulate(od, &s->disks[(i - 1) * s->ndev + d2],
					    &s->disks[i * s->ndev + d2]);
			memcpy(od->name, s->disks[i * s->ndev + d2].name, sizeof(od->name));
		}
	}
}

/* The interval ends: sample indices b[0] = 0 < b[1] < ... < b[k] = n - 1,
 * each step at least min_ns long but where the whole window is shorter
 * (a short tail joins the last step). Returns k. */
static size_t boundaries(const struct monitor_sample *v, size_t n, uint64_t min_ns, size_t *b)
{
	size_t k = 0;
	b[0] = 0;
	for (size_t i = 1; i < n; i++)
		if (v[i].t_ns - v[b[k]].t_ns >= min_ns)
			b[++k] = i;
	if (n > 1 && b[k] != n - 1) {
		if (k == 0)
			k = 1;
		b[k] = n - 1;
	}
	return k;
}

void monitor_summarize(const struct monitor_series *s, struct monitor_summary *sum)
{
	unsigned nd = s->ndev;
	struct monitor_dev_interval *tmp = xcalloc(nd ? nd : 1, sizeof(*tmp));

	memset(sum, 0, sizeof(*sum));
	sum->nsamples = s->n;
	sum->ndev = nd;
	sum->devs = xcalloc(nd ? nd : 1, sizeof(*sum->devs));
	if (!s->n) {
		free(tmp);
		return;
	}
	struct monitor_sample *v = xmalloc(s->n * sizeof(*v));
	struct diskstat *vd = xmalloc((nd ? s->n * nd : 1) * sizeof(*vd));
	monotone(s, v, vd);
	const char(*names)[64] = (const char(*)[64])s->names;
	uint64_t t0 = v[0].t_ns;
	size_t last = s->n - 1;

	sum->whole.devs = tmp;
	monitor_interval_compute(&v[0], vd, &v[last], vd + last * nd, names, nd, t0, &sum->whole);
	sum->whole.devs = NULL;
	sum->dt_s = sum->whole.dt_s;
	for (unsigned d = 0; d < nd; d++) {
		memcpy(sum->devs[d].name, tmp[d].name, sizeof(sum->devs[d].name));
		sum->devs[d].active = tmp[d].active;
		sum->devs[d].whole = tmp[d].x;
		sum->devs[d].delta = tmp[d].delta;
	}

	bool *seen = xcalloc(monitor_nr_sys_figures + monitor_nr_dev_figures * (nd ? nd : 1),
			     sizeof(*seen));
	bool *dseen = seen + monitor_nr_sys_figures;
	/* gauges: every sample (an empty interval ending at it) */
	for (size_t i = 0; i < s->n; i++) {
		struct monitor_interval iv = { .devs = NULL };
		monitor_interval_compute(&v[i], vd + i * nd, &v[i], vd + i * nd, names, 0, t0, &iv);
		for (size_t f = 0; f < monitor_nr_sys_figures; f++)
			if (monitor_sys_figures[f].gauge)
				extend(&monitor_sys_figures[f], &sum->min, &sum->max, &iv, &seen[f]);
	}
	/* the rest: the intervals */
	size_t *b = xmalloc(s->n * sizeof(*b));
	size_t k = boundaries(v, s->n, s->interval_ns / 2, b);
	sum->nintervals = k;
	for (size_t i = 0; i < k; i++) {
		struct monitor_interval iv = { .devs = tmp };
		monitor_interval_compute(&v[b[i]], vd + b[i] * nd, &v[b[i + 1]], vd + b[i + 1] * nd,
					 names, nd, t0, &iv);
		for (size_t f = 0; f < monitor_nr_sys_figures; f++) {
			const struct monitor_figure *fig = &monitor_sys_figures[f];
			if (!fig->gauge && (fig->psi < 0 || iv.psi_have[fig->psi]))
				extend(fig, &sum->min, &sum->max, &iv, &seen[f]);
		}
		for (unsigned d = 0; d < nd; d++)
			for (size_t f = 0; f < monitor_nr_dev_figures; f++)
				extend(&monitor_dev_figures[f], &sum->devs[d].min, &sum->devs[d].max,
				       &tmp[d].x, &dseen[d * monitor_nr_dev_figures + f]);
	}
	/* one sample (or figures no interval had): the extremes are the whole */
	for (size_t f = 0; f < monitor_nr_sys_figures; f++)
		if (!seen[f])
			extend(&monitor_sys_figures[f], &sum->min, &sum->max, &sum->whole, &seen[f]);
	if (!k)
		for (unsigned d = 0; d < nd; d++)
			sum->devs[d].min = sum->devs[d].max = sum->devs[d].whole;
	free(seen);
	free(b);
	free(v);
	free(vd);
	free(tmp);
}

void monitor_summary_release(struct monitor_summary *sum)
{
	free(sum->devs);
	sum->devs = NULL;
	sum->ndev = 0;
}

void monitor_series_view(const struct monitor_series *s, size_t first, size_t last,
			 struct monitor_series *view)
{
	*view = *s;
	if (!s->n) {
		view->n = view->alloc = 0;
		return;
	}
	if (last >= s->n)
		last = s->n - 1;
	if (first > last)
		first = last;
	view->samples = s->samples + first;
	view->disks = s->disks + first * s->ndev;
	view->n = view->alloc = last - first + 1;
}
