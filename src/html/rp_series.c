/*
 * The time-series section: what the monitor sampled while each run went
 * (its "monitor" intervals in the stored environment), one plot per
 * figure with one line per run against seconds since the run started:
 * the run's first device's read and write throughput, %util, queue size
 * (aqu-sz) and await (ms per completed I/O, from the intervals' disk
 * deltas, as iostat's await), CPU user/system/iowait, dirty and writeback
 * memory, and the buffer_head slab (the growth seed 004 ran out of memory
 * over). A figure that stayed 0 in every run is named, not drawn.
 */
#include "html/rp_int.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

enum src { DISK, DISK_AWAIT, VMSTAT, MEMORY, SLAB };

struct metric {
	const char *title, *unit;
	enum src src;
	const char *key;
	double div;
};

static const struct metric metrics[] = {
	{ "device read", "MiB/s", DISK, "rkB/s", 1024 },
	{ "device write", "MiB/s", DISK, "wkB/s", 1024 },
	{ "device %util", "%", DISK, "%util", 1 },
	{ "device queue size (aqu-sz)", "requests", DISK, "aqu-sz", 1 },
	{ "device await", "ms", DISK_AWAIT, NULL, 1 },
	{ "CPU user", "%", VMSTAT, "us", 1 },
	{ "CPU system", "%", VMSTAT, "sy", 1 },
	{ "CPU iowait", "%", VMSTAT, "wa", 1 },
	{ "dirty memory", "MiB", MEMORY, "dirty_kb", 1024 },
	{ "writeback memory", "MiB", MEMORY, "writeback_kb", 1024 },
	{ "buffer_head slab", "MiB", SLAB, "buffer_head_bytes", 1024.0 * 1024 },
};
#define NR_METRICS (sizeof(metrics) / sizeof(metrics[0]))

static struct json_object *intervals(const struct page_run *r)
{
	struct json_object *v = rp_json_path(r->env, "monitor.intervals");
	return v && json_object_is_type(v, json_type_array) && json_object_array_length(v) >= 2 ? v
												 : NULL;
}

static const char *first_device(const struct page_run *r)
{
	struct json_object *v = rp_json_path(r->env, "monitor.devices");
	if (!v || !json_object_is_type(v, json_type_array) || !json_object_array_length(v))
		return NULL;
	return json_object_get_string(json_object_array_get_idx(v, 0));
}

static bool num(struct json_object *o, const char *path, double *out)
{
	struct json_object *v = rp_json_path(o, path);
	if (!v || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

static struct json_object *disk_of(struct json_object *iv, const char *dev)
{
	struct json_object *ds;
	if (!dev || !json_object_object_get_ex(iv, "disks", &ds) ||
	    !json_object_is_type(ds, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(ds); i++) {
		struct json_object *d = json_object_array_get_idx(ds, i), *n;
		if (json_object_object_get_ex(d, "name", &n) && !strcmp(json_object_get_string(n), dev))
			return d;
	}
	return NULL;
}

/* The value of metric m in interval iv of a run on device dev. */
static bool value(const struct metric *m, struct json_object *iv, const char *dev, double *v)
{
	struct json_object *d;
	char path[96];
	switch (m->src) {
	case DISK:
		return (d = disk_of(iv, dev)) && num(d, m->key, v);
	case DISK_AWAIT: {
		double rt, wt, ri, wi;
		if (!(d = disk_of(iv, dev)) || !num(d, "delta.rd_ticks", &rt) ||
		    !num(d, "delta.wr_ticks", &wt) || !num(d, "delta.rd_ios", &ri) ||
		    !num(d, "delta.wr_ios", &wi))
			return false;
		*v = ri + wi > 0 ? (rt + wt) / (ri + wi) : 0;
		return true;
	}
	case VMSTAT:
		snprintf(path, sizeof(path), "vmstat.%s", m->key);
		return num(iv, path, v);
	case MEMORY:
		snprintf(path, sizeof(path), "memory.%s", m->key);
		return num(iv, path, v);
	case SLAB:
		snprintf(path, sizeof(path), "slab.%s", m->key);
		return num(iv, path, v);
	}
	return false;
}

/* Has any run a non-zero value of m? (and any value at all: *seen) */
static bool nonzero(const struct rp_doc *d, const struct metric *m, bool *seen)
{
	*seen = false;
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		struct json_object *ivs = intervals(r);
		for (size_t k = 0; ivs && k < json_object_array_length(ivs); k++) {
			double v;
			if (value(m, json_object_array_get_idx(ivs, k), first_device(r), &v)) {
				*seen = true;
				if (v != 0)
					return true;
			}
		}
	}
	return false;
}

static int plot(struct rp_doc *d, const struct metric *m)
{
	struct rp_plot p;
	rp_plot_begin(&p, 420, 250);
	if (!p.f)
		return -ENOMEM;
	size_t nl = 0;
	char names[160] = "";
	size_t off = 0;
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		struct json_object *ivs = intervals(r);
		if (!ivs)
			continue;
		fprintf(p.f, "$s%zu << EOD\n", i);
		for (size_t k = 0; k < json_object_array_length(ivs); k++) {
			struct json_object *iv = json_object_array_get_idx(ivs, k);
			double t, v;
			if (num(iv, "time", &t) && value(m, iv, first_device(r), &v))
				fprintf(p.f, "%.4f %.6g\n", t, v / m->div);
		}
		fputs("EOD\n", p.f);
		nl++;
	}
	fputs("set xlabel \"seconds since the run started\"\nset ylabel ", p.f);
	rp_plot_str(&p, m->unit);
	fputs("\nset yrange [0:*]\nset key top right opaque\nplot ", p.f);
	size_t j = 0;
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		if (!intervals(r))
			continue;
		char name[200];
		rp_run_name(d, r, name, sizeof(name));
		size_t dt = 1;
		for (size_t q = 0; q < i; q++)
			dt += d->in->runs[q].sel == r->sel && intervals(&d->in->runs[q]);
		fprintf(p.f, "%s$s%zu using 1:2 with linespoints lt %zu dt %zu title ", j++ ? ", " : "", i,
			r->sel % 10 + 1, (dt - 1) % 5 + 1);
		rp_plot_str(&p, nl > 1 ? name : "");
	}
	fputc('\n', p.f);
	/* the devices the lines are of */
	for (size_t i = 0; i < d->in->nr_runs && off < sizeof(names); i++) {
		const char *dev = intervals(&d->in->runs[i]) ? first_device(&d->in->runs[i]) : NULL;
		if (dev && !strstr(names, dev))
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", off ? ", " : "", dev);
	}
	char cap[320];
	if (m->src == DISK || m->src == DISK_AWAIT)
		snprintf(cap, sizeof(cap), "%s (%s) — %s", m->title, m->unit, names);
	else
		snprintf(cap, sizeof(cap), "%s (%s)", m->title, m->unit);
	return rp_plot_end(d, &p, cap);
}

