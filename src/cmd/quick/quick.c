/*
 * `iobench quick [DIR]`: a CrystalDiskMark-like table in about a minute:
 * sequential 1 MiB read and write at queue depth 8 and 1, random 4 KiB read
 * and write at queue depth 32 and 1, on one file in DIR through io_uring,
 * with O_DIRECT when the filesystem allows it (otherwise buffered, and the
 * table says so). Each write row ends with fsync, so its figure includes
 * the flush (--no-flush leaves it out, as fio's default does), and the
 * warnings' advice names quick's own flags. The file is removed at the
 * end, also when the run fails or is interrupted. Block devices (one or
 * several) are quick_dev.c's.
 */
#include "cli/command.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/output.h"
#include "cmd/quick/quick_int.h"
#include "quick/quick_suite.h"
#include "runner/repeat/runner_repeat.h"
#include "sys/signals.h"
#include "cli/storing.h"
#include "report/env_report.h"
#include "report/report.h"
#include "sys/dev/devguard.h"
#include "sys/dev/devres.h"
#include "sys/dev/guardopen.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/units.h"
#include "util/xmalloc.h"

static const char quick_usage[] =
	"usage: iobench quick [DIR | DEVICE...] [--size=SIZE] [--runtime=TIME] [--engine=NAME]\n"
	"                     [--no-flush] [--output-format=table|json|normal]\n"
	"                     [--allow-destroy=DEVICE] [--memory-limit=SIZE] [--no-monitor]\n"
	"                     [--monitor-interval=SEC] [--warn-slab=SIZE]\n"
	"                     [--repeat=N|auto[:W%]] [--max-repeat=N] [--drop-caches]\n"
	"\n"
	"Measure DIR (default .) the way CrystalDiskMark does: sequential 1 MiB\n"
	"read and write at queue depth 8 and 1, random 4 KiB read and write at\n"
	"queue depth 32 and 1, each for --runtime (default 5s) over a --size file\n"
	"(default 1g), with O_DIRECT where the filesystem supports it, through\n"
	"--engine (default io_uring; a synchronous engine such as psync runs the\n"
	"depth-1 rows only). Each write row ends with an fsync of the file and its\n"
	"time counts, so the write figures include the flush of any volatile write\n"
	"cache; --no-flush leaves it out (the figures are then what reached the\n"
	"device's cache, as with fio's default). The test file is removed\n"
	"afterwards. The table is headed by a short system capture of DIR and\n"
	"followed by the monitor's summary and any warnings (see 'iobench help\n"
	"run'), whose advice names quick's flags.\n"
	"\n"
	"Block devices (one or more, e.g. iobench quick /dev/sdb /dev/sdc /dev/md3)\n"
	"are measured one after the other and printed in one table, a row group per\n"
	"device, over the first --size bytes of each (at most the device): 'hdparm\n"
	"-t' (the device's page cache dropped, then one buffered pass of 2 MiB\n"
	"reads, as hdparm -t), 'hdparm -t --direct' (the same with O_DIRECT), the\n"
	"SEQ1M and RND4K read rows (O_DIRECT), and 'hdparm -T' (the first 2 MiB\n"
	"read over and over from the page cache: the memory's speed, not the\n"
	"device's; its run is not monitored). A device is only read: nothing is\n"
	"written to it unless --allow-destroy=DEVICE names it (repeatable), which\n"
	"adds its SEQ1M and RND4K write rows and destroys its data; a device in use\n"
	"(mounted, swap, held by md/dm) is refused even then. MB/s are 10^6 bytes\n"
	"per second (hdparm's MB are MiB). Several paths must all be block devices;\n"
	"other formats than the table take one device.\n"
	"\n"
	"--repeat runs the whole table N times (or, with auto, until every figure's\n"
	"95% confidence interval of the median is within W; see 'iobench help run'),\n"
	"printing each table and then the summary per job, direction and figure (on\n"
	"block devices every device is measured again in each repetition, its\n"
	"figures named DEVICE:job when there are several).\n"
	"\n"
	"options:\n";

/* The command line beyond the shared options. */
struct quick_cmdline {
	struct quick_opts o;
	struct cmdopt_list paths;
	size_t nbdev; /* how many of the paths are block devices */
};

#define QOFF(f) offsetof(struct quick_cmdline, o.f)

static const struct cmdopt quick_rows[] = {
	{ "size", 0, CMDOPT_REQARG, CMDOPT_STRING, QOFF(size), NULL, 0, "SIZE",
	  "the test file, or the region of each device (default 1g)" },
	{ "runtime", 0, CMDOPT_REQARG, CMDOPT_STRING, QOFF(runtime), NULL, 0, "TIME",
	  "how long each test runs (default 5s)" },
	{ "engine", 0, CMDOPT_REQARG, CMDOPT_STRING, QOFF(engine), NULL, 0, "NAME",
	  "the I/O engine (default io_uring)" },
	{ "no-flush", 0, CMDOPT_NOARG, CMDOPT_FALSE, QOFF(flush), NULL, 0, NULL,
	  "leave the closing fsync out of the write figures" },
	CMDOPT_END,
};

