/*
 * The compare engine (cmp_engine.h): gathers each selection's values per
 * (job, direction, figure) of the catalogue, computes per row the ratio of
 * every selection to the first with its interval, or for single runs the
 * repetitions an interval would need, and finds the context keys whose
 * values differ between the selections.
 */
#include "compare/cmp_engine.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/reps.h"
#include "stats/summary.h"
#include "util/error.h"
#include "util/xmalloc.h"

int cmp_method_parse(const char *s, enum cmp_method *m)
{
	static const char *const names[] = { "auto", "fieller", "bootstrap" };
	for (unsigned i = 0; i < 3; i++) {
		if (!strcmp(s, names[i])) {
			*m = (enum cmp_method)i;
			return 0;
		}
	}
	return -EINVAL;
}

struct rows {
	struct cmp_row *v;
	size_t n, alloc;
	size_t nsel;
	size_t *alloc_x;      /* per row and selection: capacity of cells[s].x */
	size_t alloc_ax;
	char **jobs;          /* job names in order of first appearance */
	size_t nr_jobs, alloc_jobs;
};

static size_t job_index(struct rows *rs, const char *job)
{
	for (size_t i = 0; i < rs->nr_jobs; i++)
		if (!strcmp(rs->jobs[i], job))
			return i;
	rs->jobs = xgrow(rs->jobs, &rs->alloc_jobs, rs->nr_jobs, sizeof(*rs->jobs));
	rs->jobs[rs->nr_jobs] = xstrdup(job);
	return rs->nr_jobs++;
}

static struct cmp_row *row_for(struct rows *rs, const char *job, const char *dir,
			       const struct cmp_figdef *d, size_t *idx)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct cmp_row *r = &rs->v[i];
		if (r->def == d && !strcmp(r->dir, dir) && !strcmp(r->job, job)) {
			*idx = i;
			return r;
		}
	}
	job_index(rs, job);
	rs->v = xgrow(rs->v, &rs->alloc, rs->n, sizeof(*rs->v));
	size_t need = (rs->n + 1) * rs->nsel;
	if (need > rs->alloc_ax) {
		size_t old = rs->alloc_ax;
		rs->alloc_x = xgrow(rs->alloc_x, &rs->alloc_ax, need - 1, sizeof(*rs->alloc_x));
		memset(rs->alloc_x + old, 0, (rs->alloc_ax - old) * sizeof(*rs->alloc_x));
	}
	struct cmp_row *r = &rs->v[rs->n];
	memset(r, 0, sizeof(*r));
	r->job = xstrdup(job);
	r->dir = xstrdup(dir);
	r->def = d;
	r->cells = xcalloc(rs->nsel, sizeof(*r->cells));
	*idx = rs->n++;
	return r;
}

static void add_value(struct rows *rs, size_t ri, size_t s, double v)
{
	struct cmp_cell *c = &rs->v[ri].cells[s];
	c->x = xgrow(c->x, &rs->alloc_x[ri * rs->nsel + s], c->n, sizeof(*c->x));
	c->x[c->n++] = v;
}

/* Is this figure a measurement, or a direction that did nothing / a phase too short? */
static bool measured(const struct cmp_run *run, const struct cmp_fig *f)
{
	const struct cmp_fig *g;
	if (cmp_dir_is_bonnie(f->dir)) {
		/* the rate and CPU of a phase under 0.5 s mean nothing (bonnie++
		 * prints "+++++"); its worst latency is still measured */
		if (!strncmp(f->name, "latency", 7))
			return true;
		g = cmp_run_fig(run, f->job, f->dir, "too_short");
		return !g || g->value == 0;
	}
	if (strcmp(f->dir, "job")) {
		g = cmp_run_fig(run, f->job, f->dir, "io_bytes");
		return !g || g->value != 0;
	}
	return true;
}

