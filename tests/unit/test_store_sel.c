/*
 * Selection words of stored runs (store/store_sel.h): ids, lists and
 * ranges with their edges (a range of one id, the widest range, reversed,
 * open-ended and nested ones, signs and spaces, overflow), label sets
 * split on commas and spaces, sweep:ID only where it is taken, the short
 * names, the letters that tell selections of one label apart, and the
 * ids words name in a store of three imported runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compare/cmp_import.h"
#include "store/store_import.h"
#include "store/store_sel.h"

static const char *data_path(const char *file)
{
	static char path[4096];
	const char *src = __FILE__;
	const char *slash = strrchr(src, '/');
	snprintf(path, sizeof(path), "%.*s/../data/import/%s", slash ? (int)(slash - src) : 1,
		 slash ? src : ".", file);
	return path;
}

/* word parses as ids, exactly the n ids of want in that order */
static void ids_are(const char *word, const int64_t *want, size_t n)
{
	struct store_sel_word w;
	int rc = store_sel_parse("test", word, 0, &w);
	CHECK(rc == 0, "'%s' parses: %d", word, rc);
	if (rc)
		return;
	CHECK(w.kind == STORE_SEL_IDS, "'%s' is ids", word);
	CHECK(w.ids.n == n, "'%s': %zu ids, want %zu", word, w.ids.n, n);
	for (size_t i = 0; i < n && i < w.ids.n; i++)
		CHECK(w.ids.v[i] == want[i], "'%s' id %zu: %lld, want %lld", word, i,
		      (long long)w.ids.v[i], (long long)want[i]);
	store_sel_word_release(&w);
}

static void refused(const char *word, unsigned flags)
{
	struct store_sel_word w;
	fprintf(stderr, "(expected) ");
	CHECK(store_sel_parse("test", word, flags, &w) == -EINVAL, "'%s' refused", word);
}

static void test_ids(void)
{
	ids_are("12", (int64_t[]){ 12 }, 1);
	ids_are("012", (int64_t[]){ 12 }, 1);
	ids_are("12,13", (int64_t[]){ 12, 13 }, 2);
	ids_are("13,12,13", (int64_t[]){ 13, 12 }, 2);
	ids_are("12-15", (int64_t[]){ 12, 13, 14, 15 }, 4);
	ids_are("12-12", (int64_t[]){ 12 }, 1);
	ids_are("20-22,12", (int64_t[]){ 20, 21, 22, 12 }, 4);
	ids_are("12,13-14,13", (int64_t[]){ 12, 13, 14 }, 3);
	/* items are separated by commas or spaces, empty ones skipped */
	ids_are("12, 13", (int64_t[]){ 12, 13 }, 2);
	ids_are("12 ,13", (int64_t[]){ 12, 13 }, 2);
	ids_are("12 13", (int64_t[]){ 12, 13 }, 2);
	ids_are("12,,13,", (int64_t[]){ 12, 13 }, 2);
	ids_are("", NULL, 0);
	ids_are("9223372036854775807", (int64_t[]){ INT64_MAX }, 1);

	struct store_sel_word w;
	CHECK(store_sel_parse("test", "1-100001", 0, &w) == 0 && w.ids.n == 100001,
	      "the widest range: %zu ids", w.ids.n);
	store_sel_word_release(&w);

	refused("1-100002", 0);   /* one id too many */
	refused("15-12", 0);      /* reversed */
	refused("12-", 0);        /* open-ended */
	refused("-12", 0);
	refused("12-13-14", 0);   /* a range of a range */
	refused("0", 0);          /* ids start at 1 */
	refused("0-3", 0);
	refused("+12", 0);        /* digits only */
	refused("12a", 0);
	refused("0x10", 0);
	refused("9223372036854775808", 0); /* past int64 */
	refused("sweep:3", 0);    /* not where sweeps are not taken */

	int64_t id = 0;
	CHECK(store_sel_parse_id("42", &id) == 0 && id == 42, "an id");
	CHECK(store_sel_parse_id("", &id) == -EINVAL, "no id");
	CHECK(store_sel_parse_id(" 42", &id) == -EINVAL, "a space before");
	CHECK(store_sel_parse_id("42 ", &id) == -EINVAL, "a space after");
	CHECK(store_sel_parse_id("-42", &id) == -EINVAL, "a sign");
}

