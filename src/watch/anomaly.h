/*
 * Anomaly warnings: at the end of a run, look at what the workload did,
 * what its device saw, what the system monitor recorded and what the system
 * capture says, and warn about figures that do not measure what they seem
 * to: results the page cache produced, reclaim storms, swapping, dirty
 * limits, load or blocked tasks far above the job count, a saturated device,
 * a CPU-bound job, another process's I/O on the device, buffer_head slab
 * growth, and writes to a volatile write cache never flushed. Each warning
 * carries its evidence and what to do (runenv.h). The checks read a small
 * summary of the workload (anomaly_input) so that fio-style runs, quick and
 * the bonnie++ suite share them; each command's vocabulary
 * (anomaly_words) makes the advice name its own options.
 *
 * A run is judged per stonewall batch: the batch's jobs against its own
 * device statistics, process I/O and monitor window (runenv.h's
 * run_window), and each warning names the groups and jobs it is about.
 * Where the jobs of a batch differ in direct/buffered, the direct jobs'
 * bytes are taken off the device's before the buffered ones are judged,
 * so a buffered job is not cleared by its direct neighbour's I/O.
 */
#ifndef IOBENCH_WATCH_ANOMALY_H
#define IOBENCH_WATCH_ANOMALY_H

#include <stdbool.h>
#include <stdint.h>

#include "results/results.h"
#include "results/runenv.h"

#define ANOMALY_MIN_CACHE_BYTES (8ull << 20) /* below this, cache effects are noise */
#define ANOMALY_CPU_BOUND_PCT 75.0  /* usr + sys "near a core": a busy machine steals some */
#define ANOMALY_CPU_BUSY_PCT 90.0   /* on a CPU or waiting for one (schedstat) */
#define ANOMALY_SATURATED_UTIL 90.0 /* over the whole window, short ends included */
#define ANOMALY_SATURATED_AQU 8.0
#define ANOMALY_DEFAULT_SLAB_BYTES (256ull << 20)

/* How a command's advice names its options. */
struct anomaly_words {
	const char *job;    /* what a part of the workload is called: "job", "phase" */
	const char *direct; /* "use ..." to get around the page cache */
	const char *flush;  /* "... so the figure includes the flush", or NULL (always flushed) */
	const char *bigger; /* what to make "larger than the available memory" */
	const char *cpu;    /* what to do when a job was CPU-bound */
	const char *depth;  /* what to do when the device was saturated */
};
extern const struct anomaly_words anomaly_words_fio, anomaly_words_quick, anomaly_words_bonnie;

#define ANOMALY_MAX_NAMES 8
/* Names of the jobs a warning is about: n of them, the first
 * ANOMALY_MAX_NAMES kept, each once. */
struct anomaly_names {
	unsigned n;
	char v[ANOMALY_MAX_NAMES][64];
};
void anomaly_names_add(struct anomaly_names *n, const char *name);

struct anomaly_input {
	unsigned nr_jobs;              /* threads doing I/O */
	uint64_t buffered_read_bytes;  /* read through the page cache */
	uint64_t buffered_write_bytes; /* written through the page cache ... */
	uint64_t buffered_unsynced_write_bytes; /* ... by jobs with no fsync/fdatasync/O_SYNC */
	uint64_t unsynced_write_bytes; /* written (buffered or direct) with no flush at all */
	uint64_t direct_read_bytes, direct_write_bytes; /* around the page cache: the device
					  did these whatever the cache did */
	bool have_unwritten;           /* every buffered unflushed writer measured ... */
	bool unwritten_missing;        /* (one was not) */
	uint64_t buffered_unwritten_bytes; /* ... how much of its data was still in memory,
					  dirty or under writeback, when it ended */
	uint64_t cached_working_set;   /* bytes read buffered by jobs that keep the cache
					  (invalidate=0): data may predate the run */
	struct anomaly_names readers;  /* jobs that read buffered */
	struct anomaly_names writers;  /* jobs that wrote buffered, unflushed */
	struct anomaly_names unflushed;/* jobs that wrote with no flush */
	struct anomaly_names cachers;  /* buffered readers with invalidate=0 */
	struct anomaly_names all;      /* every job judged (named by warnings about all) */
	double max_job_cpu_pct;        /* usr + sys of the busiest job thread, % of a core */
	double max_job_cpu_busy_pct;   /* its time running or waiting to run, % (schedstat) */
	char max_cpu_job[64];
	const char *device;            /* the disk under the first file (diskstats name), or NULL */
	uint64_t dev_read_bytes, dev_write_bytes; /* that disk over the measured run */
	bool any_device_io;            /* some job did I/O to files or devices (not null) */
	int group_first, group_last;   /* the reporting groups judged, -1: not a run's */
	const struct run_window *window; /* their part of the run; NULL = the whole run */
	const struct anomaly_words *words; /* NULL = fio's */
};

/* Summarise a fio-style run as one piece (window NULL, groups -1). */
void anomaly_input_from_run(const struct run_result *r, struct anomaly_input *in);
/* Summarise each stonewall batch of a run (r->batches; the whole run as
 * one when it has none), with the run environment's window of each;
 * returns how many (*out: xmalloc'ed, free() it). */
size_t anomaly_inputs_from_run(const struct run_result *r, const struct anomaly_words *words,
			       struct anomaly_input **out);
/* Run every check, appending warnings to env. */
void anomaly_check(const struct anomaly_input *in, struct run_env *env);
/* Under --memory-limit (env->have_memcg): whether the limit squeezed the
 * workload's own memory, not only its page cache (OOM kills, swap, anon
 * refaults). The cgroup's figures cover the whole run: call it once, after
 * the per-batch anomaly_check()s. */
void anomaly_check_memory_limit(struct run_env *env);

#endif
