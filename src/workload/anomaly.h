/*
 * Anomaly warnings: at the end of a run, look at what the workload did,
 * what its device saw, what the system monitor recorded and what the system
 * capture says, and warn about figures that do not measure what they seem
 * to: results the page cache produced, reclaim storms, swapping, dirty
 * limits, load or blocked tasks far above the job count, a saturated device,
 * a CPU-bound job, another process's I/O on the device, buffer_head slab
 * growth, and writes to a volatile write cache never flushed. Each warning
 * carries its evidence and what to do (runenv.h). The checks read a small
 * summary of the workload (anomaly_input) so that fio-style runs and the
 * bonnie++ suite share them.
 */
#ifndef IOBENCH_WORKLOAD_ANOMALY_H
#define IOBENCH_WORKLOAD_ANOMALY_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/results.h"
#include "workload/runenv.h"

#define ANOMALY_MIN_CACHE_BYTES (8ull << 20) /* below this, cache effects are noise */
#define ANOMALY_CPU_BOUND_PCT 75.0  /* usr + sys "near a core": a busy machine steals some */
#define ANOMALY_CPU_BUSY_PCT 90.0   /* on a CPU or waiting for one (schedstat) */
#define ANOMALY_SATURATED_UTIL 90.0 /* over the whole window, short ends included */
#define ANOMALY_SATURATED_AQU 8.0
#define ANOMALY_DEFAULT_SLAB_BYTES (256ull << 20)

struct anomaly_input {
	unsigned nr_jobs;              /* threads doing I/O */
	uint64_t buffered_read_bytes;  /* read through the page cache */
	uint64_t buffered_write_bytes; /* written through the page cache ... */
	uint64_t buffered_unsynced_write_bytes; /* ... by jobs with no fsync/fdatasync/O_SYNC */
	uint64_t unsynced_write_bytes; /* written (buffered or direct) with no flush at all */
	uint64_t cached_working_set;   /* bytes read buffered by jobs that keep the cache
					  (invalidate=0): data may predate the run */
	double max_job_cpu_pct;        /* usr + sys of the busiest job thread, % of a core */
	double max_job_cpu_busy_pct;   /* its time running or waiting to run, % (schedstat) */
	char max_cpu_job[64];
	const char *device;            /* the disk under the first file (diskstats name), or NULL */
	uint64_t dev_read_bytes, dev_write_bytes; /* that disk over the measured run */
	bool any_device_io;            /* some job did I/O to files or devices (not null) */
};

/* Summarise a fio-style run. */
void anomaly_input_from_run(const struct run_result *r, struct anomaly_input *in);
/* Run every check, appending warnings to env. */
void anomaly_check(const struct anomaly_input *in, struct run_env *env);

#endif
