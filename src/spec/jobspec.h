/*
 * The job spec: what the user asked for, parsed and then never changed while
 * the job runs. Every field is set through the option table (options.h,
 * options_table.c), so a new option means a field here plus one row there. Sizes are bytes, times are
 * nanoseconds, percentages are 0..100. Runtime state lives in job.h and
 * results in results.h; keep the three apart.
 */
#ifndef IOBENCH_SPEC_JOBSPEC_H
#define IOBENCH_SPEC_JOBSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/clock.h"
#include "engines/ddir.h"

#define MAX_BSSPLIT 64
#define MAX_PERCENTILES 64
/* The most threads (jobs times numjobs) one run may have: fio's limit too.
 * Every clone is a thread with its own buffers, files and results, so far
 * more is a typo or a memory exhaustion, not a benchmark. */
#define JOB_MAX_THREADS 4096
/* The most blktraces merge_blktrace_scalars and _iters pair with (fio's). */
#define MAX_MERGE_LOGS 20

struct engine_ops;
struct fio_ext_engine;

enum random_dist {
	DIST_RANDOM = 0, /* uniform */
	DIST_ZIPF,
	DIST_PARETO,
	DIST_NORMAL,
	DIST_ZONED,     /* zoned:P/R[:P/R...]: P% of the I/O in R% of the range */
	DIST_ZONED_ABS, /* zoned_abs:P/SIZE[:P/SIZE...]: P% of the I/O in SIZE bytes */
};

/* Most zones of random_distribution=zoned/zoned_abs (each takes >= 1% of the I/O). */
#define MAX_DIST_ZONES 32

/* numa_mem_policy= modes, fio's (libnuma's set_mempolicy modes). */
enum numa_mem_mode {
	NUMA_MEM_DEFAULT,    /* leave the thread's policy alone */
	NUMA_MEM_PREFER,     /* prefer:N */
	NUMA_MEM_BIND,       /* bind:LIST */
	NUMA_MEM_INTERLEAVE, /* interleave:LIST */
	NUMA_MEM_LOCAL,      /* local: the node the thread runs on */
};

/* One zone of random_distribution=zoned (size_pct) or zoned_abs (size). */
struct dist_zone {
	unsigned access_pct;
	unsigned size_pct;
	uint64_t size;
};

enum mem_type {
	MEM_MALLOC = 0, /* fio's default: here a private anonymous mapping */
	MEM_SHM,        /* shmget(2) segment */
	MEM_SHMHUGE,    /* shmget(2) with SHM_HUGETLB */
	MEM_MMAP,       /* private mapping, anonymous or of mem_file */
	MEM_MMAPHUGE,   /* MAP_HUGETLB, or a mapping of a hugetlbfs mem_file */
	MEM_MMAPSHARED, /* shared mapping, anonymous or of mem_file */
};

enum random_gen {
	RANDGEN_TAUSWORTHE = 0, /* fio's default; here a keyed permutation or a uniform draw */
	RANDGEN_LFSR,           /* full period: every block once, even with norandommap */
	RANDGEN_TAUSWORTHE64,
};

/* file_service_type=: which file the next I/O goes to (iogen.c) */
enum file_service {
	FSRV_RR = 0,   /* roundrobin over the open files; the default */
	FSRV_SEQ,      /* sequential: finish a file before the next */
	FSRV_RANDOM,   /* a file at random (uniform) */
	FSRV_ZIPF,     /* the non-uniform ones: fsrv_param is their value */
	FSRV_PARETO,
	FSRV_NORMAL,   /* also gauss */
};

/* lockfile=: a per-file lock taken around each I/O (shared by the run's
 * jobs that use the same file), not a lock file on disk */
enum lockfile_mode {
	FLOCK_NONE = 0,
	FLOCK_EXCLUSIVE, /* one job at a time does I/O to the file */
	FLOCK_READWRITE, /* readers share it, a writer has it alone */
};

enum fallocate_mode {
	FALLOC_NONE = 0,
	FALLOC_NATIVE, /* fallocate(2), mode 0; the default */
	FALLOC_POSIX,  /* posix_fallocate(3) */
	FALLOC_KEEP,   /* fallocate(2) with FALLOC_FL_KEEP_SIZE */
	FALLOC_TRUNCATE, /* ftruncate(2) only */
};

