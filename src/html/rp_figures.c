/*
 * The figures section: per job, direction and figure (bw, iops, clat p50
 * and p99 of fio-style jobs; the rate of each bonnie phase and of each
 * phase of a meta run), one bar per selection at the median of its runs
 * with the confidence interval of that median as its error bar, as `run --repeat` gives it
 * (stats/median_ci.h: from order statistics; below 6 runs no 95% interval
 * exists and the bar spans min to max, with the coverage it has). The
 * values come from compare's rows (cmp_tabulate), so they are the same
 * figures compare compares, by the same rules (no idle direction, no
 * bonnie phase too short to time). A table holds the same numbers.
 */
#include "html/rp_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/median_ci.h"
#include "util/xmalloc.h"

#define CONF 0.95

static bool drawn(const struct cmp_row *r)
{
	const char *n = r->def->name;
	if (r->def->where == CMP_BONNIE || r->def->where == CMP_META)
		return !strcmp(n, "rate");
	if (r->def->where != CMP_FIO_DIR)
		return false;
	return !strcmp(n, "bw_bytes") || !strcmp(n, "iops") || !strcmp(n, "clat_ns.p50") ||
	       !strcmp(n, "clat_ns.p99");
}

/* A cell's median and interval: 0 with a 95% interval, 1 with [min, max]
 * at a lower coverage (*conf), 2 with a single value (no interval). */
static int interval(const struct cmp_cell *c, double *med, double *lo, double *hi, double *conf)
{
	struct median_ci m;
	*conf = 0;
	if (c->n == 1) {
		*med = *lo = *hi = c->x[0];
		return 2;
	}
	int rc = median_ci(c->x, c->n, CONF, &m);
	*med = m.median;
	*lo = m.lo;
	*hi = m.hi;
	*conf = m.confidence;
	return rc == 0 ? 0 : 1;
}

static void row_title(const struct rp_doc *d, const struct cmp_row *r, char *buf, size_t len)
{
	if (r->def->where == CMP_BONNIE)
		snprintf(buf, len, "%s %s", r->dir, r->def->label);
	else
		snprintf(buf, len, "%s %s", r->dir, r->def->label);
	(void)d;
}

static int plot_row(struct rp_doc *d, const struct cmp_row *r)
{
	const struct cmp_result *res = &d->cmp;
	double max = 0;
	for (size_t s = 0; s < res->nsel; s++)
		for (size_t k = 0; k < r->cells[s].n; k++)
			max = fmax(max, r->cells[s].x[k]);
	struct rp_scale sc = rp_scale_of(r->def->unit, r->dir, max);
	struct rp_plot p;
	bool wide = res->nsel > 6;
	rp_plot_begin(&p, wide ? 1000 : 360, 250);
	if (!p.f)
		return -ENOMEM;
	p.wide = wide;
	int kind_seen[3] = { 0 };
	double lowest_conf = 1;
	/* $d: label-index x median colour value-text top, the labels in the
	 * array L; $e: x median lo hi, for the selections that have an
	 * interval */
	char *ebuf = NULL;
	size_t elen = 0;
	FILE *e = open_memstream(&ebuf, &elen);
	if (!e) {
		rp_plot_discard(&p);
		return -ENOMEM;
	}
	char *dbuf = NULL;
	size_t dlen = 0;
	FILE *db = open_memstream(&dbuf, &dlen);
	if (!db) {
		fclose(e);
		free(ebuf);
		rp_plot_discard(&p);
		return -ENOMEM;
	}
	fprintf(p.f, "array L[%zu]\n", res->nsel ? res->nsel : 1);
	size_t x = 0;
	for (size_t s = 0; s < res->nsel; s++) {
		const struct cmp_cell *c = &r->cells[s];
		if (!c->n)
			continue;
		double med, lo, hi, conf;
		int k = interval(c, &med, &lo, &hi, &conf);
		kind_seen[k]++;
		if (k == 1 && conf < lowest_conf)
			lowest_conf = conf;
		rp_plot_text_at(&p, "L", x + 1, res->sels[s].label);
		double m = med / sc.div;
		fprintf(db, "%zu %zu %.6g %zu ", x + 1, x, m, s + 1);
		fprintf(db, fabs(m) >= 100 ? "%.0f" : fabs(m) >= 10 ? "%.1f" : "%.2f", m);
		fprintf(db, " %.6g\n", fmax(med, hi) / sc.div);
		if (k != 2)
			fprintf(e, "%zu %.6g %.6g %.6g\n", x, med / sc.div, lo / sc.div, hi / sc.div);
		x++;
	}
	fclose(db);
	fprintf(p.f, "$d << EOD\n%sEOD\n", dbuf ? dbuf : "");
	free(dbuf);
	fclose(e);
	bool have_e = elen > 0;
	if (have_e)
		fprintf(p.f, "$e << EOD\n%sEOD\n", ebuf);
	free(ebuf);
	fprintf(p.f, "set boxwidth 0.62\nset yrange [0:*]\nset xrange [-0.6:%zu.6]\n", x ? x - 1 : 0);
	fputs("set ylabel ", p.f);
	rp_plot_str(&p, sc.unit);
	fputs("\nset xlabel \"selection\" textcolor rgb '#666666'\n", p.f);
	if (x > 4 && !wide)
		fputs("set xtics rotate by -25\n", p.f);
	fputs("set bmargin 4\nplot $d using 2:3:4:xtic(L[int($1)]) with boxes lc variable notitle", p.f);
	if (have_e)
		/* the interval as a line with whiskers (yerrorbars would put
		 * a marker on the median) */
		fputs(", $e using 1:3:(0):($4-$3) with vectors nohead lc rgb '#222222' lw 1.3 "
		      "notitle, $e using ($1-0.1):3:(0.2):(0) with vectors nohead lc rgb '#222222' "
		      "lw 1.3 notitle, $e using ($1-0.1):4:(0.2):(0) with vectors nohead "
		      "lc rgb '#222222' lw 1.3 notitle", p.f);
	fputs(", $d using 2:6:5 with labels offset char 0,0.7 font ',9' textcolor rgb '#333333' "
	      "notitle\n", p.f);
	char cap[512], t[256], how[160];
	row_title(d, r, t, sizeof(t));
	if (kind_seen[0] && !kind_seen[1])
		snprintf(how, sizeof(how), "bars: 95%% CI of the median");
	else if (kind_seen[1])
		snprintf(how, sizeof(how), "bars: min–max (%s%.0f%% coverage; 95%% needs 6 runs)",
			 kind_seen[0] ? "some " : "", lowest_conf * 100);
	else
		snprintf(how, sizeof(how), "single runs: no interval");
	snprintf(cap, sizeof(cap), "%s (%s) — median, %s", t, sc.unit, how);
	return rp_plot_end(d, &p, cap);
}

