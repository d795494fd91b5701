/*
 * Results bookkeeping: initialising and releasing the result structs, the
 * group_reporting merge, and fio's distribution buckets.
 *
 * The merge follows fio 3.33's sum_thread_stats(): counters, histograms and
 * the I/O depth and latency buckets add up; latency runstats combine as if
 * one job had seen every I/O; bandwidth and IOPS samples are *summed* (mean,
 * min, max, squared deviations and sample count each added), because the
 * group's bandwidth is the sum of its jobs'; a direction's runtime is the
 * longest of the jobs', while the job runtime adds up (fio's job_runtime of a
 * group is the sum) and CPU percentages are weighted by it (fio divides the
 * summed CPU time by the summed runtime). The first error wins.
 *
 * Buckets: lat_ns/lat_us/lat_ms count completion latency (clat, issue to
 * completion; fio's io_u_mark_latency gets clat, not total lat). A bucket
 * labelled L holds values from the previous label up to L - 1, so 2 ns goes in
 * "4", 1000 ns in lat_us "2" (1 us), and 2000 ms or more in ">=2000".
 *
 * Ownership: a job_result owns its name, error message, spec copy and the
 * bucket groups of its ten histograms; job_result_release frees all of them.
 * The merge copies (never shares) what it takes from src, so both stay
 * independently releasable.
 */
#include "results/results.h"

#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/assert.h"
#include "util/xmalloc.h"

void dir_result_init(struct dir_result *d)
{
	memset(d, 0, sizeof(*d));
	runstat_init(&d->slat);
	runstat_init(&d->clat);
	runstat_init(&d->lat);
	runstat_init(&d->bw);
	runstat_init(&d->iops);
	hist_init(&d->slat_hist);
	hist_init(&d->clat_hist);
	hist_init(&d->lat_hist);
}

static void prios_release(struct dir_result *d)
{
	for (unsigned i = 0; i < d->nr_prios; i++)
		hist_release(&d->prios[i].hist);
	free(d->prios);
	d->prios = NULL;
	d->nr_prios = 0;
}

void dir_result_release(struct dir_result *d)
{
	hist_release(&d->slat_hist);
	hist_release(&d->clat_hist);
	hist_release(&d->lat_hist);
	prios_release(d);
}

struct prio_result *dir_result_prio(struct dir_result *d, uint16_t ioprio)
{
	for (unsigned i = 0; i < d->nr_prios; i++)
		if (d->prios[i].ioprio == ioprio)
			return &d->prios[i];
	d->prios = xrealloc(d->prios, (d->nr_prios + 1) * sizeof(*d->prios));
	struct prio_result *p = &d->prios[d->nr_prios++];
	p->ioprio = ioprio;
	runstat_init(&p->stat);
	hist_init(&p->hist);
	return p;
}

void job_result_init_zeroed(struct job_result *r)
{
	/* All-zero is the initial state of every runstat and histogram (a
	 * histogram's bucket groups are allocated on first use), so nothing
	 * else is written. */
	r->nr_jobs = 1;
}

void job_result_init(struct job_result *r)
{
	memset(r, 0, sizeof(*r));
	r->nr_jobs = 1;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		dir_result_init(&r->dir[d]);
	runstat_init(&r->sync.lat);
	hist_init(&r->sync.lat_hist);
}

