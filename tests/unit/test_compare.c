/*
 * The compare engine (compare/cmp_engine.h) on hand-made selections: known
 * ratios come out with intervals that contain them and are real; identical
 * inputs give no real difference; single runs give no interval and an
 * estimate of the repetitions; idle directions and too-short bonnie phases
 * are no figures; context differences are listed only where values
 * disagree; the table and the JSON say the same.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare/cmp_engine.h"

static void add_run(struct cmp_sel *s, const char *job, double bw, double lat_p99, double usr)
{
	struct cmp_run *r = cmp_runs_push(&s->runs);
	r->id = (int64_t)s->runs.n;
	cmp_run_add_fig(r, job, "write", "bw_bytes", bw);
	cmp_run_add_fig(r, job, "write", "io_bytes", bw * 10);
	cmp_run_add_fig(r, job, "write", "iops", bw / 4096);
	cmp_run_add_fig(r, job, "write", "clat_ns.p99", lat_p99);
	cmp_run_add_fig(r, job, "read", "bw_bytes", 0);
	cmp_run_add_fig(r, job, "read", "io_bytes", 0);
	cmp_run_add_fig(r, job, "job", "usr_cpu", usr);
	cmp_run_add_fig(r, job, "job", "ctx", 12345); /* not in the catalogue */
	cmp_kvs_add(&r->context, "host.kernel_release", "6.1.0");
}

static const struct cmp_row *find_row(const struct cmp_result *res, const char *dir,
				      const char *fig)
{
	for (size_t i = 0; i < res->nr_rows; i++)
		if (!strcmp(res->rows[i].dir, dir) && !strcmp(res->rows[i].def->name, fig))
			return &res->rows[i];
	return NULL;
}

static size_t row_index(const struct cmp_result *res, const struct cmp_row *r)
{
	return (size_t)(r - res->rows);
}

static void test_known_ratio(void)
{
	struct cmp_sel s[2];
	cmp_sel_init(&s[0], "fs=ext4", "ext4");
	cmp_sel_init(&s[1], "fs=xfs", "xfs");
	const double a[] = { 100e6, 101e6, 99e6 }, noise[] = { 1.0, 1.01, 0.99 };
	for (int i = 0; i < 3; i++) {
		add_run(&s[0], "seq", a[i], 1000, 5);
		add_run(&s[1], "seq", 150e6 * noise[(i + 1) % 3], 2000 * noise[i], 5 * noise[i]);
	}
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "compute");
	CHECK(res.one_job, "one job");
	const struct cmp_row *bw = find_row(&res, "write", "bw_bytes");
	CHECK(bw != NULL, "write bw row");
	CHECK(find_row(&res, "read", "bw_bytes") == NULL, "an idle direction is no figure");
	CHECK(find_row(&res, "job", "ctx") == NULL, "ctx is not compared");
	CHECK(find_row(&res, "job", "usr_cpu") != NULL, "cpu usr row");
	if (bw) {
		const struct cmp_cell *c = &bw->cells[1];
		CHECK(bw->method == RATIO_FIELLER, "3 runs a side: Fieller");
		CHECK(c->status == CMP_INTERVAL, "status %d", c->status);
		CHECK(fabs(c->ci.ratio - 1.5) < 1e-9, "ratio %g", c->ci.ratio);
		CHECK(c->ci.lo < 1.5 && c->ci.hi > 1.5, "interval %g-%g", c->ci.lo, c->ci.hi);
		CHECK(c->ci.hi - c->ci.lo < 0.2, "narrow: %g-%g", c->ci.lo, c->ci.hi);
		CHECK(c->ci.real && c->real && !c->noise, "real");
		char v[512];
		cmp_verdict(&res, row_index(&res, bw), 1, v, sizeof(v));
		char want[128];
		snprintf(want, sizeof(want), "xfs: 1.50× ext4 write bw (%.2f–%.2f), real, better",
			 c->ci.lo, c->ci.hi);
		CHECK(!strcmp(v, want), "verdict '%s'", v);
	}
	const struct cmp_row *lat = find_row(&res, "write", "clat_ns.p99");
	if (lat) {
		char v[512];
		cmp_verdict(&res, row_index(&res, lat), 1, v, sizeof(v));
		CHECK(strstr(v, "2.00× ext4 write clat p99") && strstr(v, "real, worse"),
		      "latency verdict '%s'", v);
	}
	CHECK(res.nr_diffs == 0, "same kernel: no context difference (%zu)", res.nr_diffs);

	/* the same in JSON */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(cmp_report_json(&res, f) == 0, "json");
	fclose(f);
	struct json_object *root = json_tokener_parse(buf), *rows, *v;
	CHECK(root != NULL, "json parses");
	if (root) {
		CHECK(json_object_object_get_ex(root, "rows", &rows) &&
		      json_object_array_length(rows) == res.nr_rows, "rows");
		struct json_object *r0 = json_object_array_get_idx(rows, 0), *cells, *c1;
		CHECK(json_object_object_get_ex(r0, "cells", &cells) &&
		      (c1 = json_object_array_get_idx(cells, 1)) &&
		      json_object_object_get_ex(c1, "real", &v) && json_object_get_boolean(v),
		      "json: first row real");
		json_object_put(root);
	}
	free(buf);
	/* and the table */
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(cmp_report_normal(&res, f) == 0, "normal");
	fclose(f);
	CHECK(strstr(buf, "1.50×") && strstr(buf, "verdicts:") && strstr(buf, "real"), "%s", buf);
	free(buf);
	cmp_result_release(&res);
	cmp_sel_release(&s[0]);
	cmp_sel_release(&s[1]);
}