static bool in_job(const struct cmp_row *r, const char *job, bool bonnie)
{
	return drawn(r) && !strcmp(r->job, job) && (r->def->where == CMP_BONNIE) == bonnie;
}

/* The numbers of a job's plots: a row per figure, a column per selection
 * that has any of them. */
static void table_job(struct rp_doc *d, const char *job, bool bonnie)
{
	const struct cmp_result *res = &d->cmp;
	size_t *col = xcalloc(res->nsel, sizeof(*col)), nc = 0;
	for (size_t s = 0; s < res->nsel; s++) {
		bool any = false;
		for (size_t i = 0; i < res->nr_rows && !any; i++)
			any = in_job(&res->rows[i], job, bonnie) && res->rows[i].cells[s].n;
		if (any)
			col[nc++] = s;
	}
	struct rp_table t;
	rp_table_init_n(&t, 1 + nc);
	rp_table_head(&t, 0, "figure");
	for (size_t k = 0; k < nc; k++)
		rp_table_head(&t, 1 + k, res->sels[col[k]].label);
	for (size_t i = 0; i < res->nr_rows; i++) {
		const struct cmp_row *r = &res->rows[i];
		if (!in_job(r, job, bonnie))
			continue;
		char title[256];
		row_title(d, r, title, sizeof(title));
		rp_table_row(&t);
		rp_table_cell(&t, 0, "%s", title);
		for (size_t k = 0; k < nc; k++) {
			const struct cmp_cell *c = &r->cells[col[k]];
			if (!c->n) {
				rp_table_cell(&t, RP_NUM | RP_DIM, "-");
				continue;
			}
			double med, lo, hi, conf;
			int kind = interval(c, &med, &lo, &hi, &conf);
			char a[48], b[48], m[48];
			cmp_format_value(m, sizeof(m), r->def, r->dir, med);
			if (kind == 2) {
				rp_table_cell(&t, RP_NUM, "%s (1 run)", m);
				continue;
			}
			cmp_format_value(a, sizeof(a), r->def, r->dir, lo);
			cmp_format_value(b, sizeof(b), r->def, r->dir, hi);
			rp_table_cell(&t, RP_NUM, "%s [%s – %s%s] (%zu runs)", m, a, b,
				      kind == 1 ? ", min–max" : "", c->n);
		}
	}
	for (size_t k = 1; k <= nc; k++)
		rp_table_align(&t, k, RP_NUM);
	rp_table_write(d, &t, NULL);
	rp_table_release(&t);
	free(col);
}

static bool present(const struct rp_doc *d)
{
	if (!d->have_cmp)
		return false;
	for (size_t i = 0; i < d->cmp.nr_rows; i++)
		if (drawn(&d->cmp.rows[i]))
			return true;
	return false;
}

/* Each job (and bonnie's aggregate) in the order of compare's rows. */
static int write(struct rp_doc *d)
{
	const struct cmp_result *res = &d->cmp;
	rp_para(d, "note", "Each bar is the median of a selection's runs; the error bar is the "
		"confidence interval of that median over its repetitions (the interval 'run "
		"--repeat' prints).");
	for (size_t i = 0; i < res->nr_rows; i++) {
		const struct cmp_row *r = &res->rows[i];
		if (!drawn(r))
			continue;
		bool bonnie = r->def->where == CMP_BONNIE;
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = !(drawn(&res->rows[j]) && !strcmp(res->rows[j].job, r->job) &&
				  (res->rows[j].def->where == CMP_BONNIE) == bonnie);
		if (!first)
			continue;
		char h[300];
		snprintf(h, sizeof(h), bonnie ? "bonnie++ %s" : r->def->where == CMP_META ?
			 "mdtest phase %s" : "job %s", r->job);
		rp_heading(d, 3, NULL, h);
		rp_grid_begin(d);
		for (size_t j = i; j < res->nr_rows; j++) {
			const struct cmp_row *q = &res->rows[j];
			if (drawn(q) && !strcmp(q->job, r->job) && (q->def->where == CMP_BONNIE) == bonnie) {
				int rc = plot_row(d, q);
				if (rc < 0)
					return rc;
			}
		}
		rp_grid_end(d);
		table_job(d, r->job, bonnie);
	}
	return 0;
}

const struct rp_section rp_sec_figures = { "figures", "Figures", present, write };
