/*
 * `iobench compare SEL_A SEL_B [SEL_C...]`: stored runs side by side
 * (compare/cmp_engine.h). A selection is run ids ("12,13", "12-15") or a
 * label set ("fs=xfs", "fs=xfs,chunk=64k": runs with all of them); with
 * --group-by K the runs the operands select (all runs when there are none)
 * are split by the value of their label K, one selection per value. With
 * --from the operands are files instead (iobench's or fio's JSON output,
 * bonnie++ CSV; "a.json,b.json" makes one selection of several files), so
 * results can be compared without storing them.
 */
#include "cli/command.h"
#include "cli/output.h"
#include "cli/storing.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_engine.h"
#include "compare/cmp_import.h"
#include "store/store_model.h"
#include "store/store_query.h"
#include "store/store_sel.h"
#include "util/error.h"
#include "util/xmalloc.h"

static const char compare_usage[] =
	"usage: iobench compare SEL_A SEL_B [SEL_C...] [--method M] [--threshold P%]\n"
	"                       [--output-format=FMT] [--db PATH]\n"
	"       iobench compare [SEL...] --group-by K\n"
	"       iobench compare --from FILE[,FILE...] FILE[,FILE...]...\n"
	"\n"
	"Put stored runs side by side: for every job and figure (bw, iops, clat\n"
	"p50/p99/p99.9, CPU usr/sys; bonnie's rate, CPU and latency per phase) each\n"
	"selection after the first as a ratio to the first, with the 95% confidence\n"
	"interval of that ratio over the selections' repetitions, marked real only\n"
	"when the interval excludes 1 and the ratio is beyond the noise threshold,\n"
	"and one verdict line per figure (\"xfs: 1.42× ext4 write bw (1.35–1.50),\n"
	"real, better\"). The repetitions of a configuration are the runs of its\n"
	"selection; bonnie's -x tests count as repetitions too. With a single run\n"
	"on a side no interval can be given: compare says so and how many runs per\n"
	"side would give one. The differences in the runs' context (host, tool,\n"
	"kernel, devices and their tunables, job options) are listed under the\n"
	"table.\n"
	"\n"
	"A selection SEL is run ids (12,13 or 12-15; see 'iobench results list') or\n"
	"labels K=V[,K=V...] that its runs all carry (--label of run, quick, bonnie,\n"
	"iobench-mpi meta and results import).\n"
	"\n"
	"options:\n";

struct compare_opts {
	const char *group_by;
	const char *method;
	const char *threshold;
	bool from;
	struct cmdopt_list words;
};

static const struct cmdopt compare_rows[] = {
	{ "group-by", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct compare_opts, group_by), NULL,
	  0, "K", "one selection per value of label K among the runs selected (all runs when no "
	  "SEL is given), in the order of their first run" },
	{ "method", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct compare_opts, method), NULL, 0,
	  "M", "the interval: fieller (of the ratio of means), bootstrap (percentile bootstrap "
	  "of the ratio of medians) or auto (default: Fieller below 5 runs a side, else "
	  "bootstrap)" },
	{ "threshold", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct compare_opts, threshold),
	  NULL, 0, "P%", "the noise threshold: a ratio within P% of 1 is no real difference even "
	  "when its interval excludes 1 (default 1%; 0 for the interval alone)" },
	{ "from", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct compare_opts, from), NULL, 0, NULL,
	  "the operands are files, not selections of the store: iobench's or fio's JSON output "
	  "or bonnie++ CSV lines, FILE,FILE for one selection of several" },
	CMDOPT_END,
};

static const struct cmdopt_help compare_help_for[] = {
	{ "output-format", "normal (default: the table, verdicts and context differences) or "
			   "json (the same as one JSON document)" },
	{ "db", COMMON_DB_READ_HELP },
	{ NULL, NULL },
};

static int add_word(void *arg, const char *word, char *why, size_t len)
{
	cmdopt_list_add(&((struct compare_opts *)arg)->words, word);
	return 0;
}

/* --- selections from the store ------------------------------------- */

/* The ids a selection word names (store/store_sel.h): ids as given (each
 * must exist), labels through the store's filter. label gets the short
 * name. */
static int select_word(struct store *st, const char *word, struct store_ids *ids, char **label)
{
	struct store_sel_word w;
	if (store_sel_parse("compare", word, 0, &w) < 0)
		return -1;
	int rc = store_sel_resolve(st, &w, NULL, ids);
	if (rc == 0)
		*label = store_sel_short_name(&w, word);
	store_sel_word_release(&w);
	return rc < 0 ? -1 : 0;
}

static int load_ids(struct store *st, const char *word, const struct store_ids *ids,
		    struct cmp_sel *sel)
{
	if (!ids->n)
		return error("compare: selection '%s' selects no run", word);
	for (size_t i = 0; i < ids->n; i++)
		if (store_sel_load(st, "compare", ids->v[i], &sel->runs) < 0)
			return -1;
	return 0;
}

