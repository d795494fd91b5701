/*
 * `iobench results`: the stored runs (store/store_query.h). list shows
 * them (filtered by --label, --since, --host; --json for a program),
 * show reprints one exactly as it printed (the stored renderings), delete
 * and label change them afterwards, export writes their figures as rows
 * (results_export.c). Each subcommand takes only its own options (strict
 * cmdopt rows by subcommand). A missing database is an empty one: nothing
 * is created to be read.
 */
#include "cmd/results/results_int.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/command.h"
#include "cli/output.h"
#include "cli/storing.h"
#include "store/store_sel.h"
#include "util/array.h"
#include "util/error.h"
#include "util/json.h"
#include "util/xmalloc.h"

enum {
	SUB_LIST = 1 << 0,
	SUB_SHOW = 1 << 1,
	SUB_DELETE = 1 << 2,
	SUB_LABEL = 1 << 3,
	SUB_EXPORT = 1 << 4,
	SUB_IMPORT = 1 << 5,
};

static const struct {
	const char *name;
	unsigned bit;
	unsigned common; /* the shared rows it takes */
} subs[] = {
	{ "list", SUB_LIST, COMMON_DB | COMMON_LABEL | COMMON_HELP },
	{ "show", SUB_SHOW, COMMON_DB | COMMON_OUTPUT_FORMAT | COMMON_HELP },
	{ "delete", SUB_DELETE, COMMON_DB | COMMON_HELP },
	{ "label", SUB_LABEL, COMMON_DB | COMMON_HELP },
	{ "export", SUB_EXPORT, COMMON_DB | COMMON_LABEL | COMMON_HELP },
	{ "import", SUB_IMPORT, COMMON_DB | COMMON_LABEL | COMMON_HELP },
};

static const char *sub_at(size_t i)
{
	return i < ARRAY_SIZE(subs) ? subs[i].name : NULL;
}

static const char results_usage[] =
	"usage: iobench results list [--label K=V]... [--since DATE] [--host H] [--json]\n"
	"       iobench results show ID [--output-format=FMT]\n"
	"       iobench results delete ID...\n"
	"       iobench results label ID K=V...\n"
	"       iobench results export [ID|K=V]... [--label K=V]... [--since DATE] [--host H]\n"
	"                              [--format csv|json]\n"
	"       iobench results import FILE... [--label K=V]... [--host H]\n"
	"\n"
	"The results every run, quick, bonnie and iobench-mpi meta stored (see --db\n"
	"and --no-store of those commands). list shows one line per run: its id, start (local time),\n"
	"kind, host, status (ok, exit N, interrupted), jobs and labels. show prints a\n"
	"run again byte for byte as it printed it in FMT (default: the format it\n"
	"printed; every run keeps normal, json and terse, quick its table, bonnie\n"
	"its text, csv and json, meta its SUMMARY table and json). delete removes runs with everything they own;\n"
	"label adds labels or changes their values. export writes one row per run,\n"
	"job, direction and figure, with the run's labels as columns, for a\n"
	"spreadsheet or pandas; its selection is run ids (12,13 or 12-15, as for\n"
	"compare), K=V labels and the filters, all of which must hold (none: every\n"
	"run). import stores results\n"
	"made elsewhere, fio's JSON or JSON+ output (3.x), iobench's JSON, bonnie++\n"
	"CSV lines (formats 1.96, 1.97, 1.98; several per file), one run of kind\n"
	"import per file (per configuration for CSV), with the labels given, so\n"
	"they are listed and compared beside iobench's runs; a file that is none of\n"
	"these is refused naming its line, and then nothing is imported; a\n"
	"figure fio printed as nan or inf is left out with a warning naming the\n"
	"file, its JSON path and its value.\n"
	"\n"
	"DATE is YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS] or YYYY-MM-DDTHH:MM[:SS] in local\n"
	"time, or @SECONDS since the epoch.\n"
	"\n"
	"options:\n";

