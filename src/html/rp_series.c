/*
 * The time-series section: what the monitor sampled while each run went
 * (its "monitor" intervals in the stored environment), one plot per
 * figure with one line per run against seconds since the run started:
 * the run's first device's read and write throughput, %util, queue size
 * (aqu-sz) and await (ms per completed I/O, from the intervals' disk
 * deltas, as iostat's await), CPU user/system/iowait, dirty and writeback
 * memory, and the buffer_head slab (the growth a bonnie++ filesystem comparison
 * ran out of memory over). A figure that stayed 0 in every run is named, not drawn. Before
 * them, bw and iops per job over time, one line per job of each run
 * (the stored "jobs_timeline": the jobs' counters as the run read them
 * about once a second). Every plot marks the phase boundaries: each job's
 * start and end, each bonnie test's start (the stored "phases"), on the
 * monitor's clock, as dashed vertical lines, labelled while few enough.
 */
#include "html/rp_int.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
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
#define NR_METRICS (ARRAY_SIZE(metrics))

/* --- the jobs over time and the phase boundaries ---------------------- */

static struct json_object *array_at(struct json_object *o, const char *key)
{
	struct json_object *v = rp_json_path(o, key);
	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

static struct json_object *timeline(const struct page_run *r)
{
	struct json_object *v = array_at(r->env, "jobs_timeline");
	return v && json_object_array_length(v) ? v : NULL;
}

static bool num(struct json_object *o, const char *path, double *out);

struct mark {
	double t;
	char label[80];
};

/* The boundaries of every run: jobs' starts and ends, bonnie's tests'
 * starts (and the last one's end); one per time and label. */
static size_t marks_of(const struct rp_doc *d, struct mark **out)
{
	struct mark *m = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		struct json_object *tl = timeline(r), *ph = array_at(r->env, "phases");
		size_t nj = tl ? json_object_array_length(tl) : 0;
		size_t np = ph ? json_object_array_length(ph) : 0;
		for (size_t k = 0; k < nj + np; k++) {
			struct json_object *o = k < nj ? json_object_array_get_idx(tl, k)
						       : json_object_array_get_idx(ph, k - nj);
			struct json_object *nm = rp_json_path(o, k < nj ? "job" : "name");
			const char *name = nm ? json_object_get_string(nm) : "?";
			for (int e = 0; e < 2; e++) {
				double t;
				/* a test ends where the next starts: its end only for the last */
				if (k >= nj && e && k + 1 < nj + np)
					continue;
				if (!num(o, e ? "end" : "start", &t))
					continue;
				char label[80];
				if (k < nj)
					snprintf(label, sizeof(label), "%s %s", name, e ? "end" : "start");
				else
					snprintf(label, sizeof(label), "%s%s", name, e ? " end" : "");
				bool dup = false;
				for (size_t q = 0; q < n && !dup; q++)
					dup = fabs(m[q].t - t) < 0.05 && !strcmp(m[q].label, label);
				if (dup)
					continue;
				m = xgrow(m, &alloc, n, sizeof(*m));
				m[n].t = t;
				snprintf(m[n].label, sizeof(m[n].label), "%s", label);
				n++;
			}
		}
	}
	*out = m;
	return n;
}

#define MAX_LABELS 12

/* The boundaries as dashed vertical lines, labelled (rotated, at the top)
 * when there are few enough to read. */
static void boundaries(const struct rp_doc *d, struct rp_plot *p)
{
	struct mark *m;
	size_t n = marks_of(d, &m);
	for (size_t i = 0; i < n; i++) {
		fprintf(p->f, "set arrow from %.4f, graph 0 to %.4f, graph 1 nohead lc rgb '#9aa1ad' "
			"dt 2 lw 1 back\n", m[i].t, m[i].t);
		if (n <= MAX_LABELS) {
			fprintf(p->f, "set label %zu ", i + 1);
			rp_plot_str(p, m[i].label);
			fprintf(p->f, " at %.4f, graph 0.97 rotate by 90 right offset char -0.4,0 "
				"font ',8' textcolor rgb '#6f7a86' front\n", m[i].t);
		}
	}
	free(m);
}

struct jmetric {
	const char *title, *key, *unit;
	double div;
};

static const struct jmetric jmetrics[] = {
	{ "job read bw", "read_bw", "MiB/s", 1024.0 * 1024 },
	{ "job write bw", "write_bw", "MiB/s", 1024.0 * 1024 },
	{ "job trim bw", "trim_bw", "MiB/s", 1024.0 * 1024 },
	{ "job read iops", "read_iops", "IOPS", 1 },
	{ "job write iops", "write_iops", "IOPS", 1 },
	{ "job trim iops", "trim_iops", "IOPS", 1 },
};
#define NR_JMETRICS (ARRAY_SIZE(jmetrics))

static bool jmetric_seen(const struct rp_doc *d, const struct jmetric *m)
{
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		struct json_object *tl = timeline(&d->in->runs[i]);
		for (size_t k = 0; tl && k < json_object_array_length(tl); k++)
			if (array_at(json_object_array_get_idx(tl, k), m->key))
				return true;
	}
	return false;
}

