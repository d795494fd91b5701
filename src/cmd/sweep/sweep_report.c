/*
 * `iobench sweep report` (sweep_report.h): which runs (a sweep's, by
 * runs.sweep_id; or the runs that selections name: ids, ranges, label
 * sets, as compare takes them), which factors (--factors, or the labels
 * the runs' sweep points name) and which goal (--goal), loaded from the
 * store into compare's model and handed to the sweep analysis.
 */
#include "cmd/sweep/sweep_report_int.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/output.h"
#include "cli/storing.h"
#include "store/store.h"
#include "store/store_model.h"
#include "store/store_query.h"
#include "store/store_sel.h"
#include "sweep/sweep_analysis.h"
#include "sweep/sweep_goal.h"
#include "util/error.h"
#include "util/xmalloc.h"

static const char report_usage[] =
	"usage: iobench sweep report SWEEP_ID --goal G [--output-format=FMT]\n"
	"       iobench sweep report --factors F,... --goal G [SEL...] [--label K=V]... [--host H]\n"
	"\n"
	"The analysis of a sweep's runs on its goal figure: the points ranked on\n"
	"the goal (median and its confidence interval), the main effect of each\n"
	"factor (mean per level with its 95% interval, the best level), each\n"
	"factor's share of the goal's variance and the two-factor interactions\n"
	"that matter, with a note where an interaction makes a main effect\n"
	"misleading. SWEEP_ID names a sweep's runs (each point's runs carry the\n"
	"sweep's id); its factors are the labels its points name. With --factors\n"
	"instead, any stored runs that carry those labels are analysed, and the\n"
	"operands are selections: run ids (12,13 or 12-15) or labels K=V[,K=V...]\n"
	"that its runs all carry, as compare takes them; the runs of all of them\n"
	"together (every stored run when none is given) that have a label of\n"
	"every factor.\n"
	"\n"
	"A goal G is 'DIR bw', 'DIR iops' (DIR: read, write, trim, mixed, or\n"
	"randread ...), 'DIR p99' or 'DIR clat|lat|slat pNN|mean|max' (lower is\n"
	"better), 'bonnie PHASE [rate|cpu|latency]' (put_block, seq_create, ...),\n"
	"or 'elapsed'.\n"
	"\n"
	"options:\n";

struct report_opts {
	const char *goal;
	const char *factors;
	const char *host;
	struct cmdopt_list words;
};

static const struct cmdopt report_rows[] = {
	{ "goal", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct report_opts, goal), NULL, 0, "G",
	  "the figure to rank and analyse on, e.g. 'write bw', 'randread p99', 'bonnie "
	  "seq_create', 'elapsed'" },
	{ "factors", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct report_opts, factors), NULL, 0,
	  "F,...", "the factors: label keys of the runs, whose runs the operands select "
	  "(instead of a SWEEP_ID)" },
	{ "host", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct report_opts, host), NULL, 0, "H",
	  "only runs of host H" },
	CMDOPT_END,
};

static const struct cmdopt_help report_help_for[] = {
	{ "output-format", "normal (default: the analysis as text) or json" },
	{ "db", COMMON_DB_READ_HELP },
	{ "label", "only runs with label K=V (repeatable: all of them)" },
	{ NULL, NULL },
};

const struct command cmd_sweep_report = {
	.name = "sweep report",
	.summary = "the analysis of a sweep's runs: points ranked, effects, importance",
	.usage = report_usage,
	.opts = report_rows,
	.common = COMMON_DB | COMMON_OUTPUT_FORMAT | COMMON_LABEL | COMMON_HELP,
	.help_for = report_help_for,
	.flags = CMD_READS_STORE,
};

static int add_word(void *arg, const char *word, char *why, size_t len)
{
	(void)why;
	(void)len;
	cmdopt_list_add(&((struct report_opts *)arg)->words, word);
	return 0;
}

/* --- which runs --------------------------------------------------------- */

/* The runs of one selection word (store/store_sel.h) among those base
 * selects (--label, --host). */
static int select_word(struct store *st, const struct store_filter *base, const char *word,
		       struct store_ids *out)
{
	struct store_sel_word w;
	if (store_sel_parse("sweep report", word, 0, &w) < 0)
		return -1;
	int rc = store_sel_resolve(st, &w, base, out);
	store_sel_word_release(&w);
	return rc < 0 ? -1 : 0;
}

