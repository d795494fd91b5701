/*
 * fio's JSON and JSON+ output, in fio 3.33's key order: "fio version",
 * timestamp, timestamp_ms, time (the end of the run), "global options" (when
 * any option was given before the first job), jobs, disk_util (when a disk
 * was watched), cpu_idleness (--idle-prof). Each job entry carries read, write, trim and sync objects
 * (one "mixed" object under unified_rw_reporting=mixed) with bytes, rates,
 * runtime, slat/clat/lat statistics and percentiles, then CPU, depth and
 * latency distributions.
 * JSON+ adds "bins" (bucket value in ns -> count) beside each percentile
 * map. total_err and first_error appear, as in fio, only in jobs with
 * continue_on_error. Everything iobench knows that fio has no key for (the
 * error counts per kind, the first error's offset and text) goes under one
 * top-level "iobench" object, so fio's readers see only fio's keys.
 */
#include "report/report_int.h"
#include "report/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/env_report.h"
#include "stats/hist.h"
#include "util/xmalloc.h"
#include "util/json.h"

struct json_ctx {
	struct json_writer *w;
	bool plus;
};

/* fio writes the object when any option was given, even only bare flags
 * (--group_reporting before the first --name: "global options": {}), but
 * echoes no bare flag in it */
static void json_opts(struct json_writer *w, const char *key, const struct job_kv *kv, size_t n)
{
	if (!n)
		return;
	json_kv_object_begin(w, key);
	for (size_t i = 0; i < n; i++)
		if (kv[i].key && kv[i].value)
			json_kv_string(w, kv[i].key, kv[i].value);
	json_object_end(w);
}

static bool kv_equal(const struct job_kv *a, const struct job_kv *b)
{
	if (!a->key || !b->key || strcmp(a->key, b->key))
		return false;
	if (!a->value || !b->value)
		return a->value == b->value;
	return !strcmp(a->value, b->value);
}

/* The job's own options: spec.opts without the leading global ones. */
static void json_job_opts(struct json_writer *w, const struct run_result *r, const struct job_spec *s)
{
	size_t skip = 0;

	while (skip < s->nr_opts && skip < r->nr_global_opts &&
	       kv_equal(&s->opts[skip], &r->global_opts[skip]))
		skip++;
	json_opts(w, "job options", s->opts + skip, s->nr_opts - skip);
}

static void json_lat(struct json_ctx *c, const char *key, const struct runstat *s,
		     const struct hist *h, bool pct, const struct job_spec *spec)
{
	struct json_writer *w = c->w;
	struct stat_figures f;

	stat_figures(s, &f);
	json_kv_object_begin(w, key);
	json_kv_uint(w, "min", f.min);
	json_kv_uint(w, "max", f.max);
	json_kv_double(w, "mean", f.mean);
	json_kv_double(w, "stddev", f.dev);
	json_kv_uint(w, "N", f.n);

	if (pct && h->count) {
		double plist[MAX_PERCENTILES];
		unsigned np = report_percentile_list(spec, plist);
		char buf[64];

		json_kv_object_begin(w, "percentile");
		for (unsigned i = 0; i < np; i++) {
			snprintf(buf, sizeof(buf), "%f", plist[i]);
			json_kv_uint(w, buf, hist_percentile(h, plist[i]));
		}
		json_object_end(w);

		if (c->plus) {
			json_kv_object_begin(w, "bins");
			for (unsigned i = 0; i < HIST_NR_BUCKETS; i++) {
				uint64_t n = hist_count_at(h, i);
				if (!n)
					continue;
				snprintf(buf, sizeof(buf), "%" PRIu64, hist_bucket_value(i));
				json_kv_uint(w, buf, n);
			}
			json_object_end(w);
		}
	}
	json_object_end(w);
}

/* fio's "prios": with two or more priorities that have samples, each one's
 * class, level and latency (clat, or lat with lat_percentiles), the job's
 * own priority first (report_prio_order). */
