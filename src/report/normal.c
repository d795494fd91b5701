/*
 * fio 3.33's normal (human) output. Per job entry: a header line, then per
 * direction the IOPS/BW line, slat/clat/lat lines in an automatic unit, the
 * percentile block, bw and iops sample lines; then the latency
 * distribution, sync latencies, CPU, depth distributions and issued
 * counts. Then "Run status group N" with the group aggregates and "Disk
 * stats". Differences from fio, on purpose: no pid in the header (iobench
 * runs jobs as threads of one process, so a pid would say little), an
 * entry with an error is shown even if it did no I/O, and an interrupted
 * run says so above the run status. Invoked as `fio` (run_result.as_fio),
 * the header has fio's "pid=" (the job thread's id), and neither the
 * interruption line nor iobench's system lines are printed.
 */
#include "report/report_int.h"
#include "report/report.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>

#include "report/env_report.h"
#include "stats/hist.h"
#include "util/xmalloc.h"

static void lat_line(FILE *out, const char *name, const struct runstat *s)
{
	struct stat_figures f;
	char minb[NUMFMT_LEN], maxb[NUMFMT_LEN];
	const char *unit;

	stat_figures(s, &f);
	if (!f.n)
		return;
	unit = lat_unit_scale(&f.min, &f.max, &f.mean, &f.dev);
	fprintf(out, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, unit,
		numfmt(minb, f.min, 6, false, NUMFMT_NONE),
		numfmt(maxb, f.max, 6, false, NUMFMT_NONE), f.mean, f.dev);
}

static void percentile_block(FILE *out, const char *name, const struct hist *h,
			     const struct job_spec *spec)
{
	double plist[MAX_PERCENTILES];
	uint64_t vals[MAX_PERCENTILES];
	unsigned np, prec, scale = 0, divisor = 1, width, per_line;
	uint64_t minv = UINT64_MAX, maxv = 0;
	const char *unit = "nsec";

	if (!h->count)
		return;
	np = report_percentile_list(spec, plist);
	prec = report_percentile_precision(plist, np);
	for (unsigned i = 0; i < np; i++) {
		vals[i] = hist_percentile(h, plist[i]);
		if (vals[i] < minv)
			minv = vals[i];
		if (vals[i] > maxv)
			maxv = vals[i];
	}
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		divisor = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		divisor = 1000;
		unit = "usec";
	}
	width = 5;
	if (maxv / divisor > 0) {
		unsigned w = (unsigned)(log10((double)(maxv / divisor)) + 1);
		if (w > width)
			width = w;
	}
	per_line = 73 / (prec + 10 + width);
	if (!per_line)
		per_line = 1;

	fprintf(out, "    %s percentiles (%s):\n     |", name, unit);
	for (unsigned j = 0; j < np; j++) {
		bool last = j == np - 1;
		uint64_t v = vals[j];

		if (j && j % per_line == 0)
			fputs("     |", out);
		for (unsigned i = 0; i < scale; i++)
			v = (v + 999) / 1000;
		fprintf(out, " %*.*fth=[%*" PRIu64 "]%c", (int)prec + 3, (int)prec, plist[j],
			(int)width, v, last ? '\n' : ',');
		if (last)
			break;
		if (j % per_line == per_line - 1)
			fputc('\n', out);
	}
}

