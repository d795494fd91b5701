/*
 * The summary section: what the report holds (each selection, its runs,
 * their kind, tool, machine and dates) and, with two selections or more,
 * compare's verdicts (compare/cmp_engine.h: the ratio of each figure to
 * the first selection's, its interval, real or not) in one table.
 */
#include "html/rp_int.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* "a, b" of the distinct values of one text per run of selection s. */
static void distinct(const struct rp_doc *d, size_t s, const char *(*get)(const struct page_run *),
		     char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		const char *v = r->sel == s ? get(r) : NULL;
		if (!v || !*v)
			continue;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++) {
			const struct page_run *q = &d->in->runs[j];
			const char *w = q->sel == s ? get(q) : NULL;
			seen = w && !strcmp(w, v);
		}
		if (!seen && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", v);
	}
}

static const char *get_kind(const struct page_run *r) { return r->kind; }
static const char *get_tool(const struct page_run *r) { return r->run->tool; }
static const char *get_host(const struct page_run *r) { return r->run->host; }

static void day(int64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static void when(const struct rp_doc *d, size_t s, char *buf, size_t len)
{
	int64_t lo = 0, hi = 0;
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		const struct page_run *r = &d->in->runs[i];
		if (r->sel != s || !r->run->start_ms)
			continue;
		if (!lo || r->run->start_ms < lo)
			lo = r->run->start_ms;
		if (r->run->start_ms > hi)
			hi = r->run->start_ms;
	}
	if (!lo) {
		snprintf(buf, len, "unknown");
		return;
	}
	char a[32], b[32];
	day(lo, a, sizeof(a));
	day(hi, b, sizeof(b));
	if (lo == hi)
		snprintf(buf, len, "%s UTC", a);
	else
		snprintf(buf, len, "%s – %s UTC", a, strncmp(a, b, 11) ? b : b + 11);
}

static void ids(const struct cmp_sel *s, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s->runs.n && off < len; i++) {
		const struct cmp_run *r = &s->runs.v[i];
		if (r->id)
			off += (size_t)snprintf(buf + off, len - off, "%s%lld", off ? ", " : "", (long long)r->id);
		else {
			const char *b = r->source ? strrchr(r->source, '/') : NULL;
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						b ? b + 1 : r->source ? r->source : "?");
		}
	}
}

static void cards(struct rp_doc *d)
{
	FILE *o = d->out;
	fputs("<div class=\"cards\">\n", o);
	for (size_t s = 0; s < d->in->nsel; s++) {
		const struct cmp_sel *sel = &d->in->sels[s];
		char k[160], w[128];
		distinct(d, s, get_kind, k, sizeof(k));
		when(d, s, w, sizeof(w));
		fprintf(o, "<div class=\"card\"><b><span class=\"sw\" style=\"background:%s\"></span>",
			rp_color(s));
		rp_esc(o, sel->label);
		fprintf(o, "</b><span>%zu %s run%s · ", sel->runs.n, k, sel->runs.n == 1 ? "" : "s");
		rp_esc(o, w);
		fputs("</span></div>\n", o);
	}
	fputs("</div>\n", o);
}

static void selections(struct rp_doc *d)
{
	struct rp_table t;
	rp_table_init(&t, 7, "selection", "runs", "which", "kind", "tool", "host", "when");
	for (size_t s = 0; s < d->in->nsel; s++) {
		const struct cmp_sel *sel = &d->in->sels[s];
		char buf[512];
		rp_table_row(&t);
		rp_table_cell(&t, 0, "%s", sel->label);
		rp_table_cell(&t, RP_NUM, "%zu", sel->runs.n);
		ids(sel, buf, sizeof(buf));
		rp_table_cell(&t, 0, "%s", buf);
		distinct(d, s, get_kind, buf, sizeof(buf));
		rp_table_cell(&t, 0, "%s", buf);
		distinct(d, s, get_tool, buf, sizeof(buf));
		rp_table_cell(&t, 0, "%s", buf);
		distinct(d, s, get_host, buf, sizeof(buf));
		rp_table_cell(&t, 0, "%s", *buf ? buf : "unknown");
		when(d, s, buf, sizeof(buf));
		rp_table_cell(&t, 0, "%s", buf);
	}
	rp_table_align(&t, 1, RP_NUM);
	rp_table_write(d, &t, "What this report holds");
	rp_table_release(&t);
}

static void figure_name(const struct rp_doc *d, const struct cmp_row *r, char *buf, size_t len)
{
	if (d->cmp.one_job)
		snprintf(buf, len, "%s %s", r->dir, r->def->label);
	else
		snprintf(buf, len, "%s %s %s", r->job, r->dir, r->def->label);
}

/* The verdicts at a glance: a figure per row, a selection per column,
 * each cell the ratio to the first selection with its interval,
 * coloured when the difference is real. */
