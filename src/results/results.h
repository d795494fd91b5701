/*
 * Results: what happened, in one versioned struct that every reporter reads
 * (and the results store and the MPI reduction, when they come, will read
 * the same). Nothing here points into runtime state;
 * a job_result may describe one job or, with group_reporting, the merge of
 * a whole group. Times are nanoseconds unless a name says otherwise.
 */
#ifndef IOBENCH_RESULTS_RESULTS_H
#define IOBENCH_RESULTS_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/cpuidle.h"

#include "stats/hist.h"
#include "stats/runstat.h"
#include "engines/ddir.h"
#include "spec/jobspec.h"
#include "results/runenv.h"

#define RESULTS_VERSION 2 /* 2: the run environment (sysinfo, monitor, warnings) */

/* fio's distribution buckets. */
#define NR_IODEPTH_BUCKETS 7  /* level: 1 2 4 8 16 32 >=64; submit/complete: 0 4 8 16 32 64 >=64 */
#define NR_LAT_NS_BUCKETS 10  /* <=2 4 10 20 50 100 250 500 750 1000 (ns, then us) */
#define NR_LAT_MS_BUCKETS 12  /* <=2 4 10 20 50 100 250 500 750 1000 2000 >=2000 */

/* One priority's latencies in a direction (cmdprio options): clat, or lat
 * with lat_percentiles, as fio's "prios" entries. */
struct prio_result {
	uint16_t ioprio;      /* class << 13 | level */
	struct runstat stat;
	struct hist hist;
};

struct dir_result {
	uint64_t io_bytes;
	uint64_t total_ios;   /* completed I/Os */
	uint64_t short_ios;   /* completed with fewer bytes than asked */
	uint64_t drop_ios;
	uint64_t runtime_ns;  /* time the job ran with this direction active */
	struct runstat slat, clat, lat; /* ns */
	struct hist slat_hist, clat_hist, lat_hist;
	struct runstat bw;    /* interval samples, bytes/s */
	struct runstat iops;  /* interval samples, I/Os per second */
	/* per-priority latencies, owned, in order of first use (the job's
	 * default first when the engine gives priorities); NULL without the
	 * cmdprio options */
	struct prio_result *prios;
	unsigned nr_prios;
};

/* The entry of ioprio in d, added (empty) when there is none yet. */
struct prio_result *dir_result_prio(struct dir_result *d, uint16_t ioprio);

struct sync_result {
	uint64_t total_ios;
	struct runstat lat;
	struct hist lat_hist;
};

/* fio's steadystate section (steadystate=, steadystate_duration=): the
 * last window of per-second samples and the verdict on them. */
struct ss_result {
	bool attained;
	double criterion;     /* the judged figure: deviation or slope, percent of the mean with N% */
	double max_deviation; /* largest |sample - mean| (deviation criteria) */
	double slope;         /* least-squares slope per second (slope criteria) */
	uint64_t bw_mean, iops_mean; /* sums of the window over its length, as fio */
	unsigned n;           /* window length in samples (seconds); unfilled ones are 0 */
	uint64_t *iops, *bw;  /* n samples each, oldest first */
};

/* block_error_percentiles (fio's block error histogram): each trim-block
 * of the job's file, its state and how many trims it took. A failure
 * stays once recorded; the order of enum block_state is fio's. */
enum block_state {
	BLOCK_UNWRITTEN,
	BLOCK_TRIMMED,
	BLOCK_WRITTEN,
	BLOCK_TRIM_FAILURE,
	BLOCK_WRITE_FAILURE,
	BLOCK_STATE_CNT,
};
#define BLOCK_INFOS_MAX 8192 /* as fio: more trim-blocks are refused */
struct block_info {
	uint32_t trims;
	uint8_t state;        /* enum block_state */
};
/* fio's report of them: the blocks in order of (unwritten, done, failed),
 * then trims, then state; for each percentile p of plist[0..np) (sorted)
 * the trims of the block p% into those not unwritten, in out[]; counts[]
 * of each state. Returns np, or 0 when every block is unwritten (nothing
 * to rank: fio then prints the heading alone and no JSON "block"). */
unsigned block_percentiles(const struct block_info *b, unsigned n, const double *plist,
			   unsigned np, uint32_t *out, unsigned counts[BLOCK_STATE_CNT]);
extern const char *const block_state_names[BLOCK_STATE_CNT];

