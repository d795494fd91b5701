/*
 * Text of the system monitor (monitor_report.h): the live view looks like
 * vmstat and iostat -x run side by side (their headers, column widths and
 * rounding), and a run's summary is a few lines under its normal output.
 */
#include "report/monitor_report.h"
#include "util/array.h"

#include <stddef.h>

void monitor_text_header(FILE *out)
{
	fputs("procs -----------memory---------- ---swap-- -----io---- -system-- "
	      "------cpu-----\n"
	      " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs "
	      "us sy id wa st\n", out);
}

/* vmstat rounds rates and percentages to whole numbers. */
static void text_vmstat(FILE *out, const struct vmstat_x *v)
{
	fprintf(out, "%2llu %2llu %6llu %6llu %6llu %6llu %4.0f %4.0f %5.0f %5.0f %4.0f %4.0f "
		"%2.0f %2.0f %2.0f %2.0f %2.0f\n",
		(unsigned long long)v->r, (unsigned long long)v->b,
		(unsigned long long)v->swpd_kb, (unsigned long long)v->free_kb,
		(unsigned long long)v->buff_kb, (unsigned long long)v->cache_kb, v->si, v->so,
		v->bi, v->bo, v->in, v->cs, v->us, v->sy, v->id, v->wa, v->st);
}

/* iostat -x's columns (sysstat 12), each "%*.2f" after a space. */
static const struct column {
	const char *name;
	int width;
	size_t off;
} columns[] = {
#define C(n, w, m) { n, w, offsetof(struct iostat_x, m) }
	C("r/s", 7, r_s), C("rkB/s", 9, rkb_s), C("rrqm/s", 8, rrqm_s), C("%rrqm", 6, rrqm_pct),
	C("r_await", 7, r_await), C("rareq-sz", 8, rareq_sz),
	C("w/s", 7, w_s), C("wkB/s", 9, wkb_s), C("wrqm/s", 8, wrqm_s), C("%wrqm", 6, wrqm_pct),
	C("w_await", 7, w_await), C("wareq-sz", 8, wareq_sz),
	C("d/s", 7, d_s), C("dkB/s", 9, dkb_s), C("drqm/s", 8, drqm_s), C("%drqm", 6, drqm_pct),
	C("d_await", 7, d_await), C("dareq-sz", 8, dareq_sz),
	C("f/s", 7, f_s), C("f_await", 7, f_await), C("aqu-sz", 7, aqu_sz), C("%util", 6, util_pct),
#undef C
};

static void text_devices(FILE *out, const struct monitor_dev_interval *devs, unsigned ndev,
			 bool only_active)
{
	fprintf(out, "%-13s", "Device");
	for (size_t c = 0; c < ARRAY_SIZE(columns); c++)
		fprintf(out, " %*s", columns[c].width, columns[c].name);
	fputc('\n', out);
	for (unsigned d = 0; d < ndev; d++) {
		if (only_active && !devs[d].active)
			continue;
		fprintf(out, "%-13s", devs[d].name);
		for (size_t c = 0; c < ARRAY_SIZE(columns); c++)
			fprintf(out, " %*.2f", columns[c].width,
				*(const double *)((const char *)&devs[d].x + columns[c].off));
		fputc('\n', out);
	}
}

void monitor_text_interval(FILE *out, const struct monitor_interval *iv, bool only_active)
{
	text_vmstat(out, &iv->vm);
	if (iv->devs && iv->ndev)
		text_devices(out, iv->devs, iv->ndev, only_active);
	fputc('\n', out);
}

void monitor_text_summary(FILE *out, const struct monitor_summary *sum, bool only_active)
{
	const struct vmstat_x *v = &sum->whole.vm;

	if (sum->nsamples < 2)
		return;
	fprintf(out, "System (monitor, %zu samples over %.1fs):\n", sum->nsamples, sum->dt_s);
	fprintf(out, "  cpu: us=%.1f%% sy=%.1f%% wa=%.1f%% id=%.1f%% (max wa=%.1f%%), "
		"load max=%.2f, procs blocked max=%llu\n", v->us, v->sy, v->wa, v->id,
		sum->max.vm.wa, sum->max.load.avg1, (unsigned long long)sum->max.vm.b);
	for (unsigned d = 0; d < sum->ndev; d++) {
		const struct monitor_dev_summary *ds = &sum->devs[d];
		const struct iostat_x *x = &ds->whole;
		if (only_active && !ds->active)
			continue;
		fprintf(out, "  %s: util=%.1f%% (max %.1f%%), aqu-sz=%.2f (max %.2f), "
			"r/s=%.1f w/s=%.1f rkB/s=%.1f wkB/s=%.1f, r_await=%.2fms w_await=%.2fms\n",
			ds->name, x->util_pct, ds->max.util_pct, x->aqu_sz, ds->max.aqu_sz, x->r_s, x->w_s,
			x->rkb_s, x->wkb_s, x->r_await, x->w_await);
	}
}