/* One line per job of each run that has the figure. */
static int plot_jobs(struct rp_doc *d, const struct jmetric *m)
{
	struct rp_plot p;
	rp_plot_begin(&p, 420, 250);
	if (!p.f)
		return -ENOMEM;
	size_t nl = 0;
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		struct json_object *tl = timeline(&d->in->runs[i]);
		for (size_t k = 0; tl && k < json_object_array_length(tl); k++) {
			struct json_object *j = json_object_array_get_idx(tl, k);
			struct json_object *t = array_at(j, "t"), *v = array_at(j, m->key);
			if (!t || !v)
				continue;
			fprintf(p.f, "$j%zu_%zu << EOD\n", i, k);
			size_t n = json_object_array_length(t);
			if (json_object_array_length(v) < n)
				n = json_object_array_length(v);
			/* each value is the mean over its interval: drawn flat from
			 * the interval's start (the previous reading, t0 first) to
			 * its end */
			double prev;
			if (!num(j, "t0", &prev))
				prev = n ? json_object_get_double(json_object_array_get_idx(t, 0)) : 0;
			for (size_t q = 0; q < n; q++) {
				double end = json_object_get_double(json_object_array_get_idx(t, q));
				double val = json_object_get_double(json_object_array_get_idx(v, q)) / m->div;
				fprintf(p.f, "%.4f %.6g\n%.4f %.6g\n", prev, val, end, val);
				prev = end;
			}
			fputs("EOD\n", p.f);
			nl++;
		}
	}
	boundaries(d, &p);
	fputs("set xlabel \"seconds since the run started\"\nset ylabel ", p.f);
	rp_plot_str(&p, m->unit);
	fputs("\nset yrange [0:*]\nset xrange [0:*]\nset key top right opaque\nplot ", p.f);
	size_t line = 0;
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		struct json_object *tl = timeline(r);
		for (size_t k = 0; tl && k < json_object_array_length(tl); k++) {
			struct json_object *j = json_object_array_get_idx(tl, k);
			if (!array_at(j, "t") || !array_at(j, m->key))
				continue;
			char name[200], title[300];
			rp_run_name(d, r, name, sizeof(name));
			struct json_object *jn = rp_json_path(j, "job");
			snprintf(title, sizeof(title), "%s%s%s", d->in->nr_runs > 1 ? name : "",
				 d->in->nr_runs > 1 ? ": " : "", jn ? json_object_get_string(jn) : "?");
			fprintf(p.f, "%s$j%zu_%zu using 1:2 with lines lt %zu title ", line ? ", " : "",
				i, k, (d->in->nr_runs > 1 ? r->sel + k : k) % 10 + 1);
			rp_plot_str(&p, nl > 1 ? title : "");
			line++;
		}
	}
	fputc('\n', p.f);
	char cap[200];
	snprintf(cap, sizeof(cap), "%s (%s) — one line per job: its mean over each interval of "
		 "about a second", m->title, m->unit);
	return rp_plot_end(d, &p, cap);
}

/* --- the monitor ------------------------------------------------------- */

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
	boundaries(d, &p);
	fputs("set xlabel \"seconds since the run started\"\nset ylabel ", p.f);
	rp_plot_str(&p, m->unit);
	fputs("\nset yrange [0:*]\nset xrange [0:*]\nset key top right opaque\nplot ", p.f);
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
		if (intervals(&d->in->runs[i]) || timeline(&d->in->runs[i]))
			return true;
	return false;
}

/* Each job's start, end and interval count; each bonnie test's span. */
static void table_marks(struct rp_doc *d)
{
	struct rp_table t;
	rp_table_init(&t, 5, "run", "job or phase", "start (s)", "end (s)", "intervals");
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		struct json_object *tl = timeline(r), *ph = array_at(r->env, "phases");
		size_t nj = tl ? json_object_array_length(tl) : 0;
		size_t np = ph ? json_object_array_length(ph) : 0;
		char name[200];
		rp_run_name(d, r, name, sizeof(name));
		for (size_t k = 0; k < nj + np; k++) {
			struct json_object *o = k < nj ? json_object_array_get_idx(tl, k)
						       : json_object_array_get_idx(ph, k - nj);
			struct json_object *nm = rp_json_path(o, k < nj ? "job" : "name");
			double a, b;
			rp_table_row(&t);
			rp_table_cell(&t, 0, "%s", name);
			rp_table_cell(&t, 0, "%s%s", k < nj ? "job " : "", nm ? json_object_get_string(nm) : "?");
			if (num(o, "start", &a))
				rp_table_cell(&t, RP_NUM, "%.2f", a);
			else
				rp_table_cell(&t, RP_NUM | RP_DIM, "-");
			if (num(o, "end", &b))
				rp_table_cell(&t, RP_NUM, "%.2f", b);
			else
				rp_table_cell(&t, RP_NUM | RP_DIM, "-");
			struct json_object *ts = k < nj ? array_at(o, "t") : NULL;
			if (ts)
				rp_table_cell(&t, RP_NUM, "%zu", json_object_array_length(ts));
			else
				rp_table_cell(&t, RP_NUM | RP_DIM, "-");
		}
	}
	for (size_t c = 2; c <= 4; c++)
		rp_table_align(&t, c, RP_NUM);
	if (t.nrow)
		rp_table_write(d, &t, "Phase boundaries (seconds on the monitor's clock)");
	rp_table_release(&t);
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
	rp_para(d, "note", "Each job's bw and iops per interval of about a second (its own counters, "
		"read by the run while it went), then the machine as the monitor sampled it, on "
		"the same clock: seconds since the monitor's first sample. The dashed lines are the "
		"phase boundaries: each job's measured start and its end, each bonnie test's start.");
	if (t.nrow)
		rp_table_write(d, &t, "Monitor samples");
	rp_table_release(&t);
	table_marks(d);
	char flat[1024] = "";
	size_t off = 0;
	int rc = 0;
	rp_grid_begin(d);
	for (size_t k = 0; k < NR_JMETRICS && !rc; k++)
		if (jmetric_seen(d, &jmetrics[k]))
			rc = plot_jobs(d, &jmetrics[k]);
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