static void dir_block(FILE *out, const struct job_result *j, enum ddir d,
		      const struct report_group *g)
{
	const struct dir_result *dr = &j->dir[d];
	const struct job_spec *s = j->spec;
	unsigned kb = entry_kb_base(j);
	bool i2p = kb == 1024;
	char iops[NUMFMT_LEN], bw[NUMFMT_LEN], bwalt[NUMFMT_LEN], io[NUMFMT_LEN];
	struct dir_figures f;
	struct bw_figures b;
	struct stat_figures ios;

	if (!dir_used(dr) || !dr->runtime_ns)
		return;
	dir_figures(dr, &f);
	/* significant_figures and unit_base=1 (bits), as fio */
	unsigned sf = s->sig_figs ? s->sig_figs : 4, m = s->unit_bits ? 8 : 1;
	enum numfmt_unit bwu = s->unit_bits ? NUMFMT_BITPERSEC : NUMFMT_BYTEPERSEC;
	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)%s\n", ddir_name(d),
		numfmt(iops, (uint64_t)f.iops, sf, false, NUMFMT_NONE),
		numfmt(bw, f.bw_bytes * m, sf, i2p, bwu),
		numfmt(bwalt, f.bw_bytes * m, sf, !i2p, bwu),
		numfmt(io, f.io_bytes, sf, i2p, NUMFMT_BYTE), f.runtime_ms,
		d == DDIR_READ ? "" : "; 0 zone resets");

	lat_line(out, "slat", &dr->slat);
	lat_line(out, "clat", &dr->clat);
	lat_line(out, " lat", &dr->lat);
	/* fio's per-priority lines (cmdprio): clat, or lat with lat_percentiles */
	unsigned *order = dr->nr_prios ? xcalloc(dr->nr_prios, sizeof(*order)) : NULL;
	unsigned np = order ? report_prio_order(dr, s, order) : 0;
	const char *pk = s->lat_percentiles ? "lat" : "clat";
	char name[96];
	for (unsigned k = 0; k < np; k++) {
		const struct prio_result *p = &dr->prios[order[k]];
		snprintf(name, sizeof(name), "%s prio %u/%u", pk, p->ioprio >> 13, p->ioprio & 0x1fff);
		lat_line(out, name, &p->stat);
	}
	if (s->slat_percentiles)
		percentile_block(out, "slat", &dr->slat_hist, s);
	if (s->clat_percentiles)
		percentile_block(out, "clat", &dr->clat_hist, s);
	if (s->lat_percentiles)
		percentile_block(out, "lat", &dr->lat_hist, s);
	for (unsigned k = 0; k < np && (s->clat_percentiles || s->lat_percentiles); k++) {
		const struct prio_result *p = &dr->prios[order[k]];
		snprintf(name, sizeof(name), "%s prio %u/%u (%.2f%% of IOs)", pk, p->ioprio >> 13,
			 p->ioprio & 0x1fff, dr->total_ios ? 100.0 * (double)p->stat.n / (double)dr->total_ios : 0.0);
		percentile_block(out, name, &p->hist, s);
	}
	free(order);

	bw_figures(&dr->bw, g->aggrb[d], kb, &b);
	if (b.samples) {
		const char *unit = i2p ? "KiB" : "kB";
		if (b.mean > (double)kb * kb) {
			b.min /= kb;
			b.max /= kb;
			b.mean /= kb;
			b.dev /= kb;
			unit = i2p ? "MiB" : "MB";
		}
		fprintf(out, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64 ", per=%3.2f%%, "
			"avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
			unit, b.min, b.max, b.agg_pct, b.mean, b.dev, b.samples);
	}
	stat_figures(&dr->iops, &ios);
	if (ios.n)
		fprintf(out, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64 ", avg=%5.02f, "
			"stdev=%5.02f, samples=%" PRIu64 "\n", ios.min, ios.max, ios.mean, ios.dev, ios.n);
}

/* "  lat (usec)   : 2=1.88%, 4=93.33%, ..." five buckets a line, non-zero only. */
static void lat_dist_lines(FILE *out, const char *unit, const char *const *keys,
			   const double *v, int n)
{
	int on_line = 0;

	for (int i = 0; i < n; i++) {
		if (v[i] <= 0.0)
			continue;
		if (on_line == 0)
			fprintf(out, "  lat (%s)   : ", unit);
		else
			fputs(", ", out);
		fprintf(out, "%s=%3.2f%%", keys[i], v[i]);
		if (++on_line == 5) {
			fputc('\n', out);
			on_line = 0;
		}
	}
	if (on_line)
		fputc('\n', out);
}

static void depth_line(FILE *out, const char *label, const char *const *keys, const uint64_t *map)
{
	double dist[NR_IODEPTH_BUCKETS];

	report_depth_dist(map, dist);
	fputs(label, out);
	for (int i = 0; i < NR_IODEPTH_BUCKETS; i++)
		fprintf(out, "%s%s=%3.1f%%", i ? ", " : "", keys[i], dist[i]);
	fputc('\n', out);
}

/* block_error_percentiles, as fio prints it: the percentiles of the trims
 * the blocks took (wrapped at 75 columns), then the states' counts; with
 * every block unwritten, the heading alone. */
static void block_lines(FILE *out, const struct job_result *j, const struct job_spec *s)
{
	double plist[MAX_PERCENTILES];
	uint32_t pct[MAX_PERCENTILES];
	unsigned counts[BLOCK_STATE_CNT];
	unsigned np = report_percentile_list(s, plist);
	unsigned len = block_percentiles(j->blocks, j->nr_blocks, plist, np, pct, counts);
	int pos = 0;
	fputs("  block lifetime percentiles :\n   |", out);
	for (unsigned i = 0; i < len; i++) {
		char item[80];
		int n = snprintf(item, sizeof(item), " %3.2fth=%u%c", plist[i], pct[i],
				 i == len - 1 ? '\n' : ',');
		if (pos + n > 75) {
			pos = 0;
			fputs("\n   |", out);
		}
		fputs(item, out);
		pos += n;
	}
	fputs("        states               :", out);
	for (int k = 0; k < BLOCK_STATE_CNT; k++)
		fprintf(out, " %s=%u%c", block_state_names[k], counts[k],
			k == BLOCK_STATE_CNT - 1 ? '\n' : ',');
}

