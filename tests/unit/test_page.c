/*
 * The report page (html/page.h) on hand-made selections, without gnuplot
 * (the e2e test draws): the figures table gives each selection's median
 * with the interval stats/median_ci.h gives (95% from 6 runs, min-max
 * below), compare's verdicts are cmp_tabulate's and cmp_verdict's, one
 * selection has figures but no verdicts, Markdown escapes its cells and
 * keeps every row as wide as its header, the settings that differ are
 * highlighted where they are unlike the first column, a missing gnuplot leaves the
 * tables with the install hint and no SVG, and a histogram's curve is
 * exact at its marks; a sweep's analysis is written as its tables, in its
 * order, with its notes, or why there is none; the jobs' timelines and
 * bonnie's phases are tabled with their boundaries. A text for gnuplot of
 * every byte 0x01-0xFF is one string constant of plain bytes and octal
 * escapes (no backquote, '@', '$', quote or line end), and the page's
 * escaper leaves no control byte or invalid UTF-8.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare/cmp_engine.h"
#include "html/page.h"
#include "html/rp_int.h"
#include "stats/hist.h"
#include "stats/median_ci.h"
#include "store/store_hist.h"

static void add_run(struct cmp_sel *s, double bw)
{
	struct cmp_run *r = cmp_runs_push(&s->runs);
	r->id = (int64_t)s->runs.n + (s->name[0] == 'b' ? 100 : 0);
	r->tool = strdup("iobench-0.1.0");
	r->host = strdup("vm");
	cmp_run_add_fig(r, "seq", "write", "bw_bytes", bw);
	cmp_run_add_fig(r, "seq", "write", "io_bytes", bw * 10);
	cmp_run_add_fig(r, "seq", "write", "iops", bw / 4096);
	cmp_kvs_add(&r->context, "host.kernel_release", s->name[0] == 'b' ? "6.2" : "6.1");
	cmp_kvs_add(&r->context, "host.machine", "x86_64");
}

static char *render(const struct cmp_sel *sels, size_t nsel, enum page_format f, const char **no)
{
	struct page_run runs[16];
	size_t n = 0;
	for (size_t s = 0; s < nsel; s++)
		for (size_t k = 0; k < sels[s].runs.n; k++)
			runs[n++] = (struct page_run){ .run = &sels[s].runs.v[k], .sel = s,
						       .kind = "run", .rep_index = -1 };
	struct page_in in = { .title = "t|x", .source = "test", .sels = sels, .nsel = nsel,
			      .runs = runs, .nr_runs = n, .gnuplot = "/nonexistent/gnuplot" };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(page_write(&in, f, m, no) == 0, "page_write");
	fclose(m);
	return buf;
}

/* Every table line of a Markdown text has as many cells as its table's header. */
static int md_widths_ok(const char *md)
{
	int want = -1;
	for (const char *l = md; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		if (len && *l == '|') {
			int cells = -1;
			for (size_t i = 0; i < len; i++)
				if (l[i] == '|' && (i == 0 || l[i - 1] != '\\'))
					cells++;
			if (want < 0)
				want = cells;
			else if (cells != want)
				return 0;
		} else {
			want = -1;
		}
		l += len + (e ? 1 : 0);
	}
	return 1;
}

