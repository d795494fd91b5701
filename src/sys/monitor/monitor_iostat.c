/*
 * iostat -x figures of one device over one interval (monitor_calc.h),
 * with sysstat 12's formulas.
 */
#include "sys/monitor/monitor_calc.h"

#include <string.h>

static double ratio(double num, double den)
{
	return den > 0 ? num / den : 0.0;
}

void iostat_x_compute(const struct diskstat *d, uint64_t dt_ns, struct iostat_x *x)
{
	double s = (double)dt_ns / 1e9, ms = (double)dt_ns / 1e6;

	memset(x, 0, sizeof(*x));
	if (dt_ns == 0)
		return;
	x->r_s = (double)d->rd_ios / s;
	x->w_s = (double)d->wr_ios / s;
	x->d_s = (double)d->dc_ios / s;
	x->f_s = (double)d->fl_ios / s;
	x->rkb_s = (double)d->rd_sectors / 2.0 / s;
	x->wkb_s = (double)d->wr_sectors / 2.0 / s;
	x->dkb_s = (double)d->dc_sectors / 2.0 / s;
	x->rrqm_s = (double)d->rd_merges / s;
	x->wrqm_s = (double)d->wr_merges / s;
	x->drqm_s = (double)d->dc_merges / s;
	x->rrqm_pct = ratio((double)d->rd_merges * 100.0, (double)(d->rd_merges + d->rd_ios));
	x->wrqm_pct = ratio((double)d->wr_merges * 100.0, (double)(d->wr_merges + d->wr_ios));
	x->drqm_pct = ratio((double)d->dc_merges * 100.0, (double)(d->dc_merges + d->dc_ios));
	x->r_await = ratio((double)d->rd_ticks, (double)d->rd_ios);
	x->w_await = ratio((double)d->wr_ticks, (double)d->wr_ios);
	x->d_await = ratio((double)d->dc_ticks, (double)d->dc_ios);
	x->f_await = ratio((double)d->fl_ticks, (double)d->fl_ios);
	x->rareq_sz = ratio((double)d->rd_sectors / 2.0, (double)d->rd_ios);
	x->wareq_sz = ratio((double)d->wr_sectors / 2.0, (double)d->wr_ios);
	x->dareq_sz = ratio((double)d->dc_sectors / 2.0, (double)d->dc_ios);
	x->aqu_sz = (double)d->time_in_queue / ms;
	x->util_pct = (double)d->io_ticks / ms * 100.0;
}