static void entry_block(FILE *out, const struct run_result *r, const struct job_result *j)
{
	static const char *const level_keys[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const sc_keys[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const struct job_spec *s = j->spec;
	struct report_group g;
	double ns[NR_LAT_NS_BUCKETS], us[NR_LAT_NS_BUCKETS], ms[NR_LAT_MS_BUCKETS];
	bool any = false;

	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		any |= dir_used(&j->dir[d]);
	if (!any && !j->error)
		return;

	report_group_compute(r, j->groupid, &g);
	fprintf(out, "%s: (groupid=%u, jobs=%u): err=%2d", j->name ? j->name : "", j->groupid,
		j->nr_jobs ? j->nr_jobs : 1, j->error);
	if (j->error)
		fprintf(out, " (%s)", entry_error_text(j));
	if (r->as_fio) /* as fio: the job's pid (here, its thread's id) */
		fprintf(out, ": pid=%d", j->tid);
	if (r->time_str[0])
		fprintf(out, ": %s", r->time_str);
	fputc('\n', out);
	if (s->description && *s->description)
		fprintf(out, "  Description  : [%s]\n", s->description);

	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		dir_block(out, j, (enum ddir)d, &g);

	report_lat_dist(j, ns, us, ms);
	lat_dist_lines(out, "nsec", report_lat_ns_keys, ns, NR_LAT_NS_BUCKETS);
	lat_dist_lines(out, "usec", report_lat_ns_keys, us, NR_LAT_NS_BUCKETS);
	lat_dist_lines(out, "msec", report_lat_ms_keys, ms, NR_LAT_MS_BUCKETS);

	if (j->sync.lat.n) {
		fputs("  fsync/fdatasync/sync_file_range:\n", out);
		lat_line(out, "sync", &j->sync.lat);
		percentile_block(out, "sync", &j->sync.lat_hist, s);
	}

	fprintf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64
		", minf=%" PRIu64 "\n", j->usr_cpu, j->sys_cpu, j->ctx, j->majf, j->minf);
	depth_line(out, "  IO depths    : ", level_keys, j->iodepth_level);
	depth_line(out, "     submit    : ", sc_keys, j->iodepth_submit);
	depth_line(out, "     complete  : ", sc_keys, j->iodepth_complete);
	fprintf(out, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		" short=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",0 dropped=%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",0\n",
		j->dir[0].total_ios, j->dir[1].total_ios, j->dir[2].total_ios, j->sync.total_ios,
		j->dir[0].short_ios, j->dir[1].short_ios, j->dir[2].short_ios,
		j->dir[0].drop_ios, j->dir[1].drop_ios, j->dir[2].drop_ios);
	/* fio prints this line in jobs with continue_on_error; iobench also
	 * in any job that hit an error */
	if (s->continue_on_error || j->error || j->total_err)
		fprintf(out, "     errors    : total=%" PRIu64 ", first_error=%d/<%s>\n",
			j->total_err ? j->total_err : (j->error ? 1 : 0), j->error,
			j->error ? entry_error_text(j) : "Success");
	fprintf(out, "     latency   : target=0, window=0, percentile=100.00%%, depth=%u\n",
		s->iodepth ? s->iodepth : 1);
	if (s->block_error_hist)
		block_lines(out, j, s);
	if (j->ss) { /* fio's line, with the decimal bandwidth right (fio 3.33 repeats the binary figure) */
		char bw[NUMFMT_LEN], bwalt[NUMFMT_LEN];
		bool i2p = entry_kb_base(j) == 1024;
		fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%" PRIu64 ", %s %s=%.3f%s\n",
			j->ss->attained ? "yes" : "no",
			numfmt(bw, j->ss->bw_mean, 4, i2p, NUMFMT_BYTEPERSEC),
			numfmt(bwalt, j->ss->bw_mean, 4, !i2p, NUMFMT_BYTEPERSEC), j->ss->iops_mean,
			s->ss_bw ? "bw" : "iops", s->ss_slope ? "slope" : "mean dev", j->ss->criterion,
			s->ss_pct ? "%" : "");
	}
}

