/*
 * The latency section: percentile curves, one line per run, latency on a
 * log scale against the percentile on a log-of-nines axis (50, 90, 99,
 * 99.9, ...: the tail gets as much room as the body), per job and
 * direction (a bonnie phase). A stored run's curve comes from its stored
 * histogram (page_curve_from_hist); a run without one (a fio JSON file,
 * an import without json+ bins) gets its points from the percentiles its
 * output lists (clat_ns.p50, clat_ns.p99.9, ...). A table gives p50 to
 * p99.99 of each curve.
 */
#include "html/rp_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_hist.h"
#include "util/array.h"
#include "util/xmalloc.h"

static const double marks[] = { 50, 90, 99, 99.9, 99.99 };
#define NR_MARKS (ARRAY_SIZE(marks))

static double nines(double pct)
{
	return -log10(1 - pct / 100);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void page_curve_from_hist(struct page_curve *c, const char *job, const char *dir,
			    const struct store_hist *h)
{
	memset(c, 0, sizeof(*c));
	c->job = xstrdup(job);
	c->dir = xstrdup(dir);
	if (!h->count)
		return;
	double kmax = fmax(1, log10((double)h->count));
	size_t cap = (size_t)(kmax / 0.05) + NR_MARKS + 2;
	double *p = xcalloc(cap, sizeof(*p));
	size_t n = 0;
	for (double k = 0.05; k <= kmax + 1e-9 && n < cap; k += 0.05)
		p[n++] = 100 * (1 - pow(10, -k));
	for (size_t i = 0; i < NR_MARKS && n < cap; i++)
		if (nines(marks[i]) <= kmax + 1e-9)
			p[n++] = marks[i];
	qsort(p, n, sizeof(*p), cmp_d);
	c->pct = xcalloc(n ? n : 1, sizeof(double));
	c->ns = xcalloc(n ? n : 1, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		if (c->n && fabs(p[i] - c->pct[c->n - 1]) < 1e-9)
			continue;
		c->pct[c->n] = p[i];
		c->ns[c->n++] = (double)store_hist_percentile(h, p[i]);
	}
	free(p);
}

/* One curve to draw: its run and where its points are. */
struct line {
	const struct page_run *run;
	struct page_curve own;   /* built from figures (owned) */
	const struct page_curve *c;
};

struct lines {
	struct line *v;
	size_t n, alloc;
};

/* The curve of run r for (job, dir) from its figures "clat_ns.pX". */
static bool from_figs(const struct page_run *r, const char *job, const char *dir,
		      struct page_curve *c)
{
	const struct cmp_run *run = r->run;
	memset(c, 0, sizeof(*c));
	size_t alloc = 0, alloc2 = 0;
	for (size_t i = 0; i < run->nr_figs; i++) {
		const struct cmp_fig *f = &run->figs[i];
		if (strcmp(f->job, job) || strcmp(f->dir, dir) || strncmp(f->name, "clat_ns.p", 9))
			continue;
		char *end;
		double p = strtod(f->name + 9, &end);
		if (*end || !(p > 0 && p < 100) || !(f->value > 0))
			continue;
		c->pct = xgrow(c->pct, &alloc, c->n, sizeof(double));
		c->ns = xgrow(c->ns, &alloc2, c->n, sizeof(double));
		c->pct[c->n] = p;
		c->ns[c->n++] = f->value;
	}
	/* in percentile order (the figures are in name order) */
	for (size_t i = 1; i < c->n; i++)
		for (size_t j = i; j > 0 && c->pct[j] < c->pct[j - 1]; j--) {
			double t = c->pct[j]; c->pct[j] = c->pct[j - 1]; c->pct[j - 1] = t;
			t = c->ns[j]; c->ns[j] = c->ns[j - 1]; c->ns[j - 1] = t;
		}
	if (c->n < 2) {
		free(c->pct);
		free(c->ns);
		memset(c, 0, sizeof(*c));
		return false;
	}
	c->job = xstrdup(job);
	c->dir = xstrdup(dir);
	return true;
}

/* Is (job, dir) a latency worth a curve: a fio direction that did I/O, or
 * a bonnie phase? (compare's rows say which exist.) */
static bool wanted(const struct rp_doc *d, const char *job, const char *dir)
{
	for (size_t i = 0; i < d->cmp.nr_rows; i++) {
		const struct cmp_row *r = &d->cmp.rows[i];
		if (!strcmp(r->job, job) && !strcmp(r->dir, dir))
			return r->def->where != CMP_FIO_JOB && r->def->where != CMP_META;
	}
	return false;
}

/* Every curve of (job, dir), by run. */
static void gather(const struct rp_doc *d, const char *job, const char *dir, struct lines *l)
{
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		const struct page_curve *c = NULL;
		for (size_t k = 0; k < r->nr_curves && !c; k++)
			if (!strcmp(r->curves[k].job, job) && !strcmp(r->curves[k].dir, dir) &&
			    r->curves[k].n >= 2)
				c = &r->curves[k];
		l->v = xgrow(l->v, &l->alloc, l->n, sizeof(*l->v));
		struct line *x = &l->v[l->n];
		memset(x, 0, sizeof(*x));
		x->run = r;
		if (c) {
			x->c = c;
			l->n++;
		} else if (!r->nr_curves && from_figs(r, job, dir, &x->own)) {
			x->c = &x->own;
			l->n++;
		}
	}
}