static void test_two(void)
{
	struct cmp_sel s[2];
	cmp_sel_init(&s[0], "a", "a");
	cmp_sel_init(&s[1], "b", "b|new");
	double xa[6] = { 100, 101, 99, 102, 98, 100.5 };
	for (int i = 0; i < 6; i++)
		add_run(&s[0], xa[i] * 1048576);
	add_run(&s[1], 150 * 1048576.0);
	add_run(&s[1], 152 * 1048576.0);
	const char *no = NULL;
	char *md = render(s, 2, PAGE_MD, &no);
	CHECK(!no, "md draws nothing, so needs no gnuplot");
	struct median_ci ci;
	CHECK(median_ci(xa, 6, 0.95, &ci) == 0, "6 runs: a 95%% interval");
	char want[200], m[48], lo[48], hi[48];
	const struct cmp_figdef *def = cmp_figdef_find("write", "bw_bytes");
	cmp_format_value(m, sizeof(m), def, "write", ci.median * 1048576);
	cmp_format_value(lo, sizeof(lo), def, "write", ci.lo * 1048576);
	cmp_format_value(hi, sizeof(hi), def, "write", ci.hi * 1048576);
	snprintf(want, sizeof(want), "| write bw | %s [%s – %s] (6 runs) |", m, lo, hi);
	CHECK(strstr(md, want) != NULL, "the median and its interval: '%s' in\n%s", want, md);
	CHECK(strstr(md, "151 MiB/s [150 MiB/s – 152 MiB/s, min–max] (2 runs)"),
	      "2 runs: min-max, said so");
	CHECK(strstr(md, "| b\\|new |") != NULL, "a | in a label is escaped");
	CHECK(md_widths_ok(md), "every Markdown row as wide as its header");
	/* the verdict is compare's */
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "compute");
	char v[512];
	for (size_t i = 0; i < res.nr_rows; i++)
		if (!strcmp(res.rows[i].def->name, "bw_bytes")) {
			cmp_verdict(&res, i, 1, v, sizeof(v));
			CHECK(strstr(md, strchr(v, ':') + 2) != NULL, "compare's verdict '%s' is there", v);
		}
	cmp_result_release(&res);
	CHECK(strstr(md, "| **host.kernel\\_release** | 6.1 | **6.2** |"),
	      "the differing kernel is highlighted: the key and the value unlike the first column's");
	CHECK(!strstr(md, "**x86\\_64**"), "the alike machine is not");
	free(md);

	char *txt = render(s, 2, PAGE_TXT, &no);
	CHECK(strstr(txt, "Summary\n=======\n") != NULL, "txt: underlined sections");
	CHECK(strstr(txt, "6.2*") && !strstr(txt, "6.1*"), "txt: a difference is starred");
	free(txt);

	char *html = render(s, 2, PAGE_HTML, &no);
	CHECK(no && strstr(no, "apt-get install gnuplot-nox"), "no gnuplot: the hint");
	CHECK(strstr(html, "apt-get install gnuplot-nox") && strstr(html, "<table>") &&
	      !strstr(html, "<svg"), "no gnuplot: the tables and the hint, no plot");
	CHECK(strstr(html, "<title>t|x</title>") && !strstr(html, "<script"), "title escaped, no script");
	CHECK(strstr(html, "<td class=\"diff\">6.2</td>") != NULL, "html: the difference highlighted");
	free(html);
	cmp_sel_release(&s[0]);
	cmp_sel_release(&s[1]);
}

static void test_one(void)
{
	struct cmp_sel s;
	cmp_sel_init(&s, "a", "a");
	add_run(&s, 100 * 1048576.0);
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	CHECK(cmp_tabulate(&s, 1, &o, &res) == 0 && res.nr_rows == 2, "cmp_tabulate: one selection");
	cmp_result_release(&res);
	const char *no;
	char *md = render(&s, 1, PAGE_MD, &no);
	CHECK(strstr(md, "| write bw | 100 MiB/s (1 run) |") != NULL, "one selection: its figures");
	CHECK(!strstr(md, "Verdicts"), "one selection: no verdicts");
	free(md);
	cmp_sel_release(&s);
}

