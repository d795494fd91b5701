/*
 * `iobench quick /dev/X [/dev/Y...]`: per device, what hdparm measures and
 * CrystalDiskMark's rows (quick/quick_suite.h), in one table with a row
 * group per device.
 * The rows: "hdparm -t" (the device's page cache dropped, then one buffered
 * sequential pass of 2 MiB read() calls over the region, as hdparm -t after
 * its BLKFLSBUF), "hdparm -t --direct" (the same with O_DIRECT), SEQ1M Q8T1
 * and Q1T1 and RND4K Q32T1 and Q1T1 reads (O_DIRECT, time-based over the
 * region), and "hdparm -T" (the first 2 MiB read again and again from the
 * page cache: memory and CPU, not the device; primed during a ramp, run
 * apart, unwatched, because it measures the cache by design). A device is
 * only read unless --allow-destroy names it: then its write rows run too,
 * after the device guard let them (a device in use is refused even so).
 * The other devices run with read-only mode set, so the workload itself
 * refuses any write to them. Under --repeat each repetition measures every
 * device again and prints the whole table (or one device's text report),
 * then the summary per device, job and figure; JSON once at the end; each
 * repetition of a device is stored as a run of its own, one group per
 * device.
 */
#include "cmd/quick/quick_int.h"
#include "quick/quick_suite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/output.h"
#include "runner/repeat/runner_repeat.h"
#include "sys/signals.h"
#include "cli/storing.h"
#include "report/env_report.h"
#include "report/repeat_figs.h"
#include "report/report.h"
#include "sys/dev/devres.h"
#include "sys/pagecache.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/units.h"
#include "util/xmalloc.h"

struct dev_run {
	const char *path;
	uint64_t size, region;
	bool writes;           /* --allow-destroy names it */
	bool direct;           /* O_DIRECT opens work */
	int job[QUICK_NR_DEV_TESTS]; /* index into res.jobs, -1 not run */
	struct run_result res;
	struct run_result cached;
	int status;
};