static void test_labels_sweeps_names(void)
{
	struct store_sel_word w;
	CHECK(store_sel_parse("test", "fs=xfs, chunk=64k,ra=", 0, &w) == 0, "labels parse");
	CHECK(w.kind == STORE_SEL_LABELS && w.nr_labels == 3, "three labels: %zu", w.nr_labels);
	if (w.nr_labels == 3) {
		CHECK(!strcmp(w.labels[0].key, "fs") && !strcmp(w.labels[0].value, "xfs"), "fs");
		CHECK(!strcmp(w.labels[1].key, "chunk") && !strcmp(w.labels[1].value, "64k"),
		      "chunk");
		CHECK(!strcmp(w.labels[2].key, "ra") && !*w.labels[2].value, "an empty value");
	}
	char *name = store_sel_short_name(&w, "fs=xfs, chunk=64k,ra=");
	CHECK(!strcmp(name, "xfs,64k,"), "label values: %s", name);
	free(name);
	store_sel_word_release(&w);
	refused("fs=xfs,12", 0);  /* a word with '=' is labels throughout */
	refused("=xfs", 0);

	CHECK(store_sel_parse("test", "sweep:3", STORE_SEL_SWEEP, &w) == 0 &&
	      w.kind == STORE_SEL_SWEEP_ID && w.sweep_id == 3, "sweep:3");
	name = store_sel_short_name(&w, "sweep:3");
	CHECK(!strcmp(name, "sweep 3"), "sweep name: %s", name);
	free(name);
	store_sel_word_release(&w);
	refused("sweep:", STORE_SEL_SWEEP);
	refused("sweep:0", STORE_SEL_SWEEP);
	refused("sweep:x", STORE_SEL_SWEEP);

	/* run or runs by the ids named, not by how they are written */
	const char *words[] = { "12", "12-12", "12,12", "12,13", "12-13" };
	const char *want[] = { "run 12", "run 12-12", "run 12,12", "runs 12,13", "runs 12-13" };
	for (size_t i = 0; i < 5; i++) {
		CHECK(store_sel_parse("test", words[i], 0, &w) == 0, "%s", words[i]);
		name = store_sel_short_name(&w, words[i]);
		CHECK(!strcmp(name, want[i]), "%s: '%s', want '%s'", words[i], name, want[i]);
		free(name);
		store_sel_word_release(&w);
	}
}

static void test_unique_labels(void)
{
	struct cmp_sel s[3];
	cmp_sel_init(&s[0], "12", "run 12");
	cmp_sel_init(&s[1], "fs=xfs", "xfs");
	cmp_sel_init(&s[2], "fs=ext4", "ext4");
	cmp_sels_unique_labels(s, 3);
	CHECK(!strcmp(s[0].label, "run 12") && !strcmp(s[2].label, "ext4"), "distinct: kept");
	free(s[2].label);
	s[2].label = strdup("xfs");
	cmp_sels_unique_labels(s, 3);
	CHECK(!strcmp(s[0].label, "A") && !strcmp(s[1].label, "B") && !strcmp(s[2].label, "C"),
	      "two alike: letters %s %s %s", s[0].label, s[1].label, s[2].label);
	for (size_t i = 0; i < 3; i++)
		cmp_sel_release(&s[i]);
}

static void resolves(struct store *st, const char *word, const struct store_filter *base,
		     const int64_t *want, size_t n)
{
	struct store_sel_word w;
	struct store_ids got = { 0 };
	CHECK(store_sel_parse("test", word, 0, &w) == 0, "%s", word);
	CHECK(store_sel_resolve(st, &w, base, &got) == 0, "%s resolves", word);
	CHECK(got.n == n, "%s: %zu runs, want %zu", word, got.n, n);
	for (size_t i = 0; i < n && i < got.n; i++)
		CHECK(got.v[i] == want[i], "%s: run %lld, want %lld", word, (long long)got.v[i],
		      (long long)want[i]);
	store_ids_release(&got);
	store_sel_word_release(&w);
}

static void test_store(void)
{
	char dir[] = "/tmp/iobench-test-store-sel.XXXXXX", path[256];
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/r.db", dir);
	struct store *st;
	CHECK(store_open(path, &st) == 0, "open");
	struct cmp_runs files = { 0 };
	CHECK(cmp_import_file(data_path("fio-3.33-randrw.json+"), &files) == 0, "read fio");
	const char *fs[] = { "xfs", "xfs", "ext4" };
	int64_t ids[3] = { 0 };
	for (size_t i = 0; i < 3 && files.n; i++) {
		struct store_label l[] = { { (char *)"fs", (char *)fs[i] },
					   { (char *)"n", (char *)(i ? "2" : "1") } };
		struct store_meta m = { .labels = l, .nr_labels = 2, .rep_index = -1 };
		CHECK(store_import_run(st, &files.v[0], &m, &ids[i]) == 0, "import %zu", i);
	}
	cmp_runs_release(&files);
	/* ids as written without a filter (the loader says which are not there) */
	resolves(st, "3,1,99", NULL, (int64_t[]){ 3, 1, 99 }, 3);
	resolves(st, "fs=xfs", NULL, (int64_t[]){ ids[0], ids[1] }, 2);
	resolves(st, "fs=xfs n=2", NULL, (int64_t[]){ ids[1] }, 1);
	resolves(st, "fs=zfs", NULL, NULL, 0);
	/* with a filter: only its runs, and ids that are there */
	struct store_label ext4[] = { { (char *)"fs", (char *)"ext4" } };
	struct store_filter base = { .labels = ext4, .nr_labels = 1, .since_ms = -1 };
	resolves(st, "1-99", &base, (int64_t[]){ ids[2] }, 1);
	resolves(st, "n=2", &base, (int64_t[]){ ids[2] }, 1);
	resolves(st, "", &base, NULL, 0);
	struct store_ids all = { 0 };
	CHECK(store_sel_all(st, NULL, &all) == 0 && all.n == 3, "every run: %zu", all.n);
	store_ids_release(&all);
	struct cmp_runs runs = { 0 };
	CHECK(store_sel_load(st, "test", ids[0], &runs) == 0 && runs.n == 1, "load");
	fprintf(stderr, "(expected) ");
	CHECK(store_sel_load(st, "test", 9999, &runs) == -ENOENT && runs.n == 1, "no run 9999");
	cmp_runs_release(&runs);
	store_close(st);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "cleanup");
}

int main(void)
{
	test_ids();
	test_labels_sweeps_names();
	test_unique_labels();
	test_store();
	return check_done("test_store_sel");
}