struct job_result {
	char *name;
	unsigned groupid;
	unsigned nr_jobs;     /* clones merged into this entry (1 without group_reporting) */
	int tid;              /* the thread that ran it (gettid; a group's: its first
				 member's), 0 when unknown: fio's "pid=" */
	struct job_spec *spec; /* owned copy of the (first) job's spec; NULL in a job's
				  own running result (it has j->spec) */
	int error;            /* first error as a positive errno, 0 if none */
	char *error_msg;      /* "file:offset: text" of the first error, or NULL */
	uint64_t total_err;
	uint64_t nr_err[ERR_KIND_CNT]; /* total_err by fio's kinds: read, write, verify */
	uint64_t error_offset; /* offset of the I/O that hit the first error */
	uint64_t elapsed_s;   /* wall seconds from start to finish, ramp included */
	uint64_t runtime_ns;  /* measured time (after ramp) */
	struct dir_result dir[DDIR_RWDIR_CNT];
	struct sync_result sync;
	double usr_cpu, sys_cpu; /* percent of one CPU over runtime */
	double busy_pct;      /* running or waiting for a CPU, percent of runtime
				 (schedstat; 0 when unknown): near 100 = CPU-bound */
	uint64_t ctx, majf, minf;
	bool have_unwritten;  /* unwritten_bytes was measured (buffered writers) */
	uint64_t unwritten_bytes; /* of its files' page cache, dirty or under
				     writeback when its batch ended (cachestat) */
	uint64_t iodepth_level[NR_IODEPTH_BUCKETS];
	uint64_t iodepth_submit[NR_IODEPTH_BUCKETS];
	uint64_t iodepth_complete[NR_IODEPTH_BUCKETS];
	uint64_t lat_ns[NR_LAT_NS_BUCKETS]; /* counts of I/Os by total latency */
	uint64_t lat_us[NR_LAT_NS_BUCKETS];
	uint64_t lat_ms[NR_LAT_MS_BUCKETS];
	uint64_t lat_total;   /* I/Os counted in lat_ns/us/ms */
	unsigned latency_depth; /* the depth latency_target found; 0 = iodepth */
	char engine_setup[160]; /* the engine's describe(): what it chose, "" if nothing */
	struct ss_result *ss; /* owned; NULL without steadystate_duration (a group's: its first job's) */
	struct block_info *blocks; /* owned; block_error_percentiles (a group's: its first job's) */
	unsigned nr_blocks;
};

/* /proc/diskstats deltas for one device over the run. */
struct disk_result {
	char name[64];
	uint64_t read_ios, write_ios;
	uint64_t read_merges, write_merges;
	uint64_t read_sectors, write_sectors;
	uint64_t read_ticks, write_ticks; /* ms */
	uint64_t in_queue;                /* weighted ms */
	uint64_t io_ticks;                /* ms */
	uint64_t elapsed_ms;
	double util;                      /* percent */
};

/* One stonewall batch: the jobs that ran together (reporting groups
 * group_first..group_last), and what their devices did meanwhile. The
 * anomaly checks judge each batch on its own. */
struct run_batch {
	unsigned group_first, group_last;
	uint64_t elapsed_ms;
	struct disk_result *disks;        /* devices under the batch's files */
	size_t nr_disks;
};

/* fio's --idle-prof (sys/cpuidle.h): the CPUs' idle share over the run */
enum idle_prof { IDLE_PROF_NONE, IDLE_PROF_SYSTEM, IDLE_PROF_PERCPU };
struct idle_result {
	enum idle_prof mode;
	unsigned nr_cpus;
	double pct[CPUIDLE_MAX_CPUS + 1]; /* [0] the system's, [1 + N] cpuN's */
	double unit_mean_us, unit_stddev;
};

struct run_result {
	unsigned version;     /* RESULTS_VERSION */
	uint64_t timestamp;   /* wall seconds at the end, as fio's */
	uint64_t timestamp_ms;
	uint64_t start_ms;    /* wall milliseconds at the start */
	unsigned terse_version; /* fio's --terse-version the terse report uses (0 = 3) */
	bool as_fio;          /* rendered for iobench invoked as `fio`: fio's version string,
				 the jobs' pids, none of iobench's own lines in the normal
				 format (they stay in the JSON's "iobench") */
	struct idle_result idle; /* --idle-prof */
	char time_str[64];    /* ctime-like, no newline */
	struct job_result *jobs;
	size_t nr_jobs;
	struct disk_result *disks;
	size_t nr_disks;
	struct run_batch *batches;        /* in the order they ran */
	size_t nr_batches;
	struct job_kv *global_opts;
	size_t nr_global_opts;
	bool interrupted;     /* stopped by SIGINT/SIGTERM */
	struct run_env *env;  /* the machine around the run, or NULL */
	/* the jobs over time (workload/run.c), moved into env by the runner */
	struct run_job_timeline *timelines;
	size_t nr_timelines;
};

void dir_result_init(struct dir_result *d);
/* Add src into dst: sums, merged stats and histograms, the longer runtime
 * (group_reporting, and unified_rw_reporting's "mixed" direction). */
void dir_result_merge(struct dir_result *dst, const struct dir_result *src);
void dir_result_release(struct dir_result *d);
void job_result_init(struct job_result *r);
/* For a result in zeroed memory (calloc): sets only what is not zero. */
void job_result_init_zeroed(struct job_result *r);
/* Add src into dst (group_reporting): sums, merged stats and histograms. */
void job_result_merge(struct job_result *dst, const struct job_result *src);
void job_result_release(struct job_result *r);
void run_result_release(struct run_result *r);

/* Bucket index helpers shared by the runner and the reporters. */
unsigned iodepth_level_bucket(unsigned depth);
unsigned iodepth_sc_bucket(unsigned n);
void lat_bucket_add(struct job_result *r, uint64_t lat_ns);

#endif