static const struct cmdopt results_rows[] = {
	{ "since", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct results_cmdline, since), NULL,
	  SUB_LIST | SUB_EXPORT, "DATE", "list, export: runs started at DATE or later" },
	{ "host", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct results_cmdline, host), NULL,
	  SUB_LIST | SUB_EXPORT | SUB_IMPORT, "H", "list, export: runs on host H; import: the "
	  "host of files that do not name theirs (fio's JSON; default: unknown)" },
	{ "json", 0, CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct results_cmdline, json), NULL,
	  SUB_LIST, NULL, "list: one JSON array of the runs" },
	{ "format", 0, CMDOPT_REQARG, CMDOPT_STRING, offsetof(struct results_cmdline, format),
	  NULL, SUB_EXPORT, "csv|json", "export: the rows as CSV (default, with a header line) "
	  "or as a JSON array of objects" },
	CMDOPT_END,
};

static const struct cmdopt_help results_help_for[] = {
	{ "label", "list, export: runs with label K=V (repeatable: all of them); import: "
		   "label the imported runs K=V" },
	{ "output-format", "show: the stored output to print (normal, json, json+, terse; quick: "
			   "table; bonnie: normal, csv, json)" },
	{ "db", COMMON_DB_READ_HELP },
	{ NULL, NULL },
};

static int add_word(void *arg, const char *word, char *why, size_t len)
{
	cmdopt_list_add(&((struct results_cmdline *)arg)->words, word);
	return 0;
}

int results_parse_id(const char *word, int64_t *id)
{
	if (store_sel_parse_id(word, id) < 0)
		return error("'%s' is not a run id (the first column of 'iobench results list')",
			     word);
	return 0;
}

void results_iso_time(int64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	gmtime_r(&t, &tm);
	char s[40];
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03dZ", s, (int)(ms % 1000));
}

/* DATE as --since takes it, in ms since the epoch. */
static int parse_since(const char *v, int64_t *ms)
{
	if (v[0] == '@') {
		char *end;
		errno = 0;
		long long s = strtoll(v + 1, &end, 10);
		if (!errno && end != v + 1 && !*end && s >= 0) {
			*ms = (int64_t)s * 1000;
			return 0;
		}
	} else {
		static const char *const forms[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
						     "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d" };
		for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
			struct tm tm = { 0 };
			const char *end = strptime(v, forms[i], &tm);
			if (!end || *end)
				continue;
			tm.tm_isdst = -1;
			time_t t = mktime(&tm);
			if (t == (time_t)-1)
				break;
			*ms = (int64_t)t * 1000;
			return 0;
		}
	}
	return error("bad --since '%s': give YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS] or @SECONDS", v);
}

int results_filter_build(const struct results_cmdline *r, const struct cmd_common *c,
			 bool operands, struct results_filter *out)
{
	memset(out, 0, sizeof(*out));
	out->f.since_ms = -1;
	out->f.host = r->host;
	size_t alloc = 0;
	for (size_t i = 0; i < c->labels.n; i++) {
		out->labels = xgrow(out->labels, &alloc, out->nr_labels, sizeof(*out->labels));
		if (store_label_parse(c->labels.v[i], &out->labels[out->nr_labels]) < 0)
			goto fail;
		out->nr_labels++;
	}
	/* the operands (store/store_sel.h): ids and ranges add ids, K=V sets labels */
	for (size_t i = 0; operands && i < r->words.n; i++) {
		const char *w = r->words.v[i];
		struct store_sel_word word;
		if (store_sel_parse("results export", w, 0, &word) < 0)
			goto fail;
		if (word.kind == STORE_SEL_IDS && !word.ids.n) {
			store_sel_word_release(&word);
			results_parse_id(w, &(int64_t){ 0 }); /* says why */
			goto fail;
		}
		for (size_t k = 0; k < word.ids.n; k++)
			store_ids_add(&out->ids, word.ids.v[k]);
		for (size_t k = 0; k < word.nr_labels; k++) {
			out->labels = xgrow(out->labels, &alloc, out->nr_labels, sizeof(*out->labels));
			out->labels[out->nr_labels++] = word.labels[k]; /* moved */
		}
		word.nr_labels = 0;
		store_sel_word_release(&word);
	}
	if (r->since && parse_since(r->since, &out->f.since_ms) < 0)
		goto fail;
	out->f.ids = out->ids.v;
	out->f.nr_ids = out->ids.n;
	out->f.labels = out->labels;
	out->f.nr_labels = out->nr_labels;
	return 0;
fail:
	results_filter_release(out);
	return -1;
}