static bool named(const struct devguard_allow *a, dev_t rdev)
{
	for (size_t i = 0; i < a->nr_devices; i++) {
		struct stat st;
		if (stat(a->devices[i], &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev)
			return true;
	}
	return false;
}

/* Everything checked before any device is touched. */
static int dev_prepare(struct dev_run *d, const struct quick_opts *o)
{
	struct stat st;
	if (stat(d->path, &st) < 0 || !S_ISBLK(st.st_mode))
		return error("quick: '%s' is not a block device", d->path);
	int fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(-errno, "quick: cannot open '%s'", d->path);
	int rc = devres_bdev_size(fd, &d->size);
	close(fd);
	if (rc < 0)
		return error_errno(rc, "quick: cannot read the size of '%s'", d->path);
	const char *why = NULL;
	uint64_t want;
	if (parse_size(o->size, 1024, &want, &why) < 0)
		return error("quick: bad --size '%s': %s", o->size, why ? why : "not a size");
	d->region = want < d->size ? want : d->size;
	d->region -= d->region % QUICK_HDPARM_BLOCK;
	if (d->region < QUICK_HDPARM_BLOCK)
		return error("quick: '%s' (%llu bytes) is smaller than the 2 MiB the tests need",
			     d->path, (unsigned long long)d->size);
	fd = open(d->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	d->direct = fd >= 0;
	if (fd >= 0)
		close(fd);
	d->writes = named(&o->allow, st.st_rdev);
	if (d->writes) {
		char w[2560];
		if (devguard_check(d->path, DEVGUARD_WRITE, &o->allow, w, sizeof(w)) < 0)
			return error("quick: refusing to write to '%s': %s", d->path, w);
	}
	return 0;
}

static int build_dev_jobs(struct job_list *l, struct dev_run *d, const struct quick_opts *o)
{
	bool sync = quick_engine_sync(o->engine);
	int k = 0;
	for (size_t i = 0; i < QUICK_NR_DEV_TESTS; i++) {
		const struct quick_dev_test *t = &quick_dev_tests[i];
		d->job[i] = -1;
		if ((t->write && !d->writes) || (t->hdparm && t->direct && !d->direct) ||
		    (!t->hdparm && sync && strcmp(t->depth, "1")))
			continue;
		if (quick_dev_job(l, t, d->path, d->region, d->direct, o->engine, o->runtime) < 0)
			return -EINVAL;
		d->job[i] = k++;
	}
	return 0;
}

/* hdparm -T: the first 2 MiB over and over from the page cache, primed
 * during the ramp, in a run of its own without the monitor or a memory
 * limit: its warnings would only say what the row is for. */
static int run_cached(struct dev_run *d, const struct quick_opts *o, const struct runner_args *ra)
{
	struct job_list l = { 0 };
	if (quick_cached_job(&l, d->path, o->runtime) < 0) {
		job_list_release(&l);
		return 1;
	}
	struct runner_args c = *ra;
	c.env.no_monitor = true;
	c.env.memory_limit = 0;
	c.quiet = true;
	int status = runner_run(&l, &c, &d->cached);
	job_list_release(&l);
	return status;
}

static int dev_measure(struct dev_run *d, const struct quick_opts *o, const struct runner_args *ra)
{
	struct job_list l = { 0 };
	if (build_dev_jobs(&l, d, o) < 0) {
		job_list_release(&l);
		return 1;
	}
	struct runner_args r = *ra;
	r.env_path = d->path;
	r.quiet = true;
	char *ro = NULL;
	if (d->writes) {
		r.allow_destroy = o->allow.devices;
		r.nr_allow_destroy = o->allow.nr_devices;
	} else {
		ro = xasprintf("quick: '%s' is not named by --allow-destroy", d->path);
		r.readonly_by = ro;
	}
	pagecache_drop(d->path); /* hdparm -t's BLKFLSBUF */
	int status = runner_run(&l, &r, &d->res);
	job_list_release(&l);
	if (status < 128) {
		int cs = run_cached(d, o, &r);
		if (!status)
			status = cs;
	}
	free(ro);
	return status;
}

static void figures(const struct run_result *r, int k, enum ddir dd, double *mb, double *iops)
{
	*mb = *iops = -1;
	if (k < 0 || (size_t)k >= r->nr_jobs)
		return;
	const struct dir_result *x = &r->jobs[k].dir[dd];
	double sec = (double)x->runtime_ns / 1e9;
	*mb = *iops = 0;
	if (sec > 0) {
		*mb = (double)x->io_bytes / 1e6 / sec;
		*iops = (double)x->total_ios / sec;
	}
}

static void cell(double v, const char *fmt, FILE *out)
{
	if (v < 0)
		fprintf(out, " %12s", "-");
	else
		fprintf(out, fmt, v);
}

static void print_row(int w, const char *dev, const char *label, const double f[4], FILE *out)
{
	fprintf(out, "%-*s %-20s", w, dev, label);
	cell(f[0], " %12.2f", out);
	cell(f[1], " %12.2f", out);
	cell(f[2], " %12.0f", out);
	cell(f[3], " %12.0f", out);
	fputc('\n', out);
}

static void print_dev_rows(int w, const struct dev_run *d, FILE *out)
{
	const char *dev = d->path;
	for (size_t i = 0; i < QUICK_NR_DEV_TESTS; i++) {
		if (i && !strcmp(quick_dev_tests[i].label, quick_dev_tests[i - 1].label))
			continue; /* the write half of a pair */
		bool pair = i + 1 < QUICK_NR_DEV_TESTS &&
			    !strcmp(quick_dev_tests[i].label, quick_dev_tests[i + 1].label);
		double f[4];
		figures(&d->res, d->job[i], DDIR_READ, &f[0], &f[2]);
		if (pair)
			figures(&d->res, d->job[i + 1], DDIR_WRITE, &f[1], &f[3]);
		else
			f[1] = f[3] = -1;
		if (f[0] < 0 && f[1] < 0)
			continue;
		print_row(w, dev, quick_dev_tests[i].label, f, out);
		dev = "";
	}
	double f[4] = { -1, -1, -1, -1 };
	figures(&d->cached, d->cached.nr_jobs ? 0 : -1, DDIR_READ, &f[0], &f[2]);
	if (f[0] >= 0)
		print_row(w, dev, QUICK_CACHED_LABEL, f, out);
}

static void print_table(const struct dev_run *runs, size_t n, const struct quick_opts *o,
			FILE *out)
{
	int w = 6;
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(runs[i].path) > w)
			w = (int)strlen(runs[i].path);
	fprintf(out, "iobench quick: %zu block device%s, %s per test, %s (hdparm rows: psync)\n", n,
	       n == 1 ? "" : "s", o->runtime, o->engine);
	for (size_t i = 0; i < n; i++) {
		char a[16], b[16];
		const struct dev_run *d = &runs[i];
		fprintf(out, "  %s: %s, region %s, %s, %s\n", d->path, fmt_iec(d->size, a, sizeof(a)),
		       fmt_iec(d->region, b, sizeof(b)),
		       d->direct ? "O_DIRECT" : "buffered (O_DIRECT unsupported: page cache included)",
		       d->writes ? "written (--allow-destroy names it: its data is destroyed)"
				 : "read only (--allow-destroy=DEVICE adds its write rows)");
	}
	fprintf(out, "%-*s %-20s %12s %12s %12s %12s\n", w, "device", "test", "read MB/s", "write MB/s",
	       "read IOPS", "write IOPS");
	for (size_t i = 0; i < n; i++)
		print_dev_rows(w, &runs[i], out);
}

/* hdparm -T's run joins the device's result as its last group. */
static void merge_cached(struct dev_run *d)
{
	struct run_result *r = &d->res, *c = &d->cached;
	if (c->nr_jobs && r->nr_jobs) {
		r->jobs = xrealloc(r->jobs, (r->nr_jobs + 1) * sizeof(*r->jobs));
		r->jobs[r->nr_jobs] = c->jobs[0];
		r->jobs[r->nr_jobs].groupid = r->jobs[r->nr_jobs - 1].groupid + 1;
		r->nr_jobs++;
		for (size_t i = 1; i < c->nr_jobs; i++)
			job_result_release(&c->jobs[i]);
		c->nr_jobs = 0;
	}
}

/* The table with every device's system header and footer, as text. */
static char *table_text(const struct dev_run *runs, size_t done, size_t n,
			const struct quick_opts *o, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);
	if (!m)
		return NULL;
	bool many = n > 1;
	for (size_t i = 0; i < done; i++) {
		if (many)
			fprintf(m, "%s:\n", runs[i].path);
		env_text_header(runs[i].res.env, many ? "  " : "", m);
	}
	print_table(runs, done, o, m);
	for (size_t i = 0; i < done; i++) {
		if (many)
			fprintf(m, "\n%s:", runs[i].path);
		env_text_footer(runs[i].res.env, m);
	}
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Store one device's result (its own run), with the table when printed. */
static int store_dev(const struct runner_args *ra, const struct dev_run *d, unsigned formats,
		     const char *head, const char *table, size_t table_len, int status,
		     uint64_t end_ms, bool interrupted, const struct store_meta *meta, int64_t *id)
{
	struct store_renderings rend = { 0 };
	int rc = store_render_result(&d->res, formats, head, &rend);
	if (rc < 0) {
		error_errno(rc, "cannot render the results to store them");
	} else {
		if (table)
			store_renderings_add(&rend, "table", table, table_len, true);
		struct store_run r = {
			.kind = STORE_KIND_QUICK,
			.start_ms = d->res.start_ms,
			.end_ms = end_ms,
			.result = &d->res,
			.renderings = &rend,
			.exit_status = status,
			.interrupted = d->res.interrupted || interrupted,
		};
		rc = cmd_store_put(ra->store_ctx, &r, meta, id);
	}
	store_renderings_release(&rend);
	return rc;
}

#define QDEV_JSON ((unsigned)(REPORT_JSON | REPORT_JSONPLUS))

/* --repeat: each repetition measures every device again. */
struct dev_rep {
	struct dev_run *runs; /* this repetition's devices, as prepared */
	size_t done;          /* how many were measured */
};

struct dev_reps {
	const struct quick_opts *o;
	const struct runner_args *ra;
	const struct dev_run *proto; /* the devices, prepared */
	size_t n;
	struct dev_rep *per;         /* per repetition, by index */
	int64_t *group;              /* per device: its first repetition's run id, 0 before */
	bool failed;                 /* a repetition was not stored */
};

static int rep_measure(void *arg, struct repetition *rep)
{
	struct dev_reps *r = arg;
	struct dev_rep *p = &r->per[rep->index];
	p->runs = xcalloc(r->n, sizeof(*p->runs));
	for (size_t i = 0; i < r->n; i++) {
		p->runs[i].path = r->proto[i].path;
		p->runs[i].size = r->proto[i].size;
		p->runs[i].region = r->proto[i].region;
		p->runs[i].writes = r->proto[i].writes;
		p->runs[i].direct = r->proto[i].direct;
	}
	int status = 0;
	for (size_t i = 0; i < r->n && !status; i++, p->done++) {
		status = dev_measure(&p->runs[i], r->o, r->ra);
		if (p->runs[i].res.interrupted || p->runs[i].cached.interrupted)
			rep->interrupted = true;
	}
	return status;
}

/* Per device (named "DEVICE:job" when there are several) every job's
 * figures, hdparm -T's too. */
static void rep_figures(void *arg, struct rep_table *t, const struct repetition *rep)
{
	struct dev_reps *r = arg;
	const struct dev_rep *p = &r->per[rep->index];
	rep_table_begin_row(t, rep->index);
	for (size_t i = 0; i < p->done; i++) {
		const char *prefix = r->n > 1 ? p->runs[i].path : NULL;
		rep_figs_add_jobs(t, prefix, &p->runs[i].res);
		rep_figs_add_jobs(t, prefix, &p->runs[i].cached);
	}
	rep_table_end_row(t);
}

/* What a repetition prints: its heading, then the table of every device
 * measured, or (one device) its report in the text formats asked. NULL
 * when out of memory or when nothing is printed for it. */
static char *rep_text(const struct dev_reps *r, const struct repetition *rep, size_t *len)
{
	struct dev_rep *p = &r->per[rep->index];
	unsigned text = r->o->formats & ~QDEV_JSON;
	if (!p->done || !p->runs[0].res.nr_jobs || (r->o->formats && !text))
		return NULL;
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);
	if (!m)
		return NULL;
	fprintf(m, "repetition %zu%s\n", rep->index + 1,
		rep->interrupted ? " (interrupted by a signal: not in the summary)" : "");
	if (text) {
		merge_cached(&p->runs[0]);
		report_write(&p->runs[0].res, text, m);
	} else {
		size_t tl;
		char *t = table_text(p->runs, p->done, r->n, r->o, &tl);
		if (t)
			fwrite(t, 1, tl, m);
		free(t);
	}
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Shown, then stored: each device's result a run of its own, in its
 * device's group, with the repetition's text as printed. */
static void rep_show(void *arg, const struct repetition *rep)
{
	struct dev_reps *r = arg;
	size_t len = 0;
	char *text = rep_text(r, rep, &len);
	if (text) {
		if (rep->index)
			putchar('\n');
		fwrite(text, 1, len, stdout);
		fflush(stdout);
	}
	struct dev_rep *p = &r->per[rep->index];
	for (size_t i = 0; i < p->done && cmd_store_wanted(r->ra->store_ctx); i++) {
		struct dev_run *d = &p->runs[i];
		merge_cached(d);
		if (!d->res.nr_jobs)
			continue;
		struct store_meta m = {
			.rep_group = r->group[i] ? r->group[i] : STORE_NEW_GROUP,
			.rep_index = (int)rep->index,
		};
		int64_t id = 0;
		bool table = !r->o->formats;
		/* the text formats: under the heading, as printed */
		size_t hl = text && !table ? strcspn(text, "\n") + 1 : 0;
		char *head = hl ? xstrndup(text, hl) : NULL;
		if (store_dev(r->ra, d, r->o->formats & ~QDEV_JSON, head, table ? text : NULL,
			      table && text ? len : 0, rep->status, rep->end_ms, rep->interrupted, &m,
			      &id) < 0)
			r->failed = true;
		else if (!r->group[i])
			r->group[i] = id;
		free(head);
	}
	free(text);
}

/* The repetitions of every device; the summary after them, JSON (one
 * device) once at the end as 'iobench run --repeat' writes it. */
static int quick_devices_repeat(const struct dev_run *runs, size_t n, const struct quick_opts *o,
				const struct runner_args *ra)
{
	size_t limit = ra->repeat->automatic
			       ? (ra->repeat->max_reps ? ra->repeat->max_reps : REPEAT_MAX_DEFAULT)
			       : (ra->repeat->count ? ra->repeat->count : 1);
	struct dev_reps r = {
		.o = o,
		.ra = ra,
		.proto = runs,
		.n = n,
		.per = xcalloc(limit, sizeof(struct dev_rep)),
		.group = xcalloc(n, sizeof(int64_t)),
	};
	struct repeat_driver d = {
		.opts = ra->repeat,
		.run_one = rep_measure,
		.add_figures = rep_figures,
		.show = rep_show,
		.arg = &r,
	};
	struct repeat_outcome out;
	int status = repeat_loop(&d, &out);
	if (r.failed && status == 0)
		status = 1;
	/* the first device's result of each repetition, for the JSON */
	for (size_t k = 0; k < out.nr; k++) {
		struct dev_run *first = r.per[k].runs;
		out.reps[k].run = xcalloc(1, sizeof(struct run_result));
		if (first && r.per[k].done) {
			merge_cached(first);
			*out.reps[k].run = first->res;
			memset(&first->res, 0, sizeof(first->res));
		}
	}
	bool json = o->formats & QDEV_JSON;
	if (json && out.nr && out.reps[out.nr - 1].run->nr_jobs &&
	    runner_repeat_write_json(&out, o->formats & REPORT_JSONPLUS, stdout) < 0 && !status)
		status = 1;
	if (out.nr)
		repeat_write_text(&out, json ? stderr : stdout);
	if (out.stopped_by == REPEAT_BY_SIGNAL)
		warning("stopped by a signal during repetition %zu: the results above cover the "
			"time until then", out.nr);
	if (output_check(stdout, o->formats ? "the report" : "the table", NULL) < 0 && status == 0)
		status = 1;
	for (size_t k = 0; k < limit; k++) {
		for (size_t i = 0; r.per[k].runs && i < n; i++) {
			run_result_release(&r.per[k].runs[i].res);
			run_result_release(&r.per[k].runs[i].cached);
		}
		free(r.per[k].runs);
	}
	free(r.per);
	free(r.group);
	repeat_outcome_release(&out);
	return status;
}

int quick_devices(const char *const *devs, size_t n, const struct quick_opts *o,
		  struct runner_args *ra)
{
	if (n > 1 && o->formats) {
		error("quick: --output-format other than the table takes one device; give the "
		      "devices one run each");
		return 1;
	}
	struct dev_run *runs = xcalloc(n, sizeof(*runs));
	int status = 0;
	size_t done = 0;
	char *table = NULL;
	size_t table_len = 0;
	for (size_t i = 0; i < n && !status; i++) {
		runs[i].path = devs[i];
		if (dev_prepare(&runs[i], o) < 0)
			status = 1;
	}
	if (!status && repeat_wanted(ra->repeat)) {
		status = quick_devices_repeat(runs, n, o, ra);
		free(runs);
		return status;
	}
	for (size_t i = 0; i < n && !status; i++, done++)
		status = dev_measure(&runs[i], o, ra);
	if (done && o->formats) {
		merge_cached(&runs[0]);
		if (runs[0].res.nr_jobs)
			report_write(&runs[0].res, o->formats, stdout);
	} else if (done) {
		if ((table = table_text(runs, done, n, o, &table_len)))
			fwrite(table, 1, table_len, stdout);
		else
			status = error_errno(-ENOMEM, "cannot write the table") < 0;
	}
	/* printed: only now stored, one run per device */
	bool failed = false;
	for (size_t i = 0; i < done && cmd_store_wanted(ra->store_ctx); i++) {
		merge_cached(&runs[i]);
		if (runs[i].res.nr_jobs &&
		    store_dev(ra, &runs[i], o->formats, NULL, table, table_len, status,
			      wall_time_ms(), signals_caught() != 0, NULL, NULL) < 0)
			failed = true;
	}
	if (failed && !status)
		status = 1;
	free(table);
	for (size_t i = 0; i < n; i++) {
		run_result_release(&runs[i].res);
		run_result_release(&runs[i].cached);
	}
	free(runs);
	return status;
}
