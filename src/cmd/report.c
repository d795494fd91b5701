/*
 * `iobench report [SELECTION...] [-o FILE] [--title T] [--format F]`: the
 * results store's runs as one page (html/page.h): a self-contained HTML
 * file with gnuplot's plots inline, or the same tables as Markdown or
 * text. A SELECTION is as compare's (run ids 12,13 or 12-15, or labels
 * K=V[,K=V]); with none, every stored run, the repetitions of one run
 * (--repeat) making one selection. With --from the operands are files
 * (iobench's or fio's JSON output, bonnie++ CSV; "a.json,b.json" is one
 * selection), read by compare's importers, no store needed. The file is
 * written through the device guard (devguard_fopen), as --output is.
 */
#include "cli/command.h"
#include "cli/output.h"
#include "cli/storing.h"

#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_engine.h"
#include "compare/cmp_import.h"
#include "html/page.h"
#include "store/store_model.h"
#include "store/store_query.h"
#include "store/store_read.h"
#include "store/store_sel.h"
#include "store/store_sweep.h"
#include "sweep/sweep_analysis.h"
#include "sweep/sweep_goal.h"
#include "sys/dev/guardopen.h"
#include "util/error.h"
#include "util/xmalloc.h"

static const char report_usage[] =
	"usage: iobench report [SELECTION...] [-o FILE] [--title T] [--format html|md|txt]\n"
	"                      [--db PATH]\n"
	"       iobench report --from FILE[,FILE...]... [-o FILE] ...\n"
	"\n"
	"Write the stored runs as one page a reader would rather look at than read:\n"
	"a summary (what, which machines, when, and compare's verdicts), per figure\n"
	"bars across the selections with the confidence interval of each median\n"
	"(bw, iops, clat p50/p99; bonnie's rates), latency percentile curves from the\n"
	"stored histograms, bw and iops per job over time and the monitor's time\n"
	"series (device throughput, %util, aqu-sz, await; CPU; dirty and writeback\n"
	"memory; the buffer_head slab) with the phase boundaries marked, the\n"
	"systems side by side with their differences highlighted, and the warnings\n"
	"with their evidence, and for the points of a sweep its analysis (one panel\n"
	"per factor with its main effect, the points ranked on the goal, each\n"
	"factor's share of the variance, the interactions). A section is left out\n"
	"when its data is not there.\n"
	"\n"
	"The HTML file is self-contained (inline CSS and SVG, no script, nothing\n"
	"fetched): the plots are drawn by gnuplot (Debian: gnuplot-nox); without it\n"
	"the report says how to install it and still writes the tables.\n"
	"\n"
	"A SELECTION is run ids (12,13 or 12-15; see 'iobench results list') or labels\n"
	"K=V[,K=V...] its runs all carry, as for compare, or sweep:ID, the points of\n"
	"sweep ID (see 'iobench sweep'), a selection each; with none, every stored run,\n"
	"a repeated run's repetitions together. With --from the operands are files:\n"
	"iobench's or fio's JSON output or bonnie++ CSV, FILE,FILE for one selection.\n"
	"\n"
	"options:\n";

struct report_opts {
	const char *output;
	const char *title;
	const char *format;
	const char *goal;
	bool from;
	struct cmdopt_list words;
};

static const struct cmdopt report_rows[] = {
	{ "output", 'o', CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct report_opts, output), NULL, 0,
	  "FILE", "where the report goes (default: report.html for html, standard output for md "
	  "and txt; '-' for standard output)" },
	{ "title", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct report_opts, title), NULL, 0, "T",
	  "the page's title (default: made from the selections)" },
	{ "format", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct report_opts, format), NULL, 0,
	  "F", "html (default: one self-contained page with plots), md (Markdown tables, no "
	  "plots) or txt (aligned text)" },
	{ "goal", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct report_opts, goal), NULL, 0, "G",
	  "the figure a sweep's analysis ranks its points on ('write bw', 'randread p99', "
	  "...; default: the goal the sweep's plan names)" },
	{ "from", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct report_opts, from), NULL, 0, NULL,
	  "the operands are files, not selections of the store: iobench's or fio's JSON output "
	  "or bonnie++ CSV lines, FILE,FILE for one selection of several" },
	CMDOPT_END,
};

static const struct cmdopt_help report_help_for[] = {
	{ "db", COMMON_DB_READ_HELP },
	{ NULL, NULL },
};

