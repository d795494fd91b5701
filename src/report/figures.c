/*
 * Figures that every output format derives from a result in the same way:
 * bandwidth and IOPS over a direction's runtime (computed from nanoseconds,
 * so a short run is not rounded to whole milliseconds as fio does), the
 * interval-sample summaries, the percentile list, fio's depth and latency
 * distributions (with fio's floors: a non-empty bucket shows at least 0.1%
 * or 0.01%), and small naming helpers.
 */
#include "report/report_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/runstat.h"
#include "util/array.h"

static const double default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

const char *const report_lat_ns_keys[NR_LAT_NS_BUCKETS] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
};

const char *const report_lat_ms_keys[NR_LAT_MS_BUCKETS] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000",
};

uint64_t rate_per_sec(uint64_t bytes, uint64_t ns)
{
	if (!ns)
		return 0;
	return (uint64_t)((unsigned __int128)bytes * 1000000000u / ns);
}

void dir_figures(const struct dir_result *d, struct dir_figures *f)
{
	f->io_bytes = d->io_bytes;
	f->io_kbytes = d->io_bytes >> 10;
	f->bw_bytes = rate_per_sec(d->io_bytes, d->runtime_ns);
	f->bw_kib = f->bw_bytes / 1024;
	f->iops = d->runtime_ns ? (double)d->total_ios * 1e9 / (double)d->runtime_ns : 0.0;
	f->runtime_ms = d->runtime_ns / 1000000;
}

void bw_figures(const struct runstat *bw, uint64_t group_aggrb, unsigned unit, struct bw_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->samples = bw->n;
	if (!bw->n)
		return;
	f->min = (uint64_t)(runstat_min(bw) / unit);
	f->max = (uint64_t)(runstat_max(bw) / unit);
	f->mean = bw->mean / unit;
	f->dev = runstat_stddev(bw) / unit;
	f->agg_pct = 100.0;
	if (group_aggrb > unit) {
		f->agg_pct = f->mean * 100.0 / ((double)group_aggrb / unit);
		if (f->agg_pct > 100.0)
			f->agg_pct = 100.0;
	}
}

void stat_figures(const struct runstat *s, struct stat_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->n = s->n;
	if (!s->n)
		return;
	f->min = (uint64_t)llround(runstat_min(s));
	f->max = (uint64_t)llround(runstat_max(s));
	f->mean = s->mean;
	f->dev = runstat_stddev(s);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

unsigned report_percentile_list(const struct job_spec *s, double list[MAX_PERCENTILES])
{
	unsigned n = 0;

	for (unsigned i = 0; i < s->nr_percentiles && i < MAX_PERCENTILES; i++) {
		double p = s->percentile_list[i];
		if (p <= 0.0)
			break;
		if (p <= 100.0)
			list[n++] = p;
	}
	if (!n) {
		n = ARRAY_SIZE(default_percentiles);
		memcpy(list, default_percentiles, sizeof(default_percentiles));
	}
	qsort(list, n, sizeof(list[0]), cmp_double);
	return n;
}

unsigned report_percentile_precision(const double *list, unsigned n)
{
	unsigned prec = 0;

	for (unsigned i = 0; i < n; i++) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%.6f", list[i]);
		char *dot = strchr(buf, '.');
		if (!dot)
			continue;
		size_t len = strlen(dot + 1);
		while (len && dot[len] == '0')
			len--;
		if (len > prec)
			prec = (unsigned)len;
	}
	return prec;
}

void report_depth_dist(const uint64_t map[NR_IODEPTH_BUCKETS], double out[NR_IODEPTH_BUCKETS])
{
	uint64_t total = 0;

	for (int i = 0; i < NR_IODEPTH_BUCKETS; i++)
		total += map[i];
	for (int i = 0; i < NR_IODEPTH_BUCKETS; i++) {
		out[i] = total ? (double)map[i] * 100.0 / (double)total : 0.0;
		if (map[i] && out[i] < 0.1)
			out[i] = 0.1;
	}
}

static void lat_pct(const uint64_t *src, double *dst, int nr, uint64_t total)
{
	for (int i = 0; i < nr; i++) {
		dst[i] = total ? (double)src[i] * 100.0 / (double)total : 0.0;
		if (src[i] && dst[i] < 0.01)
			dst[i] = 0.01;
	}
}

uint64_t report_lat_total(const struct job_result *j)
{
	uint64_t total = j->lat_total;

	if (!total) {
		for (int i = 0; i < NR_LAT_NS_BUCKETS; i++)
			total += j->lat_ns[i] + j->lat_us[i];
		for (int i = 0; i < NR_LAT_MS_BUCKETS; i++)
			total += j->lat_ms[i];
	}
	return total;
}

void report_lat_dist(const struct job_result *j, double ns[NR_LAT_NS_BUCKETS],
		     double us[NR_LAT_NS_BUCKETS], double ms[NR_LAT_MS_BUCKETS])
{
	uint64_t total = report_lat_total(j);

	lat_pct(j->lat_ns, ns, NR_LAT_NS_BUCKETS, total);
	lat_pct(j->lat_us, us, NR_LAT_NS_BUCKETS, total);
	lat_pct(j->lat_ms, ms, NR_LAT_MS_BUCKETS, total);
}

bool dir_used(const struct dir_result *d)
{
	return d->io_bytes || d->total_ios;
}

unsigned entry_kb_base(const struct job_result *j)
{
	return j->spec->kb_base == 1000 ? 1000 : 1024;
}

const char *rw_mode_name(unsigned rw)
{
	bool rnd = rw & RW_RAND;

	switch (rw & (RW_READ | RW_WRITE | RW_TRIM)) {
	case RW_WRITE:
		return rnd ? "randwrite" : "write";
	case RW_READ | RW_WRITE:
		return rnd ? "randrw" : "rw";
	case RW_TRIM:
		return rnd ? "randtrim" : "trim";
	case RW_TRIM | RW_WRITE:
		return rnd ? "randtrimwrite" : "trimwrite";
	default:
		return rnd ? "randread" : "read";
	}
}

double disk_util_pct(const struct disk_result *d)
{
	double util = d->util;

	if (util <= 0.0 && d->elapsed_ms)
		util = (double)d->io_ticks * 100.0 / (double)d->elapsed_ms;
	if (util > 100.0)
		util = 100.0;
	if (!(util > 0.0))
		util = 0.0;
	return util;
}

const char *entry_error_text(const struct job_result *j)
{
	if (j->error_msg && *j->error_msg)
		return j->error_msg;
	return strerror(j->error);
}

unsigned report_prio_order(const struct dir_result *dr, const struct job_spec *s, unsigned *order)
{
	uint16_t def = 0;
	unsigned n = 0;

	/* the job's priority as the engines' params encode it */
	if (s->ioprio >= 0 || s->ioprio_class >= 0)
		def = (uint16_t)((s->ioprio_class > 0 ? s->ioprio_class : 2) << 13 |
				 (s->ioprio > 0 ? s->ioprio : 0));
	for (unsigned i = 0; i < dr->nr_prios; i++)
		if (dr->prios[i].ioprio == def && dr->prios[i].stat.n)
			order[n++] = i;
	for (unsigned i = 0; i < dr->nr_prios; i++)
		if (dr->prios[i].ioprio != def && dr->prios[i].stat.n)
			order[n++] = i;
	return n >= 2 ? n : 0;
}
