/*
 * Sweep goals (sweep/sweep_goal.h): the texts into stored figure names
 * and directions, the refusals, and the value of runs built as the store
 * loads them: fio jobs summed (bw, iops) or the largest (latency, zeros
 * of a direction without I/O skipped), bonnie's aggregate only with the
 * tests of -x averaged and too-short phases left out, elapsed, and the
 * -ENOENT message listing what the run has.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "sweep/sweep_goal.h"

static void parse_ok(const char *text, const char *dir, const char *name, bool higher,
		     const char *canon)
{
	struct sweep_goal g;
	char why[256];
	int rc = sweep_goal_parse(text, &g, why, sizeof(why));
	CHECK(rc == 0, "'%s': %d %s", text, rc, why);
	if (rc)
		return;
	CHECK(!strcmp(g.dir, dir) && !strcmp(g.name, name), "'%s': %s %s", text, g.dir, g.name);
	CHECK(g.higher_is_better == higher, "'%s': direction", text);
	CHECK(!strcmp(g.text, canon), "'%s': canonical '%s'", text, g.text);
}

static void parse_bad(const char *text, const char *needle)
{
	struct sweep_goal g;
	char why[256];
	int rc = sweep_goal_parse(text, &g, why, sizeof(why));
	CHECK(rc == -EINVAL, "'%s' refused: %d", text, rc);
	CHECK(strstr(why, needle) != NULL, "'%s': message '%s' lacks '%s'", text, why, needle);
}

static void parsing(void)
{
	parse_ok("write bw", "write", "bw_bytes", true, "write bw");
	parse_ok("  Read   IOPS ", "read", "iops", true, "read iops");
	parse_ok("randread p99", "read", "clat_ns.p99", false, "read clat p99");
	parse_ok("randwrite p99.90", "write", "clat_ns.p99.9", false, "write clat p99.9");
	parse_ok("read lat mean", "read", "lat_ns.mean", false, "read lat mean");
	parse_ok("trim slat max", "trim", "slat_ns.max", false, "trim slat max");
	parse_ok("bonnie seq_create", "seq_create", "rate", true, "bonnie seq_create rate");
	parse_ok("bonnie put_block", "put_block", "rate", true, "bonnie put_block rate");
	parse_ok("bonnie seeks cpu", "seeks", "cpu_pct", false, "bonnie seeks cpu");
	parse_ok("bonnie getc latency", "getc", "latency_us.max", false, "bonnie getc max");
	parse_ok("elapsed", "job", "iobench.runtime_ns", false, "elapsed");
	parse_bad("", "empty");
	parse_bad("sideways bw", "unknown direction 'sideways'");
	parse_bad("write", "needs a figure");
	parse_bad("write speed", "unknown figure 'speed'");
	parse_bad("read clat p0", "unknown latency figure 'p0'");
	parse_bad("read p101", "unknown latency figure 'p101'");
	parse_bad("bonnie", "a phase is missing");
	parse_bad("bonnie seq_make", "unknown bonnie phase 'seq_make'");
	parse_bad("bonnie putc speed", "unknown bonnie figure 'speed'");
	parse_bad("elapsed time", "takes no more words");
}

static void fio_job(struct cmp_run *r, const char *job, double wbytes, double wbw, double wp99,
		    double rbytes)
{
	cmp_run_add_fig(r, job, "job", "iobench.runtime_ns", 1e9 + wbw);
	cmp_run_add_fig(r, job, "read", "bw_bytes", rbytes ? 5 : 0);
	cmp_run_add_fig(r, job, "read", "clat_ns.p99", rbytes ? 7 : 0);
	cmp_run_add_fig(r, job, "read", "io_bytes", rbytes);
	cmp_run_add_fig(r, job, "write", "bw_bytes", wbw);
	cmp_run_add_fig(r, job, "write", "clat_ns.p99", wp99);
	cmp_run_add_fig(r, job, "write", "io_bytes", wbytes);
	cmp_run_add_fig(r, job, "write", "iops", wbw / 4096);
}

static double value(const char *text, const struct cmp_run *r, int *rc)
{
	struct sweep_goal g;
	char why[256];
	double v = NAN;
	if (sweep_goal_parse(text, &g, why, sizeof(why)) < 0) {
		*rc = -EINVAL;
		return v;
	}
	*rc = sweep_goal_value_quiet(&g, r, &v);
	return v;
}

static void fio_values(void)
{
	struct cmp_run r = { .id = 7 };
	/* two clones of one name and a reader that did no writes */
	fio_job(&r, "w", 1 << 20, 1000, 300, 0);
	fio_job(&r, "w", 1 << 20, 3000, 500, 0);
	fio_job(&r, "r", 0, 0, 0, 1 << 20);
	int rc;
	double v = value("write bw", &r, &rc);
	CHECK(rc == 0 && v == 4000, "write bw summed: %d %g", rc, v);
	v = value("write iops", &r, &rc);
	CHECK(rc == 0 && fabs(v - 4000.0 / 4096) < 1e-12, "write iops summed: %g", v);
	v = value("randwrite p99", &r, &rc);
	CHECK(rc == 0 && v == 500, "write p99: the largest job's, the reader's 0 skipped: %g", v);
	v = value("read p99", &r, &rc);
	CHECK(rc == 0 && v == 7, "read p99: the writers' 0 skipped: %g", v);
	v = value("elapsed", &r, &rc);
	CHECK(rc == 0 && v == 1e9 + 3000, "elapsed: the longest job: %g", v);
	v = value("trim bw", &r, &rc);
	CHECK(rc == -ENOENT, "no trims: %d", rc);
	v = value("bonnie put_block", &r, &rc);
	CHECK(rc == -ENOENT, "no bonnie phase in a fio run: %d", rc);
	v = value("read lat p99", &r, &rc);
	CHECK(rc == -ENOENT, "no lat percentiles stored: %d", rc);
	char have[256];
	sweep_goal_available(&r, have, sizeof(have));
	CHECK(!strcmp(have, "read bw, read iops, read clat p99, write bw, write iops, write clat p99, "
		      "elapsed"), "available: '%s'", have);
	/* the printed message */
	struct sweep_goal g;
	char why[128];
	sweep_goal_parse("trim iops", &g, why, sizeof(why));
	CHECK(sweep_goal_value(&g, &r, &v) == -ENOENT, "message printed to stderr");
	char buf[64];
	sweep_goal_parse("write bw", &g, why, sizeof(why));
	sweep_goal_format(&g, 150.0 * 1024 * 1024, buf, sizeof(buf));
	CHECK(!strcmp(buf, "150 MiB/s"), "format '%s'", buf);
	CHECK(sweep_goal_better(&g, 2, 1) && !sweep_goal_better(&g, 1, 2), "higher better");
	sweep_goal_parse("read p99", &g, why, sizeof(why));
	CHECK(sweep_goal_better(&g, 1, 2), "lower better");
	cmp_run_release(&r);

	/* fio's own JSON: job_runtime in ms, no iobench figure */
	struct cmp_run f = { 0 };
	cmp_run_add_fig(&f, "j", "job", "job_runtime", 1500);
	v = value("elapsed", &f, &rc);
	CHECK(rc == 0 && v == 1.5e9, "fio job_runtime: %g", v);
	cmp_run_release(&f);
}

