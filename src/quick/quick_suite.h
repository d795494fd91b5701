/*
 * quick's suite, as bonnie/ holds bonnie++'s: the rows `iobench quick`
 * measures and the job spec each row becomes. On a directory,
 * CrystalDiskMark's rows: sequential 1 MiB read and write at queue depth 8
 * and 1, random 4 KiB read and write at depth 32 and 1, each time-based on
 * one file (write rows ending with fsync unless the flush is left out). On
 * a block device, hdparm's and CrystalDiskMark's rows over a region of it:
 * "hdparm -t" (one buffered pass of 2 MiB reads), "hdparm -t --direct",
 * the SEQ1M and RND4K rows, and "hdparm -T" (the first 2 MiB read again and
 * again from the page cache). The command (cmd/quick/) decides which rows
 * run, runs them and prints the table.
 */
#ifndef IOBENCH_QUICK_QUICK_SUITE_H
#define IOBENCH_QUICK_QUICK_SUITE_H

#include <stdbool.h>
#include <stdint.h>

#include "spec/jobspec.h"

/* A directory's row; rows come in read/write pairs. */
struct quick_test {
	const char *label;
	const char *rw;
	const char *bs;
	const char *depth;
	bool is_read;
};

#define QUICK_NR_TESTS 8
extern const struct quick_test quick_tests[QUICK_NR_TESTS];

/* The directory rows' jobs into l on the file path: every row, or with a
 * synchronous engine the depth-1 rows only (ran[i] says which; ran has
 * QUICK_NR_TESTS entries). 0, or -EINVAL after printing why. */
int quick_dir_jobs(struct job_list *l, const char *path, const char *size, const char *runtime,
		   const char *engine, bool direct, bool flush, bool *ran);

#define QUICK_HDPARM_BLOCK (2ull << 20) /* hdparm's 2 MiB reads */
#define QUICK_CACHED_LABEL "hdparm -T"

/* A block device's row. */
struct quick_dev_test {
	const char *label; /* the row */
	const char *name;  /* the job */
	const char *rw, *bs, *depth;
	bool write;
	bool hdparm;       /* psync, one pass (not time-based) */
	bool direct;       /* hdparm rows: O_DIRECT (the others follow the device) */
};

#define QUICK_NR_DEV_TESTS 10
extern const struct quick_dev_test quick_dev_tests[QUICK_NR_DEV_TESTS];

/* Is the engine name a synchronous one (which runs the depth-1 rows only)? */
bool quick_engine_sync(const char *name);
/* Row t's job into l over the first region bytes of the device path;
 * direct: O_DIRECT opens of it work (the time-based rows follow that).
 * 0, or -EINVAL after printing why. */
int quick_dev_job(struct job_list *l, const struct quick_dev_test *t, const char *path,
		  uint64_t region, bool direct, const char *engine, const char *runtime);
/* hdparm -T's job into l: the first 2 MiB of path read from the page
 * cache for runtime, primed during a ramp. 0, or -EINVAL after printing
 * why. */
int quick_cached_job(struct job_list *l, const char *path, const char *runtime);

#endif
