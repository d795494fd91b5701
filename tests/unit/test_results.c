/*
 * Results helpers: fio's I/O depth buckets (level 1 2 4 8 16 32 >=64,
 * submit/complete 0 4 8 16 32 64 >=64 with one I/O in "4"), the latency
 * buckets at and around every boundary (ns, us, ms, >=2000 ms), and the
 * group_reporting merge: counters and buckets add, runstats and histograms
 * merge, bandwidth sums as in fio, direction runtime is the max and job
 * runtime the sum, CPU is runtime-weighted, the first error wins, and an
 * empty result takes the first member's identity. Histograms are deep-merged
 * (the group owns its own bucket groups and outlives its released members)
 * and release frees every histogram (the ASan build's leak checker sees
 * anything left behind).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/array.h"
#include "util/xmalloc.h"
#include "results/results.h"

static void check_depth_buckets(void)
{
	static const unsigned lv[][2] = {
		{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 7, 2 }, { 8, 3 }, { 15, 3 },
		{ 16, 4 }, { 31, 4 }, { 32, 5 }, { 63, 5 }, { 64, 6 }, { 65, 6 }, { 4096, 6 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(lv); i++)
		CHECK(iodepth_level_bucket(lv[i][0]) == lv[i][1], "depth %u -> level bucket %u, want %u",
		      lv[i][0], iodepth_level_bucket(lv[i][0]), lv[i][1]);
	static const unsigned sc[][2] = {
		{ 0, 0 }, { 1, 1 }, { 2, 1 }, { 4, 1 }, { 5, 2 }, { 8, 2 }, { 9, 3 }, { 16, 3 },
		{ 17, 4 }, { 32, 4 }, { 33, 5 }, { 64, 5 }, { 65, 6 }, { 1000, 6 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(sc); i++)
		CHECK(iodepth_sc_bucket(sc[i][0]) == sc[i][1], "%u I/Os -> submit bucket %u, want %u",
		      sc[i][0], iodepth_sc_bucket(sc[i][0]), sc[i][1]);
}

/* Which array and index one latency lands in: 0 ns, 1 us, 2 ms. */
static void where(uint64_t lat, int *unit, int *idx)
{
	static struct job_result r;
	job_result_init(&r);
	lat_bucket_add(&r, lat);
	*unit = *idx = -1;
	for (int i = 0; i < NR_LAT_NS_BUCKETS; i++) {
		if (r.lat_ns[i])
			*unit = 0, *idx = i;
		if (r.lat_us[i])
			*unit = 1, *idx = i;
	}
	for (int i = 0; i < NR_LAT_MS_BUCKETS; i++)
		if (r.lat_ms[i])
			*unit = 2, *idx = i;
	CHECK(r.lat_total == 1, "lat_total counts the I/O");
}

static void check_lat_buckets(void)
{
	static const struct { uint64_t ns; int unit, idx; } c[] = {
		{ 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 1 }, { 3, 0, 1 }, { 4, 0, 2 }, { 9, 0, 2 },
		{ 10, 0, 3 }, { 19, 0, 3 }, { 20, 0, 4 }, { 49, 0, 4 }, { 50, 0, 5 }, { 99, 0, 5 },
		{ 100, 0, 6 }, { 249, 0, 6 }, { 250, 0, 7 }, { 499, 0, 7 }, { 500, 0, 8 },
		{ 749, 0, 8 }, { 750, 0, 9 }, { 999, 0, 9 },
		{ 1000, 1, 0 }, { 1999, 1, 0 }, { 2000, 1, 1 }, { 3999, 1, 1 }, { 4000, 1, 2 },
		{ 9999, 1, 2 }, { 10000, 1, 3 }, { 250000, 1, 7 }, { 749999, 1, 8 }, { 750000, 1, 9 },
		{ 999999, 1, 9 },
		{ 1000000, 2, 0 }, { 1999999, 2, 0 }, { 2000000, 2, 1 }, { 4000000, 2, 2 },
		{ 10000000, 2, 3 }, { 20000000, 2, 4 }, { 50000000, 2, 5 }, { 100000000, 2, 6 },
		{ 250000000, 2, 7 }, { 500000000, 2, 8 }, { 750000000, 2, 9 }, { 999999999, 2, 9 },
		{ 1000000000, 2, 10 }, { 1999999999, 2, 10 }, { 2000000000, 2, 11 },
		{ 3600000000000ULL, 2, 11 }, { UINT64_MAX, 2, 11 },
	};
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		int unit, idx;
		where(c[i].ns, &unit, &idx);
		CHECK(unit == c[i].unit && idx == c[i].idx, "%llu ns -> unit %d bucket %d, want %d/%d",
		      (unsigned long long)c[i].ns, unit, idx, c[i].unit, c[i].idx);
	}
}