/* zonemode=: how offsets are confined to zones (workload/iogen/zones.c) */
enum zone_mode {
	ZONEMODE_NONE = 0,
	ZONEMODE_STRIDED, /* zonesize bytes in each zonerange, then zoneskip */
	ZONEMODE_ZBD,     /* a zoned block device (refused: none to run it on) */
};

/* verify=: what each written block carries and how it is checked (verify*.c) */
enum verify_type {
	VERIFY_NONE = 0,
	VERIFY_CRC32C,  /* crc32c, crc32c-intel */
	VERIFY_CRC32,
	VERIFY_CRC64,
	VERIFY_MD5,
	VERIFY_SHA256,
	VERIFY_XXHASH,
	VERIFY_META,    /* header only, no payload checksum */
	VERIFY_PATTERN, /* no header: verify_pattern only */
	VERIFY_NULL,    /* read back, check nothing */
	VERIFY_SHA1,
	VERIFY_SHA512,
	VERIFY_SHA3_224,
	VERIFY_SHA3_256,
	VERIFY_SHA3_384,
	VERIFY_SHA3_512,
	VERIFY_CRC16,   /* fio's crc16 (CRC-16/ARC) */
	VERIFY_CRC7,    /* fio's crc7 (CRC-7/MMC) */
};

/* fio's error kinds (continue_on_error, ignore_error): an EILSEQ is a
 * verify error, any other error of a read a read error, of anything else a
 * write error. */
enum err_kind {
	ERR_KIND_READ = 0,
	ERR_KIND_WRITE,
	ERR_KIND_VERIFY,
	ERR_KIND_CNT,
};
#define ERRPOL_READ (1u << ERR_KIND_READ)
#define ERRPOL_WRITE (1u << ERR_KIND_WRITE)
#define ERRPOL_VERIFY (1u << ERR_KIND_VERIFY)
#define MAX_IGNORE_ERRORS 16

struct bssplit {
	uint64_t bs;
	unsigned perc; /* 0 = share what the others leave */
};

/* One option as the user wrote it, for the JSON "job options" echo. */
struct job_kv {
	char *key;
	char *value; /* NULL for a bare flag */
};

struct job_spec {
	/* identity */
	char *name;        /* job name (section name unless `name=`) */
	char *section;     /* the section name ([sec], --name=): fio names the
			      job's files after it even when name= differs;
			      NULL = use name */
	char *description;
	unsigned jobnum;   /* clone index 0..numjobs-1, set when cloning */
	unsigned groupid;  /* reporting group, set after parsing */

	/* files */
	char *filename;    /* raw value; ':' separates several, '\:' escapes */
	char *directory;   /* raw value; ':' separates several */
	unsigned nrfiles;
	uint64_t size;     /* total bytes over all files; 0 = file/device size */
	unsigned size_pct; /* size=N% of the file/device; 0 = not used */
	uint64_t io_size;  /* bytes of I/O to do; 0 = size */
	uint64_t filesize_min, filesize_max; /* 0 = size / nrfiles */
	uint64_t offset;
	unsigned offset_pct;
	uint64_t offset_increment; /* added per clone (jobnum) */
	uint64_t offset_align;     /* offset=N% rounded up to this; 0 = the minimum block size */
	bool create_on_open;
	bool allow_file_create;
	bool overwrite;
	enum fallocate_mode fallocate;
	bool unlink;
	bool invalidate;
	bool fadvise_hint; /* POSIX_FADV_RANDOM/SEQUENTIAL per the pattern, as fio */
	bool readonly;     /* refuse every write, trim and layout (fio's --readonly, per job) */
	char *filename_format; /* names without filename=; NULL = $jobname.$jobnum.$filenum */
	bool unique_filename;  /* fio's client prefix: no client mode here, no effect */
	char *opendir;         /* add every regular file under this tree */
	unsigned openfiles;    /* at most this many open at once; 0 = all */
	enum file_service file_service;
	unsigned fsrv_nr;      /* I/Os to a file before switching (:N); 1 */
	double fsrv_param;     /* zipf theta, pareto h, normal deviation (%) */
	bool create_only;      /* lay out the files, run no I/O */
	bool create_serialize; /* lay out jobs' files one job after the other */
	bool create_fsync;     /* fsync a file after laying it out */
	bool file_append;      /* I/O starts at the end of each regular file */
	enum lockfile_mode lockfile;
	unsigned lockfile_batch; /* I/Os done per lock taken (:N); 1 */
	bool pre_read;         /* read the files into the page cache first */
	bool unlink_each_loop; /* delete the files after every loop */
	bool allow_mounted_write; /* fio's guard switch: the device guard decides here */