void results_filter_release(struct results_filter *rf)
{
	store_labels_free(rf->labels, rf->nr_labels);
	store_ids_release(&rf->ids);
	memset(rf, 0, sizeof(*rf));
}

/* The database, or *st NULL (and 0) when there is none yet; the
 * dispatcher closes it. */
static int open_db(struct cmd_ctx *ctx, struct store **st)
{
	int rc = cmd_store_read(ctx, NULL);
	*st = ctx->store;
	return rc;
}

static void status_text(const struct store_run_info *i, char *buf, size_t len)
{
	if (i->interrupted)
		snprintf(buf, len, "interrupted");
	else if (!i->have_exit_status || i->exit_status == 0)
		snprintf(buf, len, "ok");
	else
		snprintf(buf, len, "exit %d", i->exit_status);
}

static void local_time(int64_t ms, char *buf, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static void list_text_row(const struct store_run_info *i, FILE *out)
{
	char when[32], status[32];
	local_time(i->start_ms, when, sizeof(when));
	status_text(i, status, sizeof(status));
	fprintf(out, "%-6lld %-19s  %-6s %-16s %-11s ", (long long)i->id, when, i->kind,
		i->host, status);
	/* the jobs, up to 40 characters */
	size_t w = 0;
	for (size_t k = 0; k < i->nr_jobs; k++) {
		size_t n = strlen(i->jobs[k]) + (k ? 1 : 0);
		if (w + n > 40) {
			fputs(",...", out);
			w += 4;
			break;
		}
		fprintf(out, "%s%s", k ? "," : "", i->jobs[k]);
		w += n;
	}
	for (; i->nr_labels && w < 40; w++)
		fputc(' ', out);
	for (size_t k = 0; k < i->nr_labels; k++)
		fprintf(out, " %s=%s", i->labels[k].key, i->labels[k].value);
	fputc('\n', out);
}

static void list_json_row(const struct store_run_info *i, struct json_writer *w)
{
	char iso[40];
	json_object_begin(w);
	json_kv_int(w, "id", i->id);
	json_kv_string(w, "kind", i->kind);
	json_kv_string(w, "tool", i->tool);
	json_kv_string(w, "host", i->host);
	results_iso_time(i->start_ms, iso, sizeof(iso));
	json_kv_string(w, "start", iso);
	json_kv_int(w, "start_ms", i->start_ms);
	if (i->end_ms >= 0)
		json_kv_int(w, "end_ms", i->end_ms);
	else
		json_kv_string(w, "end_ms", NULL);
	if (i->have_exit_status)
		json_kv_int(w, "exit_status", i->exit_status);
	else
		json_kv_string(w, "exit_status", NULL);
	json_kv_bool(w, "interrupted", i->interrupted);
	json_kv_string(w, "source", i->source);
	if (i->rep_group) {
		json_kv_int(w, "rep_group", i->rep_group);
		json_kv_int(w, "rep_index", i->rep_index);
	}
	json_kv_object_begin(w, "labels");
	for (size_t k = 0; k < i->nr_labels; k++)
		json_kv_string(w, i->labels[k].key, i->labels[k].value);
	json_object_end(w);
	json_kv_array_begin(w, "jobs");
	for (size_t k = 0; k < i->nr_jobs; k++)
		json_string(w, i->jobs[k]);
	json_array_end(w);
	json_kv_array_begin(w, "formats");
	for (size_t k = 0; k < i->nr_formats; k++)
		json_string(w, i->formats[k]);
	json_array_end(w);
	json_object_end(w);
}

static int do_list(struct cmd_ctx *ctx, const struct results_cmdline *r,
                   const struct cmd_common *c)
{
	struct results_filter rf;
	struct store *st;
	int64_t *ids = NULL;
	size_t n = 0;
	int status = 1;
	if (r->words.n) {
		error("results list takes no operands ('%s'); filter with --label, --since, --host",
		      r->words.v[0]);
		return 1;
	}
	if (results_filter_build(r, c, false, &rf) < 0)
		return 1;
	if (open_db(ctx, &st) < 0)
		goto out;
	if (st && store_select(st, &rf.f, &ids, &n) < 0)
		goto out;
	struct json_writer w;
	if (r->json) {
		json_init(&w, stdout);
		json_array_begin(&w);
	} else if (n) {
		printf("%-6s %-19s  %-6s %-16s %-11s %-40s %s\n", "ID", "START", "KIND", "HOST",
		       "STATUS", "JOBS", "LABELS");
	}
	status = 0;
	for (size_t i = 0; i < n; i++) {
		struct store_run_info info;
		int rc = store_run_info_get(st, ids[i], &info);
		if (rc == -ENOENT)
			continue; /* deleted meanwhile */
		if (rc < 0) {
			status = 1;
			break;
		}
		if (r->json)
			list_json_row(&info, &w);
		else
			list_text_row(&info, stdout);
		store_run_info_release(&info);
	}
	if (r->json) {
		json_array_end(&w);
		if (json_finish(&w) < 0)
			status = 1;
		fputc('\n', stdout);
	}
	if (output_check(stdout, "the list", NULL) < 0)
		status = 1;
out:
	free(ids);
	results_filter_release(&rf);
	return status;
}

/* Exactly one run id operand (and, for label, the K=V after it). */
static int one_id(const struct results_cmdline *r, const char *sub, bool more, int64_t *id)
{
	if (!r->words.n)
		return error("results %s needs a run id (see 'iobench results list')", sub);
	if (!more && r->words.n > 1)
		return error("results %s takes one run id, not '%s' too", sub, r->words.v[1]);
	return results_parse_id(r->words.v[0], id);
}

static int no_run(const struct store *st, int64_t id)
{
	if (st)
		return error("no run %lld in the results database '%s'", (long long)id,
			     store_path(st));
	return error("no run %lld: no results have been stored yet", (long long)id);
}

static int do_show(struct cmd_ctx *ctx, const struct results_cmdline *r,
                   const struct cmd_common *c)
{
	struct store *st;
	struct store_run_info info;
	int64_t id;
	int status = 1;
	if (one_id(r, "show", false, &id) < 0 || open_db(ctx, &st) < 0)
		return 1;
	int rc = st ? store_run_info_get(st, id, &info) : -ENOENT;
	if (rc == -ENOENT)
		no_run(st, id);
	if (rc < 0)
		goto out;
	/* the default: what the run printed */
	const char *fmt = c->output_format;
	if (!fmt && info.nr_formats && info.printed[0])
		fmt = info.formats[0];
	if (!fmt)
		fmt = "json";
	char *text;
	size_t len;
	rc = store_rendering_get(st, id, fmt, &text, &len);
	if (rc == -ENOENT) {
		char have[256] = "";
		for (size_t k = 0; k < info.nr_formats; k++)
			snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s%s",
				 k ? ", " : "", info.formats[k]);
		error("run %lld has no '%s' output stored (it has: %s)", (long long)id, fmt,
		      have[0] ? have : "none");
	} else if (rc == 0) {
		fwrite(text, 1, len, stdout);
		free(text);
		status = output_check(stdout, "the run", NULL) < 0;
	}
	store_run_info_release(&info);
out:
	return status;
}

