/*
 * `iobench results import FILE... [--label K=V]... [--host H]`: results
 * made elsewhere into the store (store/store_import.h). Every file is read
 * and checked first (compare/cmp_import.h); if one is not fio's JSON,
 * iobench's JSON or bonnie++ CSV, its file and line are named and nothing
 * is stored. Then each run is stored in a transaction of its own and its
 * id printed.
 */
#include "cmd/results/results_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/output.h"
#include "compare/cmp_import.h"
#include "store/store_import.h"
#include "util/error.h"
#include "util/xmalloc.h"

/* "1 job", "2 tests" */
static void what_text(const struct cmp_run *r, char *buf, size_t len)
{
	size_t jobs = 0;
	const char *last = NULL;
	bool bonnie = !strcmp(r->source_format, CMP_FMT_BONNIE_CSV);
	if (bonnie) {
		/* one "too_short" per phase per line: count lines by the CSV's newlines */
		for (const char *p = r->raw; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			jobs++;
	} else {
		for (size_t i = 0; i < r->nr_figs; i++)
			if (!last || strcmp(last, r->figs[i].job)) {
				last = r->figs[i].job;
				jobs++;
			}
	}
	snprintf(buf, len, "%zu %s%s", jobs, bonnie ? "test" : "job", jobs == 1 ? "" : "s");
}

int results_import(const struct results_cmdline *r, const struct cmd_common *c)
{
	struct cmp_runs runs = { 0 };
	struct store_label *labels = NULL;
	size_t nl = 0;
	struct store *st = NULL;
	char *path = NULL;
	int status = 1;

	if (!r->words.n) {
		error("results import needs files: fio's JSON output or bonnie++ CSV lines");
		return 1;
	}
	labels = xcalloc(c->labels.n ? c->labels.n : 1, sizeof(*labels));
	for (; nl < c->labels.n; nl++)
		if (store_label_parse(c->labels.v[nl], &labels[nl]) < 0)
			goto out;
	/* read and check everything before storing anything */
	for (size_t i = 0; i < r->words.n; i++) {
		size_t before = runs.n;
		if (cmp_import_file(r->words.v[i], &runs) < 0) {
			error("results import: nothing imported");
			goto out;
		}
		char real[PATH_MAX];
		if (realpath(r->words.v[i], real))
			for (size_t k = before; k < runs.n; k++) {
				free(runs.v[k].source);
				runs.v[k].source = xstrdup(real);
			}
	}
	if (store_path_resolve(c->db, true, &path) < 0 || store_open(path, &st) < 0)
		goto out;
	struct store_meta m = {
		.labels = labels,
		.nr_labels = nl,
		.host = r->host,
		.rep_index = -1,
	};
	status = 0;
	for (size_t k = 0; k < runs.n; k++) {
		int64_t id;
		char what[64];
		if (store_import_run(st, &runs.v[k], &m, &id) < 0) {
			if (k)
				error("results import: the %zu run%s before %s stayed stored", k,
				      k == 1 ? "" : "s", runs.v[k].source);
			status = 1;
			break;
		}
		what_text(&runs.v[k], what, sizeof(what));
		printf("imported %s as run %lld (%s, %s)\n", runs.v[k].source, (long long)id,
		       runs.v[k].tool ? runs.v[k].tool : runs.v[k].source_format, what);
	}
	if (output_check(stdout, "the import's report", NULL) < 0)
		status = 1;
out:
	store_close(st);
	free(path);
	store_labels_free(labels, nl);
	cmp_runs_release(&runs);
	return status;
}