	/* what I/O */
	unsigned rw;          /* enum rw_mode bits */
	int64_t rw_seq_skip;  /* sequential: bytes added after each I/O (rw=read:8k) */
	unsigned rw_seq_nr;   /* random: I/Os issued sequentially per random offset */
	bool rw_seq_identical; /* rw_sequencer=identical: those I/Os repeat the offset */
	unsigned rwmix[2];    /* percent of reads, writes in mixed modes */
	uint64_t bs[DDIR_RWDIR_CNT];
	uint64_t min_bs[DDIR_RWDIR_CNT], max_bs[DDIR_RWDIR_CNT]; /* bsrange */
	/* bssplit[d][i]: DDIR_RWDIR_CNT rows, allocated by the first bssplit=
	 * (NULL otherwise: a spec is copied per clone, and 3 KB each adds up) */
	struct bssplit (*bssplit)[MAX_BSSPLIT];
	unsigned nr_bssplit[DDIR_RWDIR_CNT];
	bool bs_unaligned;
	uint64_t blockalign[DDIR_RWDIR_CNT]; /* 0 = min bs */
	bool direct;
	uint64_t iomem_align; /* buffer alignment; 0 = page (enough for every device seen) */
	enum mem_type mem;    /* mem=/iomem=: what the I/O buffers are */
	char *mem_file;       /* mem=mmap:FILE, mmaphuge:FILE, mmapshared:FILE */
	uint64_t hugepage_size; /* huge kinds round the buffers up to this */
	uint64_t lockmem;     /* bytes mlock'ed per job while it runs */
	bool sync_io;         /* sync=1: O_SYNC */
	bool norandommap;
	bool randrepeat;
	uint64_t randseed;
	bool randseed_set;
	bool iodepth_set;   /* given: a blktrace replay takes its depth otherwise (as fio) */
	enum random_dist random_distribution;
	double dist_param;    /* zipf theta, pareto h, normal stddev in % */
	double dist_center;   /* zipf/pareto hot spot, 0..1 of the range; < 0 = not set */
	struct dist_zone dist_zones[MAX_DIST_ZONES]; /* zoned, zoned_abs */
	unsigned nr_dist_zones;
	enum random_gen random_generator;
	bool allrandrepeat;   /* every generator seeded alike, whatever randrepeat says */
	unsigned perc_random[DDIR_RWDIR_CNT]; /* percentage_random: share of random I/Os */
	bool fill_device;

	/* engine */
	char *ioengine;
	/* the engine's own options (hipri, fixedbufs, faulty_*...): a struct
	 * of engine_opts_of->options_size bytes that engine_opts_of's rows
	 * fill (options_engine.c), made from that engine's defaults (its rows'
	 * defs) when the first is set; NULL until then, and for an engine
	 * without options. It belongs to engine_opts_of, which
	 * job_spec_finalize() makes the ioengine, giving it its defaults. */
	void *engine_opts;
	const struct engine_ops *engine_opts_of;
	/* ioengine named a fio engine iobench does not provide (refused;
	 * its own options are then taken by name only): spec/extengine.h */
	const struct fio_ext_engine *ext_engine;
	unsigned iodepth;
	unsigned iodepth_batch;
	unsigned iodepth_batch_complete_min, iodepth_batch_complete_max;
	unsigned iodepth_low;

	/* how long */
	uint64_t runtime;     /* ns; 0 = until io_size is done */
	bool time_based;
	bool time_based_dropped;  /* time_based without runtime: cleared, as fio does (warned at setup) */
	uint64_t ramp_time;   /* ns */
	uint64_t startdelay_min, startdelay_max; /* ns; a range picks at random */
	unsigned loops;
	uint64_t number_ios;  /* 0 = unlimited */

	/* sync points */
	unsigned fsync_blocks;     /* fsync=N */
	unsigned fdatasync_blocks; /* fdatasync=N */
	bool end_fsync;
	unsigned sync_file_range_flags;  /* SYNC_FILE_RANGE_* of sync_file_range= */
	uint64_t sync_file_range_every;  /* writes between sync_file_range calls; 0 = off */
	bool serialize_overlap;          /* no two overlapping I/Os in flight at once */
	bool io_submit_offload;          /* io_submit_mode=offload: iodepth submitting threads (submitq.c) */
	bool block_error_hist;           /* block_error_percentiles: trim-block states and trims (blockinfo.c) */
	bool atomic;                     /* atomic=1: torn-write protection (refused: writeopts.c) */
	unsigned write_barrier;          /* every Nth write a barrier (only fio's sg engine has them) */
	unsigned write_hint;             /* RWH_WRITE_LIFE_* + 0 (1 none .. 5 extreme); 0 = unset */
	bool fsync_on_close;