static void fill(struct job_result *r, unsigned seed, double base)
{
	r->total_err = seed;
	r->elapsed_s = 10 + seed;
	r->runtime_ns = (uint64_t)seed * 1000000000ULL;
	r->usr_cpu = 10.0 * seed;
	r->sys_cpu = 5.0;
	r->ctx = 100 * seed;
	r->majf = seed;
	r->minf = 2 * seed;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct dir_result *dr = &r->dir[d];
		dr->io_bytes = 4096ULL * 1000 * seed;
		dr->total_ios = 1000 * seed;
		dr->short_ios = seed;
		dr->drop_ios = 1;
		dr->runtime_ns = 1000000ULL * (seed * 7 % 5 + 1);
		for (unsigned i = 0; i < 100; i++) {
			double v = base + i * seed;
			runstat_add(&dr->clat, v);
			runstat_add(&dr->slat, v / 10);
			runstat_add(&dr->lat, v + v / 10);
			hist_add(&dr->clat_hist, (uint64_t)v);
			hist_add(&dr->lat_hist, (uint64_t)(v + v / 10));
		}
		runstat_add(&dr->bw, 1000.0 * seed);
		runstat_add(&dr->bw, 3000.0 * seed);
		runstat_add(&dr->iops, 10.0 * seed);
	}
	r->sync.total_ios = seed;
	runstat_add(&r->sync.lat, 5000.0 * seed);
	hist_add(&r->sync.lat_hist, 5000 * seed);
	for (int i = 0; i < NR_IODEPTH_BUCKETS; i++) {
		r->iodepth_level[i] = i + seed;
		r->iodepth_submit[i] = 2 * i + seed;
		r->iodepth_complete[i] = 3 * i + seed;
	}
	for (int i = 0; i < 300; i++)
		lat_bucket_add(r, (uint64_t)(base * (i + 1) * seed));
}