static void group_block(FILE *out, const struct report_group *g)
{
	static const char *const label[] = { "   READ", "  WRITE", "   TRIM" };
	bool i2p = g->kb_base == 1024;

	/* significant_figures and unit_base=1 (bits), as fio */
	unsigned sf = g->sig_figs ? g->sig_figs : 4, m = g->unit_bits ? 8 : 1;
	enum numfmt_unit bwu = g->unit_bits ? NUMFMT_BITPERSEC : NUMFMT_BYTEPERSEC;
	fprintf(out, "\nRun status group %u (all jobs):\n", g->groupid);
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		char agg[NUMFMT_LEN], aggalt[NUMFMT_LEN], mn[NUMFMT_LEN], mnalt[NUMFMT_LEN];
		char mx[NUMFMT_LEN], mxalt[NUMFMT_LEN], io[NUMFMT_LEN], ioalt[NUMFMT_LEN];

		if (!g->maxt_ns[d])
			continue;
		fprintf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64
			"msec\n", label[d],
			numfmt(agg, g->aggrb[d] * m, sf, i2p, bwu),
			numfmt(aggalt, g->aggrb[d] * m, sf, !i2p, bwu),
			numfmt(mn, g->minb[d] * m, sf, i2p, bwu),
			numfmt(mx, g->maxb[d] * m, sf, i2p, bwu),
			numfmt(mnalt, g->minb[d] * m, sf, !i2p, bwu),
			numfmt(mxalt, g->maxb[d] * m, sf, !i2p, bwu),
			numfmt(io, g->io_bytes[d], sf, i2p, NUMFMT_BYTE),
			numfmt(ioalt, g->io_bytes[d], sf, !i2p, NUMFMT_BYTE),
			g->mint_ns[d] / 1000000, g->maxt_ns[d] / 1000000);
	}
}

/* What each engine chose for its job (io_uring's registered files and
 * buffers), once per distinct line: fio's jobs do not say it. */
static void engine_setup_lines(FILE *out, const struct run_result *r)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];
		bool seen = !j->engine_setup[0];
		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(r->jobs[k].engine_setup, j->engine_setup);
		if (!seen)
			fprintf(out, "\n%s engine, job %s: %s\n",
				j->spec && j->spec->ioengine ? j->spec->ioengine : "the",
				j->name ? j->name : "", j->engine_setup);
	}
}

int report_write_normal(const struct run_result *r, FILE *out)
{
	unsigned maxg = report_max_groupid(r);

	fputc('\n', out);
	for (size_t i = 0; i < r->nr_jobs; i++)
		entry_block(out, r, &r->jobs[i]);

	if (r->interrupted && !r->as_fio)
		fputs("\nrun interrupted: the figures cover the I/O done until the stop\n", out);
	for (unsigned gid = 0; r->nr_jobs && gid <= maxg; gid++) {
		struct report_group g;

		report_group_compute(r, gid, &g);
		if (g.nr_entries)
			group_block(out, &g);
	}

	if (r->nr_disks) {
		fputs("\nDisk stats (read/write):\n", out);
		for (size_t i = 0; i < r->nr_disks; i++) {
			const struct disk_result *d = &r->disks[i];
			fprintf(out, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
				", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%3.2f%%\n",
				d->name, d->read_ios, d->write_ios, d->read_merges, d->write_merges,
				d->read_ticks, d->write_ticks, d->in_queue, disk_util_pct(d));
		}
	}
	if (r->idle.mode) { /* --idle-prof, as fio prints it */
		fprintf(out, "\nCPU idleness:\n  system: %3.2f%%\n", r->idle.pct[0]);
		if (r->idle.mode == IDLE_PROF_PERCPU) {
			fputs("  percpu:", out);
			for (unsigned i = 0; i < r->idle.nr_cpus; i++)
				fprintf(out, "%s %3.2f%%", i ? "," : "", r->idle.pct[1 + i]);
			fputc('\n', out);
		}
		fprintf(out, "  unit work: mean=%3.2fus, stddev=%3.2f\n", r->idle.unit_mean_us,
			r->idle.unit_stddev);
	}
	if (!r->as_fio) { /* iobench's own lines, after fio's last */
		engine_setup_lines(out, r);
		env_text_footer(r->env, out);
	}
	return ferror(out) ? -EIO : 0;
}

void report_job_line(const struct job_spec *s, unsigned groupid, unsigned nr_clones, FILE *out)
{
	char b[2 * DDIR_RWDIR_CNT][NUMFMT_LEN];

	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t lo = s->min_bs[d] ? s->min_bs[d] : s->bs[d];
		uint64_t hi = s->max_bs[d] ? s->max_bs[d] : s->bs[d];
		numfmt(b[2 * d], lo, 4, true, NUMFMT_BYTE);
		numfmt(b[2 * d + 1], hi, 4, true, NUMFMT_BYTE);
	}
	fprintf(out, "%s: (g=%u): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, "
		"iodepth=%u\n", s->name ? s->name : "", groupid, rw_mode_name(s->rw),
		b[0], b[1], b[2], b[3], b[4], b[5], s->ioengine ? s->ioengine : "psync",
		s->iodepth ? s->iodepth : 1);
	if (nr_clones > 1)
		fputs("...\n", out);
}

void report_job_lines(const struct run_result *r, FILE *out)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];

		if (j->spec->jobnum == 0)
			report_job_line(j->spec, j->groupid, j->nr_jobs, out);
		else if (j->spec->jobnum == 1)
			fputs("...\n", out);
	}
}