static void json_prios(struct json_ctx *c, const struct dir_result *dr, const struct job_spec *s)
{
	struct json_writer *w = c->w;
	unsigned *order = dr->nr_prios ? xcalloc(dr->nr_prios, sizeof(*order)) : NULL;
	unsigned n = order ? report_prio_order(dr, s, order) : 0;

	if (n) {
		json_key(w, "prios");
		json_array_begin(w);
		for (unsigned k = 0; k < n; k++) {
			const struct prio_result *p = &dr->prios[order[k]];
			json_object_begin(w);
			json_kv_uint(w, "prioclass", p->ioprio >> 13);
			json_kv_uint(w, "prio", p->ioprio & 0x1fff);
			json_lat(c, s->lat_percentiles ? "lat_ns" : "clat_ns", &p->stat, &p->hist,
				 s->clat_percentiles || s->lat_percentiles, s);
			json_object_end(w);
		}
		json_array_end(w);
	}
	free(order);
}

/* One direction's object, key (read, write, trim, or mixed), aggrb its
 * group's bandwidth (B/s) */
static void json_dir(struct json_ctx *c, const struct job_result *j, const struct dir_result *dr,
		     const char *key, uint64_t aggrb)
{
	struct json_writer *w = c->w;
	const struct job_spec *s = j->spec;
	struct dir_figures f;
	struct bw_figures bw;
	struct stat_figures io;

	dir_figures(dr, &f);
	json_kv_object_begin(w, key);
	json_kv_uint(w, "io_bytes", f.io_bytes);
	json_kv_uint(w, "io_kbytes", f.io_kbytes);
	json_kv_uint(w, "bw_bytes", f.bw_bytes);
	json_kv_uint(w, "bw", f.bw_kib);
	json_kv_double(w, "iops", f.iops);
	json_kv_uint(w, "runtime", f.runtime_ms);
	json_kv_uint(w, "total_ios", dr->total_ios);
	json_kv_uint(w, "short_ios", dr->short_ios);
	json_kv_uint(w, "drop_ios", dr->drop_ios);
	json_lat(c, "slat_ns", &dr->slat, &dr->slat_hist, s->slat_percentiles, s);
	json_lat(c, "clat_ns", &dr->clat, &dr->clat_hist, s->clat_percentiles, s);
	json_lat(c, "lat_ns", &dr->lat, &dr->lat_hist, s->lat_percentiles, s);
	json_prios(c, dr, s);

	bw_figures(&dr->bw, aggrb, 1024, &bw);
	json_kv_uint(w, "bw_min", bw.min);
	json_kv_uint(w, "bw_max", bw.max);
	json_kv_double(w, "bw_agg", bw.agg_pct);
	json_kv_double(w, "bw_mean", bw.mean);
	json_kv_double(w, "bw_dev", bw.dev);
	json_kv_uint(w, "bw_samples", bw.samples);

	stat_figures(&dr->iops, &io);
	json_kv_uint(w, "iops_min", io.min);
	json_kv_uint(w, "iops_max", io.max);
	json_kv_double(w, "iops_mean", io.mean);
	json_kv_double(w, "iops_stddev", io.dev);
	json_kv_uint(w, "iops_samples", io.n);
	json_object_end(w);
}

static void json_dist(struct json_writer *w, const char *key, const char *const *names,
		      const double *v, int n)
{
	json_kv_object_begin(w, key);
	for (int i = 0; i < n; i++)
		json_kv_double(w, names[i], v[i]);
	json_object_end(w);
}

/* fio's "steadystate" object: the criterion as written, the window, the verdict */
static void json_steadystate(struct json_writer *w, const struct job_spec *s, const struct ss_result *r)
{
	char buf[96];
	json_key(w, "steadystate");
	json_object_begin(w);
	snprintf(buf, sizeof(buf), "%s%s:%f%s", s->ss_bw ? "bw" : "iops", s->ss_slope ? "_slope" : "",
		 s->ss_limit, s->ss_pct ? "%" : "");
	json_kv_string(w, "ss", buf);
	json_kv_uint(w, "duration", r->n);
	json_kv_uint(w, "attained", r->attained);
	snprintf(buf, sizeof(buf), "%f%s", r->criterion, s->ss_pct ? "%" : "");
	json_kv_string(w, "criterion", buf);
	json_kv_double(w, "max_deviation", r->max_deviation);
	json_kv_double(w, "slope", r->slope);
	json_key(w, "data");
	json_object_begin(w);
	json_kv_uint(w, "bw_mean", r->bw_mean);
	json_kv_uint(w, "iops_mean", r->iops_mean);
	json_key(w, "iops");
	json_array_begin(w);
	for (unsigned k = 0; k < r->n; k++)
		json_uint(w, r->iops[k]);
	json_array_end(w);
	json_key(w, "bw");
	json_array_begin(w);
	for (unsigned k = 0; k < r->n; k++)
		json_uint(w, r->bw[k]);
	json_array_end(w);
	json_object_end(w);
	json_object_end(w);
}

