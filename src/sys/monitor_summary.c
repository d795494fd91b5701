/*
 * The summary of a monitor series (monitor_calc.h): whole-window figures
 * from the first and last samples (what iostat/vmstat would print for one
 * interval that long), and the worst interval of the figures the anomaly
 * warnings look at.
 */
#include "sys/monitor_calc.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

#define MAXV(a, b) ((a) = (b) > (a) ? (b) : (a))

static void sample_maxima(const struct monitor_series *s, struct monitor_summary *sum)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct monitor_sample *x = &s->samples[i];
		MAXV(sum->load1_max, x->load.avg1);
		MAXV(sum->procs_blocked_max, x->stat.procs_blocked);
		MAXV(sum->dirty_max_kb, x->mem.dirty_kb);
		MAXV(sum->writeback_max_kb, x->mem.writeback_kb);
		MAXV(sum->nr_dirty_max, x->vm.nr_dirty);
		MAXV(sum->nr_writeback_max, x->vm.nr_writeback);
		MAXV(sum->buffer_head_max_bytes, x->slab.buffer_head_bytes);
	}
}

static void interval_maxima(const struct monitor_series *s, struct monitor_summary *sum,
			    struct monitor_dev_interval *tmp)
{
	/* leave out intervals shorter than half the nominal one, unless all are */
	double min_s = (double)s->interval_ns / 2e9;
	bool any_long = false;

	for (size_t i = 0; i + 1 < s->n; i++)
		any_long |= (double)(s->samples[i + 1].t_ns - s->samples[i].t_ns) / 1e9 >= min_s;
	for (size_t i = 0; i + 1 < s->n; i++) {
		struct monitor_interval iv = { .devs = tmp };
		monitor_series_interval(s, i, &iv);
		if (any_long && iv.dt_s < min_s)
			continue;
		MAXV(sum->wa_max, iv.vm.wa);
		MAXV(sum->us_max, iv.vm.us);
		MAXV(sum->sy_max, iv.vm.sy);
		MAXV(sum->pgscan_direct_max_s, iv.pgscan_direct_s);
		MAXV(sum->allocstall_max_s, iv.allocstall_s);
		MAXV(sum->pswpout_max_s, iv.pswpout_s);
		for (unsigned r = 0; r < PSI_NR; r++) {
			MAXV(sum->psi_some_max[r], iv.psi_some_pct[r]);
			MAXV(sum->psi_full_max[r], iv.psi_full_pct[r]);
		}
		for (unsigned d = 0; d < s->ndev; d++) {
			struct monitor_dev_summary *ds = &sum->devs[d];
			MAXV(ds->util_max, tmp[d].x.util_pct);
			MAXV(ds->aqu_max, tmp[d].x.aqu_sz);
			MAXV(ds->r_await_max, tmp[d].x.r_await);
			MAXV(ds->w_await_max, tmp[d].x.w_await);
		}
	}
}

void monitor_summarize(const struct monitor_series *s, struct monitor_summary *sum)
{
	struct monitor_dev_interval *tmp = xcalloc(s->ndev ? s->ndev : 1, sizeof(*tmp));

	memset(sum, 0, sizeof(*sum));
	sum->nsamples = s->n;
	sum->nintervals = s->n ? s->n - 1 : 0;
	sum->ndev = s->ndev;
	sum->devs = xcalloc(s->ndev ? s->ndev : 1, sizeof(*sum->devs));
	if (s->n) {
		size_t last = s->n - 1;
		sum->whole.devs = tmp;
		monitor_interval_compute(&s->samples[0], monitor_series_disks(s, 0),
					 &s->samples[last], monitor_series_disks(s, last),
					 (const char (*)[64])s->names, s->ndev, s->samples[0].t_ns,
					 &sum->whole);
		sum->whole.devs = NULL;
		sum->dt_s = sum->whole.dt_s;
		for (unsigned d = 0; d < s->ndev; d++) {
			memcpy(sum->devs[d].name, tmp[d].name, sizeof(sum->devs[d].name));
			sum->devs[d].active = tmp[d].active;
			sum->devs[d].whole = tmp[d].x;
			sum->devs[d].delta = tmp[d].delta;
		}
		sample_maxima(s, sum);
		interval_maxima(s, sum, tmp);
	}
	free(tmp);
}

void monitor_summary_release(struct monitor_summary *sum)
{
	free(sum->devs);
	sum->devs = NULL;
	sum->ndev = 0;
}