static void test_curve(void)
{
	struct hist h;
	hist_init(&h);
	for (uint64_t v = 1; v <= 10000; v++)
		hist_add(&h, v * 1000);
	size_t len;
	void *blob = store_hist_encode(&h, &len);
	struct store_hist sh;
	CHECK(store_hist_decode(STORE_HIST_IOBENCH1, blob, len, h.count, h.min, h.max, &sh) == 0,
	      "decode");
	struct page_curve c;
	page_curve_from_hist(&c, "j", "read", &sh);
	int marks = 0;
	for (size_t i = 0; i < c.n; i++) {
		CHECK(i == 0 || c.pct[i] > c.pct[i - 1], "percentiles ascending");
		if (c.pct[i] == 50 || c.pct[i] == 99 || c.pct[i] == 99.99) {
			marks++;
			CHECK(c.ns[i] == (double)hist_percentile(&h, c.pct[i]), "exact at p%g", c.pct[i]);
		}
	}
	CHECK(marks == 3, "p50, p99 and p99.99 on the curve of 10000 values");
	CHECK(c.n >= 60 && c.pct[c.n - 1] >= 99.99, "the curve reaches 4 nines");
	page_curve_release(&c);
	store_hist_release(&sh);
	free(blob);
	hist_release(&h);
}

/* A sweep's analysis as the page gets it (struct page_sweep): the three
 * tables in the analysis's order and values, the best level and point
 * marked, the notes said; with gnuplot missing, no SVG; a sweep without
 * an analysis says why and draws nothing. */
static struct page_sweep_level lvl(const char *name, double mean, double lo, double hi)
{
	char t[96];
	snprintf(t, sizeof(t), "%.0f [%.0f – %.0f]", mean, lo, hi);
	return (struct page_sweep_level){ .name = strdup(name), .n = 4, .mean = mean, .lo = lo,
					  .hi = hi, .conf = 0.95, .text = strdup(t) };
}