	/* pacing */
	uint64_t rate[DDIR_RWDIR_CNT];      /* bytes/s, 0 = unlimited */
	uint64_t rate_iops[DDIR_RWDIR_CNT]; /* I/Os per second */
	uint64_t rate_min[DDIR_RWDIR_CNT];      /* bytes/s the job must keep, else EIO */
	uint64_t rate_iops_min[DDIR_RWDIR_CNT]; /* I/Os per second it must keep */
	uint64_t rate_cycle;    /* ns over which rate_min is averaged (1 s) */
	bool rate_poisson;      /* rate_process=poisson: exponential gaps */
	bool rate_ignore_thinktime; /* no catching up after a thinktime stall */
	uint64_t thinktime;     /* ns stalled after thinktime_blocks I/Os */
	uint64_t thinktime_spin; /* ns of each stall spent spinning */
	unsigned thinktime_blocks; /* I/Os between stalls (1) */
	bool thinktime_blocks_set; /* given: counts even with thinktime_iotime */
	bool thinktime_blocks_issue; /* count them at issue, not completion */
	uint64_t thinktime_iotime; /* ns of I/O between stalls, 0 = not used */
	unsigned flow_id;       /* flow group (0: the global one) */
	unsigned flow;          /* weight in the flow group, 0 = no flow control */
	uint64_t flow_sleep;    /* ns to sleep when held back by the flow */

	/* latency targets (latency.c) */
	uint64_t max_latency[DDIR_RWDIR_CNT]; /* ns; an I/O above it stops the job (ETIMEDOUT) */
	uint64_t latency_target; /* ns; 0 = no search for the best queue depth */
	uint64_t latency_window; /* ns of I/O judged at each depth; 0 = each I/O */
	double latency_percentile; /* percent of I/Os that must meet the target (100) */
	bool latency_run;        /* keep adjusting the depth instead of stopping */

	/* buffer contents */
	bool zero_buffers;
	bool refill_buffers;
	bool scramble_buffers;
	char *buffer_pattern;     /* as written (0x.., decimal, "text"); NULL = random data */
	unsigned dedupe_percentage;  /* percent of writes that repeat an earlier buffer */
	bool dedupe_working_set;     /* dedupe_mode=working_set (else repeat) */
	unsigned dedupe_working_set_percentage; /* of size: the working set's share */
	bool dedupe_global;          /* working set shared by every job that sets it */
	unsigned buffer_compress_percentage;
	uint64_t buffer_compress_chunk;

	/* verification (verify*.c) */
	enum verify_type verify;
	char *verify_pattern;     /* as written (0x.., decimal, "text", %o); NULL = none */
	bool do_verify;           /* read back after the write phase; default 1 */
	bool verify_only;         /* do not write: check what an earlier run wrote */
	uint64_t verify_backlog;  /* check after every N writes; 0 = after the phase */
	uint64_t verify_backlog_batch; /* reads per verify_backlog turn; 0 = verify_backlog */
	uint64_t verify_interval; /* bytes per header; 0 = the minimum block size */
	uint64_t verify_offset;   /* header position inside each interval */
	bool verify_fatal;        /* stop at the first failure */
	bool verify_dump;         /* failed chunks to BASENAME.OFFSET.received/.expected */
	bool experimental_verify; /* accepted: iobench's verify always replays the write pass */
	bool verify_state_save;   /* default 1, as fio */
	bool verify_state_load;
	unsigned verify_async;        /* threads checking the read-back; 0 = the job thread */
	char *verify_async_cpus;      /* their CPUs, as written (cpus_allowed's format); NULL = any */
	unsigned trim_percentage;     /* percent of the verified writes trimmed after writing */
	uint64_t trim_backlog;        /* trim them after every N writes; 0 = before the read-back */
	uint64_t trim_backlog_batch;  /* trims per trim_backlog turn; 0 = all waiting */
	bool trim_verify_zero;        /* trimmed blocks must read back zeros; default 1 */

