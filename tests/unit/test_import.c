/*
 * Reading results files into the compare model (compare/cmp_import.h):
 * fio 3.33's JSON and JSON+ output and bonnie++ 2.00a's CSV lines as the
 * tools wrote them (tests/data/import/), the 1.96/1.97 layout, iobench's
 * JSON with its sysinfo as context, and refusals that name the file and
 * line and leave nothing behind.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compare/cmp_engine.h"
#include "compare/cmp_import.h"
#include "util/array.h"

static const char *data_path(const char *file)
{
	static char path[4096];
	const char *src = __FILE__;
	const char *slash = strrchr(src, '/');
	snprintf(path, sizeof(path), "%.*s/../data/import/%s", slash ? (int)(slash - src) : 1,
		 slash ? src : ".", file);
	if (access(path, R_OK) == 0)
		return path;
	const char *env = getenv("MESON_SOURCE_ROOT");
	if (env)
		snprintf(path, sizeof(path), "%s/tests/data/import/%s", env, file);
	return path;
}

static double fig(const struct cmp_run *r, const char *job, const char *dir, const char *name)
{
	const struct cmp_fig *f = cmp_run_fig(r, job, dir, name);
	return f ? f->value : NAN;
}

static size_t count_figs(const struct cmp_run *r, const char *job, const char *dir, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nr_figs; i++)
		if (!strcmp(r->figs[i].job, job) && !strcmp(r->figs[i].dir, dir) &&
		    !strcmp(r->figs[i].name, name))
			n++;
	return n;
}

static void test_fio(void)
{
	struct cmp_runs runs = { 0 };
	CHECK(cmp_import_file(data_path("fio-3.33-write-rate100m.json"), &runs) == 0, "fio json");
	CHECK(runs.n == 1, "one run: %zu", runs.n);
	if (runs.n == 1) {
		const struct cmp_run *r = &runs.v[0];
		CHECK(!strcmp(r->tool, "fio-3.33") && !strcmp(r->source_format, "fio-json"), "%s %s",
		      r->tool, r->source_format);
		CHECK(r->start_ms > 1700000000000LL, "start %lld", (long long)r->start_ms);
		CHECK(fig(r, "seqw", "write", "bw_bytes") == 104857600, "bw %g",
		      fig(r, "seqw", "write", "bw_bytes"));
		CHECK(fig(r, "seqw", "write", "iops") == 1600, "iops");
		CHECK(fig(r, "seqw", "read", "io_bytes") == 0, "read idle");
		CHECK(isfinite(fig(r, "seqw", "write", "clat_ns.p99.9")), "clat p99.9");
		CHECK(isfinite(fig(r, "seqw", "write", "clat_ns.p50")), "clat p50");
		CHECK(isfinite(fig(r, "seqw", "job", "usr_cpu")), "usr_cpu");
		CHECK(isfinite(fig(r, "seqw", "job", "latency_ms.>=2000")), "latency_ms map");
		CHECK(!cmp_run_fig(r, "seqw", "job", "eta"), "eta is no figure");
		const char *rate = cmp_kvs_get(&r->context, "option.seqw.rate");
		CHECK(rate && !strcmp(rate, "100m"), "option rate %s", rate ? rate : "(none)");
		CHECK(r->raw && r->raw_len > 1000 && r->raw[0] == '{', "raw kept");
	}
	CHECK(cmp_import_file(data_path("fio-3.33-randrw.json+"), &runs) == 0, "fio json+");
	CHECK(runs.n == 2, "two runs: %zu", runs.n);
	if (runs.n == 2) {
		const struct cmp_run *r = &runs.v[1];
		CHECK(fig(r, "rr", "read", "io_bytes") + fig(r, "rr", "write", "io_bytes") == 1048576,
		      "randrw 1 MiB");
		CHECK(isfinite(fig(r, "rr", "read", "clat_ns.p99")), "read clat p99");
		for (size_t i = 0; i < r->nr_figs; i++)
			CHECK(!strstr(r->figs[i].name, "bins"), "bins are no figure: %s", r->figs[i].name);
	}
	cmp_runs_release(&runs);
}

static void test_bonnie(void)
{
	struct cmp_runs runs = { 0 };
	CHECK(cmp_import_file(data_path("bonnie-2.00a-x2.csv"), &runs) == 0, "bonnie csv");
	CHECK(runs.n == 1, "-x 2 of one configuration: one run (%zu)", runs.n);
	if (runs.n == 1) {
		const struct cmp_run *r = &runs.v[0];
		CHECK(!strcmp(r->tool, "bonnie++-2.00a") && !strcmp(r->host, "vm"), "%s %s", r->tool,
		      r->host);
		CHECK(count_figs(r, "aggregate", "putc", "rate") == 2, "two tests of putc");
		CHECK(fig(r, "aggregate", "putc", "rate") == 282, "putc %g",
		      fig(r, "aggregate", "putc", "rate"));
		CHECK(fig(r, "aggregate", "putc", "cpu_pct") == 29, "putc cpu");
		CHECK(fig(r, "aggregate", "put_block", "too_short") == 1 &&
		      !cmp_run_fig(r, "aggregate", "put_block", "rate"), "+++++ is too short");
		CHECK(fig(r, "aggregate", "putc", "latency_us.max") == 64581, "latency us");
		CHECK(fig(r, "aggregate", "seq_create", "rate") == 1938, "files/s");
		CHECK(fig(r, "aggregate", "seq_stat", "latency_us.max") == 64, "seq_stat latency");
		const char *seeks = cmp_kvs_get(&r->context, "option.global.seeks");
		CHECK(seeks && !strcmp(seeks, "8192"), "1.98 seeks field");
		const char *size = cmp_kvs_get(&r->context, "option.global.file_size_bytes");
		CHECK(size && !strcmp(size, "33554432"), "file size %s", size ? size : "-");
		CHECK(r->raw && !strncmp(r->raw, "1.98,", 5) && strchr(r->raw, '\n') != strrchr(r->raw, '\n'),
		      "the two lines kept, not the header");
	}
	/* the 48-field layout of 1.96/1.97 gives the same figures */
	CHECK(cmp_import_file(data_path("bonnie-1.97-layout.csv"), &runs) == 0, "1.97");
	CHECK(runs.n == 2, "a second run: %zu", runs.n);
	if (runs.n == 2) {
		const struct cmp_run *a = &runs.v[0], *b = &runs.v[1];
		CHECK(fig(b, "aggregate", "putc", "rate") == fig(a, "aggregate", "putc", "rate") &&
		      fig(b, "aggregate", "getc", "rate") == 498 &&
		      fig(b, "aggregate", "ran_del", "latency_us.max") == 8067, "1.97 fields");
		CHECK(!cmp_kvs_get(&b->context, "option.global.seeks"), "1.97 has no seeks field");
	}
	/* lines of two configurations: two runs */
	const char *two =
		"1.98,2.00a,hostA,1,1,1G,,8192,5,100,10,,,,,,,,,,,,,,,,,,,,,,,,,,,,5ms,,,,,,,,,,,\n"
		"1.98,2.00a,hostA,1,2,1G,,8192,5,110,10,,,,,,,,,,,,,,,,,,,,,,,,,,,,5ms,,,,,,,,,,,\n"
		"1.98,2.00a,hostB,1,1,1G,,8192,5,200,10,,,,,,,,,,,,,,,,,,,,,,,,,,,,2s,,,,,,,,,,,\n";
	struct cmp_runs r2 = { 0 };
	CHECK(cmp_import_text("two.csv", two, strlen(two), &r2) == 0, "two configurations");
	CHECK(r2.n == 2, "%zu runs", r2.n);
	if (r2.n == 2) {
		CHECK(count_figs(&r2.v[0], "aggregate", "putc", "rate") == 2, "A has two tests");
		CHECK(!strcmp(r2.v[1].host, "hostB") &&
		      fig(&r2.v[1], "aggregate", "putc", "latency_us.max") == 2e6, "B: 2s");
	}
	cmp_runs_release(&r2);

	struct cmp_run one = { 0 };
	CHECK(cmp_bonnie_csv_line("x", 1, "1.98,2.00a,h,1,1,1G,,8192,5,100,10,,,,,,,,,,,,,,,,,,,,,,,,,,,,5ms,,,,,,,,,,,\r\n",
				  &one, "aggregate") == 0, "one line");
	CHECK(fig(&one, "aggregate", "putc", "rate") == 100, "line figure");
	cmp_run_release(&one);
	cmp_runs_release(&runs);
}