static void bonnie_test(struct cmp_run *r, const char *job, double put, int put_short,
			double create)
{
	cmp_run_add_fig(r, job, "put_block", "cpu_pct", 10);
	cmp_run_add_fig(r, job, "put_block", "latency_us.max", 900);
	cmp_run_add_fig(r, job, "put_block", "rate", put);
	cmp_run_add_fig(r, job, "put_block", "too_short", put_short);
	cmp_run_add_fig(r, job, "seq_create", "rate", create);
	cmp_run_add_fig(r, job, "seq_create", "too_short", 0);
}

static void bonnie_values(void)
{
	struct cmp_run r = { .id = 9 };
	/* -x 3 -c 2: each test an aggregate and two copies */
	bonnie_test(&r, "aggregate", 1000, 0, 300);
	bonnie_test(&r, "copy 1", 500, 0, 150);
	bonnie_test(&r, "copy 2", 500, 0, 150);
	bonnie_test(&r, "aggregate", 2000, 0, 500);
	bonnie_test(&r, "copy 1", 1000, 0, 250);
	bonnie_test(&r, "copy 2", 1000, 0, 250);
	bonnie_test(&r, "aggregate", 9999, 1, 400);
	int rc;
	double v = value("bonnie put_block", &r, &rc);
	CHECK(rc == 0 && v == 1500, "put_block: the mean of the aggregates that measured: %g", v);
	v = value("bonnie seq_create", &r, &rc);
	CHECK(rc == 0 && v == 400, "seq_create: mean of 3 aggregates: %g", v);
	v = value("bonnie put_block latency", &r, &rc);
	CHECK(rc == 0 && v == 900, "latency of a too-short phase counts: %g", v);
	v = value("bonnie rewrite", &r, &rc);
	CHECK(rc == -ENOENT, "no rewrite phase");
	v = value("write bw", &r, &rc);
	CHECK(rc == -ENOENT, "no fio figure in a bonnie run");
	char have[256];
	sweep_goal_available(&r, have, sizeof(have));
	CHECK(!strcmp(have, "bonnie put_block, bonnie seq_create"), "available: '%s'", have);
	cmp_run_release(&r);

	/* bonnie++ CSV imports: one job, no aggregate name */
	struct cmp_run c = { 0 };
	bonnie_test(&c, "bonnie", 700, 0, 10);
	v = value("bonnie put_block", &c, &rc);
	CHECK(rc == 0 && v == 700, "CSV import: %g", v);
	cmp_run_release(&c);
	struct cmp_run e = { 0 };
	char have2[64];
	sweep_goal_available(&e, have2, sizeof(have2));
	CHECK(!strcmp(have2, "no figures"), "empty run: '%s'", have2);
}

int main(void)
{
	parsing();
	fio_values();
	bonnie_values();
	return check_done("test_sweep_goal");
}