static void gather(struct rows *rs, const struct cmp_sel *sel, size_t s)
{
	for (size_t k = 0; k < sel->runs.n; k++) {
		const struct cmp_run *run = &sel->runs.v[k];
		for (size_t i = 0; i < run->nr_figs; i++) {
			const struct cmp_fig *f = &run->figs[i];
			const struct cmp_figdef *d = cmp_figdef_find(f->dir, f->name);
			if (!d || !isfinite(f->value) || !measured(run, f))
				continue;
			/* bonnie's copies (-c) are parts of its aggregate */
			if (d->where == CMP_BONNIE && !strncmp(f->job, "copy ", 5))
				continue;
			size_t ri;
			row_for(rs, f->job, f->dir, d, &ri);
			add_value(rs, ri, s, f->value);
		}
	}
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct cmp_row *a = pa, *b = pb;
	struct rows *rs = arg;
	size_t ja = job_index(rs, a->job), jb = job_index(rs, b->job);
	if (ja != jb)
		return ja < jb ? -1 : 1;
	int da = cmp_dir_rank(a->dir), db = cmp_dir_rank(b->dir);
	if (da != db)
		return da < db ? -1 : 1;
	return a->def < b->def ? -1 : a->def > b->def;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void describe(struct cmp_cell *c)
{
	struct sample_summary sm;
	c->mean = c->median = c->min = c->max = c->cv = NAN;
	if (!c->n || sample_summarize(c->x, c->n, &sm) < 0)
		return;
	c->mean = sm.mean;
	c->median = sm.median;
	c->min = sm.min;
	c->max = sm.max;
	c->cv = sm.cv;
}

/* The CV of one side for the repetitions estimate: run to run when it has
 * repetitions, else within the runs (bw_dev / bw_mean, iops_stddev /
 * iops_mean of fio's per-interval samples), else NAN. */
static double side_cv(const struct cmp_sel *sel, const struct cmp_row *r, const struct cmp_cell *c,
		      bool *within)
{
	*within = false;
	if (c->n >= 2 && isfinite(c->cv))
		return c->cv;
	const char *dev = NULL, *mean = NULL;
	if (!strcmp(r->def->name, "bw_bytes")) {
		dev = "bw_dev";
		mean = "bw_mean";
	} else if (!strcmp(r->def->name, "iops")) {
		dev = "iops_stddev";
		mean = "iops_mean";
	} else {
		return NAN;
	}
	double sum = 0;
	size_t n = 0;
	for (size_t k = 0; k < sel->runs.n; k++) {
		const struct cmp_fig *fd = cmp_run_fig(&sel->runs.v[k], r->job, r->dir, dev);
		const struct cmp_fig *fm = cmp_run_fig(&sel->runs.v[k], r->job, r->dir, mean);
		if (fd && fm && fm->value > 0 && isfinite(fd->value)) {
			sum += fd->value / fm->value;
			n++;
		}
	}
	if (!n)
		return NAN;
	*within = true;
	return sum / (double)n;
}

static void single(const struct cmp_result *res, const struct cmp_row *r, size_t s)
{
	struct cmp_cell *b = &r->cells[0], *c = &r->cells[s];
	bool wa, wb;
	double cva = side_cv(&res->sels[0], r, b, &wa), cvb = side_cv(&res->sels[s], r, c, &wb);
	if (!isfinite(cva))
		cva = cvb, wa = wb;
	if (!isfinite(cvb))
		cvb = cva, wb = wa;
	c->cv_used = NAN;
	c->reps_needed = 0;
	if (!isfinite(cva))
		return;
	size_t n;
	if (reps_for_ratio_ci(cva, cvb, res->opts.width, res->opts.conf, &n) == 0) {
		c->reps_needed = n < 3 ? 3 : n;
		c->cv_used = sqrt((cva * cva + cvb * cvb) / 2);
		c->cv_within_run = wa || wb;
	}
}

static void ratio(const struct cmp_result *res, struct cmp_row *r, size_t s)
{
	struct cmp_cell *b = &r->cells[0], *c = &r->cells[s];
	memset(&c->ci, 0, sizeof(c->ci));
	c->ci.ratio = c->ci.lo = c->ci.hi = NAN;
	c->ci.method = r->method;
	c->ci.stat = r->stat;
	c->cv_used = NAN;
	if (!b->n || !c->n) {
		c->status = CMP_MISSING;
		return;
	}
	if (b->center == 0) {
		c->status = CMP_UNDEFINED;
		return;
	}
	c->ci.ratio = c->center / b->center;
	if (b->n < RATIO_CI_MIN_N || c->n < RATIO_CI_MIN_N) {
		c->status = CMP_SINGLE;
		single(res, r, s);
		return;
	}
	int rc;
	if (r->method == RATIO_FIELLER) {
		rc = ratio_ci_fieller(b->x, b->n, c->x, c->n, res->opts.conf, &c->ci);
	} else {
		struct bootstrap_opts bo = BOOTSTRAP_OPTS_DEFAULT;
		bo.conf = res->opts.conf;
		bo.seed = res->opts.seed;
		bo.resamples = res->opts.resamples;
		bo.stat = RATIO_OF_MEDIANS;
		rc = ratio_ci_bootstrap(b->x, b->n, c->x, c->n, &bo, &c->ci);
	}
	/* a ratio of figures that cannot be negative is not below 0 (Fieller's
	 * set can reach below it when the baseline's mean is uncertain) */
	if (rc == 0 && c->ci.lo < 0 && b->min >= 0 && c->min >= 0)
		c->ci.lo = 0;
	if (rc == 0) {
		c->status = CMP_INTERVAL;
		bool beyond = fabs(c->ci.ratio - 1) > res->opts.threshold;
		c->real = c->ci.real && beyond;
		c->noise = c->ci.real && !beyond;
	}
	else if (rc == -ERANGE)
		c->status = CMP_UNBOUNDED;
	else /* -EDOM: a resample's baseline median was 0 */
		c->status = CMP_UNDEFINED;
	if (c->status != CMP_INTERVAL) {
		c->ci.real = false;
		c->ci.ratio = c->center / b->center;
	}
}

static void compute_row(struct cmp_result *res, struct cmp_row *r)
{
	size_t min_n = SIZE_MAX;
	for (size_t s = 0; s < res->nsel; s++) {
		describe(&r->cells[s]);
		if (r->cells[s].n && r->cells[s].n < min_n)
			min_n = r->cells[s].n;
	}
	bool boot = res->opts.method == CMP_METHOD_BOOTSTRAP ||
		    (res->opts.method == CMP_METHOD_AUTO && min_n != SIZE_MAX &&
		     min_n >= CMP_AUTO_BOOTSTRAP_N);
	r->method = boot ? RATIO_BOOTSTRAP_PERCENTILE : RATIO_FIELLER;
	r->stat = boot ? RATIO_OF_MEDIANS : RATIO_OF_MEANS;
	for (size_t s = 0; s < res->nsel; s++) {
		struct cmp_cell *c = &r->cells[s];
		c->center = boot ? c->median : c->mean;
		/* single values: the value itself */
		if (c->n == 1)
			c->center = c->x[0];
	}
	r->cells[0].status = CMP_BASE;
	r->cells[0].cv_used = NAN;
	for (size_t s = 1; s < res->nsel; s++)
		ratio(res, r, s);
}

/* --- context differences ------------------------------------------- */

struct keys {
	char **v;
	size_t n, alloc;
};

static void key_add(struct keys *k, const char *key)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i], key))
			return;
	k->v = xgrow(k->v, &k->alloc, k->n, sizeof(*k->v));
	k->v[k->n++] = xstrdup(key);
}