/* block_error_percentiles: fio's "block" object, when some block is not
 * unwritten: "percentiles" ("%f" of each: the trims) and "states". */
static void json_blocks(struct json_writer *w, const struct job_result *j, const struct job_spec *s)
{
	double plist[MAX_PERCENTILES];
	uint32_t pct[MAX_PERCENTILES];
	unsigned counts[BLOCK_STATE_CNT];
	unsigned np = report_percentile_list(s, plist);
	unsigned len = block_percentiles(j->blocks, j->nr_blocks, plist, np, pct, counts);
	if (!len)
		return;
	json_key(w, "block");
	json_object_begin(w);
	json_key(w, "percentiles");
	json_object_begin(w);
	for (unsigned i = 0; i < len; i++) {
		char key[32];
		snprintf(key, sizeof(key), "%f", plist[i]);
		json_kv_uint(w, key, pct[i]);
	}
	json_object_end(w);
	json_key(w, "states");
	json_object_begin(w);
	for (int k = 0; k < BLOCK_STATE_CNT; k++)
		json_kv_uint(w, block_state_names[k], counts[k]);
	json_object_end(w);
	json_object_end(w);
}

static void json_entry(struct json_ctx *c, const struct run_result *r, const struct job_result *j)
{
	static const char *const level_keys[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const sc_keys[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	struct json_writer *w = c->w;
	const struct job_spec *s = j->spec;
	struct report_group g;
	double dist[NR_IODEPTH_BUCKETS];
	double ns[NR_LAT_NS_BUCKETS], us[NR_LAT_NS_BUCKETS], ms[NR_LAT_MS_BUCKETS];

	report_group_compute(r, j->groupid, &g);
	json_object_begin(w);
	json_kv_string(w, "jobname", j->name ? j->name : "");
	json_kv_uint(w, "groupid", j->groupid);
	json_kv_int(w, "error", j->error);
	json_kv_uint(w, "eta", 0);
	json_kv_uint(w, "elapsed", j->elapsed_s);
	json_job_opts(w, r, s);

	if (s && s->unified_rw_reporting) {
		/* fio's unified_rw_reporting=mixed: every direction as one
		 * "mixed" object, no read/write/trim/sync */
		struct dir_result mixed;
		uint64_t aggrb = 0;
		dir_result_init(&mixed);
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			dir_result_merge(&mixed, &j->dir[d]);
			aggrb += g.aggrb[d];
		}
		json_dir(c, j, &mixed, "mixed", aggrb);
		dir_result_release(&mixed);
	} else {
		for (int d = 0; d < DDIR_RWDIR_CNT; d++)
			json_dir(c, j, &j->dir[d], ddir_name((enum ddir)d), g.aggrb[d]);

		json_kv_object_begin(w, "sync");
		json_kv_uint(w, "total_ios", j->sync.total_ios);
		json_lat(c, "lat_ns", &j->sync.lat, &j->sync.lat_hist,
			 s->lat_percentiles || s->clat_percentiles, s);
		json_object_end(w);
	}

	json_kv_uint(w, "job_runtime", j->runtime_ns / 1000000);
	json_kv_double(w, "usr_cpu", j->usr_cpu);
	json_kv_double(w, "sys_cpu", j->sys_cpu);
	json_kv_uint(w, "ctx", j->ctx);
	json_kv_uint(w, "majf", j->majf);
	json_kv_uint(w, "minf", j->minf);

	report_depth_dist(j->iodepth_level, dist);
	json_dist(w, "iodepth_level", level_keys, dist, NR_IODEPTH_BUCKETS);
	report_depth_dist(j->iodepth_submit, dist);
	json_dist(w, "iodepth_submit", sc_keys, dist, NR_IODEPTH_BUCKETS);
	report_depth_dist(j->iodepth_complete, dist);
	json_dist(w, "iodepth_complete", sc_keys, dist, NR_IODEPTH_BUCKETS);

	report_lat_dist(j, ns, us, ms);
	json_dist(w, "latency_ns", report_lat_ns_keys, ns, NR_LAT_NS_BUCKETS);
	json_dist(w, "latency_us", report_lat_ns_keys, us, NR_LAT_NS_BUCKETS);
	json_dist(w, "latency_ms", report_lat_ms_keys, ms, NR_LAT_MS_BUCKETS);
	/* as fio: only when continue_on_error (or ignore_error) is set */
	if (s->continue_on_error) {
		json_kv_uint(w, "total_err", j->total_err);
		json_kv_int(w, "first_error", j->error);
	}

	json_kv_uint(w, "latency_depth", j->latency_depth ? j->latency_depth : s->iodepth ? s->iodepth : 1);
	json_kv_uint(w, "latency_target", s->latency_target);
	json_kv_double(w, "latency_percentile", s->latency_percentile);
	json_kv_uint(w, "latency_window", s->latency_window / 1000); /* us, as fio */
	if (s->block_error_hist)
		json_blocks(w, j, s);
	if (j->ss)
		json_steadystate(w, s, j->ss);
	if (s->description && *s->description)
		json_kv_string(w, "desc", s->description);
	json_object_end(w);
}

static void json_disk(struct json_writer *w, const struct disk_result *d)
{
	json_object_begin(w);
	json_kv_string(w, "name", d->name);
	json_kv_uint(w, "read_ios", d->read_ios);
	json_kv_uint(w, "write_ios", d->write_ios);
	json_kv_uint(w, "read_merges", d->read_merges);
	json_kv_uint(w, "write_merges", d->write_merges);
	json_kv_uint(w, "read_ticks", d->read_ticks);
	json_kv_uint(w, "write_ticks", d->write_ticks);
	json_kv_uint(w, "in_queue", d->in_queue);
	json_kv_double(w, "util", disk_util_pct(d));
	json_object_end(w);
}

/* Each stonewall batch as the warnings judged it: its groups and jobs, its
 * devices, and its window of the run environment. */
static void json_groups(struct json_writer *w, const struct run_result *r)
{
	json_kv_array_begin(w, "groups");
	for (size_t b = 0; b < r->nr_batches; b++) {
		const struct run_batch *rb = &r->batches[b];
		json_object_begin(w);
		json_kv_array_begin(w, "groups");
		for (unsigned g = rb->group_first; g <= rb->group_last; g++)
			json_uint(w, g);
		json_array_end(w);
		json_kv_array_begin(w, "jobs");
		for (size_t i = 0; i < r->nr_jobs; i++)
			if (r->jobs[i].groupid >= rb->group_first && r->jobs[i].groupid <= rb->group_last)
				json_string(w, r->jobs[i].name ? r->jobs[i].name : "");
		json_array_end(w);
		json_kv_uint(w, "elapsed_ms", rb->elapsed_ms);
		json_kv_array_begin(w, "disks");
		for (size_t i = 0; i < rb->nr_disks; i++) {
			const struct disk_result *d = &rb->disks[i];
			json_object_begin(w);
			json_kv_string(w, "name", d->name);
			json_kv_uint(w, "read_ios", d->read_ios);
			json_kv_uint(w, "write_ios", d->write_ios);
			json_kv_uint(w, "read_bytes", d->read_sectors * 512);
			json_kv_uint(w, "write_bytes", d->write_sectors * 512);
			json_kv_double(w, "util", disk_util_pct(d));
			json_object_end(w);
		}
		json_array_end(w);
		for (size_t i = 0; r->env && i < r->env->nr_windows; i++)
			if (r->env->windows[i].group_first == rb->group_first)
				env_json_window(w, r->env, &r->env->windows[i]);
		json_object_end(w);
	}
	json_array_end(w);
}

/* What iobench adds to fio's layout, all under one key. */
static void json_iobench(struct json_writer *w, const struct run_result *r,
			 const struct report_json_extra *extra)
{
	json_kv_object_begin(w, "iobench");
	json_kv_string(w, "version", IOBENCH_VERSION);
	json_kv_uint(w, "results_version", r->version);
	json_kv_bool(w, "interrupted", r->interrupted);
	json_kv_uint(w, "start_ms", r->start_ms); /* fio's timestamp_ms is the end */
	json_kv_array_begin(w, "jobs");
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];

		json_object_begin(w);
		json_kv_string(w, "jobname", j->name ? j->name : "");
		json_kv_uint(w, "groupid", j->groupid);
		json_kv_uint(w, "jobs", j->nr_jobs ? j->nr_jobs : 1);
		json_kv_int(w, "error", j->error);
		json_kv_string(w, "error_msg", j->error ? entry_error_text(j) : NULL);
		json_kv_uint(w, "total_err", j->total_err);
		json_kv_object_begin(w, "errors");
		json_kv_uint(w, "read", j->nr_err[ERR_KIND_READ]);
		json_kv_uint(w, "write", j->nr_err[ERR_KIND_WRITE]);
		json_kv_uint(w, "verify", j->nr_err[ERR_KIND_VERIFY]);
		json_object_end(w);
		json_key(w, "first_error_offset");
		if (j->error)
			json_uint(w, j->error_offset);
		else
			json_null(w);
		json_kv_uint(w, "runtime_ns", j->runtime_ns);
		if (j->have_unwritten)
			json_kv_uint(w, "unwritten_bytes", j->unwritten_bytes);
		if (j->engine_setup[0])
			json_kv_string(w, "engine_setup", j->engine_setup);
		json_object_end(w);
	}
	json_array_end(w);
	json_groups(w, r);
	env_json_members(w, r->env);
	if (extra)
		extra->write(w, extra->arg);
	json_object_end(w);
}