/* fio's "pure sum" of bandwidth/IOPS stats for group_reporting. */
static void runstat_sum(struct runstat *dst, const struct runstat *src)
{
	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	dst->n += src->n;
	dst->min += src->min;
	dst->max += src->max;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

void dir_result_merge(struct dir_result *dst, const struct dir_result *src)
{
	dst->io_bytes += src->io_bytes;
	dst->total_ios += src->total_ios;
	dst->short_ios += src->short_ios;
	dst->drop_ios += src->drop_ios;
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	runstat_merge(&dst->slat, &src->slat);
	runstat_merge(&dst->clat, &src->clat);
	runstat_merge(&dst->lat, &src->lat);
	hist_merge(&dst->slat_hist, &src->slat_hist);
	hist_merge(&dst->clat_hist, &src->clat_hist);
	hist_merge(&dst->lat_hist, &src->lat_hist);
	runstat_sum(&dst->bw, &src->bw);
	runstat_sum(&dst->iops, &src->iops);
	for (unsigned i = 0; i < src->nr_prios; i++) {
		struct prio_result *p = dir_result_prio(dst, src->prios[i].ioprio);
		runstat_merge(&p->stat, &src->prios[i].stat);
		hist_merge(&p->hist, &src->prios[i].hist);
	}
}

static void add_array(uint64_t *dst, const uint64_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] += src[i];
}

static double cpu_weighted(double a, uint64_t ta, double b, uint64_t tb)
{
	if (ta + tb == 0)
		return a > b ? a : b;
	return (a * (double)ta + b * (double)tb) / ((double)ta + (double)tb);
}

void job_result_merge(struct job_result *dst, const struct job_result *src)
{
	if (!dst->name && src->name) {
		/* an empty group result takes the first member's identity */
		dst->name = xstrdup(src->name);
		dst->groupid = src->groupid;
		if (src->spec && !dst->spec) {
			dst->spec = xcalloc(1, sizeof(*dst->spec));
			job_spec_copy(dst->spec, src->spec);
		}
		dst->nr_jobs = 0;
	}
	if (!dst->tid)
		dst->tid = src->tid;
	dst->nr_jobs += src->nr_jobs ? src->nr_jobs : 1;

	if (!dst->error && src->error) {
		dst->error = src->error;
		free(dst->error_msg);
		dst->error_msg = src->error_msg ? xstrdup(src->error_msg) : NULL;
		dst->error_offset = src->error_offset;
	}
	dst->total_err += src->total_err;
	for (int k = 0; k < ERR_KIND_CNT; k++)
		dst->nr_err[k] += src->nr_err[k];
	if (src->elapsed_s > dst->elapsed_s)
		dst->elapsed_s = src->elapsed_s;

	dst->usr_cpu = cpu_weighted(dst->usr_cpu, dst->runtime_ns, src->usr_cpu, src->runtime_ns);
	dst->sys_cpu = cpu_weighted(dst->sys_cpu, dst->runtime_ns, src->sys_cpu, src->runtime_ns);
	dst->busy_pct = cpu_weighted(dst->busy_pct, dst->runtime_ns, src->busy_pct, src->runtime_ns);
	dst->runtime_ns += src->runtime_ns;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	dst->have_unwritten |= src->have_unwritten;
	if (!dst->engine_setup[0])
		memcpy(dst->engine_setup, src->engine_setup, sizeof(dst->engine_setup));
	dst->unwritten_bytes += src->unwritten_bytes;

	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		dir_result_merge(&dst->dir[d], &src->dir[d]);
	dst->sync.total_ios += src->sync.total_ios;
	runstat_merge(&dst->sync.lat, &src->sync.lat);
	hist_merge(&dst->sync.lat_hist, &src->sync.lat_hist);

	add_array(dst->iodepth_level, src->iodepth_level, NR_IODEPTH_BUCKETS);
	add_array(dst->iodepth_submit, src->iodepth_submit, NR_IODEPTH_BUCKETS);
	add_array(dst->iodepth_complete, src->iodepth_complete, NR_IODEPTH_BUCKETS);
	add_array(dst->lat_ns, src->lat_ns, NR_LAT_NS_BUCKETS);
	add_array(dst->lat_us, src->lat_us, NR_LAT_NS_BUCKETS);
	add_array(dst->lat_ms, src->lat_ms, NR_LAT_MS_BUCKETS);
	dst->lat_total += src->lat_total;
}

