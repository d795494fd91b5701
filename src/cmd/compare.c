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

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/cmp_engine.h"
#include "compare/cmp_import.h"
#include "store/store_model.h"
#include "store/store_query.h"
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

struct idlist {
	int64_t *v;
	size_t n, alloc;
};

static void id_add(struct idlist *l, int64_t id)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == id)
			return;
	l->v = xgrow(l->v, &l->alloc, l->n, sizeof(*l->v));
	l->v[l->n++] = id;
}

static int parse_id(const char *s, const char *word, int64_t *id)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v <= 0)
		return error("compare: '%s' in selection '%s' is not a run id (see 'iobench results "
			     "list') nor a label K=V", s, word);
	*id = v;
	return 0;
}

/* "12,13,20-22" */
static int parse_ids(const char *word, struct idlist *ids)
{
	char *copy = xstrdup(word), *save = NULL;
	int rc = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(t, '-');
		int64_t a, b;
		if (dash) {
			*dash = '\0';
			if ((rc = parse_id(t, word, &a)) < 0 || (rc = parse_id(dash + 1, word, &b)) < 0)
				break;
			if (b < a || b - a > 100000) {
				rc = error("compare: bad range '%s-%s' in selection '%s'", t, dash + 1, word);
				break;
			}
			for (int64_t i = a; i <= b; i++)
				id_add(ids, i);
		} else if ((rc = parse_id(t, word, &a)) == 0) {
			id_add(ids, a);
		}
	}
	free(copy);
	return rc < 0 ? -1 : 0;
}

/* The ids a selection word names: ids as given (each must exist), labels
 * through the store's filter. label gets the short name. */
static int select_word(struct store *st, const char *word, struct idlist *ids, char **label)
{
	if (!strchr(word, '=')) {
		if (parse_ids(word, ids) < 0)
			return -1;
		*label = xasprintf("run%s %s", ids->n > 1 ? "s" : "", word);
		return 0;
	}
	char *copy = xstrdup(word), *save = NULL;
	struct store_label *l = NULL;
	size_t n = 0, alloc = 0;
	int rc = 0;
	char *vals = xstrdup("");
	for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		l = xgrow(l, &alloc, n, sizeof(*l));
		if (store_label_parse(t, &l[n]) < 0) {
			rc = -1;
			break;
		}
		char *v = xasprintf("%s%s%s", vals, *vals ? "," : "", l[n].value);
		free(vals);
		vals = v;
		n++;
	}
	free(copy);
	if (!rc) {
		struct store_filter f = { .labels = l, .nr_labels = n, .since_ms = -1 };
		int64_t *got = NULL;
		size_t ng = 0;
		if (store_select(st, &f, &got, &ng) < 0) {
			rc = -1;
		} else {
			for (size_t i = 0; i < ng; i++)
				id_add(ids, got[i]);
			free(got);
		}
	}
	store_labels_free(l, n);
	if (rc)
		free(vals);
	else
		*label = vals;
	return rc;
}

static int load_ids(struct store *st, const char *word, const struct idlist *ids,
		    struct cmp_sel *sel)
{
	if (!ids->n)
		return error("compare: selection '%s' selects no run", word);
	for (size_t i = 0; i < ids->n; i++) {
		struct cmp_run r;
		int rc = store_model_load(st, ids->v[i], &r);
		if (rc == -ENOENT)
			return error("compare: no run %lld in the results database '%s'",
				     (long long)ids->v[i], store_path(st));
		if (rc < 0)
			return -1;
		*cmp_runs_push(&sel->runs) = r;
	}
	return 0;
}

static int from_store(struct store *st, const struct compare_opts *o, struct cmp_sel **sels,
		      size_t *nsel)
{
	if (!o->group_by) {
		*sels = xcalloc(o->words.n, sizeof(**sels));
		for (size_t i = 0; i < o->words.n; i++) {
			struct idlist ids = { 0 };
			char *label = NULL;
			int rc = select_word(st, o->words.v[i], &ids, &label);
			cmp_sel_init(&(*sels)[i], o->words.v[i], label);
			free(label);
			*nsel = i + 1;
			if (rc == 0)
				rc = load_ids(st, o->words.v[i], &ids, &(*sels)[i]);
			free(ids.v);
			if (rc < 0)
				return -1;
		}
		return 0;
	}
	/* --group-by K: everything the operands select (or every run) by K's value */
	struct idlist all = { 0 };
	if (!o->words.n) {
		struct store_filter f = { .since_ms = -1 };
		int64_t *got = NULL;
		size_t ng = 0;
		if (store_select(st, &f, &got, &ng) < 0)
			return -1;
		for (size_t i = 0; i < ng; i++)
			id_add(&all, got[i]);
		free(got);
	}
	for (size_t i = 0; i < o->words.n; i++) {
		char *label = NULL;
		if (select_word(st, o->words.v[i], &all, &label) < 0) {
			free(all.v);
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
	free(all.v);
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

/* Verdicts name the selections by label: two alike become their letters. */
static void unique_labels(struct cmp_sel *sels, size_t nsel)
{
	for (size_t i = 0; i < nsel; i++)
		for (size_t j = i + 1; j < nsel; j++)
			if (!strcmp(sels[i].label, sels[j].label)) {
				for (size_t k = 0; k < nsel; k++) {
					free(sels[k].label);
					sels[k].label = xasprintf("%c", (int)('A' + (k < 26 ? k : 25)));
				}
				return;
			}
}

static int open_store(const struct cmd_common *c, struct store **st)
{
	char *path;
	struct stat sb;
	*st = NULL;
	if (store_path_resolve(c->db, false, &path) < 0)
		return -1;
	int rc = 0;
	if (stat(path, &sb) < 0 && errno == ENOENT)
		rc = error("compare: no results stored yet (no database '%s'); store runs with "
			   "run, quick, bonnie or results import, or compare files with --from", path);
	else if (store_open(path, st) < 0)
		rc = -1;
	free(path);
	return rc;
}

static int run_compare(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct compare_opts o = { 0 };
	struct cmd_common common;
	struct cmp_opts co = CMP_OPTS_DEFAULT;
	struct cmp_sel *sels = NULL;
	size_t nsel = 0;
	struct store *st = NULL;
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
	else if ((rc = open_store(&common, &st)) == 0)
		rc = from_store(st, &o, &sels, &nsel);
	if (rc < 0)
		goto out;
	unique_labels(sels, nsel);
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
	store_close(st);
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
	.run = run_compare,
};