static void test_iobench_json(void)
{
	const char *doc =
		"{ \"fio version\" : \"iobench-0.1.0\", \"timestamp_ms\" : 1700000000123,\n"
		"  \"jobs\" : [ { \"jobname\" : \"j\", \"groupid\" : 0,\n"
		"    \"write\" : { \"io_bytes\" : 10, \"bw_bytes\" : 5,\n"
		"       \"clat_ns\" : { \"percentile\" : { \"99.900000\" : 7, \"50.000000\" : 3 },\n"
		"                    \"bins\" : { \"5\" : 1 } } },\n"
		"    \"usr_cpu\" : 1.5 } ],\n"
		"  \"iobench\" : { \"version\" : \"0.1.0\", \"sysinfo\" : { \"version\" : 1, \"path\" : \"/x\",\n"
		"     \"host\" : { \"hostname\" : \"box\", \"kernel_release\" : \"6.1\", \"mem_available_bytes\" : 5,\n"
		"                \"vm\" : { \"swappiness\" : 60 } },\n"
		"     \"devices\" : [ { \"name\" : \"loop0\", \"queue\" : { \"scheduler\" : \"none\" } } ] } } }\n";
	struct cmp_runs runs = { 0 };
	CHECK(cmp_import_text("ib.json", doc, strlen(doc), &runs) == 0, "iobench json");
	if (runs.n == 1) {
		const struct cmp_run *r = &runs.v[0];
		CHECK(!strcmp(r->source_format, "iobench-json") && !strcmp(r->tool, "iobench-0.1.0"),
		      "%s %s", r->source_format, r->tool);
		CHECK(!strcmp(r->host, "box"), "host from sysinfo");
		CHECK(fig(r, "j", "write", "clat_ns.p99.9") == 7 && fig(r, "j", "write", "clat_ns.p50") == 3,
		      "percentiles as pN");
		CHECK(fig(r, "j", "job", "usr_cpu") == 1.5, "usr_cpu");
		const char *k = cmp_kvs_get(&r->context, "host.kernel_release");
		const char *q = cmp_kvs_get(&r->context, "devices[0].queue.scheduler");
		const char *sw = cmp_kvs_get(&r->context, "host.vm.swappiness");
		CHECK(k && !strcmp(k, "6.1") && q && !strcmp(q, "none") && sw && !strcmp(sw, "60"),
		      "sysinfo context");
		CHECK(!cmp_kvs_get(&r->context, "host.mem_available_bytes") &&
		      !cmp_kvs_get(&r->context, "path"), "volatile keys left out");
	}
	cmp_runs_release(&runs);
}