static const struct cmdopt_help quick_help_for[] = {
	{ "output-format", "table (the default), or a report of 'iobench run': normal, json, "
			   "json+ or terse" },
	{ "allow-destroy", "write to DEVICE too (its SEQ1M and RND4K write rows), destroying "
			   "its data (repeatable; one device each)" },
	{ NULL, NULL },
};

static int add_path(void *arg, const char *word, char *why, size_t len)
{
	struct quick_cmdline *q = arg;
	cmdopt_list_add(&q->paths, word);
	q->nbdev += devres_is_block_device(word) == 1;
	return 0;
}

static bool direct_supported(const char *dir)
{
	char *p = xasprintf("%s/.iobench-odirect.%d", dir, (int)getpid());
	/* a probe file of iobench's own, through the guarded open */
	struct devguard_use u = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE };
	struct devguard_fd g;
	char why[512];
	bool ok = devguard_open(p, O_RDWR | O_CREAT | O_EXCL | O_DIRECT, 0600, &u, &g, why,
				sizeof(why)) == 0;
	if (ok) {
		struct stat st;
		if (fstat(g.fd, &st) == 0)
			devguard_unlink_created(AT_FDCWD, p, &st, why, sizeof(why));
		close(g.fd);
	}
	free(p);
	return ok;
}

static void print_table(const struct run_result *r, const bool *ran, const char *dir,
			const char *size, const char *runtime, const char *engine, bool direct,
			bool flush, FILE *out)
{
	fprintf(out, "iobench quick: %s, %s file, %s per test, %s, %s\n", dir, size, runtime, engine,
	       direct ? "O_DIRECT" : "buffered (O_DIRECT unsupported: page cache included)");
	fprintf(out, "%s\n", flush ? "write figures include the flush: each write test ends with "
			       "fsync, and its time counts (--no-flush leaves it out)"
			     : "write figures leave out the flush (--no-flush): what reached the "
			       "device's cache may still sit in it");
	fprintf(out, "%-12s %12s %12s %12s %12s\n", "test", "read MB/s", "write MB/s", "read IOPS",
	       "write IOPS");
	size_t k = 0; /* index into r->jobs: only the tests that ran have entries */
	for (size_t i = 0; i + 1 < QUICK_NR_TESTS; i += 2) {
		if (!ran[i])
			continue;
		double mb[2] = { 0, 0 }, iops[2] = { 0, 0 };
		for (size_t w = 0; w < 2 && k < r->nr_jobs; w++, k++) {
			const struct job_result *j = &r->jobs[k];
			enum ddir d = quick_tests[i + w].is_read ? DDIR_READ : DDIR_WRITE;
			double sec = (double)j->dir[d].runtime_ns / 1e9;
			if (sec > 0) {
				mb[w] = (double)j->dir[d].io_bytes / 1e6 / sec;
				iops[w] = (double)j->dir[d].total_ios / sec;
			}
		}
		fprintf(out, "%-12s %12.2f %12.2f %12.0f %12.0f\n", quick_tests[i].label, mb[0], mb[1],
		       iops[0], iops[1]);
	}
}

/* What the table says about the run, and the format asked. */
struct quick_table {
	const bool *ran;
	const char *dir, *size, *runtime, *engine;
	bool direct, flush;
	unsigned formats; /* 0: the table */
};

/* One run's table (with the machine around it) when no format was
 * asked, else the report in formats (nothing when they are none). */
static void quick_show(const struct quick_table *q, const struct run_result *res,
		       unsigned formats, FILE *out)
{
	if (formats) {
		report_write(res, formats, out);
	} else if (!q->formats) {
		env_text_header(res->env, "", out);
		print_table(res, q->ran, q->dir, q->size, q->runtime, q->engine, q->direct, q->flush,
			    out);
		env_text_footer(res->env, out);
	}
}

#define QUICK_JSON ((unsigned)(REPORT_JSON | REPORT_JSONPLUS))

/* The repetitions: the table, and their storing. */
struct quick_reps {
	const struct quick_table *q;
	struct runner_rep_store store;
};

static void quick_rep_heading(const struct repetition *rep, FILE *out)
{
	fprintf(out, "repetition %zu%s\n", rep->index + 1,
		rep->interrupted ? " (interrupted by a signal: not in the summary)" : "");
}