static int add_word(void *arg, const char *word, char *why, size_t len)
{
	cmdopt_list_add(&((struct report_opts *)arg)->words, word);
	return 0;
}

/* What is being built: the selections and, per run, what the page needs. */
struct build {
	struct cmp_sel *sels;
	size_t nsel, alloc_sel;
	struct page_run *runs;
	size_t nr_runs;
	char **kinds;  /* owned kind texts, one per run */
	struct page_sweep *sweeps; /* the sweeps the runs are points of */
	size_t nr_sweeps, alloc_sweeps;
};

static struct cmp_sel *new_sel(struct build *b, const char *name, const char *label)
{
	b->sels = xgrow(b->sels, &b->alloc_sel, b->nsel, sizeof(*b->sels));
	cmp_sel_init(&b->sels[b->nsel], name, label);
	return &b->sels[b->nsel++];
}

/* --- selections of the store ------------------------------------------ */

static int load_run(struct store *st, int64_t id, struct cmp_sel *sel)
{
	return store_sel_load(st, "report", id, &sel->runs) < 0 ? -1 : 0;
}

/* No operand: every run, the repetitions of one run together. */
static int all_runs(struct store *st, struct build *b)
{
	struct store_ids all = { 0 };
	if (store_sel_all(st, NULL, &all) < 0)
		return -1;
	int64_t *got = all.v;
	size_t ng = all.n;
	if (!ng) {
		free(got);
		return error("report: the results database '%s' holds no run", store_path(st));
	}
	int64_t *group = xcalloc(ng, sizeof(*group));
	int rc = 0;
	for (size_t i = 0; i < ng && !rc; i++) {
		struct store_run_info info;
		if ((rc = store_run_info_get(st, got[i], &info)) < 0)
			break;
		group[i] = info.rep_group;
		store_run_info_release(&info);
		size_t s = b->nsel;
		for (size_t j = 0; j < i && group[i]; j++)
			if (group[j] == group[i]) {
				/* the selection that holds run got[j] */
				for (size_t k = 0; k < b->nsel; k++)
					for (size_t q = 0; q < b->sels[k].runs.n; q++)
						if (b->sels[k].runs.v[q].id == got[j])
							s = k;
			}
		if (s == b->nsel) {
			char *name = xasprintf("%lld", (long long)got[i]);
			char *label = group[i] ? xasprintf("runs %lld+", (long long)got[i])
					       : xasprintf("run %lld", (long long)got[i]);
			new_sel(b, name, label);
			free(name);
			free(label);
		}
		rc = load_run(st, got[i], &b->sels[s]);
	}
	/* a group's label names its runs: "runs 2,3" */
	for (size_t s = 0; s < b->nsel; s++) {
		struct cmp_sel *sel = &b->sels[s];
		if (sel->runs.n < 2)
			continue;
		char buf[256];
		size_t off = (size_t)snprintf(buf, sizeof(buf), "runs ");
		for (size_t q = 0; q < sel->runs.n && off < sizeof(buf); q++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%lld", q ? "," : "",
						(long long)sel->runs.v[q].id);
		free(sel->label);
		sel->label = xstrdup(buf);
	}
	free(group);
	free(got);
	return rc < 0 ? -1 : 0;
}

/* "sweep:ID": a selection per point of the sweep, in the order its runs
 * were stored. */
static int select_sweep(struct store *st, const char *w, const struct store_sel_word *word,
			struct build *b)
{
	int64_t id = word->sweep_id;
	struct store_sweep sw;
	int rc = store_sweep_get(st, id, &sw);
	if (rc == -ENOENT)
		return error("report: no sweep %lld in the results database '%s' (see 'iobench "
			     "results list')", (long long)id, store_path(st));
	if (rc < 0)
		return -1;
	store_sweep_release(&sw);
	struct store_ids ids = { 0 };
	if (store_sel_resolve(st, word, NULL, &ids) < 0)
		return -1;
	int64_t *got = ids.v;
	size_t ng = ids.n;
	if (!ng)
		rc = error("report: sweep %lld has no stored run yet", (long long)id);
	size_t first = b->nsel;
	for (size_t i = 0; i < ng && !rc; i++) {
		struct store_run_info info;
		if ((rc = store_run_info_get(st, got[i], &info)) < 0)
			break;
		char *label = info.sweep_point ? xstrdup(info.sweep_point)
					       : xasprintf("run %lld", (long long)got[i]);
		store_run_info_release(&info);
		size_t s = first;
		while (s < b->nsel && strcmp(b->sels[s].label, label))
			s++;
		if (s == b->nsel) {
			char *name = xasprintf("%s %s", w, label);
			new_sel(b, name, label);
			free(name);
		}
		free(label);
		rc = load_run(st, got[i], &b->sels[s]);
	}
	free(got);
	return rc < 0 ? -1 : 0;
}