static void check_merge(void)
{
	static struct job_result a, b, c, g, ref;
	job_result_init(&a);
	job_result_init(&b);
	job_result_init(&c);
	a.name = xstrdup("job-a");
	b.name = xstrdup("job-b");
	c.name = xstrdup("job-c");
	a.groupid = b.groupid = c.groupid = 3;
	a.spec = xcalloc(1, sizeof(*a.spec));
	a.spec->name = xstrdup("job-a");
	a.spec->iodepth = 8;
	fill(&a, 1, 1000);
	fill(&b, 2, 50000);
	fill(&c, 3, 7);
	b.error = 5;
	b.error_msg = xstrdup("f:0: io error");
	c.error = 28;
	c.error_msg = xstrdup("f:8192: no space");

	/* reference: one histogram / runstat fed everything */
	job_result_init(&ref);
	for (int k = 0; k < 3; k++) {
		struct job_result *s = k == 0 ? &a : k == 1 ? &b : &c;
		hist_merge(&ref.dir[0].clat_hist, &s->dir[0].clat_hist);
	}

	job_result_init(&g);
	job_result_merge(&g, &a);
	CHECK(g.name && strcmp(g.name, "job-a") == 0 && g.name != a.name, "empty result takes a copy of the first name");
	CHECK(g.spec && g.spec != a.spec && g.spec->iodepth == 8 && g.spec->name &&
	      strcmp(g.spec->name, "job-a") == 0 && g.spec->name != a.spec->name,
	      "and a deep copy of its spec");
	CHECK(g.groupid == 3 && g.nr_jobs == 1, "groupid, one member");
	CHECK(g.error == 0 && g.error_msg == NULL, "no error yet");
	job_result_merge(&g, &b);
	job_result_merge(&g, &c);
	CHECK(strcmp(g.name, "job-a") == 0 && g.nr_jobs == 3, "name kept, three members (%u)", g.nr_jobs);
	CHECK(g.error == 5 && g.error_msg && strcmp(g.error_msg, "f:0: io error") == 0, "first error wins");
	CHECK(g.total_err == 6, "errors add");
	CHECK(g.elapsed_s == 13, "elapsed is the longest");
	CHECK(g.runtime_ns == 6000000000ULL, "job runtime adds up like fio's job_runtime");
	CHECK(fabs(g.usr_cpu - (10.0 * 1 + 20.0 * 2 + 30.0 * 3) / 6) < 1e-9, "usr_cpu weighted by runtime: %g",
	      g.usr_cpu);
	CHECK(fabs(g.sys_cpu - 5.0) < 1e-9, "sys_cpu weighted by runtime");
	CHECK(g.ctx == 600 && g.majf == 6 && g.minf == 12, "ctx/majf/minf add");

	const struct dir_result *d = &g.dir[1];
	CHECK(d->io_bytes == 4096ULL * 6000 && d->total_ios == 6000 && d->short_ios == 6 && d->drop_ios == 3,
	      "direction counters add");
	CHECK(d->runtime_ns == 5000000ULL, "direction runtime is the longest (%llu)",
	      (unsigned long long)d->runtime_ns);
	CHECK(d->clat.n == 300 && d->clat_hist.count == 300 && d->lat_hist.count == 300, "latency samples add");
	double sum = 0;
	for (int k = 1; k <= 3; k++)
		for (int i = 0; i < 100; i++)
			sum += (k == 1 ? 1000 : k == 2 ? 50000 : 7) + i * k;
	CHECK(fabs(d->clat.mean - sum / 300) < 1e-6, "clat mean over all jobs %g vs %g", d->clat.mean, sum / 300);
	CHECK(d->clat.min == 7 && d->clat.max == 50000 + 99 * 2, "clat min/max over all jobs");
	CHECK(hist_equal(&g.dir[0].clat_hist, &ref.dir[0].clat_hist),
	      "merged histogram equals one fed every value");
	int shared = 0;
	for (unsigned k = 0; k < HIST_NR_GROUPS; k++)
		shared += g.dir[1].clat_hist.groups[k] &&
			  (g.dir[1].clat_hist.groups[k] == a.dir[1].clat_hist.groups[k] ||
			   g.dir[1].clat_hist.groups[k] == b.dir[1].clat_hist.groups[k]);
	CHECK(shared == 0 && hist_nr_groups(&g.dir[1].clat_hist) > 0, "the merge owns its own bucket groups");
	/* bandwidth: fio sums the jobs' stats (the group's bandwidth is the sum) */
	CHECK(d->bw.n == 6 && fabs(d->bw.mean - 2000.0 * 6) < 1e-9, "bw mean is the sum of means: %g", d->bw.mean);
	CHECK(d->bw.min == 6000.0 && d->bw.max == 18000.0, "bw min/max add");
	CHECK(fabs(runstat_stddev(&d->bw) - sqrt((2e6 * 1 + 2e6 * 4 + 2e6 * 9) / 5.0)) < 1e-6,
	      "bw stddev from summed squared deviations: %g", runstat_stddev(&d->bw));
	CHECK(d->iops.n == 3 && fabs(d->iops.mean - 60.0) < 1e-9, "iops mean is the sum");

	CHECK(g.sync.total_ios == 6 && g.sync.lat.n == 3 && g.sync.lat_hist.count == 3, "sync stats add");
	CHECK(g.iodepth_level[6] == 18 + 6 && g.iodepth_submit[1] == 6 + 6 && g.iodepth_complete[0] == 6,
	      "depth buckets add");
	CHECK(g.lat_total == 900, "latency bucket total adds");
	uint64_t tot = 0;
	for (int i = 0; i < NR_LAT_NS_BUCKETS; i++)
		tot += g.lat_ns[i] + g.lat_us[i];
	for (int i = 0; i < NR_LAT_MS_BUCKETS; i++)
		tot += g.lat_ms[i];
	CHECK(tot == 900, "latency buckets add");

	/* merging into a named result keeps it; an unnumbered member counts as one */
	static struct job_result h;
	job_result_init(&h);
	h.name = xstrdup("solo");
	h.nr_jobs = 0;
	job_result_merge(&h, &b);
	CHECK(strcmp(h.name, "solo") == 0 && h.nr_jobs == 1 && h.error == 5, "merge into a named result");

	job_result_release(&a);
	job_result_release(&b);
	job_result_release(&c);
	CHECK(hist_equal(&g.dir[0].clat_hist, &ref.dir[0].clat_hist) && g.sync.lat_hist.count == 3 &&
	      hist_percentile(&g.sync.lat_hist, 100) == 15000, "the group outlives its released members");
	job_result_release(&g);
	job_result_release(&h);
	job_result_release(&ref);
	CHECK(g.name == NULL && g.error_msg == NULL && g.spec == NULL, "release frees and clears");
	unsigned left = 0;
	for (int k = 0; k < DDIR_RWDIR_CNT; k++)
		left += hist_nr_groups(&g.dir[k].slat_hist) + hist_nr_groups(&g.dir[k].clat_hist) +
			hist_nr_groups(&g.dir[k].lat_hist) + g.dir[k].clat_hist.count + g.dir[k].lat_hist.count;
	left += hist_nr_groups(&g.sync.lat_hist) + g.sync.lat_hist.count;
	CHECK(left == 0, "release empties every histogram");

	struct run_result rr;
	memset(&rr, 0, sizeof(rr));
	rr.nr_jobs = 2;
	rr.jobs = xcalloc(2, sizeof(*rr.jobs));
	job_result_init(&rr.jobs[0]);
	job_result_init(&rr.jobs[1]);
	rr.jobs[0].name = xstrdup("x");
	hist_add(&rr.jobs[0].dir[1].lat_hist, 123456);
	hist_add(&rr.jobs[1].sync.lat_hist, 42);
	hist_add(&rr.jobs[1].dir[0].slat_hist, 7);
	rr.nr_disks = 1;
	rr.disks = xcalloc(1, sizeof(*rr.disks));
	rr.nr_global_opts = 1;
	rr.global_opts = xcalloc(1, sizeof(*rr.global_opts));
	rr.global_opts[0].key = xstrdup("bs");
	run_result_release(&rr);
	CHECK(rr.jobs == NULL && rr.nr_jobs == 0 && rr.disks == NULL && rr.global_opts == NULL,
	      "run_result_release frees everything");
}