static void test_refusals(void)
{
	struct cmp_runs runs = { 0 };
	fprintf(stderr, "(expected errors follow)\n");
	cmp_runs_push(&runs)->id = 7;
	const char *text = "hello world\n";
	CHECK(cmp_import_text("notes.txt", text, strlen(text), &runs) == -EINVAL, "text refused");
	const char *badline =
		"1.98,2.00a,h,1,1,1G,,8192,5,100,10,,,,,,,,,,,,,,,,,,,,,,,,,,,,5ms,,,,,,,,,,,\n"
		"\n"
		"1.98,2.00a,h,1,1,1G,,8192,5,1x0,10,,,,,,,,,,,,,,,,,,,,,,,,,,,,5ms,,,,,,,,,,,\n";
	CHECK(cmp_import_text("bad.csv", badline, strlen(badline), &runs) == -EINVAL, "bad field");
	const char *short_line = "1.98,2.00a,h,1\n";
	CHECK(cmp_import_text("short.csv", short_line, strlen(short_line), &runs) == -EINVAL,
	      "short line");
	const char *badjson = "{ \"jobs\" : [ { \"jobname\" : \"x\" }\n  oops ] }";
	CHECK(cmp_import_text("bad.json", badjson, strlen(badjson), &runs) == -EINVAL, "bad json");
	const char *other = "{ \"a\" : 1 }";
	CHECK(cmp_import_text("other.json", other, strlen(other), &runs) == -EINVAL, "other json");
	const char *nojobname = "{ \"jobs\" : [ { \"x\" : 1 } ] }";
	CHECK(cmp_import_text("nj.json", nojobname, strlen(nojobname), &runs) == -EINVAL, "no jobname");
	CHECK(cmp_import_text("empty", "\n\n", 2, &runs) == -EINVAL, "empty");
	CHECK(cmp_import_text("hdr.csv", "format_version,bonnie_version\n", 30, &runs) == -EINVAL,
	      "a header only");
	CHECK(cmp_import_file("/nonexistent/x.json", &runs) < 0, "missing file");
	CHECK(runs.n == 1 && runs.v[0].id == 7, "nothing was added: %zu", runs.n);
	cmp_runs_release(&runs);
}