static void test_identical(void)
{
	struct cmp_sel s[2];
	cmp_sel_init(&s[0], "1,2,3", "runs 1,2,3");
	cmp_sel_init(&s[1], "4,5,6", "runs 4,5,6");
	const double v[] = { 100e6, 103e6, 97e6, 101e6, 99e6, 100.5e6 };
	for (int i = 0; i < 6; i++) {
		add_run(&s[0], "seq", v[i], 1000 + i, 5);
		add_run(&s[1], "seq", v[(i + 3) % 6], 1000 + (i + 3) % 6, 5);
	}
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "compute");
	for (size_t i = 0; i < res.nr_rows; i++) {
		const struct cmp_cell *c = &res.rows[i].cells[1];
		CHECK(res.rows[i].method == RATIO_BOOTSTRAP_PERCENTILE, "6 runs a side: bootstrap");
		CHECK(c->status == CMP_INTERVAL, "%s: status %d", res.rows[i].def->name, c->status);
		CHECK(fabs(c->ci.ratio - 1) < 1e-12, "%s: ratio %g", res.rows[i].def->name, c->ci.ratio);
		CHECK(!c->ci.real && !c->real && c->ci.lo <= 1 && c->ci.hi >= 1, "%s: %g-%g",
		      res.rows[i].def->name, c->ci.lo, c->ci.hi);
		char vd[512];
		cmp_verdict(&res, i, 1, vd, sizeof(vd));
		CHECK(strstr(vd, "no real difference"), "'%s'", vd);
	}
	cmp_result_release(&res);
	/* Fieller gives the same answer */
	o.method = CMP_METHOD_FIELLER;
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "compute");
	for (size_t i = 0; i < res.nr_rows; i++)
		CHECK(res.rows[i].cells[1].status == CMP_INTERVAL && !res.rows[i].cells[1].ci.real,
		      "fieller %s", res.rows[i].def->name);
	cmp_result_release(&res);
	cmp_sel_release(&s[0]);
	cmp_sel_release(&s[1]);
}

