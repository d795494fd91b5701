/*
 * Imports into the store and the compare model read back from it
 * (store/store_import.h, store/store_model.h): a fio 3.33 JSON+ file and
 * bonnie++ 2.00a CSV lines stored as runs of kind import come back with the
 * figures the files hold (under the same names), their labels, tool and
 * job options as context; a run that is not there is -ENOENT.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compare/cmp_import.h"
#include "store/store_import.h"
#include "store/store_model.h"
#include "store/store_query.h"
#include "util/array.h"

static const char *data_path(const char *file)
{
	static char path[4096];
	const char *src = __FILE__;
	const char *slash = strrchr(src, '/');
	snprintf(path, sizeof(path), "%.*s/../data/import/%s", slash ? (int)(slash - src) : 1,
		 slash ? src : ".", file);
	return path;
}

/* Every figure of a that the compare catalogue uses is in b with the same value. */
static void same_figs(const struct cmp_run *a, const struct cmp_run *b, const char *what)
{
	size_t n = 0;
	for (size_t i = 0; i < a->nr_figs; i++) {
		const struct cmp_fig *f = &a->figs[i];
		const char *names[] = { "bw_bytes", "iops", "clat_ns.p99.9", "usr_cpu", "rate",
					"latency_us.max", "too_short" };
		bool want = false;
		for (size_t k = 0; k < ARRAY_SIZE(names); k++)
			want |= !strcmp(f->name, names[k]);
		if (!want)
			continue;
		/* a job name twice (bonnie's tests): any of them */
		bool found = false;
		for (size_t k = 0; k < b->nr_figs && !found; k++) {
			const struct cmp_fig *g = &b->figs[k];
			found = !strcmp(g->job, f->job) && !strcmp(g->dir, f->dir) &&
				!strcmp(g->name, f->name) && g->value == f->value;
		}
		CHECK(found, "%s: %s %s %s %g", what, f->job, f->dir, f->name, f->value);
		n++;
	}
	CHECK(n > 3, "%s: %zu figures compared", what, n);
}

int main(void)
{
	char dir[] = "/tmp/iobench-test-store-model.XXXXXX", path[256];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/r.db", dir);
	struct store *st;
	CHECK(store_open(path, &st) == 0, "open");
	struct cmp_runs files = { 0 };
	CHECK(cmp_import_file(data_path("fio-3.33-randrw.json+"), &files) == 0, "read fio");
	CHECK(cmp_import_file(data_path("bonnie-2.00a-x2.csv"), &files) == 0, "read bonnie");
	struct store_label l[] = { { (char *)"src", (char *)"archive" } };
	struct store_meta m = { .labels = l, .nr_labels = 1, .rep_index = -1 };
	int64_t ids[2] = { 0, 0 };
	for (size_t i = 0; i < files.n && i < 2; i++)
		CHECK(store_import_run(st, &files.v[i], &m, &ids[i]) == 0, "import %zu", i);
	for (size_t i = 0; i < 2; i++) {
		struct cmp_run r;
		CHECK(store_model_load(st, ids[i], &r) == 0, "load %lld", (long long)ids[i]);
		CHECK(r.id == ids[i], "id");
		same_figs(&files.v[i], &r, i ? "bonnie" : "fio");
		const char *lab = cmp_kvs_get(&r.labels, "src");
		CHECK(lab && !strcmp(lab, "archive"), "label");
		CHECK(!strcmp(cmp_kvs_get(&r.context, "tool"), files.v[i].tool), "tool %s",
		      cmp_kvs_get(&r.context, "tool"));
		struct store_run_info info;
		CHECK(store_run_info_get(st, ids[i], &info) == 0 && !strcmp(info.kind, "import") &&
		      !strcmp(info.source_format, files.v[i].source_format), "kind import");
		store_run_info_release(&info);
		if (i == 0) {
			const char *rw = cmp_kvs_get(&r.context, "option.rr.rw");
			CHECK(rw && !strcmp(rw, "randrw"), "job option as context");
			CHECK(!strcmp(r.host, "unknown"), "fio's JSON names no host: %s", r.host);
		} else {
			CHECK(!strcmp(r.host, "vm"), "bonnie++'s name field is the host");
			/* the two lines are two jobs "aggregate" */
			size_t n = 0;
			for (size_t k = 0; k < r.nr_figs; k++)
				n += !strcmp(r.figs[k].dir, "putc") && !strcmp(r.figs[k].name, "rate");
			CHECK(n == 2, "two tests: %zu", n);
		}
		char *text;
		size_t len;
		CHECK(store_rendering_get(st, ids[i], i ? "csv" : "json+", &text, &len) == 0 &&
		      len == files.v[i].raw_len && !memcmp(text, files.v[i].raw, len),
		      "the file's text kept");
		free(text);
		cmp_run_release(&r);
	}
	struct cmp_run none;
	CHECK(store_model_load(st, 9999, &none) == -ENOENT, "no such run");
	store_close(st);
	cmp_runs_release(&files);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return check_done("test_store_model");
}
