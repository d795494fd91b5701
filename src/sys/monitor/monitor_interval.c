/*
 * One interval of the monitor (monitor_calc.h): the iostat and vmstat
 * figures, the reclaim/swap rates, PSI stall percentages and slab growth
 * between two samples.
 */
#include "sys/monitor/monitor_calc.h"

#include <stdio.h>
#include <string.h>

static double per_s(uint64_t v, double s)
{
	return s > 0 ? (double)v / s : 0.0;
}

static void psi_compute(const struct monitor_sample *a, const struct monitor_sample *b,
			struct monitor_interval *iv)
{
	double dt_us = (double)(b->t_ns - a->t_ns) / 1e3;

	for (unsigned r = 0; r < PSI_NR; r++) {
		const struct proc_psi *pa = &a->psi[r], *pb = &b->psi[r];
		iv->psi_have[r] = pa->have && pb->have && dt_us > 0;
		if (!iv->psi_have[r])
			continue;
		if (pb->some.total_us >= pa->some.total_us)
			iv->psi_some_pct[r] = (double)(pb->some.total_us - pa->some.total_us) / dt_us * 100;
		if (pb->full.total_us >= pa->full.total_us)
			iv->psi_full_pct[r] = (double)(pb->full.total_us - pa->full.total_us) / dt_us * 100;
	}
}

void monitor_interval_compute(const struct monitor_sample *a, const struct diskstat *da,
			      const struct monitor_sample *b, const struct diskstat *db,
			      const char (*names)[64], unsigned ndev, uint64_t t0_ns,
			      struct monitor_interval *iv)
{
	struct monitor_dev_interval *devs = iv->devs;
	uint64_t dt_ns = b->t_ns > a->t_ns ? b->t_ns - a->t_ns : 0;
	double s = (double)dt_ns / 1e9;

	memset(iv, 0, sizeof(*iv));
	iv->devs = devs;
	iv->ndev = ndev;
	iv->t_s = (double)(b->t_ns - t0_ns) / 1e9;
	iv->dt_s = s;
	vmstat_x_compute(a, b, &iv->vm);
	proc_vmstat_delta(&a->vm, &b->vm, &iv->dvm);
	iv->pgscan_kswapd_s = per_s(iv->dvm.pgscan_kswapd, s);
	iv->pgscan_direct_s = per_s(iv->dvm.pgscan_direct, s);
	iv->pgsteal_kswapd_s = per_s(iv->dvm.pgsteal_kswapd, s);
	iv->pgsteal_direct_s = per_s(iv->dvm.pgsteal_direct, s);
	iv->allocstall_s = per_s(iv->dvm.allocstall, s);
	iv->pswpin_s = per_s(iv->dvm.pswpin, s);
	iv->pswpout_s = per_s(iv->dvm.pswpout, s);
	iv->load = b->load;
	iv->mem = b->mem;
	iv->slab = b->slab;
	if (a->slab.have && b->slab.have)
		iv->buffer_head_growth = (int64_t)b->slab.buffer_head_bytes -
					 (int64_t)a->slab.buffer_head_bytes;
	psi_compute(a, b, iv);
	for (unsigned d = 0; d < ndev && devs; d++) {
		const struct diskstat *c = &db[d];
		snprintf(devs[d].name, sizeof(devs[d].name), "%s", names[d]);
		devs[d].active = c->rd_ios || c->wr_ios || c->dc_ios || c->fl_ios;
		diskstat_delta(&da[d], &db[d], &devs[d].delta);
		iostat_x_compute(&devs[d].delta, dt_ns, &devs[d].x);
	}
}

void monitor_series_interval(const struct monitor_series *s, size_t i,
			     struct monitor_interval *iv)
{
	monitor_interval_compute(&s->samples[i], monitor_series_disks(s, i), &s->samples[i + 1],
				 monitor_series_disks(s, i + 1), (const char (*)[64])s->names,
				 s->ndev, s->samples[0].t_ns, iv);
}
