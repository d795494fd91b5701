/*
 * The pieces of --repeat that need no workload: the option rows
 * (--repeat N, auto, auto:W%, the refusals, --max-repeat's range) and the
 * check of their combination (--drop-caches for root only, --max-repeat
 * only with auto); the figure table (the first row fixes the figures, a
 * later row sets them by name, a missing one counts 0, a new one is
 * ignored); its summary (median, the 95% interval only from 6 values on,
 * [min, max] with its coverage below, outliers shown in text and JSON,
 * never dropped); and the headline figures taken from a run_result (bw in
 * KiB/s and iops over the direction's runtime, clat p50/p99 from the
 * histogram, a direction only when rw= asks it or it did I/O).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli/common_opts.h"
#include "report/repeat_figs.h"
#include "report/repeat_table.h"
#include "util/json.h"
#include "spec/jobspec.h"
#include "results/results.h"

static char why[512];

static int parse(struct cmd_common *c, const char *a1, const char *a2)
{
	cmd_common_init(c);
	char *argv[4] = { "test", (char *)a1, (char *)a2, NULL };
	struct cmdopt_parser p = {
		.mode = CMDOPT_STRICT,
		.command = "test",
		.sets = { { cmd_common_rows, COMMON_REPEAT, c } },
		.nr_sets = 1,
	};
	return cmdopt_parse(&p, a2 ? 3 : 2, argv, why, sizeof(why));
}

static void options(void)
{
	struct cmd_common c;
	CHECK(parse(&c, "--repeat=3", NULL) == 0 && c.repeat.count == 3 && !c.repeat.automatic,
	      "--repeat=3: %s", why);
	CHECK(parse(&c, "--repeat=auto", NULL) == 0 && c.repeat.automatic && c.repeat.width == 0.05,
	      "auto: %s", why);
	CHECK(parse(&c, "--repeat=auto:2.5%", NULL) == 0 && fabs(c.repeat.width - 0.025) < 1e-12,
	      "auto:2.5%%: %s", why);
	CHECK(parse(&c, "--repeat=auto:10", NULL) == 0 && fabs(c.repeat.width - 0.10) < 1e-12,
	      "auto:10 (no %%): %s", why);
	CHECK(parse(&c, "--repeat=0", NULL) < 0 && strstr(why, "bad --repeat '0'"), "0: %s", why);
	CHECK(parse(&c, "--repeat=3x", NULL) < 0, "3x refused");
	CHECK(parse(&c, "--repeat=-2", NULL) < 0, "-2 refused");
	CHECK(parse(&c, "--repeat=auto:0%", NULL) < 0 && strstr(why, "auto:W%"), "auto:0%%: %s", why);
	CHECK(parse(&c, "--repeat=auto:100", NULL) < 0, "auto:100 refused");
	CHECK(parse(&c, "--repeat=autox", NULL) < 0, "autox refused");
	CHECK(parse(&c, "--max-repeat=2", NULL) < 0 && strstr(why, "from 3"), "max 2: %s", why);
	CHECK(parse(&c, "--repeat=auto", "--max-repeat=20") == 0 && c.repeat.max_reps == 20,
	      "max 20: %s", why);
	CHECK(cmd_common_check_repeat(&c.repeat, 1000, why, sizeof(why)) == 0, "auto + max ok");
	CHECK(parse(&c, "--repeat=4", "--max-repeat=20") == 0, "parses");
	CHECK(cmd_common_check_repeat(&c.repeat, 0, why, sizeof(why)) == -EINVAL &&
	      strstr(why, "--max-repeat bounds --repeat auto"), "max without auto: %s", why);
	CHECK(parse(&c, "--drop-caches", "--repeat=2") == 0 && c.repeat.drop_caches, "drop");
	CHECK(cmd_common_check_repeat(&c.repeat, 65534, why, sizeof(why)) == -EPERM &&
	      strstr(why, "--drop-caches needs root"), "drop as non-root: %s", why);
	CHECK(cmd_common_check_repeat(&c.repeat, 0, why, sizeof(why)) == 0, "drop as root");
}

static void table(void)
{
	struct rep_table t;
	rep_table_init(&t);
	double a[6] = { 100, 102, 98, 101, 99, 150 };
	for (size_t k = 0; k < 6; k++) {
		rep_table_begin_row(&t, k);
		rep_table_set(&t, "j", "read", "bw", "KiB/s", a[k]);
		if (k != 2)
			rep_table_set(&t, "j", "read", "iops", "IO/s", 10);
		if (k == 1)
			rep_table_set(&t, "late", "write", "bw", "KiB/s", 5); /* not in row 0 */
		rep_table_end_row(&t);
	}
	CHECK(t.nfig == 2 && t.n == 6, "figures %zu rows %zu", t.nfig, t.n);
	CHECK(!strcmp(t.fig[0].name, "j read bw") && !strcmp(t.fig[1].name, "j read iops"),
	      "names '%s' '%s'", t.fig[0].name, t.fig[1].name);
	CHECK(t.fig[1].x[2] == 0 && t.fig[1].x[3] == 10, "a missing figure counts 0");

	struct rep_figure_summary m;
	CHECK(rep_table_summarize(&t, 0, &m) == 0, "summarize");
	CHECK(m.s.n == 6 && m.s.median == 100.5 && m.s.min == 98 && m.s.max == 150,
	      "median %g min %g max %g", m.s.median, m.s.min, m.s.max);
	CHECK(m.has_ci && m.ci.lo == 98 && m.ci.hi == 150 && m.ci.confidence >= 0.95,
	      "6 values: the 95%% interval [min, max] (%g, %g, %g)", m.ci.lo, m.ci.hi,
	      m.ci.confidence);
	CHECK(fabs(m.rel_hi - 49.5 / 100.5) < 1e-12, "relative upper end %g", m.rel_hi);
	CHECK(m.s.n_high == 1, "150 is an outlier, counted, not dropped (n %zu)", m.s.n);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rep_table_write_text(&t, f);
	fclose(f);
	CHECK(strstr(buf, "  j read bw: median 100.5 KiB/s, 95% CI 98..150 (-2.5%/+49.3%), cv ") != NULL,
	      "text line: %s", buf);
	CHECK(strstr(buf, "min 98, max 150, n 6, outliers: repetition 6 far high (150)") != NULL,
	      "outlier named by repetition: %s", buf);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	struct json_writer w;
	json_init(&w, f);
	json_object_begin(&w);
	rep_table_write_json(&t, &w);
	json_object_end(&w);
	CHECK(json_finish(&w) == 0, "json complete");
	fclose(f);
	CHECK(strstr(buf, "\"outliers\" : [\n        6\n      ]") != NULL, "json outliers: %s", buf);
	CHECK(strstr(buf, "\"ci_95\" : true") != NULL && strstr(buf, "\"median\" : 100.500000"),
	      "json keys");
	CHECK(strstr(buf, "\"outlier\" : \"far high\"") != NULL, "value marked far high");
	free(buf);
	rep_table_release(&t);

	/* below 6 values: no 95% interval, [min, max] with what it covers */
	rep_table_init(&t);
	for (size_t k = 0; k < 3; k++) {
		rep_table_begin_row(&t, k);
		rep_table_set(&t, "p", NULL, "rate", "KiB/s", 10.0 + (double)k);
		rep_table_end_row(&t);
	}
	CHECK(rep_table_summarize(&t, 0, &m) == 0 && !m.has_ci && m.ci.lo == 10 && m.ci.hi == 12 &&
	      fabs(m.ci.confidence - 0.75) < 1e-12, "3 values: [min, max] at 75%%");
	CHECK(!strcmp(t.fig[0].name, "p rate"), "bonnie-style name '%s'", t.fig[0].name);
	rep_table_release(&t);
	rep_table_init(&t);
	CHECK(rep_table_summarize(&t, 0, &m) == -EINVAL, "empty table");
}