static void test_single(void)
{
	struct cmp_sel s[3];
	cmp_sel_init(&s[0], "1", "run 1");
	cmp_sel_init(&s[1], "2", "run 2");
	cmp_sel_init(&s[2], "3,4,5", "runs 3-5");
	add_run(&s[0], "seq", 100e6, 1000, 5);
	add_run(&s[1], "seq", 150e6, 1000, 5);
	add_run(&s[2], "seq", 100e6, 1000, 5);
	add_run(&s[2], "seq", 110e6, 1000, 5);
	add_run(&s[2], "seq", 90e6, 1000, 5);
	/* run 2 has fio's per-interval bw samples: CV 10% */
	cmp_run_add_fig(&s[1].runs.v[0], "seq", "write", "bw_dev", 14648.4);
	cmp_run_add_fig(&s[1].runs.v[0], "seq", "write", "bw_mean", 146484.4);
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	CHECK(cmp_compute(s, 3, &o, &res) == 0, "compute");
	const struct cmp_row *bw = find_row(&res, "write", "bw_bytes");
	const struct cmp_row *lat = find_row(&res, "write", "clat_ns.p99");
	CHECK(bw && lat, "rows");
	if (bw && lat) {
		const struct cmp_cell *c = &bw->cells[1];
		CHECK(c->status == CMP_SINGLE, "single: %d", c->status);
		CHECK(fabs(c->ci.ratio - 1.5) < 1e-12, "point ratio %g", c->ci.ratio);
		CHECK(c->cv_within_run && fabs(c->cv_used - 0.1) < 1e-3, "cv %g", c->cv_used);
		/* t * sqrt(2 * 0.01 / n) <= 0.05 needs n around 34 */
		CHECK(c->reps_needed >= 30 && c->reps_needed <= 40, "reps %zu", c->reps_needed);
		char v[512];
		cmp_verdict(&res, row_index(&res, bw), 1, v, sizeof(v));
		CHECK(strstr(v, "run 2: 1.50× run 1 write bw, a single run on each side: no interval "
			 "can be given; about ") && strstr(v, "lower bound"), "'%s'", v);
		/* no CV at all for latency on single runs: ask for repetitions */
		const struct cmp_cell *l = &lat->cells[1];
		CHECK(l->status == CMP_SINGLE && l->reps_needed == 0, "lat %d %zu", l->status,
		      l->reps_needed);
		cmp_verdict(&res, row_index(&res, lat), 1, v, sizeof(v));
		CHECK(strstr(v, "repeat each side at least 3 times"), "'%s'", v);
		/* one side repeated: its run-to-run CV (10%) plans the other */
		const struct cmp_cell *r3 = &bw->cells[2];
		CHECK(r3->status == CMP_SINGLE && !r3->cv_within_run &&
		      fabs(r3->cv_used - 0.1) < 1e-9 && r3->reps_needed > 10, "cv %g reps %zu",
		      r3->cv_used, r3->reps_needed);
		cmp_verdict(&res, row_index(&res, bw), 2, v, sizeof(v));
		CHECK(strstr(v, "a single run on run 1:"), "'%s'", v);
	}
	cmp_result_release(&res);
	for (int i = 0; i < 3; i++)
		cmp_sel_release(&s[i]);
}

static void test_context_and_bonnie(void)
{
	struct cmp_sel s[2];
	cmp_sel_init(&s[0], "a", "a");
	cmp_sel_init(&s[1], "b", "b");
	for (int i = 0; i < 2; i++) {
		struct cmp_run *r = cmp_runs_push(&s[i].runs);
		cmp_run_add_fig(r, "aggregate", "put_block", "rate", i ? 2000 : 1000);
		cmp_run_add_fig(r, "aggregate", "put_block", "too_short", 0);
		cmp_run_add_fig(r, "aggregate", "getc", "rate", 5);
		cmp_run_add_fig(r, "aggregate", "getc", "too_short", 1);
		cmp_run_add_fig(r, "aggregate", "getc", "latency_us.max", 900 + i);
		cmp_run_add_fig(r, "copy 0", "put_block", "rate", 1000);
		cmp_kvs_add(&r->context, "host.kernel_release", i ? "6.2" : "6.1");
		cmp_kvs_add(&r->context, "tool", "bonnie++-2.00a");
		if (i)
			cmp_kvs_add(&r->context, "devices[0].queue.scheduler", "none");
		cmp_kvs_add(&r->context, "option.j.bs", "4k");
		if (!i)
			cmp_kvs_add(&r->context, "option.j.rate", "1m");
		r = cmp_runs_push(&s[i].runs);
		cmp_run_add_fig(r, "aggregate", "put_block", "rate", i ? 2002 : 1001);
		cmp_kvs_add(&r->context, "host.kernel_release", i ? "6.2" : "6.1");
		cmp_kvs_add(&r->context, "tool", i ? "bonnie++-2.00a" : "bonnie++-1.98");
	}
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "compute");
	CHECK(res.nr_rows == 2 && !strcmp(res.rows[0].dir, "put_block") &&
	      !strcmp(res.rows[1].dir, "getc") && !strcmp(res.rows[1].def->name, "latency_us.max"),
	      "the rate of a too short phase is no figure, its latency is; copies are not "
	      "compared (%zu rows)", res.nr_rows);
	CHECK(res.nr_diffs == 3, "diffs %zu", res.nr_diffs);
	if (res.nr_diffs == 3) {
		CHECK(!strcmp(res.diffs[2].key, "option.j.rate") &&
		      !strcmp(res.diffs[2].values[0], "1m") &&
		      !strcmp(res.diffs[2].values[1], "(unset)"), "an option set on one side only");
		CHECK(!strcmp(res.diffs[0].key, "host.kernel_release") &&
		      !strcmp(res.diffs[0].values[0], "6.1") && !strcmp(res.diffs[0].values[1], "6.2"),
		      "kernel");
		CHECK(!strcmp(res.diffs[1].key, "tool") &&
		      !strcmp(res.diffs[1].values[0], "bonnie++-2.00a | bonnie++-1.98"),
		      "tool varies within a: %s", res.diffs[1].values[0]);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(cmp_report_normal(&res, f) == 0, "normal");
	fclose(f);
	CHECK(strstr(buf, "context differences:\n  host.kernel_release: a 6.1; b 6.2\n"), "%s", buf);
	CHECK(strstr(buf, "put_block rate"), "%s", buf);
	free(buf);
	cmp_result_release(&res);
	cmp_sel_release(&s[0]);
	cmp_sel_release(&s[1]);
}