/* A calloc'd result needs no init: empty histograms, no groups until used. */
static void check_zeroed(void)
{
	struct job_result *r = xcalloc(1, sizeof(*r));
	job_result_init_zeroed(r);
	unsigned groups = 0;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		groups += hist_nr_groups(&r->dir[d].clat_hist) + hist_nr_groups(&r->dir[d].lat_hist);
	CHECK(groups == 0 && r->dir[0].clat_hist.count == 0 && hist_percentile(&r->dir[0].clat_hist, 50) == 0,
	      "zeroed result: empty histograms, nothing allocated");
	CHECK(sizeof(struct job_result) < 16384, "job_result is %zu bytes", sizeof(struct job_result));
	hist_add(&r->dir[0].clat_hist, 900);
	hist_add(&r->dir[0].clat_hist, 950);
	CHECK(hist_nr_groups(&r->dir[0].clat_hist) == 1 && r->dir[0].clat_hist.count == 2,
	      "two values in one power of two: one group");
	struct job_result g;
	job_result_init(&g);
	job_result_merge(&g, r);
	unsigned k = hist_index(900) / HIST_SUB;
	CHECK(hist_equal(&g.dir[0].clat_hist, &r->dir[0].clat_hist) && g.dir[0].clat_hist.groups[k] &&
	      g.dir[0].clat_hist.groups[k] != r->dir[0].clat_hist.groups[k] &&
	      hist_nr_groups(&g.dir[0].clat_hist) == 1 && hist_nr_groups(&g.dir[0].lat_hist) == 0,
	      "merge into an empty result copies only the used group");
	job_result_release(r);
	job_result_release(&g);
	free(r);
}

int main(void)
{
	check_depth_buckets();
	check_lat_buckets();
	check_merge();
	check_zeroed();
	return check_done("results");
}