static int from_store(struct store *st, const struct report_opts *o, struct build *b)
{
	if (!o->words.n)
		return all_runs(st, b);
	for (size_t i = 0; i < o->words.n; i++) {
		const char *w = o->words.v[i];
		struct store_sel_word word;
		if (store_sel_parse("report", w, STORE_SEL_SWEEP, &word) < 0)
			return -1;
		int rc;
		if (word.kind == STORE_SEL_SWEEP_ID) {
			rc = select_sweep(st, w, &word, b);
			store_sel_word_release(&word);
			if (rc < 0)
				return -1;
			continue;
		}
		struct store_ids ids = { 0 };
		char *label = store_sel_short_name(&word, w);
		struct cmp_sel *sel = new_sel(b, w, label);
		free(label);
		rc = store_sel_resolve(st, &word, NULL, &ids) < 0 ? -1 : 0;
		store_sel_word_release(&word);
		if (!rc && !ids.n)
			rc = error("report: selection '%s' selects no run", w);
		for (size_t k = 0; !rc && k < ids.n; k++)
			rc = load_run(st, ids.v[k], sel);
		store_ids_release(&ids);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* --- what the page needs beyond the figures ----------------------------- */

struct curves {
	struct page_run *run;
	size_t alloc;
};

static int take_hist(void *arg, const struct store_hist_row *row)
{
	struct curves *c = arg;
	bool bonnie = cmp_dir_is_bonnie(row->direction);
	if (strcmp(row->name, bonnie ? "lat" : "clat") || !strncmp(row->job_name, "copy ", 5))
		return 0;
	struct page_run *r = c->run;
	r->curves = xgrow(r->curves, &c->alloc, r->nr_curves, sizeof(*r->curves));
	page_curve_from_hist(&r->curves[r->nr_curves++], row->job_name, row->direction, row->hist);
	return 0;
}

/* --- a sweep's analysis -------------------------------------------------- */

static void sweep_note(struct build *b, int64_t id)
{
	for (size_t i = 0; i < b->nr_sweeps; i++)
		if (b->sweeps[i].id == id)
			return;
	b->sweeps = xgrow(b->sweeps, &b->alloc_sweeps, b->nr_sweeps, sizeof(*b->sweeps));
	memset(&b->sweeps[b->nr_sweeps], 0, sizeof(*b->sweeps));
	b->sweeps[b->nr_sweeps++].id = id;
}

static char *interval_text(const struct sweep_goal *g, double v, const struct sweep_interval *ci)
{
	char m[64], lo[64], hi[64];
	sweep_goal_format(g, v, m, sizeof(m));
	if (ci->conf <= 0)
		return xstrdup(m);
	sweep_goal_format(g, ci->lo, lo, sizeof(lo));
	sweep_goal_format(g, ci->hi, hi, sizeof(hi));
	return xasprintf("%s [%s – %s]", m, lo, hi);
}

/* The page's copy of analysis a (page.h: struct page_sweep). */
static void sweep_copy(const struct sweep_analysis *a, struct page_sweep *ps)
{
	const struct sweep_goal *g = &a->goal;
	ps->unit = g->unit;
	ps->dir = xstrdup(g->dir);
	ps->higher_is_better = g->higher_is_better;
	ps->nr_runs = a->nr_runs;
	ps->skipped = a->skipped_no_level + a->skipped_no_value;
	ps->nr_factors = a->nr_factors;
	ps->factors = xcalloc(a->nr_factors + 1, sizeof(*ps->factors));
	ps->rank = xcalloc(a->nr_factors + 1, sizeof(*ps->rank));
	for (size_t f = 0; f < a->nr_factors; f++) {
		const struct sweep_factor_effect *e = &a->factors[f];
		struct page_sweep_factor *x = &ps->factors[f];
		ps->rank[f] = a->rank[f];
		x->name = xstrdup(e->name);
		x->share = e->share;
		x->best = e->best;
		x->nr_levels = e->nr_levels;
		x->levels = xcalloc(e->nr_levels + 1, sizeof(*x->levels));
		for (size_t l = 0; l < e->nr_levels; l++) {
			const struct sweep_level *v = &e->levels[l];
			x->levels[l] = (struct page_sweep_level){
				.name = xstrdup(v->name), .n = v->n, .mean = v->mean, .lo = v->ci.lo,
				.hi = v->ci.hi, .conf = v->ci.conf,
				.text = interval_text(g, v->mean, &v->ci) };
		}
	}
	ps->nr_points = a->nr_points;
	ps->points = xcalloc(a->nr_points + 1, sizeof(*ps->points));
	for (size_t i = 0; i < a->nr_points; i++) {
		const struct sweep_point *p = &a->points[i];
		ps->points[i] = (struct page_sweep_point){
			.name = xstrdup(p->name), .n = p->n, .median = p->median, .lo = p->ci.lo,
			.hi = p->ci.hi, .conf = p->ci.conf, .text = interval_text(g, p->median, &p->ci) };
	}
	ps->nr_pairs = a->nr_pairs;
	ps->pairs = xcalloc(a->nr_pairs + 1, sizeof(*ps->pairs));
	for (size_t i = 0; i < a->nr_pairs; i++) {
		const struct sweep_interaction *q = &a->pairs[i];
		ps->pairs[i] = (struct page_sweep_pair){
			.a = ps->factors[q->a].name, .b = ps->factors[q->b].name, .share = q->share,
			.matters = q->matters, .incomplete = q->incomplete };
	}
	ps->share_higher = a->share_higher;
	ps->share_noise = a->share_noise;
	ps->interaction_share = SWEEP_INTERACTION_SHARE;
	ps->balanced = a->balanced;
	ps->overlap = a->overlap;
	ps->nr_notes = a->nr_notes;
	ps->notes = xcalloc(a->nr_notes + 1, sizeof(*ps->notes));
	for (size_t i = 0; i < a->nr_notes; i++)
		ps->notes[i] = xstrdup(a->notes[i]);
}

/* Sweep ps->id's analysis over all its stored runs, on goal_opt or the
 * goal its plan names; what keeps it from being made goes in ps->why
 * (the page says it). -1 only for a failure of the store. */
static int sweep_build(struct store *st, const char *goal_opt, struct page_sweep *ps)
{
	struct store_sweep sw;
	int rc = store_sweep_get(st, ps->id, &sw);
	if (rc == -ENOENT) {
		ps->why = xasprintf("sweep %lld is not in the results database", (long long)ps->id);
		return 0;
	}
	if (rc < 0)
		return -1;
	ps->design = sw.design ? xstrdup(sw.design) : NULL;
	ps->state = sw.state ? xstrdup(sw.state) : NULL;
	const char *goal = goal_opt ? goal_opt : sw.goal;
	struct sweep_goal g;
	char why[256];
	struct cmp_runs runs = { 0 };
	int64_t *got = NULL;
	size_t ng = 0;
	if (!goal) {
		ps->why = xasprintf("sweep %lld names no goal: give one with --goal (e.g. --goal "
				    "'write bw') for its analysis", (long long)ps->id);
		goto out;
	}
	ps->goal = xstrdup(goal);
	if (sweep_goal_parse(goal, &g, why, sizeof(why)) < 0) {
		ps->why = xasprintf("sweep %lld: no analysis: %s", (long long)ps->id, why);
		goto out;
	}
	free(ps->goal);
	ps->goal = xstrdup(g.text);
	struct store_filter f = { .since_ms = -1, .sweep_id = ps->id };
	if ((rc = store_select(st, &f, &got, &ng)) < 0)
		goto out;
	for (size_t i = 0; i < ng && !rc; i++) {
		struct cmp_run r;
		rc = store_model_load(st, got[i], &r);
		if (rc == -ENOENT)
			rc = 0;
		else if (rc == 0)
			*cmp_runs_push(&runs) = r;
	}
	if (rc < 0)
		goto out;
	struct sweep_analysis a;
	if (!sw.nr_factors || !runs.n ||
	    sweep_analyse(runs.v, runs.n, (const char *const *)sw.factors, sw.nr_factors, &g, &a) < 0) {
		ps->why = xasprintf("sweep %lld: no analysis on %s: none of its %zu stored runs has a "
				    "label of every factor and that figure", (long long)ps->id, g.text,
				    runs.n);
		goto out;
	}
	sweep_copy(&a, ps);
	sweep_analysis_release(&a);
out:
	cmp_runs_release(&runs);
	free(got);
	store_sweep_release(&sw);
	return rc < 0 ? -1 : 0;
}

static int extras_store(struct store *st, struct build *b)
{
	for (size_t i = 0; i < b->nr_runs; i++) {
		struct page_run *r = &b->runs[i];
		struct store_run_info info;
		if (store_run_info_get(st, r->run->id, &info) < 0)
			return -1;
		b->kinds[i] = xstrdup(info.kind);
		r->kind = b->kinds[i];
		r->rep_index = info.rep_index;
		if (info.sweep_id)
			sweep_note(b, info.sweep_id);
		store_run_info_release(&info);
		char *json = NULL;
		int rc = store_env_get(st, r->run->id, &json);
		if (rc < 0 && rc != -ENOENT)
			return -1;
		if (json) {
			r->env = json_tokener_parse(json);
			free(json);
		}
		struct curves c = { .run = r };
		if (store_hists_each(st, r->run->id, take_hist, &c) < 0)
			return -1;
	}
	return 0;
}

/* A file's run: the environment is its "iobench" member (run, quick) or
 * the document itself (iobench's bonnie JSON); fio's JSON has none. */
static void extras_file(struct build *b)
{
	for (size_t i = 0; i < b->nr_runs; i++) {
		struct page_run *r = &b->runs[i];
		r->kind = "file";
		r->rep_index = -1;
		const char *fmt = r->run->source_format ? r->run->source_format : "";
		if (!r->run->raw || (strcmp(fmt, CMP_FMT_IOBENCH_JSON) && strcmp(fmt, CMP_FMT_IOBENCH_BONNIE_JSON)))
			continue;
		struct json_object *root = json_tokener_parse(r->run->raw), *ib;
		if (!root)
			continue;
		if (json_object_object_get_ex(root, "iobench", &ib)) {
			r->env = json_object_get(ib);
			json_object_put(root);
		} else {
			r->env = root;
		}
	}
}

static void index_runs(struct build *b)
{
	size_t n = 0;
	for (size_t s = 0; s < b->nsel; s++)
		n += b->sels[s].runs.n;
	b->runs = xcalloc(n ? n : 1, sizeof(*b->runs));
	b->kinds = xcalloc(n ? n : 1, sizeof(*b->kinds));
	for (size_t s = 0; s < b->nsel; s++)
		for (size_t k = 0; k < b->sels[s].runs.n; k++) {
			struct page_run *r = &b->runs[b->nr_runs++];
			r->run = &b->sels[s].runs.v[k];
			r->sel = s;
			r->rep_index = -1;
		}
}

static void build_release(struct build *b)
{
	for (size_t i = 0; i < b->nr_runs; i++) {
		struct page_run *r = &b->runs[i];
		if (r->env)
			json_object_put(r->env);
		for (size_t k = 0; k < r->nr_curves; k++)
			page_curve_release(&r->curves[k]);
		free(r->curves);
		free(b->kinds[i]);
	}
	free(b->runs);
	free(b->kinds);
	for (size_t i = 0; i < b->nr_sweeps; i++)
		page_sweep_release(&b->sweeps[i]);
	free(b->sweeps);
	for (size_t s = 0; s < b->nsel; s++)
		cmp_sel_release(&b->sels[s]);
	free(b->sels);
}

static int from_files(const struct report_opts *o, struct build *b)
{
	for (size_t i = 0; i < o->words.n; i++) {
		const char *w = o->words.v[i];
		const char *base = strrchr(w, '/');
		struct cmp_sel *sel = new_sel(b, w, strchr(w, ',') || !base || !base[1] ? w : base + 1);
		char *copy = xstrdup(w), *save = NULL;
		int rc = 0;
		for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
			rc = cmp_import_file(t, &sel->runs);
		free(copy);
		if (rc < 0)
			return -1;
		if (!sel->runs.n)
			return error("report: '%s' holds no run", w);
	}
	return 0;
}

static int run_report(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct cmd_common common;
	struct build b = { 0 };
	struct store *st = NULL;
	FILE *out = NULL;
	int status = 1;
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error, said once */
	cmd_common_init(&common);
	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &o, &common);
	p.operand = add_word;
	p.operand_arg = &o;
	int rc = command_parse(ctx, &p, argc, argv, &common);
	if (rc) {
		status = rc > 0 ? 0 : 1;
		goto done;
	}
	enum page_format fmt = PAGE_HTML;
	if (o.format && page_format_parse(o.format, &fmt) < 0) {
		error("report: unknown --format '%s': use html, md or txt", o.format);
		goto done;
	}
	if (o.from && o.goal) {
		error("report: --goal ranks a sweep's points, which only the results store knows: "
		      "leave it out with --from");
		goto done;
	}
	if (o.from && !o.words.n) {
		error("report: --from needs at least one file");
		goto done;
	}
	if (o.from) {
		if (from_files(&o, &b) < 0)
			goto done;
		index_runs(&b);
		extras_file(&b);
	} else {
		if (cmd_store_read(ctx, "; store runs with run, quick, bonnie or results import, or "
				   "report files with --from") < 0)
			goto done;
		st = ctx->store;
		if (from_store(st, &o, &b) < 0)
			goto done;
		index_runs(&b);
		if (extras_store(st, &b) < 0)
			goto done;
		if (o.goal && !b.nr_sweeps) {
			error("report: --goal '%s': none of the selected runs is a point of a sweep "
			      "(select one with sweep:ID)", o.goal);
			goto done;
		}
		for (size_t i = 0; i < b.nr_sweeps; i++)
			if (sweep_build(st, o.goal, &b.sweeps[i]) < 0)
				goto done;
	}
	cmp_sels_unique_labels(b.sels, b.nsel);
	const char *path = o.output ? o.output : fmt == PAGE_HTML ? "report.html" : "-";
	bool to_stdout = !strcmp(path, "-");
	if (to_stdout) {
		out = stdout;
	} else {
		char why[2560];
		if (devguard_fopen(path, false, NULL, &out, why, sizeof(why)) < 0) {
			error("report: cannot write the report to '%s': %s", path, why);
			out = NULL;
			goto done;
		}
	}
	char source[1100];
	if (o.from)
		snprintf(source, sizeof(source), "files");
	else
		snprintf(source, sizeof(source), "the results database %s", store_path(st));
	/* a report of one sweep is titled by it */
	char sweep_title[200];
	const char *title = o.title;
	if (!title && o.words.n == 1 && !strncmp(o.words.v[0], "sweep:", 6) && b.nr_sweeps == 1) {
		snprintf(sweep_title, sizeof(sweep_title), "iobench report: sweep %lld%s%s",
			 (long long)b.sweeps[0].id, b.sweeps[0].goal ? " on " : "",
			 b.sweeps[0].goal ? b.sweeps[0].goal : "");
		title = sweep_title;
	}
	struct page_in in = {
		.title = title,
		.source = source,
		.sels = b.sels,
		.nsel = b.nsel,
		.runs = b.runs,
		.nr_runs = b.nr_runs,
		.gnuplot = "gnuplot",
		.sweeps = b.sweeps,
		.nr_sweeps = b.nr_sweeps,
	};
	const char *no_plots = NULL;
	rc = page_write(&in, fmt, out, &no_plots);
	if (no_plots)
		fprintf(stderr, "iobench: report: %s\n", no_plots);
	if (rc < 0)
		output_failed(out, rc, "the report", to_stdout ? NULL : path);
	else if (output_check(out, "the report", to_stdout ? NULL : path) == 0)
		status = 0;
	if (!to_stdout) {
		if (fclose(out) != 0 && !status) {
			error_errno(-errno, "report: cannot write the report to '%s'", path);
			status = 1;
		} else if (!status) {
			fprintf(stderr, "iobench: report written to %s\n", path);
		}
	}
	out = NULL;
done:
	build_release(&b);
	cmdopt_list_release(&o.words);
	cmd_common_release(&common);
	return status;
}

const struct command cmd_report = {
	.name = "report",
	.summary = "write stored runs or result files as one page: plots, intervals, verdicts",
	.usage = report_usage,
	.opts = report_rows,
	.common = COMMON_DB | COMMON_HELP,
	.help_for = report_help_for,
	.flags = CMD_READS_STORE,
	.run = run_report,
};
