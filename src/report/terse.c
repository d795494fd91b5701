/*
 * fio's terse output, versions 2 to 5 (3 by default): one semicolon-separated
 * line per job entry. Version 3's fields: "3;version;jobname;groupid;error",
 * then for READ and WRITE each
 * io KiB, bw KiB/s, iops, runtime ms, slat min/max/mean/stddev (usec), clat
 * the same, 20 "p%=usec" percentile fields (unused slots "0%=0"), lat
 * min/max/mean/stddev, bw min/max/agg%/mean/stddev (KiB/s); then usr%,
 * sys%, ctx, majf, minf, 7 iodepth levels, 10 usec and 12 msec latency
 * buckets (the nsec buckets folded into the first usec one, as fio does),
 * 9 fields per disk, total_err;first_error when the job has
 * continue_on_error, and finally the description when the job has one.
 * Without disks that is 121 fields. Version 4 adds TRIM after WRITE (162
 * fields); version 5 too, and after each direction's bw figures its bw
 * sample count and IOPS min/max/mean/stddev/samples (180); version 2 has
 * no fio version field, has TRIM, no disks, and puts a description on a
 * line of its own (161). Under unified_rw_reporting=mixed one mixed
 * direction stands in READ's place and WRITE and TRIM are left out.
 */
#include "report/report_int.h"
#include "report/report.h"

#include <errno.h>
#include <inttypes.h>

#include "stats/hist.h"

static void terse_lat(FILE *out, const struct runstat *s)
{
	struct stat_figures f;

	stat_figures(s, &f);
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%f;%f", f.min / 1000, f.max / 1000,
		f.mean / 1000.0, f.dev / 1000.0);
}

static void terse_dir(FILE *out, const struct job_result *j, const struct dir_result *dr,
		      uint64_t aggrb, unsigned ver)
{
	const struct hist *h = NULL;
	struct dir_figures f;
	struct bw_figures bw;
	double plist[MAX_PERCENTILES];
	unsigned np = 0;

	dir_figures(dr, &f);
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		f.io_kbytes, f.bw_kib, (uint64_t)f.iops, f.runtime_ms);
	terse_lat(out, &dr->slat);
	terse_lat(out, &dr->clat);

	if (j->spec->lat_percentiles)
		h = &dr->lat_hist;
	else if (j->spec->clat_percentiles)
		h = &dr->clat_hist;
	if (h)
		np = report_percentile_list(j->spec, plist);
	for (unsigned i = 0; i < REPORT_TERSE_PERCENTILES; i++) {
		if (i < np)
			fprintf(out, ";%f%%=%" PRIu64, plist[i], hist_percentile(h, plist[i]) / 1000);
		else
			fputs(";0%=0", out);
	}

	terse_lat(out, &dr->lat);
	bw_figures(&dr->bw, aggrb, 1024, &bw);
	fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", bw.min, bw.max, bw.agg_pct,
		bw.mean, bw.dev);
	if (ver == 5) {
		struct stat_figures io;
		stat_figures(&dr->iops, &io);
		fprintf(out, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%f;%f;%" PRIu64, bw.samples,
			io.min, io.max, io.mean, io.dev, (uint64_t)io.n);
	}
}

static void terse_entry(FILE *out, const struct run_result *r, const struct job_result *j)
{
	struct report_group g;
	double depth[NR_IODEPTH_BUCKETS];
	double ns[NR_LAT_NS_BUCKETS], us[NR_LAT_NS_BUCKETS], ms[NR_LAT_MS_BUCKETS];
	uint64_t total, ntotal = 0;

	unsigned ver = r->terse_version ? r->terse_version : 3;
	report_group_compute(r, j->groupid, &g);
	if (ver == 2)
		fprintf(out, "2;%s;%u;%d", j->name ? j->name : "", j->groupid, j->error);
	else
		fprintf(out, "%u;%s;%s;%u;%d", ver, report_version_string(r), j->name ? j->name : "",
			j->groupid, j->error);
	if (j->spec->unified_rw_reporting) {
		/* as fio: one mixed direction in the read slot, nothing after */
		struct dir_result mixed;
		uint64_t aggrb = 0;
		dir_result_init(&mixed);
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			dir_result_merge(&mixed, &j->dir[d]);
			aggrb += g.aggrb[d];
		}
		terse_dir(out, j, &mixed, aggrb, ver);
		dir_result_release(&mixed);
	} else {
		terse_dir(out, j, &j->dir[DDIR_READ], g.aggrb[DDIR_READ], ver);
		terse_dir(out, j, &j->dir[DDIR_WRITE], g.aggrb[DDIR_WRITE], ver);
		if (ver != 3) /* 2, 4 and 5 have trim */
			terse_dir(out, j, &j->dir[DDIR_TRIM], g.aggrb[DDIR_TRIM], ver);
	}

	fprintf(out, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64,
		j->usr_cpu, j->sys_cpu, j->ctx, j->majf, j->minf);

	report_depth_dist(j->iodepth_level, depth);
	for (int i = 0; i < NR_IODEPTH_BUCKETS; i++)
		fprintf(out, ";%3.1f%%", depth[i]);

	report_lat_dist(j, ns, us, ms);
	total = report_lat_total(j);
	for (int i = 0; i < NR_LAT_NS_BUCKETS; i++)
		ntotal += j->lat_ns[i];
	if (total)
		us[0] += 100.0 * (double)ntotal / (double)total;
	for (int i = 0; i < NR_LAT_NS_BUCKETS; i++)
		fprintf(out, ";%3.2f%%", us[i]);
	for (int i = 0; i < NR_LAT_MS_BUCKETS; i++)
		fprintf(out, ";%3.2f%%", ms[i]);

	for (size_t i = 0; ver >= 3 && i < r->nr_disks; i++) { /* version 2 has no disks */
		const struct disk_result *dk = &r->disks[i];
		fprintf(out, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			";%" PRIu64 ";%" PRIu64 ";%3.2f%%", dk->name, dk->read_ios, dk->write_ios,
			dk->read_merges, dk->write_merges, dk->read_ticks, dk->write_ticks,
			dk->in_queue, disk_util_pct(dk));
	}

	/* as fio: after the disks, only with continue_on_error */
	if (j->spec->continue_on_error)
		fprintf(out, ";%" PRIu64 ";%d", j->total_err, j->error);
	if (j->spec->description && *j->spec->description)
		fprintf(out, "%s;%s", ver == 2 ? "\n" : "", j->spec->description);
	fputc('\n', out);
}

int report_write_terse(const struct run_result *r, FILE *out)
{
	for (size_t i = 0; i < r->nr_jobs; i++)
		terse_entry(out, r, &r->jobs[i]);
	return ferror(out) ? -EIO : 0;
}