static void quick_show_rep(void *arg, const struct repetition *rep)
{
	const struct quick_table *q = ((struct quick_reps *)arg)->q;
	unsigned text = q->formats & ~QUICK_JSON;
	if (!rep->run->nr_jobs || (q->formats && !text))
		return;
	if (rep->index)
		putchar('\n');
	quick_rep_heading(rep, stdout);
	quick_show(q, rep->run, text, stdout);
	fflush(stdout);
}

/* A repetition shown: stored as a quick run of its own, its table (when
 * the table was asked) as printed, under its heading. */
static void quick_store_rep(void *arg, const struct repetition *rep)
{
	struct quick_reps *r = arg;
	const struct quick_table *q = r->q;
	char *table = NULL;
	size_t len = 0;
	FILE *m = !q->formats && rep->run->nr_jobs ? open_memstream(&table, &len) : NULL;
	if (m) {
		quick_rep_heading(rep, m);
		quick_show(q, rep->run, 0, m);
		if (fclose(m) != 0) {
			free(table);
			table = NULL;
		}
	}
	runner_store_rep(&r->store, rep, q->formats & ~QUICK_JSON, NULL, table, len);
	free(table);
}

/* --repeat: the table (or the text report) per repetition, then the
 * summary; JSON once at the end, as 'iobench run' writes it. */
static int quick_repeat(const struct job_list *l, const struct runner_args *ra,
			const struct quick_table *q)
{
	bool json = q->formats & (REPORT_JSON | REPORT_JSONPLUS);
	bool storing = cmd_store_wanted(ra->store_ctx);
	/* the errors, for the JSON and for each stored repetition */
	struct error_capture errs = { 0 };
	if (json || storing)
		error_capture_begin(&errs);
	struct quick_reps reps = { q, { .ra = ra, .errs = &errs } };
	struct repeat_outcome out;
	int status = runner_repeat(l, ra, quick_show_rep, storing ? quick_store_rep : NULL, &reps,
				   &out);
	error_capture_end();
	if (reps.store.failed && status == 0)
		status = 1;
	bool measured = out.nr && out.reps[out.nr - 1].run->nr_jobs;
	if (json && measured)
		runner_repeat_write_json(&out, q->formats & REPORT_JSONPLUS, stdout);
	else if (json && status)
		report_write_json_error((const char *const *)errs.msgs, errs.nr, stdout);
	error_capture_release(&errs);
	if (out.nr)
		repeat_write_text(&out, json ? stderr : stdout);
	if (out.stopped_by == REPEAT_BY_SIGNAL)
		warning("stopped by a signal during repetition %zu: the results above cover the "
			"time until then", out.nr);
	if (output_check(stdout, q->formats ? "the report" : "the table", NULL) < 0 && status == 0)
		status = 1;
	repeat_outcome_release(&out);
	return status;
}

/* Store a printed quick result (cli/storing.h): its table (when printed)
 * and the reporters' formats. The new status. */
static int store_quick(const struct runner_args *ra, const struct run_result *res,
		       unsigned formats, const char *table, size_t table_len, uint64_t start_ms,
		       const struct error_capture *errs, int status)
{
	struct runner_stored s = {
		.res = res,
		.formats = formats,
		.table = table,
		.table_len = table_len,
		.start_ms = start_ms,
		.end_ms = wall_time_ms(),
		.exit_status = status,
		.interrupted = signals_caught() != 0,
		.errors = (const char *const *)errs->msgs,
		.nr_errors = errs->nr,
	};
	return runner_store_result(ra, &s) < 0 && status == 0 ? 1 : status;
}