/* --- factors from the points' text -------------------------------------- */

struct names {
	char **v;
	size_t n, alloc;
};

static void names_add(struct names *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return;
	l->v = xgrow(l->v, &l->alloc, l->n, sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
}

static void names_release(struct names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Where "K=V" stands in text as whole words, or -1. */
static long word_at(const char *text, const char *k, const char *v)
{
	size_t kl = strlen(k), vl = strlen(v);
	for (const char *p = text; (p = strstr(p, k)) != NULL; p++) {
		if (p != text && p[-1] != ' ')
			continue;
		if (p[kl] != '=' || strncmp(p + kl + 1, v, vl))
			continue;
		char after = p[kl + 1 + vl];
		if (after == '\0' || after == ' ')
			return p - text;
	}
	return -1;
}

/* The labels of run that its point's text names, in the text's order. */
static void point_factors(const char *point, const struct cmp_run *run, struct names *out)
{
	size_t n = run->labels.n;
	long *at = xcalloc(n ? n : 1, sizeof(long));
	for (size_t i = 0; i < n; i++)
		at[i] = word_at(point, run->labels.v[i].key, run->labels.v[i].value);
	for (;;) {
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (at[i] >= 0 && (best == n || at[i] < at[best]))
				best = i;
		if (best == n)
			break;
		names_add(out, run->labels.v[best].key);
		at[best] = -1;
	}
	free(at);
}

/* --- loading and the analysis ------------------------------------------ */

static int load(struct store *st, const struct store_ids *ids, bool points, struct cmp_runs *runs,
		struct names *factors)
{
	for (size_t i = 0; i < ids->n; i++) {
		struct cmp_run r;
		int rc = store_model_load(st, ids->v[i], &r);
		if (rc == -ENOENT)
			continue;
		if (rc < 0)
			return -1;
		if (points) {
			struct store_run_info info;
			if (store_run_info_get(st, ids->v[i], &info) == 0) {
				if (info.sweep_point)
					point_factors(info.sweep_point, &r, factors);
				store_run_info_release(&info);
			}
		}
		*cmp_runs_push(runs) = r;
	}
	return 0;
}

static void split_factors(const char *text, struct names *out)
{
	char *copy = xstrdup(text), *save = NULL;
	for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
		names_add(out, t);
	free(copy);
}

static int analyse(const struct cmp_runs *runs, const struct names *factors, const char *goal_text,
		   bool json, FILE *out, const char *what)
{
	struct sweep_goal g;
	char why[256];
	if (!goal_text)
		return error("sweep report: which figure? give --goal, e.g. --goal 'write bw'");
	if (sweep_goal_parse(goal_text, &g, why, sizeof(why)) < 0)
		return error("sweep report: %s", why);
	if (!factors->n)
		return error("sweep report: %s: no factors (the runs' points name no label); give "
			     "--factors", what);
	if (!runs->n)
		return error("sweep report: %s: no stored runs", what);
	struct sweep_analysis a;
	if (sweep_analyse(runs->v, runs->n, (const char *const *)factors->v, factors->n, &g,
			  &a) < 0) {
		/* say what the runs do have, for a goal none of them gives */
		if (a.skipped_no_value == runs->n) {
			char have[512];
			sweep_goal_available(&runs->v[0], have, sizeof(have));
			error("sweep report: no run has a figure for goal '%s'; run %lld has: %s",
			      g.text, (long long)runs->v[0].id, have);
		}
		return -1;
	}
	int rc = 0;
	if (json) {
		rc = sweep_report_json(&a, out);
	} else {
		fprintf(out, "%s\n", what);
		sweep_report_text(&a, out);
	}
	sweep_analysis_release(&a);
	return rc < 0 ? -1 : 0;
}

int sweep_report_sweep(struct store *st, int64_t sweep_id, const char *goal,
		       const char *const *factors, size_t nf, bool json, FILE *out)
{
	struct store_filter b = { .since_ms = -1, .sweep_id = sweep_id };
	struct store_ids ids = { 0 };
	struct cmp_runs runs = { 0 };
	struct names fs = { 0 }, from_points = { 0 };
	int rc = store_sel_all(st, &b, &ids) < 0 ? -1 : 0;
	if (!rc)
		rc = load(st, &ids, true, &runs, &from_points);
	for (size_t i = 0; i < nf; i++)
		names_add(&fs, factors[i]);
	char what[64];
	snprintf(what, sizeof(what), "sweep %lld", (long long)sweep_id);
	if (!rc)
		rc = analyse(&runs, nf ? &fs : &from_points, goal, json, out, what);
	names_release(&fs);
	names_release(&from_points);
	cmp_runs_release(&runs);
	store_ids_release(&ids);
	return rc;
}

int sweep_report_main(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct cmd_common common;
	struct cmd_ctx sub = { .cmd = &cmd_sweep_report, .argc = argc, .argv = argv };
	struct store *st = NULL;
	struct store_label *labels = NULL;
	size_t nr_labels = 0;
	struct store_ids ids = { 0 };
	struct cmp_runs runs = { 0 };
	struct names factors = { 0 };
	int status = 1;
	(void)ctx;
	cmd_common_init(&common);
	struct cmdopt_parser p;
	command_parser(&p, &cmd_sweep_report, &o, &common);
	p.operand = add_word;
	p.operand_arg = &o;
	int rc = command_parse(&sub, &p, argc, argv, &common);
	if (rc) {
		status = rc > 0 ? 0 : 1;
		goto out;
	}
	const char *fmt = common.output_format ? common.output_format : "normal";
	if (strcmp(fmt, "normal") && strcmp(fmt, "json")) {
		error("sweep report: unknown output format '%s': use normal or json", fmt);
		goto out;
	}
	bool json = !strcmp(fmt, "json");
	labels = xcalloc(common.labels.n + 1, sizeof(*labels));
	for (; nr_labels < common.labels.n; nr_labels++)
		if (store_label_parse(common.labels.v[nr_labels], &labels[nr_labels]) < 0)
			goto out;
	struct store_filter b = { .labels = labels, .nr_labels = nr_labels, .since_ms = -1,
				  .host = o.host };
	if (o.factors)
		split_factors(o.factors, &factors);
	if (!o.factors) {
		/* SWEEP_ID */
		int64_t id;
		if (o.words.n != 1 || store_sel_parse_id(o.words.v[0], &id) < 0) {
			error("sweep report: give one SWEEP_ID, or --factors F,... to analyse stored "
			      "runs by their labels (see 'iobench sweep report --help')");
			goto out;
		}
		if (cmd_store_read(&sub, "") < 0)
			goto out;
		st = sub.store;
		b.sweep_id = id;
		if (store_sel_all(st, &b, &ids) < 0 ||
		    load(st, &ids, true, &runs, &factors) < 0)
			goto out;
		char what[64];
		snprintf(what, sizeof(what), "sweep %lld", (long long)id);
		if (!ids.n) {
			error("sweep report: sweep %lld has no stored runs", (long long)id);
			goto out;
		}
		if (analyse(&runs, &factors, o.goal, json, stdout, what) < 0)
			goto out;
	} else {
		if (!factors.n) {
			error("sweep report: --factors names no factor");
			goto out;
		}
		if (cmd_store_read(&sub, "") < 0)
			goto out;
		st = sub.store;
		if (!o.words.n && store_sel_all(st, &b, &ids) < 0)
			goto out;
		for (size_t i = 0; i < o.words.n; i++)
			if (select_word(st, &b, o.words.v[i], &ids) < 0)
				goto out;
		if (!ids.n) {
			error("sweep report: the selection names no stored run");
			goto out;
		}
		if (load(st, &ids, false, &runs, NULL) < 0)
			goto out;
		char what[64];
		snprintf(what, sizeof(what), "%zu stored run(s)", runs.n);
		if (analyse(&runs, &factors, o.goal, json, stdout, what) < 0)
			goto out;
	}
	status = output_check(stdout, "the sweep report", NULL) < 0;
out:
	store_labels_free(labels, nr_labels);
	store_ids_release(&ids);
	cmp_runs_release(&runs);
	names_release(&factors);
	cmd_store_close(&sub); /* the dispatcher closes the sweep command's, not this one */
	cmdopt_list_release(&o.words);
	cmd_common_release(&common);
	return status;
}
