/*
 * `iobench quick [DIR]`: a CrystalDiskMark-like table in about a minute:
 * sequential 1 MiB read and write at queue depth 8 and 1, random 4 KiB read
 * and write at queue depth 32 and 1, on one file in DIR through io_uring,
 * with O_DIRECT when the filesystem allows it (otherwise buffered, and the
 * table says so). Each write row ends with fsync, so its figure includes
 * the flush (--no-flush leaves it out, as fio's default does), and the
 * warnings' advice names quick's own flags. The file is removed at the
 * end, also when the run fails or is interrupted.
 */
#include "cmd/command.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/runner.h"
#include "engines/engine.h"
#include "report/env_report.h"
#include "report/report.h"
#include "util/error.h"
#include "util/units.h"
#include "util/xmalloc.h"
#include "workload/options.h"

static const char quick_usage[] =
	"usage: iobench quick [DIR] [--size=SIZE] [--runtime=TIME] [--engine=NAME]\n"
	"                     [--no-flush] [--output-format=table|json|normal]\n"
	"                     [--no-monitor] [--monitor-interval=SEC] [--warn-slab=SIZE]\n"
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
	"run'), whose advice names quick's flags.\n";

struct quick_test {
	const char *label;
	const char *rw;
	const char *bs;
	const char *depth;
	bool is_read;
};

/* Rows come in read/write pairs. */
static const struct quick_test tests[] = {
	{ "SEQ1M Q8T1", "read", "1m", "8", true },
	{ "SEQ1M Q8T1", "write", "1m", "8", false },
	{ "SEQ1M Q1T1", "read", "1m", "1", true },
	{ "SEQ1M Q1T1", "write", "1m", "1", false },
	{ "RND4K Q32T1", "randread", "4k", "32", true },
	{ "RND4K Q32T1", "randwrite", "4k", "32", false },
	{ "RND4K Q1T1", "randread", "4k", "1", true },
	{ "RND4K Q1T1", "randwrite", "4k", "1", false },
};
#define NR_TESTS (sizeof(tests) / sizeof(tests[0]))

static bool direct_supported(const char *dir)
{
	char *p = xasprintf("%s/.iobench-odirect.%d", dir, (int)getpid());
	int fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_CLOEXEC, 0600);
	bool ok = fd >= 0;
	if (fd >= 0)
		close(fd);
	unlink(p);
	free(p);
	return ok;
}

static int set(struct job_spec *s, const char *k, const char *v)
{
	char why[256];
	int rc = option_set(s, k, v, why, sizeof(why));
	if (rc < 0)
		error("quick: %s", why);
	return rc;
}

static bool engine_is_sync(const char *name)
{
	const struct engine_ops *e = engine_find(name);
	return e && (e->flags & ENGINE_SYNC);
}

static int build_jobs(struct job_list *l, const char *path, const char *size,
		      const char *runtime, const char *engine, bool direct, bool flush, bool *ran)
{
	bool sync = engine_is_sync(engine);
	for (size_t i = 0; i < NR_TESTS; i++) {
		ran[i] = !sync || !strcmp(tests[i].depth, "1");
		if (!ran[i])
			continue;
		struct job_spec *s = job_list_add(l); /* starts with fio's defaults */
		char name[32];
		snprintf(name, sizeof(name), "%s-%s-q%s", tests[i].bs, tests[i].rw, tests[i].depth);
		if (set(s, "name", name) || set(s, "filename", path) || set(s, "size", size) ||
		    set(s, "rw", tests[i].rw) || set(s, "bs", tests[i].bs) ||
		    set(s, "iodepth", tests[i].depth) ||
		    set(s, "runtime", runtime) || set(s, "time_based", NULL) ||
		    set(s, "ioengine", engine) || set(s, "direct", direct ? "1" : "0") ||
		    set(s, "stonewall", NULL) || set(s, "overwrite", "1") ||
		    (flush && !tests[i].is_read && set(s, "end_fsync", "1")))
			return -EINVAL;
		job_spec_finalize(s);
		if (job_spec_validate(s, NULL, NULL) < 0)
			return -EINVAL;
	}
	return 0;
}