static void figures(void)
{
	struct job_spec spec;
	memset(&spec, 0, sizeof(spec));
	job_spec_defaults(&spec);
	spec.rw = RW_READ;
	struct job_result j;
	job_result_init(&j);
	j.name = "seq";
	j.spec = &spec;
	j.dir[DDIR_READ].io_bytes = 4ull << 20;
	j.dir[DDIR_READ].total_ios = 1024;
	j.dir[DDIR_READ].runtime_ns = 2000000000ull;
	for (int i = 0; i < 99; i++)
		hist_add(&j.dir[DDIR_READ].clat_hist, 100);
	hist_add(&j.dir[DDIR_READ].clat_hist, 120);
	j.dir[DDIR_TRIM].total_ios = 3; /* not asked, but done: counted */
	j.dir[DDIR_TRIM].runtime_ns = 1000000000ull;
	struct run_result r = { .jobs = &j, .nr_jobs = 1 };
	struct rep_table t;
	rep_table_init(&t);
	rep_figs_add_run(&t, 0, &r);
	CHECK(t.nfig == 8, "read and trim, 4 figures each: %zu", t.nfig);
	CHECK(!strcmp(t.fig[0].name, "seq read bw") && t.fig[0].x[0] == 2048, "bw %g KiB/s",
	      t.fig[0].x[0]);
	CHECK(!strcmp(t.fig[1].name, "seq read iops") && t.fig[1].x[0] == 512, "iops %g",
	      t.fig[1].x[0]);
	CHECK(!strcmp(t.fig[2].name, "seq read clat_p50") && t.fig[2].x[0] == 100, "p50 %g",
	      t.fig[2].x[0]);
	CHECK(!strcmp(t.fig[3].name, "seq read clat_p99") && t.fig[3].x[0] == 100, "p99 %g",
	      t.fig[3].x[0]);
	CHECK(!strcmp(t.fig[5].name, "seq trim iops") && t.fig[5].x[0] == 3, "trim iops %g",
	      t.fig[5].x[0]);
	CHECK(!strcmp(t.fig[0].unit, "KiB/s") && !strcmp(t.fig[2].unit, "ns"), "units");
	rep_table_release(&t);
	/* quick's devices: the same figures, the job named by its device */
	rep_table_init(&t);
	rep_table_begin_row(&t, 0);
	rep_figs_add_jobs(&t, "/dev/sdb", &r);
	rep_figs_add_jobs(&t, "/dev/sdc", &r);
	rep_table_end_row(&t);
	CHECK(t.nfig == 16, "two devices, 8 figures each: %zu", t.nfig);
	CHECK(!strcmp(t.fig[0].name, "/dev/sdb:seq read bw") && !strcmp(t.fig[0].job, "/dev/sdb:seq"),
	      "prefixed: %s (%s)", t.fig[0].name, t.fig[0].job);
	CHECK(!strcmp(t.fig[8].name, "/dev/sdc:seq read bw") && t.fig[8].x[0] == 2048,
	      "the second device's: %s %g", t.fig[8].name, t.fig[8].x[0]);
	rep_table_release(&t);
	hist_release(&j.dir[DDIR_READ].clat_hist);
	j.name = NULL;
	j.spec = NULL;
	job_result_release(&j);
	job_spec_release(&spec);
}

int main(void)
{
	options();
	table();
	figures();
	return check_done("test_repeat_table");
}