static void test_sweep(void)
{
	struct cmp_sel s;
	cmp_sel_init(&s, "a", "fs=xfs ra=128");
	add_run(&s, 100 * 1048576.0);
	struct page_sweep sw = { .id = 7, .design = strdup("full"), .goal = strdup("write bw"),
				 .state = strdup("done"), .unit = CMP_UNIT_BYTES_S,
				 .dir = strdup("write"), .higher_is_better = true, .nr_runs = 8,
				 .share_noise = 0.02, .interaction_share = 0.05, .balanced = true };
	sw.nr_factors = 2;
	sw.factors = calloc(2, sizeof(*sw.factors));
	sw.factors[0] = (struct page_sweep_factor){ .name = strdup("fs"), .share = 0.7, .best = 1,
						    .nr_levels = 2 };
	sw.factors[0].levels = calloc(2, sizeof(struct page_sweep_level));
	sw.factors[0].levels[0] = lvl("ext4", 90, 80, 100);
	sw.factors[0].levels[1] = lvl("xfs", 120, 110, 130);
	sw.factors[1] = (struct page_sweep_factor){ .name = strdup("ra"), .share = 0.2, .best = 0,
						    .nr_levels = 2 };
	sw.factors[1].levels = calloc(2, sizeof(struct page_sweep_level));
	sw.factors[1].levels[0] = lvl("128", 110, 100, 120);
	sw.factors[1].levels[1] = lvl("4096", 100, 90, 110);
	sw.rank = calloc(2, sizeof(size_t));
	sw.rank[0] = 0;
	sw.rank[1] = 1;
	const char *pn[] = { "fs=xfs ra=128", "fs=xfs ra=4096", "fs=ext4 ra=128", "fs=ext4 ra=4096" };
	sw.nr_points = 4;
	sw.points = calloc(4, sizeof(*sw.points));
	for (size_t i = 0; i < 4; i++)
		sw.points[i] = (struct page_sweep_point){ .name = strdup(pn[i]), .n = 2,
							  .median = 130.0 - 10 * i, .lo = 125.0 - 10 * i,
							  .hi = 135.0 - 10 * i, .conf = 0.5,
							  .text = strdup(pn[i]) };
	sw.nr_pairs = 1;
	sw.pairs = calloc(1, sizeof(*sw.pairs));
	sw.pairs[0] = (struct page_sweep_pair){ .a = sw.factors[0].name, .b = sw.factors[1].name,
						.share = 0.08, .matters = true };
	sw.nr_notes = 1;
	sw.notes = calloc(1, sizeof(char *));
	sw.notes[0] = strdup("ra's best level 128 is not the best at fs=ext4");

	struct page_run run = { .run = &s.runs.v[0], .sel = 0, .kind = "run", .rep_index = -1 };
	struct page_in in = { .title = "t", .source = "test", .sels = &s, .nsel = 1, .runs = &run,
			      .nr_runs = 1, .gnuplot = "/nonexistent/gnuplot", .sweeps = &sw,
			      .nr_sweeps = 1 };
	for (int f = 0; f < 2; f++) {
		char *buf = NULL;
		size_t len = 0;
		const char *no;
		FILE *m = open_memstream(&buf, &len);
		CHECK(page_write(&in, f ? PAGE_HTML : PAGE_MD, m, &no) == 0, "page_write with a sweep");
		fclose(m);
		if (!f) {
			CHECK(strstr(buf, "## Sweep\n") && strstr(buf, "### sweep 7: write bw, design full"),
			      "md: the sweep section and its heading");
			CHECK(strstr(buf, "| fs | xfs | 120 [110 – 130] | 4 | best |") != NULL,
			      "md: fs's best level marked with its mean and interval");
			CHECK(strstr(buf, "| ra | 4096 | 100 [90 – 110] | 4 | - |") != NULL,
			      "md: a level that is not the best");
			const char *a = strstr(buf, "| 1 | fs=xfs ra=128 |"), *b = strstr(buf, "| 4 | fs=ext4 ra=4096 |");
			CHECK(a && b && a < b, "md: the points in the analysis's order, ranked");
			CHECK(strstr(buf, "| 2 runs, 50% |") != NULL, "md: a point's runs and coverage");
			CHECK(strstr(buf, "| fs | **70.0%** |") && strstr(buf, "| ra | 20.0% |") &&
			      strstr(buf, "| fs × ra | **8.0%** | interaction that matters |") &&
			      strstr(buf, "| noise | 2.0% |"), "md: the importance shares");
			CHECK(strstr(buf, "ra's best level 128 is not the best at fs=ext4") != NULL,
			      "md: the interaction note");
			CHECK(md_widths_ok(buf), "md: every row as wide as its header");
			CHECK(strstr(buf, "## Summary") < strstr(buf, "## Sweep") &&
			      strstr(buf, "## Sweep") < strstr(buf, "## Figures"), "md: sweep after the summary");
		} else {
			CHECK(strstr(buf, "<section id=\"sweep\">") && strstr(buf, "href=\"#sweep\""),
			      "html: the sweep section and its contents link");
			CHECK(!strstr(buf, "<svg"), "html without gnuplot: no SVG, the tables all the same");
			CHECK(strstr(buf, "120 [110 – 130]</td>") != NULL, "html: the level table");
		}
		free(buf);
	}
	/* a sweep with no analysis: said, nothing drawn */
	struct page_sweep none = { .id = 8, .why = strdup("sweep 8 names no goal: give one with --goal") };
	in.sweeps = &none;
	char *buf = NULL;
	size_t len = 0;
	const char *no;
	FILE *m = open_memstream(&buf, &len);
	CHECK(page_write(&in, PAGE_MD, m, &no) == 0, "page_write with a sweep without analysis");
	fclose(m);
	CHECK(strstr(buf, "### sweep 8\n") && strstr(buf, "sweep 8 names no goal: give one with --goal") &&
	      !strstr(buf, "points ranked"), "no analysis: why, and no table");
	free(buf);
	page_sweep_release(&none);
	page_sweep_release(&sw);
	cmp_sel_release(&s);
}

/* The jobs over time and the phase boundaries as a run's environment
 * holds them ("jobs_timeline", "phases"): the time-series section is
 * there for them alone, with each job's and each test's start and end. */