static void matrix(struct rp_doc *d)
{
	const struct cmp_result *res = &d->cmp;
	struct rp_table t;
	rp_table_init_n(&t, res->nsel);
	char h[200];
	snprintf(h, sizeof(h), "figure (ratio to %s)", res->sels[0].label);
	rp_table_head(&t, 0, h);
	for (size_t s = 1; s < res->nsel; s++)
		rp_table_head(&t, s, res->sels[s].label);
	for (size_t i = 0; i < res->nr_rows; i++) {
		const struct cmp_row *r = &res->rows[i];
		char fig[256];
		figure_name(d, r, fig, sizeof(fig));
		bool any = false;
		for (size_t s = 1; s < res->nsel; s++)
			any |= r->cells[s].status != CMP_MISSING;
		if (!any)
			continue;
		rp_table_row(&t);
		rp_table_cell(&t, 0, "%s", fig);
		for (size_t s = 1; s < res->nsel; s++) {
			const struct cmp_cell *c = &r->cells[s];
			switch (c->status) {
			case CMP_INTERVAL: {
				bool better = (c->ci.ratio > 1) == r->def->higher_better;
				unsigned fl = c->real ? (better ? RP_GOOD : RP_BAD) : 0;
				rp_table_cell(&t, RP_NUM | fl, "%.2f× (%.2f–%.2f)%s", c->ci.ratio, c->ci.lo,
					      c->ci.hi, c->real ? (better ? " better" : " worse") : "");
				break;
			}
			case CMP_SINGLE:
				rp_table_cell(&t, RP_NUM | RP_DIM, "%.2f×", c->ci.ratio);
				break;
			case CMP_UNBOUNDED:
				rp_table_cell(&t, RP_NUM | RP_DIM, "%.2f× (unbounded)", c->ci.ratio);
				break;
			case CMP_UNDEFINED:
				rp_table_cell(&t, RP_NUM | RP_DIM, "0 base");
				break;
			case CMP_MISSING:
			case CMP_BASE:
				rp_table_cell(&t, RP_NUM | RP_DIM, "-");
				break;
			}
		}
	}
	rp_table_write(d, &t, "Verdicts at a glance");
	rp_table_release(&t);
}

static void verdicts(struct rp_doc *d)
{
	const struct cmp_result *res = &d->cmp;
	struct rp_table t;
	char hb[160];
	snprintf(hb, sizeof(hb), "× %s", res->sels[0].label);
	rp_table_init(&t, 6, "figure", "selection", hb, "95% interval", "real?", "verdict");
	size_t nreal = 0, nrows = 0;
	for (size_t i = 0; i < res->nr_rows; i++) {
		const struct cmp_row *r = &res->rows[i];
		for (size_t s = 1; s < res->nsel; s++) {
			const struct cmp_cell *c = &r->cells[s];
			if (c->status == CMP_MISSING || c->status == CMP_BASE)
				continue;
			char fig[256], v[1024];
			figure_name(d, r, fig, sizeof(fig));
			cmp_verdict(res, i, s, v, sizeof(v));
			const char *colon = strstr(v, ": ");
			unsigned fl = 0;
			const char *real = "no";
			if (c->status == CMP_INTERVAL && c->real) {
				bool better = (c->ci.ratio > 1) == r->def->higher_better;
				fl = better ? RP_GOOD : RP_BAD;
				real = better ? "yes, better" : "yes, worse";
				nreal++;
			} else if (c->status == CMP_SINGLE) {
				real = "cannot tell";
			} else if (c->status == CMP_INTERVAL && c->noise) {
				real = "no (noise)";
			}
			nrows++;
			rp_table_row(&t);
			rp_table_cell(&t, 0, "%s", fig);
			rp_table_cell(&t, 0, "%s", res->sels[s].label);
			if (isfinite(c->ci.ratio))
				rp_table_cell(&t, RP_NUM | fl, "%.3f", c->ci.ratio);
			else
				rp_table_cell(&t, RP_NUM | RP_DIM, "-");
			if (c->status == CMP_INTERVAL)
				rp_table_cell(&t, RP_NUM, "%.3f–%.3f", c->ci.lo, c->ci.hi);
			else
				rp_table_cell(&t, RP_NUM | RP_DIM, "none");
			rp_table_cell(&t, fl, "%s", real);
			rp_table_cell(&t, fl ? 0 : RP_DIM, "%s", colon ? colon + 2 : v);
		}
	}
	if (nrows) {
		rp_para(d, NULL, "compare's verdicts: each figure of a selection as a ratio to %s's, "
			"with the 95%% confidence interval of that ratio over the repetitions; a "
			"difference is real when the interval excludes 1 and the ratio is beyond the "
			"%g%% noise threshold (marked better or worse). %zu of %zu are real; a ratio "
			"alone (greyed) had a single run on a side, so no interval.", res->sels[0].label,
			res->opts.threshold * 100, nreal, nrows);
		matrix(d);
		if (d->fmt == PAGE_HTML)
			fputs("<details><summary>every verdict in words</summary>\n", d->out);
		rp_table_write(d, &t, "Verdicts");
		if (d->fmt == PAGE_HTML)
			fputs("</details>\n", d->out);
	} else {
		rp_para(d, "note", "The selections share no figure to compare.");
	}
	rp_table_release(&t);
}

static bool present(const struct rp_doc *d)
{
	return d->in->nsel > 0;
}

static int write(struct rp_doc *d)
{
	if (d->fmt == PAGE_HTML)
		cards(d);
	selections(d);
	if (d->have_cmp && d->in->nsel >= 2)
		verdicts(d);
	else if (d->in->nsel < 2)
		rp_para(d, "note", "One selection: no comparison. Name two or more selections (run "
			"ids or labels) to get compare's verdicts here.");
	return 0;
}

const struct rp_section rp_sec_summary = { "summary", "Summary", present, write };