static void lines_release(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		page_curve_release(&l->v[i].own);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* The (job, dir) pairs, in compare's row order. */
static size_t pairs(const struct rp_doc *d, const char ***jobs, const char ***dirs)
{
	size_t n = 0, a1 = 0, a2 = 0;
	*jobs = NULL;
	*dirs = NULL;
	for (size_t i = 0; i < d->cmp.nr_rows; i++) {
		const struct cmp_row *r = &d->cmp.rows[i];
		if (!wanted(d, r->job, r->dir))
			continue;
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = !strcmp((*jobs)[k], r->job) && !strcmp((*dirs)[k], r->dir);
		if (seen)
			continue;
		*jobs = xgrow(*jobs, &a1, n, sizeof(**jobs));
		*dirs = xgrow(*dirs, &a2, n, sizeof(**dirs));
		(*jobs)[n] = r->job;
		(*dirs)[n++] = r->dir;
	}
	return n;
}

static double at(const struct page_curve *c, double pct)
{
	for (size_t i = 0; i < c->n; i++)
		if (fabs(c->pct[i] - pct) < 1e-6)
			return c->ns[i];
	return NAN;
}

static void fmt_ns(char *buf, size_t len, double ns)
{
	if (!isfinite(ns))
		snprintf(buf, len, "-");
	else if (ns >= 1e9)
		snprintf(buf, len, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.1f µs", ns / 1e3);
	else
		snprintf(buf, len, "%.0f ns", ns);
}

static int plot(struct rp_doc *d, const char *job, const char *dir, const struct lines *l)
{
	struct rp_plot p;
	rp_plot_begin(&p, 440, 290);
	if (!p.f)
		return -ENOMEM;
	double kmax = 1;
	for (size_t i = 0; i < l->n; i++) {
		const struct page_curve *c = l->v[i].c;
		fprintf(p.f, "$c%zu << EOD\n", i);
		for (size_t k = 0; k < c->n; k++) {
			if (!(c->ns[k] > 0))
				continue;
			double x = nines(c->pct[k]);
			kmax = fmax(kmax, x);
			fprintf(p.f, "%.6g %.6g\n", x, c->ns[k] / 1e3);
		}
		fputs("EOD\n", p.f);
	}
	fprintf(p.f, "set logscale y\nset format y '%%g'\nset xrange [0.25:%.2f]\n", kmax + 0.05);
	fputs("set xtics (\"50\" 0.30103, \"90\" 1, \"99\" 2, \"99.9\" 3, \"99.99\" 4, \"99.999\" 5, "
	      "\"99.9999\" 6, \"99.99999\" 7)\nset grid xtics ytics lc rgb '#e4e4e4' lt 1\n"
	      "set xlabel \"percentile (log of nines)\"\nset ylabel \"latency (µs)\"\n"
	      "set key left top\nplot ", p.f);
	for (size_t i = 0; i < l->n; i++) {
		char name[200];
		rp_run_name(d, l->v[i].run, name, sizeof(name));
		size_t dt = 1;
		for (size_t j = 0; j < i; j++)
			dt += l->v[j].run->sel == l->v[i].run->sel;
		fprintf(p.f, "%s$c%zu using 1:2 with linespoints lt %zu dt %zu pi 8 title ", i ? ", " : "",
			i, l->v[i].run->sel % 10 + 1, (dt - 1) % 5 + 1);
		rp_plot_str(&p, name);
	}
	fputc('\n', p.f);
	char cap[300];
	snprintf(cap, sizeof(cap), "%s %s latency percentiles — %s", job, dir,
		 cmp_dir_is_bonnie(dir) ? "per operation" : "completion latency");
	return rp_plot_end(d, &p, cap);
}

static bool present(const struct rp_doc *d)
{
	if (!d->have_cmp)
		return false;
	const char **jobs, **dirs;
	size_t n = pairs(d, &jobs, &dirs);
	bool any = false;
	for (size_t i = 0; i < n && !any; i++) {
		struct lines l = { 0 };
		gather(d, jobs[i], dirs[i], &l);
		any = l.n > 0;
		lines_release(&l);
	}
	free(jobs);
	free(dirs);
	return any;
}

static int write(struct rp_doc *d)
{
	const char **jobs, **dirs;
	size_t n = pairs(d, &jobs, &dirs);
	struct rp_table t;
	rp_table_init(&t, 3 + NR_MARKS, "run", "job", "direction", "p50", "p90", "p99", "p99.9",
		      "p99.99");
	rp_para(d, "note", "Latency against percentile: the x axis is the number of nines (50%%, "
		"90%%, 99%%, 99.9%% ...), so the tail gets as much room as the body; from the "
		"stored histograms where the store has them, else from the percentiles the "
		"output lists.");
	rp_grid_begin(d);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct lines l = { 0 };
		gather(d, jobs[i], dirs[i], &l);
		if (l.n)
			rc = plot(d, jobs[i], dirs[i], &l);
		for (size_t k = 0; k < l.n; k++) {
			char name[200], v[32];
			rp_run_name(d, l.v[k].run, name, sizeof(name));
			rp_table_row(&t);
			rp_table_cell(&t, 0, "%s", name);
			rp_table_cell(&t, 0, "%s", jobs[i]);
			rp_table_cell(&t, 0, "%s", dirs[i]);
			for (size_t m = 0; m < NR_MARKS; m++) {
				fmt_ns(v, sizeof(v), at(l.v[k].c, marks[m]));
				rp_table_cell(&t, RP_NUM, "%s", v);
			}
		}
		lines_release(&l);
	}
	rp_grid_end(d);
	for (size_t m = 0; m < NR_MARKS; m++)
		rp_table_align(&t, 3 + m, RP_NUM);
	if (!rc)
		rp_table_write(d, &t, "Latency percentiles");
	rp_table_release(&t);
	free(jobs);
	free(dirs);
	return rc;
}

const struct rp_section rp_sec_latency = { "latency", "Latency", present, write };