static int do_delete(struct cmd_ctx *ctx, const struct results_cmdline *r,
                     const struct cmd_common *c)
{
	struct store *st;
	int status = 0;
	if (!r->words.n) {
		error("results delete needs run ids (see 'iobench results list')");
		return 1;
	}
	int64_t *ids = xcalloc(r->words.n, sizeof(*ids));
	for (size_t i = 0; i < r->words.n; i++)
		if (results_parse_id(r->words.v[i], &ids[i]) < 0)
			status = 1;
	if (status || open_db(ctx, &st) < 0) {
		free(ids);
		return 1;
	}
	for (size_t i = 0; i < r->words.n; i++) {
		int rc = st ? store_delete_run(st, ids[i]) : -ENOENT;
		if (rc == -ENOENT)
			no_run(st, ids[i]);
		if (rc < 0)
			status = 1;
	}
	free(ids);
	return status;
}

static int do_label(struct cmd_ctx *ctx, const struct results_cmdline *r,
                    const struct cmd_common *c)
{
	struct store *st = NULL;
	int64_t id;
	int status = 0;
	if (one_id(r, "label", true, &id) < 0)
		return 1;
	if (r->words.n < 2) {
		error("results label needs K=V after the run id");
		return 1;
	}
	size_t n = r->words.n - 1;
	struct store_label *l = xcalloc(n, sizeof(*l));
	for (size_t i = 0; i < n; i++)
		if (store_label_parse(r->words.v[i + 1], &l[i]) < 0)
			status = 1;
	if (!status && open_db(ctx, &st) < 0)
		status = 1;
	for (size_t i = 0; !status && i < n; i++) {
		int rc = st ? store_set_label(st, id, &l[i]) : -ENOENT;
		if (rc == -ENOENT)
			no_run(st, id);
		if (rc < 0)
			status = 1;
	}
	store_labels_free(l, n);
	return status;
}