/* The distinct values of key over sel's runs, " | " between them; NULL if no run has it. */
static char *sel_values(const struct cmp_sel *sel, const char *key)
{
	char *out = NULL;
	for (size_t k = 0; k < sel->runs.n; k++) {
		const char *v = cmp_kvs_get(&sel->runs.v[k].context, key);
		if (!v)
			continue;
		if (!out) {
			out = xstrdup(v);
			continue;
		}
		/* already listed? */
		bool seen = false;
		size_t len = strlen(v);
		for (const char *p = out; p; ) {
			const char *end = strstr(p, " | ");
			size_t l = end ? (size_t)(end - p) : strlen(p);
			if (l == len && !strncmp(p, v, len)) {
				seen = true;
				break;
			}
			p = end ? end + 3 : NULL;
		}
		if (!seen) {
			char *n = xasprintf("%s | %s", out, v);
			free(out);
			out = n;
		}
	}
	return out;
}

/* Does sel know anything under key's parent ("option.seqw" of
 * "option.seqw.rate")? Then a missing key there is a value: unset. */
static bool knows_parent(const struct cmp_sel *sel, const char *key)
{
	const char *dot = strrchr(key, '.');
	if (!dot)
		return false;
	size_t n = (size_t)(dot - key) + 1;
	for (size_t k = 0; k < sel->runs.n; k++) {
		const struct cmp_kvs *c = &sel->runs.v[k].context;
		for (size_t i = 0; i < c->n; i++)
			if (!strncmp(c->v[i].key, key, n))
				return true;
	}
	return false;
}