/* The directory form; the block-device form is quick_dev.c's. */
static int quick_dir(const char *dir, const struct quick_opts *o, struct runner_args *ra)
{
	const char *size = o->size, *runtime = o->runtime, *engine = o->engine;
	bool flush = o->flush;
	struct stat st;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		error("quick: '%s' is not a directory or a block device", dir);
		return 1;
	}
	bool direct = direct_supported(dir);
	char *path = xasprintf("%s/iobench-quick.%d.tmp", dir, (int)getpid());
	struct job_list l = { 0 };
	bool ran[QUICK_NR_TESTS];
	if (quick_dir_jobs(&l, path, size, runtime, engine, direct, flush, ran) < 0) {
		job_list_release(&l);
		free(path);
		return 1;
	}
	if (!direct)
		warning("'%s' does not support O_DIRECT: figures include the page cache", dir);
	ra->env_path = dir;
	ra->words = &anomaly_words_quick;
	struct quick_table qt = { ran, dir, size, runtime, engine, direct, flush, o->formats };
	if (repeat_wanted(ra->repeat)) {
		int rst = quick_repeat(&l, ra, &qt);
		unlink(path); /* once, after the last repetition: each reuses the file */
		job_list_release(&l);
		free(path);
		return rst;
	}
	struct run_result res;
	struct error_capture errs = { 0 };
	bool json = o->formats & (REPORT_JSON | REPORT_JSONPLUS);
	bool storing = cmd_store_wanted(ra->store_ctx);
	if (json || storing)
		error_capture_begin(&errs);
	uint64_t start_ms = wall_time_ms();
	int status = runner_run(&l, ra, &res);
	error_capture_end();
	unlink(path);
	if (!res.nr_jobs && json && status)
		report_write_json_error((const char *const *)errs.msgs, errs.nr, stdout);
	char *table = NULL;
	size_t table_len = 0;
	if (res.nr_jobs) {
		if (o->formats) {
			quick_show(&qt, &res, o->formats, stdout);
		} else {
			/* the table as text, printed and kept for the store */
			FILE *m = open_memstream(&table, &table_len);
			if (m)
				quick_show(&qt, &res, 0, m);
			if (!m || fclose(m) != 0) {
				error_errno(-ENOMEM, "cannot write the table");
				status = 1;
			} else {
				fwrite(table, 1, table_len, stdout);
			}
		}
	}
	if (output_check(stdout, o->formats ? "the report" : "the table", NULL) < 0 && status == 0)
		status = 1;
	if (res.nr_jobs && storing)
		status = store_quick(ra, &res, o->formats, table, table_len, start_ms, &errs, status);
	free(table);
	error_capture_release(&errs);
	run_result_release(&res);
	job_list_release(&l);
	free(path);
	return status;
}

static int run_quick(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct quick_cmdline q = {
		.o = { .size = "1g", .runtime = "5s", .engine = "io_uring", .flush = true },
	};
	struct quick_opts *o = &q.o;
	struct cmd_common common;
	cmd_common_init(&common);
	struct runner_args ra;
	runner_args_init(&ra);
	int rc, status = 1;
	char why[512];
	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &q, &common);
	p.operand = add_path;
	p.operand_arg = &q;
	if ((rc = command_parse(ctx, &p, argc, argv, &common)) != 0) {
		status = rc > 0 ? 0 : 1;
		goto out;
	}
	ra.env = common.env;
	ra.repeat = &common.repeat;
	if (cmd_common_check_repeat(&common.repeat, geteuid(), why, sizeof(why)) < 0) {
		error("%s", why);
		goto out;
	}
	ra.store_ctx = ctx;
	ra.store_kind = STORE_KIND_QUICK;
	const char **paths = q.paths.v;
	size_t np = q.paths.n, nbdev = q.nbdev, na = common.allow_destroy.n;
	const char *fmt = common.output_format ? common.output_format : "table";
	const char *bad;
	int badlen;
	if (strcmp(fmt, "table") && report_formats_parse(fmt, &o->formats, &bad, &badlen) < 0) {
		error("unknown output format '%.*s' in --output-format=%s: use table, json, json+, "
		      "terse or normal", badlen, bad, fmt);
		goto out;
	}
	o->allow = (struct devguard_allow){ .devices = common.allow_destroy.v, .nr_devices = na };
	if (devguard_allow_validate(&o->allow, why, sizeof(why)) < 0) {
		error("%s", why);
		goto out;
	}
	if (np && nbdev == np) {
		status = quick_devices(paths, np, o, &ra);
		goto out;
	}
	if (np > 1 && !nbdev) {
		error("quick takes one directory, or one or more block devices; got %zu paths "
		      "('%s', '%s'%s)", np, paths[0], paths[1], np > 2 ? ", ..." : "");
		goto out;
	}
	for (size_t i = 0; np > 1 && i < np; i++)
		if (devres_is_block_device(paths[i]) != 1) {
			error("quick measures one directory, or one or more block devices: '%s' is "
			      "not a block device", paths[i]);
			goto out;
		}
	if (na) {
		error("--allow-destroy names a block device to write to; quick on a directory "
		      "writes only its own test file");
		goto out;
	}
	status = quick_dir(np ? paths[0] : ".", o, &ra);
out:
	cmdopt_list_release(&q.paths);
	cmd_common_release(&common);
	return status;
}

const struct command cmd_quick = {
	.name = "quick",
	.summary = "a one-minute CrystalDiskMark-like table for a directory or block devices",
	.usage = quick_usage,
	.opts = quick_rows,
	.common = COMMON_OUTPUT_FORMAT | COMMON_ALLOW_DESTROY | COMMON_REPEAT | COMMON_DB |
		  COMMON_NO_STORE | COMMON_LABEL | COMMON_HELP,
	.help_for = quick_help_for,
	.flags = CMD_WATCHES_ENV | CMD_OPENS_STORE,
	.run = run_quick,
};