static int do_export(struct cmd_ctx *ctx, const struct results_cmdline *r,
                     const struct cmd_common *c)
{
	struct results_filter rf;
	struct store *st = NULL;
	const char *fmt = r->format ? r->format : "csv";
	if (strcmp(fmt, "csv") && strcmp(fmt, "json")) {
		error("unknown export format '%s': use csv or json", fmt);
		return 1;
	}
	if (results_filter_build(r, c, true, &rf) < 0)
		return 1;
	int status = 1;
	if (open_db(ctx, &st) == 0)
		status = results_export(st, &rf, fmt, stdout) < 0 ||
			 output_check(stdout, "the export", NULL) < 0;
	results_filter_release(&rf);
	return status;
}

static int run_results(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct results_cmdline r = { 0 };
	struct cmd_common common;
	char why[512], name[32];
	int status = 1;
	cmd_common_init(&common);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		if (argc < 2) {
			error("results needs a subcommand: list, show, delete, label, export or import");
			return 1;
		}
		command_print_usage(ctx->cmd, stdout);
		return 0;
	}
	size_t k = 0;
	while (k < ARRAY_SIZE(subs) && strcmp(subs[k].name, argv[1]))
		k++;
	if (k == ARRAY_SIZE(subs)) {
		error("'%s' is not a results subcommand: use list, show, delete, label, export or import",
		      argv[1]);
		return 1;
	}
	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &r, &common);
	snprintf(name, sizeof(name), "results %s", subs[k].name);
	p.command = name;
	p.sets[0].mask = subs[k].bit;
	p.sets[1].mask = subs[k].common;
	p.operand = add_word;
	p.operand_arg = &r;
	int rc = cmdopt_parse(&p, argc - 1, argv + 1, why, sizeof(why));
	if (rc == CMDOPT_HELP_ASKED) {
		command_print_usage(ctx->cmd, stdout);
		status = 0;
	} else if (rc < 0) {
		error("%s", why);
	} else if (command_parsed(ctx, &common) == 0) {
		switch (subs[k].bit) {
		case SUB_LIST:
			status = do_list(ctx, &r, &common);
			break;
		case SUB_SHOW:
			status = do_show(ctx, &r, &common);
			break;
		case SUB_DELETE:
			status = do_delete(ctx, &r, &common);
			break;
		case SUB_LABEL:
			status = do_label(ctx, &r, &common);
			break;
		case SUB_IMPORT:
			status = results_import(&r, &common);
			break;
		default:
			status = do_export(ctx, &r, &common);
			break;
		}
	}
	cmdopt_list_release(&r.words);
	cmd_common_release(&common);
	return status;
}

const struct command cmd_results = {
	.name = "results",
	.summary = "list, reprint, delete, label, export and import stored results",
	.usage = results_usage,
	.opts = results_rows,
	.common = COMMON_DB | COMMON_LABEL | COMMON_OUTPUT_FORMAT | COMMON_HELP,
	.help_for = results_help_for,
	.flags = CMD_READS_STORE,
	.subcommand_at = sub_at,
	.run = run_results,
};