static void context_diffs(struct cmp_result *res)
{
	struct keys keys = { 0 };
	for (size_t s = 0; s < res->nsel; s++)
		for (size_t k = 0; k < res->sels[s].runs.n; k++) {
			const struct cmp_kvs *c = &res->sels[s].runs.v[k].context;
			for (size_t i = 0; i < c->n; i++)
				key_add(&keys, c->v[i].key);
		}
	size_t alloc = 0;
	for (size_t i = 0; i < keys.n; i++) {
		char **vals = xcalloc(res->nsel, sizeof(*vals));
		size_t have = 0;
		bool differ = false, several = false;
		const char *first = NULL;
		for (size_t s = 0; s < res->nsel; s++) {
			vals[s] = sel_values(&res->sels[s], keys.v[i]);
			if (!vals[s] && knows_parent(&res->sels[s], keys.v[i]))
				vals[s] = xstrdup("(unset)");
			if (!vals[s])
				continue;
			have++;
			if (strstr(vals[s], " | "))
				several = true;
			if (!first)
				first = vals[s];
			else if (strcmp(first, vals[s]))
				differ = true;
		}
		/* a key that only some selections know anything about (a fio
		 * import has no sysinfo) is no difference: only values that
		 * disagree are, an option set on one side and not on the other
		 * among them */
		if ((have >= 2 && differ) || several) {
			res->diffs = xgrow(res->diffs, &alloc, res->nr_diffs, sizeof(*res->diffs));
			res->diffs[res->nr_diffs].key = keys.v[i];
			res->diffs[res->nr_diffs++].values = vals;
			keys.v[i] = NULL;
		} else {
			for (size_t s = 0; s < res->nsel; s++)
				free(vals[s]);
			free(vals);
		}
		free(keys.v[i]);
	}
	free(keys.v);
}

int cmp_compute(const struct cmp_sel *sels, size_t nsel, const struct cmp_opts *o,
		struct cmp_result *out)
{
	memset(out, 0, sizeof(*out));
	if (nsel < 2)
		return error("compare: needs at least two selections, got %zu", nsel);
	return cmp_tabulate(sels, nsel, o, out);
}

int cmp_tabulate(const struct cmp_sel *sels, size_t nsel, const struct cmp_opts *o,
		 struct cmp_result *out)
{
	memset(out, 0, sizeof(*out));
	if (nsel < 1)
		return error("compare: needs at least one selection");
	if (!(o->conf > 0 && o->conf < 1) || !(o->width > 0) || o->resamples < 100 ||
	    !(o->threshold >= 0 && o->threshold < 1))
		return error("compare: bad options (confidence %g, width %g, threshold %g, %u "
			     "resamples)", o->conf, o->width, o->threshold, o->resamples);
	for (size_t s = 0; s < nsel; s++)
		if (!sels[s].runs.n)
			return error("compare: selection '%s' has no runs", sels[s].name);
	struct rows rs = { .nsel = nsel };
	for (size_t s = 0; s < nsel; s++)
		gather(&rs, &sels[s], s);
	if (rs.n)
		qsort_r(rs.v, rs.n, sizeof(*rs.v), cmp_rows, &rs);
	out->sels = sels;
	out->nsel = nsel;
	out->opts = *o;
	out->rows = rs.v;
	out->nr_rows = rs.n;
	out->one_job = rs.nr_jobs <= 1;
	for (size_t i = 0; i < rs.n; i++) {
		for (size_t s = 0; s < nsel; s++) {
			struct cmp_cell *c = &rs.v[i].cells[s];
			if (c->n)
				qsort(c->x, c->n, sizeof(*c->x), cmp_double);
		}
		compute_row(out, &rs.v[i]);
	}
	for (size_t j = 0; j < rs.nr_jobs; j++)
		free(rs.jobs[j]);
	free(rs.jobs);
	free(rs.alloc_x);
	context_diffs(out);
	return 0;
}

void cmp_result_release(struct cmp_result *r)
{
	for (size_t i = 0; i < r->nr_rows; i++) {
		for (size_t s = 0; s < r->nsel; s++)
			free(r->rows[i].cells[s].x);
		free(r->rows[i].cells);
		free(r->rows[i].job);
		free(r->rows[i].dir);
	}
	free(r->rows);
	for (size_t i = 0; i < r->nr_diffs; i++) {
		for (size_t s = 0; s < r->nsel; s++)
			free(r->diffs[i].values[s]);
		free(r->diffs[i].values);
		free(r->diffs[i].key);
	}
	free(r->diffs);
	memset(r, 0, sizeof(*r));
}