static void print_table(const struct run_result *r, const bool *ran, const char *dir,
			const char *size, const char *runtime, const char *engine, bool direct,
			bool flush)
{
	printf("iobench quick: %s, %s file, %s per test, %s, %s\n", dir, size, runtime, engine,
	       direct ? "O_DIRECT" : "buffered (O_DIRECT unsupported: page cache included)");
	printf("%s\n", flush ? "write figures include the flush: each write test ends with "
			       "fsync, and its time counts (--no-flush leaves it out)"
			     : "write figures leave out the flush (--no-flush): what reached the "
			       "device's cache may still sit in it");
	printf("%-12s %12s %12s %12s %12s\n", "test", "read MB/s", "write MB/s", "read IOPS",
	       "write IOPS");
	size_t k = 0; /* index into r->jobs: only the tests that ran have entries */
	for (size_t i = 0; i + 1 < NR_TESTS; i += 2) {
		if (!ran[i])
			continue;
		double mb[2] = { 0, 0 }, iops[2] = { 0, 0 };
		for (size_t w = 0; w < 2 && k < r->nr_jobs; w++, k++) {
			const struct job_result *j = &r->jobs[k];
			enum ddir d = tests[i + w].is_read ? DDIR_READ : DDIR_WRITE;
			double sec = (double)j->dir[d].runtime_ns / 1e9;
			if (sec > 0) {
				mb[w] = (double)j->dir[d].io_bytes / 1e6 / sec;
				iops[w] = (double)j->dir[d].total_ios / sec;
			}
		}
		printf("%-12s %12.2f %12.2f %12.0f %12.0f\n", tests[i].label, mb[0], mb[1],
		       iops[0], iops[1]);
	}
}

static int run_quick(int argc, char **argv)
{
	const char *dir = ".", *size = "1g", *runtime = "5s", *engine = "io_uring";
	const char *fmt = "table";
	bool flush = true;
	struct runner_args ra;
	runner_args_init(&ra);
	int rc;
	char why[256];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(quick_usage, stdout);
			return 0;
		} else if (!strncmp(a, "--size=", 7)) {
			size = a + 7;
		} else if (!strncmp(a, "--runtime=", 10)) {
			runtime = a + 10;
		} else if (!strncmp(a, "--engine=", 9)) {
			engine = a + 9;
		} else if (!strncmp(a, "--output-format=", 16)) {
			fmt = a + 16;
		} else if (!strcmp(a, "--no-flush")) {
			flush = false;
		} else if ((rc = envwatch_parse_flag(&ra.env, a, why, sizeof(why))) != 0) {
			if (rc < 0) {
				error("%s", why);
				return 1;
			}
		} else if (a[0] == '-') {
			error("unknown flag '%s' for 'iobench quick'; see 'iobench help quick'", a);
			return 1;
		} else {
			dir = a;
		}
	}
	unsigned formats = 0;
	if (strcmp(fmt, "table") && report_parse_formats(fmt, &formats) < 0) {
		error("unknown --output-format '%s': use table, json, json+, terse or normal", fmt);
		return 1;
	}
	struct stat st;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		error("quick: '%s' is not a directory", dir);
		return 1;
	}
	bool direct = direct_supported(dir);
	char *path = xasprintf("%s/iobench-quick.%d.tmp", dir, (int)getpid());
	struct job_list l = { 0 };
	bool ran[NR_TESTS];
	if (build_jobs(&l, path, size, runtime, engine, direct, flush, ran) < 0) {
		job_list_release(&l);
		free(path);
		return 1;
	}
	if (!direct)
		warning("'%s' does not support O_DIRECT: figures include the page cache", dir);
	ra.env_path = dir;
	ra.words = &anomaly_words_quick;
	struct run_result res;
	int status = runner_run(&l, &ra, &res);
	unlink(path);
	if (res.nr_jobs) {
		if (formats)
			report_write(&res, formats, stdout);
		else {
			env_text_header(res.env, "", stdout);
			print_table(&res, ran, dir, size, runtime, engine, direct, flush);
			env_text_footer(res.env, stdout);
		}
	}
	run_result_release(&res);
	job_list_release(&l);
	free(path);
	return status;
}

const struct command cmd_quick = {
	.name = "quick",
	.summary = "a one-minute CrystalDiskMark-like table for a directory",
	.usage = quick_usage,
	.run = run_quick,
};