void job_result_release(struct job_result *r)
{
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		hist_release(&r->dir[d].slat_hist);
		hist_release(&r->dir[d].clat_hist);
		hist_release(&r->dir[d].lat_hist);
		prios_release(&r->dir[d]);
	}
	hist_release(&r->sync.lat_hist);
	free(r->name);
	r->name = NULL;
	free(r->error_msg);
	r->error_msg = NULL;
	free(r->blocks);
	r->blocks = NULL;
	r->nr_blocks = 0;
	if (r->ss) {
		free(r->ss->iops);
		free(r->ss->bw);
		free(r->ss);
		r->ss = NULL;
	}
	if (r->spec) {
		job_spec_release(r->spec);
		free(r->spec);
		r->spec = NULL;
	}
}

void run_result_release(struct run_result *r)
{
	run_env_free(r->env);
	r->env = NULL;
	run_job_timelines_free(r->timelines, r->nr_timelines);
	r->timelines = NULL;
	r->nr_timelines = 0;
	for (size_t i = 0; i < r->nr_jobs; i++)
		job_result_release(&r->jobs[i]);
	free(r->jobs);
	r->jobs = NULL;
	r->nr_jobs = 0;
	free(r->disks);
	r->disks = NULL;
	r->nr_disks = 0;
	for (size_t i = 0; i < r->nr_batches; i++)
		free(r->batches[i].disks);
	free(r->batches);
	r->batches = NULL;
	r->nr_batches = 0;
	for (size_t i = 0; i < r->nr_global_opts; i++) {
		free(r->global_opts[i].key);
		free(r->global_opts[i].value);
	}
	free(r->global_opts);
	r->global_opts = NULL;
	r->nr_global_opts = 0;
}

/* fio's io_u_mark_depth: 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64 (0 counts as 1). */
unsigned iodepth_level_bucket(unsigned depth)
{
	if (depth <= 1)
		return 0;
	unsigned lg = 31u - (unsigned)__builtin_clz(depth);
	unsigned b = lg < NR_IODEPTH_BUCKETS - 1 ? lg : NR_IODEPTH_BUCKETS - 1;
	IOB_ASSERT(b < NR_IODEPTH_BUCKETS);
	return b;
}

/* fio's submit/complete map: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64. */
unsigned iodepth_sc_bucket(unsigned n)
{
	if (n == 0)
		return 0;
	if (n <= 4)
		return 1;
	if (n <= 8)
		return 2;
	if (n <= 16)
		return 3;
	if (n <= 32)
		return 4;
	if (n <= 64)
		return 5;
	return 6;
}

static const unsigned lat_edges[NR_LAT_MS_BUCKETS - 1] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000,
};

/* Index of the first edge above v among the first `nedges` edges. */
static unsigned lat_index(uint64_t v, unsigned nedges)
{
	unsigned i = 0;
	IOB_ASSERT(nedges <= ARRAY_SIZE(lat_edges));
	while (i < nedges && v >= lat_edges[i])
		i++;
	return i;
}

void lat_bucket_add(struct job_result *r, uint64_t lat_ns)
{
	/* lat_index(v, n) <= n: each array's last bucket holds the values above */
	unsigned i;
	if (lat_ns < 1000) {
		i = lat_index(lat_ns, NR_LAT_NS_BUCKETS - 1);
		IOB_ASSERT(i < NR_LAT_NS_BUCKETS);
		r->lat_ns[i]++;
	} else if (lat_ns < 1000000) {
		i = lat_index(lat_ns / 1000, NR_LAT_NS_BUCKETS - 1);
		IOB_ASSERT(i < NR_LAT_NS_BUCKETS);
		r->lat_us[i]++;
	} else {
		i = lat_index(lat_ns / 1000000, NR_LAT_MS_BUCKETS - 1);
		IOB_ASSERT(i < NR_LAT_MS_BUCKETS);
		r->lat_ms[i]++;
	}
	r->lat_total++;
}