static int from_store(struct store *st, const struct compare_opts *o, struct cmp_sel **sels,
		      size_t *nsel)
{
	if (!o->group_by) {
		*sels = xcalloc(o->words.n, sizeof(**sels));
		for (size_t i = 0; i < o->words.n; i++) {
			struct store_ids ids = { 0 };
			char *label = NULL;
			int rc = select_word(st, o->words.v[i], &ids, &label);
			cmp_sel_init(&(*sels)[i], o->words.v[i], label);
			free(label);
			*nsel = i + 1;
			if (rc == 0)
				rc = load_ids(st, o->words.v[i], &ids, &(*sels)[i]);
			store_ids_release(&ids);
			if (rc < 0)
				return -1;
		}
		return 0;
	}
	/* --group-by K: everything the operands select (or every run) by K's value */
	struct store_ids all = { 0 };
	if (!o->words.n) {
		if (store_sel_all(st, NULL, &all) < 0)
			return -1;
	}
	for (size_t i = 0; i < o->words.n; i++) {
		char *label = NULL;
		if (select_word(st, o->words.v[i], &all, &label) < 0) {
			store_ids_release(&all);
			return -1;
		}
		free(label);
	}
	size_t alloc = 0;
	int rc = 0;
	for (size_t i = 0; i < all.n && !rc; i++) {
		struct cmp_run r;
		if ((rc = store_model_load(st, all.v[i], &r)) == -ENOENT) {
			rc = 0;
			continue;
		}
		if (rc < 0)
			break;
		const char *v = cmp_kvs_get(&r.labels, o->group_by);
		if (!v) {
			cmp_run_release(&r);
			continue;
		}
		size_t s = 0;
		while (s < *nsel && strcmp((*sels)[s].label, v))
			s++;
		if (s == *nsel) {
			*sels = xgrow(*sels, &alloc, s, sizeof(**sels));
			char *name = xasprintf("%s=%s", o->group_by, v);
			cmp_sel_init(&(*sels)[s], name, v);
			free(name);
			(*nsel)++;
		}
		*cmp_runs_push(&(*sels)[s].runs) = r;
	}
	store_ids_release(&all);
	if (rc < 0)
		return -1;
	if (*nsel < 2)
		return error("compare: --group-by %s finds %zu value%s among the runs selected: "
			     "nothing to compare", o->group_by, *nsel, *nsel == 1 ? "" : "s");
	return 0;
}

/* --- selections from files ------------------------------------------ */

static int from_files(const struct compare_opts *o, struct cmp_sel **sels, size_t *nsel)
{
	*sels = xcalloc(o->words.n, sizeof(**sels));
	for (size_t i = 0; i < o->words.n; i++) {
		const char *w = o->words.v[i];
		const char *base = strrchr(w, '/');
		cmp_sel_init(&(*sels)[i], w, strchr(w, ',') || !base || !base[1] ? w : base + 1);
		*nsel = i + 1;
		char *copy = xstrdup(w), *save = NULL;
		int rc = 0;
		for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save))
			rc = cmp_import_file(t, &(*sels)[i].runs);
		free(copy);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int run_compare(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct compare_opts o = { 0 };
	struct cmd_common common;
	struct cmp_opts co = CMP_OPTS_DEFAULT;
	struct cmp_sel *sels = NULL;
	size_t nsel = 0;
	int status = 1;
	cmd_common_init(&common);

	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &o, &common);
	p.operand = add_word;
	p.operand_arg = &o;
	int rc = command_parse(ctx, &p, argc, argv, &common);
	if (rc) {
		status = rc > 0 ? 0 : 1;
		goto out;
	}
	const char *fmt = common.output_format ? common.output_format : "normal";
	if (strcmp(fmt, "normal") && strcmp(fmt, "json")) {
		error("compare: unknown output format '%s': use normal or json", fmt);
		goto out;
	}
	if (o.method && cmp_method_parse(o.method, &co.method) < 0) {
		error("compare: unknown --method '%s': use auto, fieller or bootstrap", o.method);
		goto out;
	}
	if (o.threshold) {
		char *end;
		double t = strtod(o.threshold, &end);
		if (end == o.threshold || (*end && strcmp(end, "%")) || !(t >= 0 && t < 100)) {
			error("compare: bad --threshold '%s': give a percentage from 0 to 99.9", o.threshold);
			goto out;
		}
		co.threshold = t / 100;
	}
	if (o.from && o.group_by) {
		error("compare: --group-by groups stored runs by a label; files (--from) have none");
		goto out;
	}
	if (!o.group_by && o.words.n < 2) {
		error("compare: needs at least two selections (see 'iobench help compare')");
		goto out;
	}
	if (o.from)
		rc = from_files(&o, &sels, &nsel);
	else if ((rc = cmd_store_read(ctx, "; store runs with run, quick, bonnie or results "
				      "import, or compare files with --from")) == 0)
		rc = from_store(ctx->store, &o, &sels, &nsel);
	if (rc < 0)
		goto out;
	cmp_sels_unique_labels(sels, nsel);
	struct cmp_result res;
	if (cmp_compute(sels, nsel, &co, &res) < 0)
		goto out;
	rc = !strcmp(fmt, "json") ? cmp_report_json(&res, stdout) : cmp_report_normal(&res, stdout);
	cmp_result_release(&res);
	status = rc < 0 || output_check(stdout, "the comparison", NULL) < 0;
out:
	for (size_t i = 0; i < nsel; i++)
		cmp_sel_release(&sels[i]);
	free(sels);
	cmdopt_list_release(&o.words);
	cmd_common_release(&common);
	return status;
}

const struct command cmd_compare = {
	.name = "compare",
	.summary = "compare stored runs or result files: ratios with confidence intervals",
	.usage = compare_usage,
	.opts = compare_rows,
	.common = COMMON_DB | COMMON_OUTPUT_FORMAT | COMMON_HELP,
	.help_for = compare_help_for,
	.flags = CMD_READS_STORE,
	.run = run_compare,
};