static bool present(const struct rp_doc *d)
{
	for (size_t i = 0; i < d->in->nr_runs; i++)
		if (intervals(&d->in->runs[i]))
			return true;
	return false;
}

static int write(struct rp_doc *d)
{
	struct rp_table t;
	rp_table_init(&t, 6, "run", "samples", "seconds", "device", "peak %util", "peak dirty");
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		struct json_object *ivs = intervals(r);
		if (!ivs)
			continue;
		double last = 0, util = 0, dirty = 0, v;
		size_t n = json_object_array_length(ivs);
		for (size_t k = 0; k < n; k++) {
			struct json_object *iv = json_object_array_get_idx(ivs, k);
			if (num(iv, "time", &v))
				last = v;
			if (value(&metrics[2], iv, first_device(r), &v))
				util = fmax(util, v);
			if (value(&metrics[8], iv, first_device(r), &v))
				dirty = fmax(dirty, v);
		}
		char name[200];
		rp_run_name(d, r, name, sizeof(name));
		rp_table_row(&t);
		rp_table_cell(&t, 0, "%s", name);
		rp_table_cell(&t, RP_NUM, "%zu", n);
		rp_table_cell(&t, RP_NUM, "%.1f", last);
		rp_table_cell(&t, 0, "%s", first_device(r) ? first_device(r) : "-");
		rp_table_cell(&t, RP_NUM, "%.1f%%", util);
		rp_table_cell(&t, RP_NUM, "%.1f MiB", dirty / 1024);
	}
	rp_table_align(&t, 1, RP_NUM);
	rp_table_align(&t, 2, RP_NUM);
	rp_table_align(&t, 4, RP_NUM);
	rp_table_align(&t, 5, RP_NUM);
	rp_para(d, "note", "The machine while each run went, as the monitor sampled it. bw and iops "
		"per job over time need the jobs' own logs (write_bw_log), which the results store "
		"does not keep: the device's throughput stands for them. The store keeps no phase "
		"start times either, so phase boundaries are not drawn.");
	rp_table_write(d, &t, "Monitor samples");
	rp_table_release(&t);
	char flat[1024] = "";
	size_t off = 0;
	int rc = 0;
	rp_grid_begin(d);
	for (size_t k = 0; k < NR_METRICS && !rc; k++) {
		bool seen;
		if (nonzero(d, &metrics[k], &seen))
			rc = plot(d, &metrics[k]);
		else if (seen && off < sizeof(flat))
			off += (size_t)snprintf(flat + off, sizeof(flat) - off, "%s%s", off ? ", " : "",
						metrics[k].title);
	}
	rp_grid_end(d);
	if (off)
		rp_para(d, "note", "0 throughout every run: %s.", flat);
	return rc;
}

const struct rp_section rp_sec_series = { "series", "Time series", present, write };
