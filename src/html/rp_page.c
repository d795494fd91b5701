/*
 * The page (report.h): the document around the sections (HTML head with
 * the inline style sheet, title band, contents; or the Markdown/text
 * title), the list of sections in their order, and the small helpers
 * every section uses (run names, JSON paths).
 */
#include "html/rp_int.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/array.h"
#include "util/xmalloc.h"

/* The sections, in the page's order; a sweep's analysis right
 * after the summary. */
static const struct rp_section *const sections[] = {
	&rp_sec_summary, &rp_sec_sweep, &rp_sec_figures, &rp_sec_latency,
	&rp_sec_series, &rp_sec_system, &rp_sec_warnings,
};
#define NR_SECTIONS (ARRAY_SIZE(sections))

static const char style[] =
	":root{--fg:#1d2330;--mute:#5d6675;--line:#dde1e8;--bg:#f4f6f9;--card:#fff;"
	"--acc:#2f6db5;--diff:#fff3c4;--good:#dff3e3;--bad:#fbe0dd}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:var(--bg);color:var(--fg);"
	"font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}\n"
	"header{background:linear-gradient(120deg,#1f3b63,#2f6db5);color:#fff;padding:22px 32px 16px}\n"
	"header h1{margin:0 0 4px;font-size:24px;font-weight:600}\n"
	"header p{margin:0;opacity:.85}\n"
	"nav{display:flex;flex-wrap:wrap;gap:6px;margin-top:14px}\n"
	"nav a{color:#fff;text-decoration:none;background:rgba(255,255,255,.16);"
	"padding:3px 12px;border-radius:14px;font-size:13px}\n"
	"main{max-width:1320px;margin:0 auto;padding:18px 24px 40px}\n"
	"section{background:var(--card);border:1px solid var(--line);border-radius:10px;"
	"padding:6px 22px 16px;margin:0 0 18px;box-shadow:0 1px 2px rgba(20,30,50,.05)}\n"
	"h2{font-size:18px;margin:14px 0 8px;color:#1f3b63}\n"
	"h3{font-size:15px;margin:16px 0 6px}\n"
	".tw{overflow-x:auto;margin:6px 0 12px}\n"
	"table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums}\n"
	"caption{text-align:left;font-weight:600;padding:4px 0;color:var(--mute)}\n"
	"th,td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:left;"
	"vertical-align:top}\n"
	"thead th{background:#eef1f6;font-weight:600;border-bottom:2px solid #c9d0db}\n"
	"tbody th{font-weight:500;white-space:nowrap}\n"
	"tbody tr:nth-child(even){background:#fafbfd}\n"
	".n{text-align:right;white-space:nowrap}\n"
	"td.diff,th.diff{background:var(--diff)}\n"
	"td.good{background:var(--good)}td.bad{background:var(--bad)}\n"
	"td.dim{color:#9aa1ad}\n"
	".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:12px}\n"
	"figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:6px;background:#fff}\n"
	"figure svg{width:100%;height:auto;display:block}\n"
	"figcaption{font-size:12px;color:var(--mute);text-align:center;padding-top:2px}\n"
	"figcaption b{color:var(--fg);font-size:13px;font-weight:600}\n"
	".wide{grid-column:1/-1}\n"
	".note{color:var(--mute)}\n"
	".warn{background:#fff4e5;border-left:4px solid #e07b24;padding:8px 12px;border-radius:4px}\n"
	".sw{display:inline-block;width:11px;height:11px;border-radius:3px;margin-right:6px;"
	"vertical-align:-1px}\n"
	".cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 12px}\n"
	".card{border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:190px}\n"
	".card b{display:block;font-size:15px}\n"
	".card span{color:var(--mute);font-size:12.5px}\n"
	".wl{border:1px solid var(--line);border-left:4px solid #e07b24;border-radius:6px;"
	"padding:8px 12px;margin:8px 0}\n"
	".wl p{margin:2px 0}.wl .id{font-family:ui-monospace,monospace;font-size:12px;"
	"color:var(--mute)}\n"
	"details{margin:6px 0 10px}summary{cursor:pointer;color:var(--acc)}\n"
	"footer{color:var(--mute);font-size:12px;text-align:center;padding:0 0 24px}\n"
	"@media print{body{background:#fff}header{background:#fff;color:#000;padding:0 0 8px}"
	"nav{display:none}section{break-inside:avoid;box-shadow:none;border:none;padding:0}"
	"header h1{color:#000}.grid{grid-template-columns:repeat(2,1fr)}}\n";

int page_format_parse(const char *s, enum page_format *f)
{
	if (!strcmp(s, "html"))
		*f = PAGE_HTML;
	else if (!strcmp(s, "md") || !strcmp(s, "markdown"))
		*f = PAGE_MD;
	else if (!strcmp(s, "txt") || !strcmp(s, "text"))
		*f = PAGE_TXT;
	else
		return -EINVAL;
	return 0;
}

void page_curve_release(struct page_curve *c)
{
	free(c->job);
	free(c->dir);
	free(c->pct);
	free(c->ns);
	memset(c, 0, sizeof(*c));
}