	/* zones (workload/iogen/zones.c) */
	enum zone_mode zonemode;
	uint64_t zonesize;            /* strided: bytes per zone visit; zbd: the zone size */
	uint64_t zonerange;           /* strided: the zone's length (0: zonesize) */
	uint64_t zoneskip;            /* strided: bytes skipped after a zone (zones with zoneskip_zones) */
	bool zoneskip_zones;          /* zoneskip=Nz: N zones of zonesize */
	uint64_t zonecapacity;        /* zbd: usable bytes per zone (0: zonesize) */
	bool read_beyond_wp;          /* zbd */
	unsigned max_open_zones, job_max_open_zones; /* zbd; 0: no limit */
	bool ignore_zone_limits;      /* zbd */
	double zone_reset_threshold, zone_reset_frequency; /* zbd; fractions, 0: unset */

	/* error policy (errpolicy.c); all zero = stop at the first error */
	unsigned continue_on_error; /* ERRPOL_* bits of the kinds that may go on */
	int ignore_error[ERR_KIND_CNT][MAX_IGNORE_ERRORS]; /* errnos that may go on;
							      none listed = EIO, EILSEQ */
	unsigned nr_ignore_error[ERR_KIND_CNT];
	bool error_dump;            /* print every error, not only the first */

	/* grouping and threads */
	unsigned numjobs;
	bool thread;
	bool group_reporting;
	bool new_group;
	bool stonewall;
	char *wait_for;

	/* job control (workload/jobctl.c) */
	bool exitall;          /* any job's exitall makes every job's end stop others, as fio */
	bool exitall_on_error; /* this job's error stops others */
	enum exit_what {
		EXIT_WHAT_GROUP = 0, /* the finished job's reporting group */
		EXIT_WHAT_STONEWALL, /* every running job; the next stonewall batch runs */
		EXIT_WHAT_ALL,       /* every job, the later batches' too */
	} exit_what;
	/* steadystate (workload/steadystate.c): stop once the last ss_dur
	 * seconds of IOPS or bandwidth are steady; ss_dur 0 = off */
	bool ss_bw;            /* judge bandwidth (else IOPS) */
	bool ss_slope;         /* least-squares slope (else the largest deviation from the mean) */
	bool ss_pct;           /* ss_limit is a percent of the mean */
	double ss_limit;       /* IOPS, bytes/s (per second for a slope) or percent */
	uint64_t ss_dur;       /* ns, whole seconds: the window */
	uint64_t ss_ramp;      /* ns of I/O before the first sample */
	char *ioscheduler;     /* scheduler of the job's device queue while its batch runs; NULL = as is */
	char *exec_prerun;     /* sh command before the job's I/O; NULL = none */
	char *exec_postrun;    /* sh command after it */

	/* statistics */
	double percentile_list[MAX_PERCENTILES];
	unsigned nr_percentiles;
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	uint64_t bw_avg_time;   /* ns, bwavgtime */
	uint64_t iops_avg_time; /* ns, iopsavgtime */
	unsigned kb_base;       /* 1024 or 1000 */
	bool unified_rw_reporting;
	bool bw_avg_time_set, iops_avg_time_set; /* written: a bw/iops log leaves them alone */
	bool disk_util;         /* default 1: the job's devices are in the disk_util section */
	unsigned sig_figs;      /* significant_figures of the normal report's figures (4) */
	bool unit_bits;         /* unit_base=1: bandwidths in bits/s in the normal report */
	bool stats;             /* default 1; 0: the job is left out of every report */

	/* time-series logs in fio's formats (joblog.h); a prefix "" means the
	 * job's name, NULL means no such log */
	char *bw_log, *iops_log, *lat_log, *hist_log;
	unsigned log_avg_msec;        /* 0: one line per I/O */
	unsigned log_hist_msec;       /* 0: the histogram log stays empty */
	unsigned log_hist_coarseness; /* 0..6: 1856 >> N bins per line */
	bool log_max_value;           /* windows log their maximum, not their mean */
	bool per_job_logs;            /* default 1: ".N" (the job number) in file names */
	bool log_offset, log_prio;
	bool log_unix_epoch, log_alternate_epoch;
	unsigned log_alternate_epoch_clock_id;
	uint64_t log_compression;     /* bytes of samples per zlib chunk; 0 = none */
	bool log_store_compressed;    /* write .log.fz files (needs log_compression) */
	char *log_compression_cpus;   /* CPUs of the log writer thread, as written; NULL = any */
	unsigned log_entries;         /* accepted for fio; the ring size is fixed */

