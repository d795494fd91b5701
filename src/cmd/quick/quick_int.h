/*
 * `iobench quick` on block devices (quick_dev.c), and what the directory
 * form in quick.c shares with it: the parsed command line.
 */
#ifndef IOBENCH_CMD_QUICK_QUICK_INT_H
#define IOBENCH_CMD_QUICK_QUICK_INT_H

#include <stddef.h>

#include "runner/runner.h"
#include "sys/dev/devguard.h"

struct quick_opts {
	const char *size;       /* --size (the region of a device) */
	const char *runtime;    /* --runtime per test */
	const char *engine;     /* --engine */
	unsigned formats;       /* --output-format as REPORT_* bits; 0 = the table */
	bool flush;             /* write rows end with fsync (not --no-flush) */
	struct devguard_allow allow; /* --allow-destroy */
};

/* Measure each of devs[0..n) in turn and print one table with a row group
 * per device: hdparm -t's buffered and O_DIRECT sequential reads,
 * CrystalDiskMark's read rows and hdparm -T's cached reads; the write rows
 * only for a device --allow-destroy names (and the device guard lets
 * through). Returns the exit status. */
int quick_devices(const char *const *devs, size_t n, const struct quick_opts *o,
		  struct runner_args *ra);

#endif