void rp_run_name(const struct rp_doc *d, const struct page_run *r, char *buf, size_t len)
{
	const struct cmp_sel *s = &d->in->sels[r->sel];
	char what[160];
	if (r->run->id)
		snprintf(what, sizeof(what), "run %lld", (long long)r->run->id);
	else {
		const char *b = r->run->source ? strrchr(r->run->source, '/') : NULL;
		snprintf(what, sizeof(what), "%s", b ? b + 1 : r->run->source ? r->run->source : "file");
	}
	if (d->in->nsel > 1 && strcmp(s->label, what))
		snprintf(buf, len, "%s: %s", s->label, what);
	else
		snprintf(buf, len, "%s", what);
}

struct json_object *rp_json_path(struct json_object *o, const char *path)
{
	char key[128];
	while (o && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		struct json_object *v;
		if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
			return NULL;
		o = v;
		path += n + (dot ? 1 : 0);
	}
	return o;
}

static void default_title(const struct page_in *in, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "iobench report: ");
	if (in->nsel > 4) {
		snprintf(buf + off, len - off, "%zu selections, %zu runs", in->nsel, in->nr_runs);
		return;
	}
	for (size_t s = 0; s < in->nsel && off < len; s++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", s ? (s + 1 == in->nsel ? " vs " : ", ") : "",
					in->sels[s].label);
}

static void page_head(struct rp_doc *d, const char *title, const bool *have)
{
	FILE *o = d->out;
	char when[64];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	if (d->fmt == PAGE_HTML) {
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
		      "<title>", o);
		rp_esc(o, title);
		fprintf(o, "</title>\n<style>\n%s</style>\n</head><body>\n<header><h1>", style);
		rp_esc(o, title);
		fprintf(o, "</h1><p>%zu run%s in %zu selection%s, from ", d->in->nr_runs,
			d->in->nr_runs == 1 ? "" : "s", d->in->nsel, d->in->nsel == 1 ? "" : "s");
		rp_esc(o, d->in->source);
		fprintf(o, "; written %s by iobench</p>\n<nav>", when);
		for (size_t i = 0; i < NR_SECTIONS; i++)
			if (have[i]) {
				fprintf(o, "<a href=\"#%s\">", sections[i]->id);
				rp_esc(o, sections[i]->title);
				fputs("</a>", o);
			}
		fputs("</nav></header>\n<main>\n", o);
		if (d->no_plots) {
			fputs("<p class=\"warn\">", o);
			rp_esc(o, d->no_plots);
			fputs("</p>\n", o);
		}
	} else if (d->fmt == PAGE_MD) {
		fprintf(o, "# %s\n\n%zu run%s in %zu selection%s, from %s; written %s by iobench.\n\n",
			title, d->in->nr_runs, d->in->nr_runs == 1 ? "" : "s", d->in->nsel,
			d->in->nsel == 1 ? "" : "s", d->in->source, when);
	} else {
		fprintf(o, "%s\n%zu run%s in %zu selection%s, from %s; written %s by iobench.\n\n",
			title, d->in->nr_runs, d->in->nr_runs == 1 ? "" : "s", d->in->nsel,
			d->in->nsel == 1 ? "" : "s", d->in->source, when);
	}
}

int page_write(const struct page_in *in, enum page_format f, FILE *out,
		 const char **no_plots)
{
	struct rp_doc d = { .out = out, .fmt = f, .in = in,
			    .gnuplot = in->gnuplot ? in->gnuplot : "gnuplot" };
	struct cmp_opts co = CMP_OPTS_DEFAULT;
	*no_plots = NULL;
	if (in->nsel && cmp_tabulate(in->sels, in->nsel, &co, &d.cmp) == 0)
		d.have_cmp = true;
	if (f == PAGE_HTML)
		rp_plot_probe(&d);
	bool have[NR_SECTIONS];
	for (size_t i = 0; i < NR_SECTIONS; i++)
		have[i] = sections[i]->present(&d);
	char title[512];
	if (in->title)
		snprintf(title, sizeof(title), "%s", in->title);
	else
		default_title(in, title, sizeof(title));
	page_head(&d, title, have);
	int rc = 0;
	for (size_t i = 0; i < NR_SECTIONS && !rc; i++) {
		if (!have[i])
			continue;
		if (f == PAGE_HTML)
			fprintf(out, "<section id=\"%s\">\n", sections[i]->id);
		rp_heading(&d, 2, NULL, sections[i]->title);
		rc = sections[i]->write(&d);
		if (f == PAGE_HTML)
			fputs("</section>\n", out);
	}
	if (f == PAGE_HTML)
		fprintf(out, "</main>\n<footer>%u plots drawn by gnuplot; no script, nothing "
			"fetched: this file is the whole report.</footer>\n</body></html>\n", d.nr_plots);
	*no_plots = d.no_plots;
	if (d.have_cmp)
		cmp_result_release(&d.cmp);
	return rc;
}