/* The imported runs go straight into compare: fio's 100m run against itself. */
static void test_compare_imports(void)
{
	struct cmp_sel s[2];
	cmp_sel_init(&s[0], "a", NULL);
	cmp_sel_init(&s[1], "b", NULL);
	CHECK(cmp_import_file(data_path("fio-3.33-write-rate100m.json"), &s[0].runs) == 0, "a");
	CHECK(cmp_import_file(data_path("fio-3.33-write-rate100m.json"), &s[1].runs) == 0, "b");
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "compare");
	CHECK(res.nr_rows == 7, "bw iops clat x3 cpu x2 of write: %zu rows", res.nr_rows);
	for (size_t i = 0; i < res.nr_rows; i++) {
		const struct cmp_cell *c = &res.rows[i].cells[1];
		if (res.rows[i].cells[0].center == 0) /* sys_cpu 0 in this run */
			CHECK(c->status == CMP_UNDEFINED, "row %zu: %d", i, c->status);
		else
			CHECK(c->status == CMP_SINGLE && c->ci.ratio == 1, "row %zu", i);
	}
	CHECK(res.nr_diffs == 0, "same context");
	cmp_result_release(&res);
	cmp_sel_release(&s[0]);
	cmp_sel_release(&s[1]);
}

/* fio prints a float it could not compute with %f: nan, -nan, inf, -inf
 * (others write NaN, Infinity): the file is read, those figures are left
 * out (and said), strings and keys that spell them are kept. */
static void test_nonfinite(void)
{
	static const char doc[] =
		"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", \"groupid\": 0,\n"
		" \"job options\": {\"description\": \"nan\"},\n"
		" \"read\": {\"io_bytes\": 4096, \"bw\": -nan, \"lat_ns\": {\"mean\": nan,\n"
		"  \"max\":inf}, \"iops\":\t-inf, \"runtime\": 10},\n"
		" \"usr_cpu\": NaN, \"sys_cpu\": Infinity, \"inf\": 1, \"ctx\": [nan, 2]}]}\n";
	size_t len = 0;
	char *m = cmp_json_mark_nonfinite(doc, strlen(doc), &len);
	CHECK(m && len > strlen(doc), "the non-finite tokens are marked");
	if (m) {
		struct json_object *root = json_tokener_parse(m);
		CHECK(root != NULL, "the marked copy parses");
		fprintf(stderr, "(7 warnings of non-finite figures are expected next)\n");
		CHECK(cmp_json_warn_nonfinite("nf.json", root) == 7, "each is said once");
		json_object_put(root);
	}
	free(m);
	const char *plain = "{\"jobs\": [{\"jobname\": \"nan inf\", \"x\": null, \"n\": -1}]}";
	CHECK(cmp_json_mark_nonfinite(plain, strlen(plain), &len) == NULL,
	      "a file without them is parsed as it is");
	struct cmp_runs runs = { 0 };
	fprintf(stderr, "(7 warnings of non-finite figures are expected next)\n");
	CHECK(cmp_import_text("nf.json", doc, strlen(doc), &runs) == 0 && runs.n == 1,
	      "a fio file with nan and inf is read");
	if (runs.n == 1) {
		const struct cmp_run *r = &runs.v[0];
		CHECK(fig(r, "j", "read", "io_bytes") == 4096 && fig(r, "j", "read", "runtime") == 10,
		      "its finite figures are there");
		static const char *const gone[][2] = { { "read", "bw" }, { "read", "lat_ns.mean" },
						       { "read", "lat_ns.max" }, { "read", "iops" },
						       { "job", "usr_cpu" }, { "job", "sys_cpu" } };
		for (size_t i = 0; i < ARRAY_SIZE(gone); i++)
			CHECK(!cmp_run_fig(r, "j", gone[i][0], gone[i][1]), "%s %s is left out",
			      gone[i][0], gone[i][1]);
		CHECK(fig(r, "j", "job", "inf") == 1, "a key named inf is a figure");
		const char *d = cmp_kvs_get(&r->context, "option.j.description");
		CHECK(d && !strcmp(d, "nan"), "a string \"nan\" stays a string: %s", d ? d : "(none)");
		CHECK(r->raw && r->raw_len == strlen(doc) && !memcmp(r->raw, doc, r->raw_len),
		      "the text is kept as read");
	}
	cmp_runs_release(&runs);
}

int main(void)
{
	test_nonfinite();
	test_fio();
	test_bonnie();
	test_iobench_json();
	test_refusals();
	test_compare_imports();
	return check_done("test_import");
}