	/* I/O logs and their replay (workload/logs/iolog_write.c, replay*.c, blktrace.c) */
	char *write_iolog;          /* fio's iolog version 3 of the job's I/O, appended; NULL = none */
	char *read_iolog;           /* iologs (v2, v3) or blktraces to replay, ':' between
				       them, one per clone (the N-th for jobnum N); NULL = none */
	bool read_iolog_chunked;    /* read the log as the replay goes, not all before it */
	bool replay_no_stall;       /* ignore the log's timing: as fast as possible */
	char *replay_redirect;      /* every I/O of the log to this file or device */
	uint64_t replay_align;      /* offsets rounded down to this power of 2; 0 = none */
	uint64_t replay_scale;      /* offsets divided by this; 0 = none */
	unsigned replay_time_scale; /* percent of the log's I/O rate (100) */
	unsigned replay_skip;       /* 1u << DDIR_READ, _WRITE, _TRIM, _SYNC: left out */
	char *merge_blktrace_file;  /* merge read_iolog's blktraces into this one first */
	double merge_blktrace_scalars[MAX_MERGE_LOGS]; /* percent of each trace's time */
	unsigned nr_merge_blktrace_scalars;
	double merge_blktrace_iters[MAX_MERGE_LOGS];   /* passes over each trace */
	unsigned nr_merge_blktrace_iters;

	/* scheduling and clock */
	char *cpus_allowed;       /* cpus_allowed= list as written ("0-3,6"), NULL = not set */
	char *cpumask;            /* cpumask= bit mask as written, NULL = not set; the later
				     of the two clears the other, as in fio */
	bool cpus_allowed_split;  /* cpus_allowed_policy=split (default shared) */
	int nice;                 /* added to the job thread's nice value, -20..19 */
	int ioprio;               /* prio= 0..7, -1 = not set */
	int ioprio_class;         /* prioclass= 0..3, -1 = not set */
	enum clock_source clocksource; /* CLOCK_SRC_AUTO unless clocksource= */
	unsigned gtod_cpu;        /* fio's time-keeping CPU, taken out of cpus_allowed/cpumask;
				     0 = none (as in fio, CPU 0 cannot be named) */
	bool gtod_reduce;         /* as written; it sets the four below */
	bool disable_lat, disable_clat, disable_slat, disable_bw;

	/* the job thread's identity and placement (workload/jobsys.c) */
	int64_t uid, gid;         /* uid=/gid=: switch to them before I/O; -1 = not set */
	char *cgroup;             /* cgroup=: cgroup v2 group (under the mount) of the job's thread */
	unsigned cgroup_weight;   /* cgroup_weight= 100..1000, 0 = not set */
	bool cgroup_nodelete;     /* keep the cgroups the run created */
	char *numa_cpu_nodes;     /* numa_cpu_nodes= node list as written, NULL = not set */
	enum numa_mem_mode numa_mem_mode; /* numa_mem_policy='s mode, NUMA_MEM_DEFAULT unless set */
	char *numa_mem_nodes;     /* its node list (prefer: one node; bind, interleave: a list) */

	/* the options as written, for the JSON echo (global ones first) */
	struct job_kv *opts;
	size_t nr_opts;
	/* where the job was defined, for messages: "file:line" */
	char *origin;
};

/* Fill a spec with fio's defaults (psync, bs 4k, rw=read, ...). */
void job_spec_defaults(struct job_spec *s);
/* Deep copy (strings and the option echo are duplicated). */
void job_spec_copy(struct job_spec *dst, const struct job_spec *src);
void job_spec_release(struct job_spec *s);

static inline bool spec_is_rand(const struct job_spec *s) { return s->rw & RW_RAND; }
static inline bool spec_reads(const struct job_spec *s) { return s->rw & RW_READ; }
static inline bool spec_writes(const struct job_spec *s) { return s->rw & RW_WRITE; }

/* A list of jobs in the order they were defined, after numjobs cloning. */
struct job_list {
	struct job_spec *jobs;
	size_t nr;
	size_t alloc;
	/* global options of the first [global] section, for the JSON echo */
	struct job_kv *global_opts;
	size_t nr_global_opts;
};

struct job_spec *job_list_add(struct job_list *l);
/* Deep copy / free of an option echo list. */
struct job_kv *job_kv_copy(const struct job_kv *src, size_t n);
void job_kv_free(struct job_kv *kv, size_t n);
void job_list_release(struct job_list *l);

#endif