void report_json_run_object(struct json_writer *w, const struct run_result *r, bool plus,
			    const struct report_json_extra *extra)
{
	struct json_ctx c = { .w = w, .plus = plus };

	json_object_begin(w);
	json_kv_string(w, "fio version", report_version_string(r));
	json_kv_uint(w, "timestamp", r->timestamp);
	json_kv_uint(w, "timestamp_ms", r->timestamp_ms);
	json_kv_string(w, "time", r->time_str);
	json_opts(w, "global options", r->global_opts, r->nr_global_opts);

	json_kv_array_begin(w, "jobs");
	for (size_t i = 0; i < r->nr_jobs; i++)
		json_entry(&c, r, &r->jobs[i]);
	json_array_end(w);

	if (r->nr_disks) {
		json_kv_array_begin(w, "disk_util");
		for (size_t i = 0; i < r->nr_disks; i++)
			json_disk(w, &r->disks[i]);
		json_array_end(w);
	}
	if (r->idle.mode) { /* --idle-prof, after disk_util as in fio */
		json_kv_object_begin(w, "cpu_idleness");
		json_kv_double(w, "system", r->idle.pct[0]);
		for (unsigned i = 0; r->idle.mode == IDLE_PROF_PERCPU && i < r->idle.nr_cpus; i++) {
			char key[24];
			snprintf(key, sizeof(key), "cpu-%u", i);
			json_kv_double(w, key, r->idle.pct[1 + i]);
		}
		json_kv_double(w, "unit_mean", r->idle.unit_mean_us);
		json_kv_double(w, "unit_stddev", r->idle.unit_stddev);
		json_object_end(w);
	}
	json_iobench(w, r, extra);
	json_object_end(w);
}

int report_write_json_extra(const struct run_result *r, bool plus,
			    const struct report_json_extra *extra, FILE *out)
{
	struct json_writer w;
	json_init(&w, out);
	report_json_run_object(&w, r, plus, extra);
	return json_finish(&w);
}

int report_write_json(const struct run_result *r, bool plus, FILE *out)
{
	return report_write_json_extra(r, plus, NULL, out);
}