/* A difference the interval is sure of but that is smaller than the noise
 * threshold (0.3% < 1%) is no real difference, unless the threshold is 0. */
static void test_noise_threshold(void)
{
	struct cmp_sel s[2];
	cmp_sel_init(&s[0], "a", NULL);
	cmp_sel_init(&s[1], "b", NULL);
	const double v[] = { 100.0e6, 100.01e6, 99.99e6 };
	for (int i = 0; i < 3; i++) {
		add_run(&s[0], "seq", v[i], 1000, 5);
		add_run(&s[1], "seq", v[i] * 1.003, 1000, 5);
	}
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "compute");
	const struct cmp_row *bw = find_row(&res, "write", "bw_bytes");
	if (bw) {
		const struct cmp_cell *c = &bw->cells[1];
		CHECK(c->ci.real && !c->real && c->noise, "noise: %g-%g", c->ci.lo, c->ci.hi);
		char vd[512];
		cmp_verdict(&res, row_index(&res, bw), 1, vd, sizeof(vd));
		CHECK(strstr(vd, "no real difference (within the 1% noise threshold)"), "'%s'", vd);
	}
	cmp_result_release(&res);
	o.threshold = 0;
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "compute");
	bw = find_row(&res, "write", "bw_bytes");
	CHECK(bw && bw->cells[1].real, "threshold 0: real");
	cmp_result_release(&res);
	o.threshold = 1.5;
	fprintf(stderr, "(an expected error follows)\n");
	CHECK(cmp_compute(s, 2, &o, &res) < 0, "threshold 150%% refused");
	cmp_sel_release(&s[0]);
	cmp_sel_release(&s[1]);
}

static void test_errors(void)
{
	struct cmp_sel s[2];
	cmp_sel_init(&s[0], "a", NULL);
	cmp_sel_init(&s[1], "b", NULL);
	add_run(&s[0], "j", 1, 1, 1);
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result res;
	fprintf(stderr, "(expected errors follow)\n");
	CHECK(cmp_compute(s, 1, &o, &res) < 0, "one selection");
	CHECK(cmp_compute(s, 2, &o, &res) < 0, "an empty selection");
	add_run(&s[1], "k", 1, 1, 1);
	CHECK(cmp_compute(s, 2, &o, &res) == 0, "disjoint jobs");
	CHECK(!res.one_job, "two jobs");
	for (size_t i = 0; i < res.nr_rows; i++)
		CHECK(res.rows[i].cells[1].status == CMP_MISSING, "missing");
	cmp_result_release(&res);
	/* no figure of the catalogue at all */
	struct cmp_sel e[2];
	cmp_sel_init(&e[0], "x", NULL);
	cmp_sel_init(&e[1], "y", NULL);
	cmp_run_add_fig(cmp_runs_push(&e[0].runs), "j", "job", "ctx", 1);
	cmp_runs_push(&e[1].runs);
	CHECK(cmp_compute(e, 2, &o, &res) == 0 && res.nr_rows == 0, "no rows");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(cmp_report_normal(&res, f) == 0 && cmp_report_json(&res, f) == 0, "reports");
	fclose(f);
	CHECK(strstr(buf, "no figure to compare"), "%s", buf);
	free(buf);
	cmp_result_release(&res);
	cmp_sel_release(&e[0]);
	cmp_sel_release(&e[1]);
	enum cmp_method m;
	CHECK(cmp_method_parse("bootstrap", &m) == 0 && m == CMP_METHOD_BOOTSTRAP, "parse");
	CHECK(cmp_method_parse("boot", &m) < 0, "parse bad");
	cmp_sel_release(&s[0]);
	cmp_sel_release(&s[1]);
}

int main(void)
{
	test_known_ratio();
	test_identical();
	test_single();
	test_context_and_bonnie();
	test_noise_threshold();
	test_errors();
	return check_done("test_compare");
}
