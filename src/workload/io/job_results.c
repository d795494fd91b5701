/*
 * The job's results from what the accounting (job_account.c) summed: the
 * runtime, the CPU use of the thread (and of io_submit_mode=offload's
 * threads), the latency statistics from the running sums, bandwidth and
 * IOPS from the samplers, a synchronous engine's depth counts. At the end
 * of the job and for each --status-interval snapshot.
 */
#include "workload/job/job.h"

#include "sys/cpuusage.h"
#include "workload/io/io.h"

static void acc_to_runstat(const struct latacc *a, const struct hist *h, struct runstat *rs)
{
	runstat_init(rs);
	if (!h->count)
		return;
	rs->n = h->count;
	rs->min = (double)h->min;
	rs->max = (double)h->max;
	rs->mean = (double)a->sum / (double)h->count;
	long double n = (long double)h->count;
	long double m2 = (long double)a->sumsq - (long double)a->sum * (long double)a->sum / n;
	rs->m2 = m2 > 0 ? (double)m2 : 0.0;
}

void job_results_compute(const struct job *j, struct job_result *r, uint64_t end,
			 const struct cpu_usage *cpu0)
{
	struct cpu_usage cpu1, dc;
	cpu_usage_thread(&cpu1);
	cpu_usage_delta(cpu0, &cpu1, &dc);
	submitq_cpu(j, &dc); /* io_submit_mode=offload: its threads' CPU time too */
	uint64_t start = j->in_ramp ? end : j->start_ns; /* in the ramp: nothing measured */
	r->runtime_ns = end - start;
	double rt = r->runtime_ns ? (double)r->runtime_ns : 1.0;
	r->usr_cpu = 100.0 * (double)dc.user_ns / rt;
	r->sys_cpu = 100.0 * (double)dc.sys_ns / rt;
	r->busy_pct = 100.0 * (double)(dc.run_ns + dc.wait_ns) / rt;
	r->ctx = dc.ctx;
	r->majf = dc.majflt;
	r->minf = dc.minflt;
	if (j->eng.ops->describe && j->eng.priv)
		j->eng.ops->describe(&j->eng, r->engine_setup, sizeof(r->engine_setup));
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct dir_result *dr = &r->dir[d];
		acc_to_runstat(&j->acc_slat[d], &dr->slat_hist, &dr->slat);
		acc_to_runstat(&j->acc_clat[d], &dr->clat_hist, &dr->clat);
		acc_to_runstat(&j->acc_lat[d], &dr->lat_hist, &dr->lat);
		/* as fio: a job shorter than bwavgtime has no bw/iops samples */
		dr->bw = j->bw[d].rate;
		dr->iops = j->iops[d].rate;
		if (j->eng.ops->flags & ENGINE_NO_IO) /* as fio: no bytes, no runtime nor bw */
			runstat_init(&dr->bw);
		else if (dr->total_ios)
			dr->runtime_ns = r->runtime_ns;
	}
	acc_to_runstat(&j->acc_sync, &r->sync.lat_hist, &r->sync.lat);
	if (job_inline_sync(j)) {
		uint64_t n = 0;
		for (int d = 0; d < DDIR_RWDIR_CNT; d++)
			n += r->dir[d].total_ios;
		r->iodepth_level[iodepth_level_bucket(1)] += n;
		r->iodepth_submit[iodepth_sc_bucket(1)] += n;
		r->iodepth_complete[iodepth_sc_bucket(1)] += n;
	}
}