static void test_timeline(void)
{
	struct cmp_sel s;
	cmp_sel_init(&s, "a", "a");
	add_run(&s, 100 * 1048576.0);
	struct page_run run = { .run = &s.runs.v[0], .sel = 0, .kind = "run", .rep_index = -1 };
	run.env = json_tokener_parse(
		"{\"jobs_timeline\":[{\"job\":\"seq\",\"start\":0.05,\"end\":2.05,\"t0\":0.04,"
		"\"t\":[1.04,2.05],\"write_bw\":[1048576,2097152],\"write_iops\":[256,512]}],"
		"\"phases\":[{\"name\":\"put_block\",\"start\":2.5,\"end\":3.25}]}");
	CHECK(run.env != NULL, "the environment parses");
	struct page_in in = { .title = "t", .source = "test", .sels = &s, .nsel = 1, .runs = &run,
			      .nr_runs = 1, .gnuplot = "/nonexistent/gnuplot" };
	char *buf = NULL;
	size_t len = 0;
	const char *no;
	FILE *m = open_memstream(&buf, &len);
	CHECK(page_write(&in, PAGE_MD, m, &no) == 0, "page_write with a timeline");
	fclose(m);
	CHECK(strstr(buf, "## Time series") != NULL, "the time series for the jobs' timeline alone");
	CHECK(!strstr(buf, "Monitor samples"), "no monitor table without monitor samples");
	CHECK(strstr(buf, "| run 1 | job seq | 0.05 | 2.05 | 2 |") != NULL,
	      "the job's start, end and intervals");
	CHECK(strstr(buf, "| run 1 | put\\_block | 2.50 | 3.25 | - |") != NULL, "bonnie's test's span");
	CHECK(md_widths_ok(buf), "md: every row as wide as its header");
	free(buf);
	json_object_put(run.env);
	cmp_sel_release(&s);
}

static void test_plot_str(void)
{
	char all[256];
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	struct rp_plot p = { 0 };
	p.f = open_memstream(&p.buf, &p.len);
	rp_plot_str(&p, all);
	rp_plot_str(&p, "a\xc3\xa9`x`@m$(y)\n;");
	fclose(p.f);
	p.f = NULL;
	const char *s = p.buf;
	size_t quotes = 0, escapes = 0;
	bool plain = true;
	for (size_t i = 0; i < p.len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"') {
			quotes++;
		} else if (c == '\\') {
			bool oct = i + 3 < p.len && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
				   s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7';
			plain &= oct;
			escapes++;
			i += 3;
		} else {
			plain &= c >= 0x20 && c < 0x7f && !strchr("`@$'\\", c);
		}
	}
	CHECK(quotes == 4 && plain, "rp_plot_str: two string constants of plain bytes and octal "
	      "escapes only (%zu quotes): %s", quotes, s);
	/* every ASCII byte but the plain set, and 0xc3 0xa9 (valid UTF-8), are
	 * escaped; 0x80-0xff alone are not UTF-8 and become '?' */
	CHECK(strstr(s, "a\\303\\251\\140x\\140\\100m\\044(y) \\073\"") != NULL,
	      "rp_plot_str: UTF-8 kept as escapes, ` @ $ escaped, the line end a space: %s", s);
	CHECK(escapes > 20, "rp_plot_str: %zu escapes", escapes);
	free(p.buf);

	char *h = NULL;
	size_t hl = 0;
	FILE *f = open_memstream(&h, &hl);
	rp_esc(f, all);
	fclose(f);
	bool clean = true;
	for (size_t i = 0; i < hl; i++) {
		unsigned char c = (unsigned char)h[i];
		clean &= (c >= 0x20 && c != 0x7f && !strchr("<>\"'", c)) || c == '\t' || c == '\n';
		if (c >= 0x80) {
			size_t n = rp_utf8_len((const unsigned char *)h + i);
			clean &= n > 0;
			i += n ? n - 1 : 0;
		}
	}
	CHECK(clean, "rp_esc: every byte 0x01-0xff gives no control byte, no < > \" ' and valid "
	      "UTF-8");
	free(h);
}

int main(void)
{
	test_plot_str();
	test_two();
	test_one();
	test_curve();
	test_sweep();
	test_timeline();
	return check_done("page");
}
