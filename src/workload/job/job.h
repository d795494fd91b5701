/*
 * Job runtime state: what is happening while one job (one clone) runs. Owned
 * by the job's thread; the main thread reads only the atomic progress
 * counters, the state and the done flag. Spec (what was asked) is const; results (what happened)
 * are written at the end. Besides the state, the few inline questions every
 * part asks (the time, stopping, a unit's buffer) and the functions of this
 * folder, which call nothing else: the job's sleeps, latency_target's
 * search, block_error_percentiles. What the other folders do is in their
 * own headers (io/io.h, files/files.h, setup/setup.h, iogen/iogen.h, ...).
 */
#ifndef IOBENCH_WORKLOAD_JOB_JOB_H
#define IOBENCH_WORKLOAD_JOB_JOB_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include "engines/engine.h"
#include "spec/verify_opts.h"
#include "stats/sampler.h"
#include "sys/dev/guardopen.h"
#include "util/clock.h"
#include "util/distrib.h"
#include "util/rand.h"
#include "util/randperm.h"
#include "util/timeutil.h"
#include "spec/jobspec.h"
#include "results/results.h"

struct verify_state;
struct file_lock;
struct job_logs;

/* Running latency sums for mean/stddev without a division per I/O. */
struct latacc {
	uint64_t sum;
	unsigned __int128 sumsq;
};

/* Per-file offset generator state. */
struct file_gen {
	uint64_t nblocks;       /* random-map granularity blocks in io_size */
	uint64_t block;         /* block unit (min bs) */
	uint64_t next;          /* position in the permutation this pass */
	unsigned pass;
	bool perm_ready;
	struct randperm perm;
	/* with block sizes that vary, the blocks the pass has touched (an I/O
	 * covers several; NULL with one size): as fio's random map, a block
	 * already touched is passed over and an I/O is cut short at one */
	uint64_t *used;
	unsigned seq_left;      /* rw=randread:N: sequential I/Os left */
	uint64_t seq_pos;       /* end of the last I/O: where a sequential one goes */
	uint64_t seq_off;       /* start of the last random I/O (rw_sequencer=identical) */
	uint64_t dir_pos[DDIR_RWDIR_CNT]; /* end of the last I/O per direction (percentage_random) */
	/* zonemode=strided (zones.c), relative to the file's io_offset: the
	 * current zone's start, the next sequential I/O in it, bytes done in it */
	uint64_t zone_start, zone_pos, zone_bytes;
	/* random I/O in a zone under the random map: each of its blocks once
	 * per pass over it, from a permutation (zperm_n blocks, zperm_i next) */
	struct randperm zperm;
	uint64_t zperm_n, zperm_i;
	uint64_t issued;        /* bytes issued to the file this round (file_service_type) */
	bool done;              /* its io_size is issued: no more I/O this round */
	/* rw=trimwrite/randtrimwrite, as fio: where the last trim and write
	 * started (UINT64_MAX: none yet this pass; a trim goes next when they
	 * are equal) and the last trim's length (randtrimwrite writes it) */
	uint64_t tw_trim_off, tw_write_off, tw_trim_len;
};

/* What setup found and decided for one file (files.c), before any byte of
 * the run is written; the guarded opens insist on it (sys/dev/guardopen.h). */
struct job_file_plan {
	struct devguard_seen seen; /* what was at the path */
	unsigned what;             /* DEVGUARD_WRITE | DEVGUARD_TRIM the job does to it */
	bool layout;               /* setup creates or extends it */
	uint64_t layout_from;      /* its size when planned (0: did not exist) */
	uint64_t layout_end;       /* the size the layout gives it */
	uint64_t layout_need;      /* bytes the layout allocates on its filesystem */
	dev_t claimed;             /* block device claimed while the job has it open */
	bool fills;                /* fill_device: the writes make it, up to io_size or ENOSPC */
};

/* How job threads tell the main thread they are done (no polling delay),
 * and how the main thread wakes sleeping jobs when the run stops. */
struct run_sync {
	pthread_mutex_t lock;
	pthread_cond_t cond;  /* on CLOCK_MONOTONIC: a job finished */
	pthread_cond_t wake;  /* on CLOCK_MONOTONIC: stopping, or a job finished */
	unsigned done;
	_Atomic bool stopping; /* the run stops: every wait and every job ends */
	/* job control (jobctl.c): the run's jobs, which exitall and
	 * exit_what stop; NULL when the job runs alone */
	struct job *jobs;
	size_t nr_jobs;
	bool exitall;          /* some job set exitall: every job's end stops others */
	FILE *notes;           /* the "Saving output of prerun" notes; NULL: none */
	_Atomic unsigned io_jobs_left; /* jobs that do I/O, not finished (engine_params) */
};

/* A flow group (flow_id=): the I/Os its jobs let through and the sum of
 * the weights (flow=) of those running; shared by the run's threads. A job
 * that is ahead of its share sleeps on `seq` (a futex word bumped by every
 * admitted I/O and weight change; woken only when `waiters` says one
 * sleeps), so the job it waits for gets the CPU at once. */
struct ss_state;

struct job_flow {
	unsigned id;
	_Atomic uint64_t count;
	_Atomic uint64_t weight;
	_Atomic uint32_t seq;
	_Atomic uint32_t waiters;
	/* the start gate (job_flow_gate): the jobs of the group in a batch
	 * start their clocks at one moment, so their runtimes end together */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	unsigned members;      /* jobs joined (job_flow_join) and not left */
	unsigned gate_waiting; /* of them, at the gate */
	unsigned gate_gen;     /* opened so often */
	uint64_t gate_ns;      /* when it last opened */
	unsigned nr;           /* groups in the array (job_flows_free) */
};

struct job_sys;
struct submitq;

struct job {
	const struct job_spec *spec;
	struct job_spec *own_spec;      /* spec, when the job changed it (a blktrace's iodepth) */
	struct run_sync *sync;          /* shared by the run's jobs */
	const struct clock *clk;        /* the run's clock: every measurement reads it */
	unsigned index;                 /* position in the run */
	struct job_sys *sys;            /* jobsys.h: cgroup, NUMA (NULL: none asked) */
	struct engine_ctx eng;
	struct job_file *files;
	struct job_file_plan *plans;    /* one per file */
	struct devguard_allow guard;    /* the run's, with readonly=1 applied */
	struct devguard_claims *claims; /* the run's exclusive device claims */
	struct file_gen *gens;
	unsigned nr_files;
	unsigned next_file;
	unsigned fsrv_left;             /* I/Os left to the current file (file_service_type=X:N) */
	unsigned files_done;            /* files done this round */
	unsigned nr_open;               /* files open now (openfiles=) */
	bool *is_open;                  /* which (a metadata engine's have no descriptor) */
	bool *reopened;                 /* opened again for verify's read-backs (openfiles=) */
	bool fsrv_started;              /* a file was picked already */
	bool use_fdist;                 /* file_service_type=zipf/pareto/normal */
	struct distrib fdist;           /* its distribution over the files */
	struct file_lock **file_locks;  /* lockfile=: the run's lock of each file; NULL = none */
	int lock_held;                  /* the file whose lock the job holds; -1 = none */
	bool lock_wr;                   /* ... held for writing (readwrite) */
	unsigned lock_left;             /* I/Os left in the lock's batch */
	FILE *notes;                    /* "Laying out IO file" notes of a layout in the thread */
	bool fill_full;                 /* fill_device: a write met ENOSPC or EDQUOT */

	struct io_unit *units;
	void *buf_mem;                  /* aligned start of the unit buffers */
	void *buf_map;                  /* the mapping holding them */
	size_t buf_map_len;
	bool buf_shm;                   /* buf_map is a System V segment (mem=shm, shmhuge) */
	char *buf_file;                 /* mem=mmap:FILE: removed with the buffers */
	struct stat buf_file_st;        /* its inode as created (removed only while the name has it) */
	void *lock_map;                 /* lockmem: the mlock'ed mapping */
	size_t lock_len;
	uint64_t buf_size;              /* bytes per unit buffer */
	struct io_unit **done;          /* reap scratch */
	unsigned nr_units;
	struct io_unit **free_units;    /* async: stack of idle units */
	unsigned nr_free;
	struct io_unit **pending;       /* async: queued, not yet submitted */
	unsigned nr_pending;

	struct rng rng_off, rng_bs, rng_mix, rng_buf;
	struct rng rng_bs_trim;         /* trimwrite: the trims' sizes, seeded as rng_bs (iogen.c) */
	struct rng rng_dedupe;          /* dedupe_percentage: which writes repeat */
	uint64_t dedupe_seed;           /* seed of the last unique buffer (dedupe_mode=repeat) */
	uint64_t dedupe_ws_base, dedupe_ws_n; /* working set: buffers base+0 .. base+n-1 */
	bool dedupe_have;               /* a unique buffer exists to repeat */
	struct vpattern *bpat;          /* buffer_pattern, rendered; NULL = none */
	bool use_distrib;
	bool trimwrite;                 /* rw=(rand)trimwrite: trims count no bytes (iogen.c) */
	struct distrib dist;

	/* progress, read by the main thread */
	_Atomic uint64_t prog_bytes[DDIR_RWDIR_CNT];
	_Atomic uint64_t prog_ios[DDIR_RWDIR_CNT];
	_Atomic int state;              /* enum job_state */
	_Atomic bool done_flag;
	_Atomic bool terminate;         /* exitall/exit_what stopped it (jobctl.c): the results stand */
	/* --wearout (run_config.wearout): at its deadline the job waits for
	 * wear_target from the main thread; the flags under sync->lock */
	bool wearout;
	bool wear_paused, wear_released;
	uint64_t wear_target;           /* go on until this many I/Os are issued; 0 = no limit */
	uint64_t wear_ios;              /* I/Os issued over every loop */
	/* --status-interval (status.h): the run's request counter, the last
	 * request answered, the snapshot slot (NULL: no periodic reports) */
	_Atomic unsigned *status_req;
	unsigned status_seen;
	struct job_status *status;
	const struct cpu_usage *cpu0;   /* the thread's CPU use where measuring began */
	uint64_t t0_ns;                 /* when the thread began (elapsed) */

	/* work accounting */
	uint64_t bytes_total;           /* bytes to do per loop (0 = time only) */
	uint64_t bytes_issued;          /* this loop */
	uint64_t ios_issued;
	uint64_t writes_for_sync;       /* fsync=/fdatasync=: writes of the whole job (fio's io_issues) */
	bool pass_wrapped;              /* the next I/O begins a new pass over the files (iogen.c) */
	bool last_was_sync;             /* the last I/O was that sync: no second one before an I/O */
	struct job_file *last_written;  /* the file of the last write */
	uint64_t sfr_writes;            /* writes since the last sync_file_range (syncrange.c) */
	unsigned loop;
	uint64_t start_ns;              /* measured start (after ramp) */
	uint64_t ramp_end_ns;
	uint64_t end_ns;                /* deadline, 0 = none */
	bool in_ramp;
	uint64_t rate_start_ns;
	uint64_t rate_bytes[DDIR_RWDIR_CNT], rate_ios[DDIR_RWDIR_CNT];
	/* thinktime (pacing.c) */
	uint64_t ios_completed;         /* data I/Os completed, ramp included */
	uint64_t think_issued;          /* data I/Os issued, ramp included */
	uint64_t think_count;           /* that count at the end of the last stall */
	uint64_t think_last_ns;         /* end of the last stall (thinktime_iotime) */
	/* rate_process=poisson, rate_min=, flow= (pacing.c) */
	struct rng rng_rate;            /* poisson gaps */
	uint64_t rate_next_ns[DDIR_RWDIR_CNT]; /* poisson: when the next I/O is due, after rate_start_ns */
	uint64_t ratemin_next_ns;       /* next rate_min/rate_iops_min check, 0 = none */
	uint64_t ratemin_from_ns;       /* start of the window being checked, 0 = settling */
	uint64_t ratemin_bytes[DDIR_RWDIR_CNT], ratemin_ios[DDIR_RWDIR_CNT]; /* at its start */
	struct job_flow *flow;          /* the job's flow group, NULL without flow= */
	uint64_t flow_count;            /* I/Os it let through */
	bool flow_joined;               /* its weight is in flow->weight */
	bool flow_gated;                /* it passed (or left) the start gate */
	/* latency_target= and max_latency= (latency.c) */
	unsigned lat_qd;                /* queue depth allowed now; 0 = iodepth */
	unsigned lat_qd_low, lat_qd_high; /* the search's bounds */
	bool lat_failed_once;           /* some depth missed the target: bisect */
	bool lat_final;                 /* the window at the depth found */
	bool lat_reset;                 /* the final window starts: reset the stats */
	int lat_stop;                   /* 1: the search is over; -ETIMEDOUT: too slow */
	uint64_t lat_win_start, lat_win_ios, lat_win_over; /* the current window */

	/* statistics */
	struct latacc acc_slat[DDIR_RWDIR_CNT], acc_clat[DDIR_RWDIR_CNT], acc_lat[DDIR_RWDIR_CNT];
	struct latacc acc_sync;
	struct sampler bw[DDIR_RWDIR_CNT], iops[DDIR_RWDIR_CNT];
	unsigned inflight;

	struct job_result res;
	uint64_t seed;                  /* the job's random seed (job_gens_init) */
	struct verify_state *vfy;       /* verify= runtime state, NULL when off (verify_run.c) */
	/* with vfy: what job_account calls on each finished data I/O (verify_io_done,
	 * set by verify_init: the verify glue is above the accounting it checks in) */
	void (*vfy_io_done)(struct job *j, struct io_unit *u);
	uint64_t block_bs;              /* block_error_percentiles: the trim-block size, 0 = off (blockinfo.c);
					 * next to vfy: job_account reads both */
	struct job_logs *logs;          /* write_*_log state, NULL when off (joblog.h) */
	struct replay *replay;          /* read_iolog= state, NULL when off (replay.h) */
	FILE *iolog_f;                  /* write_iolog= stream, NULL when off (replay.h) */
	uint64_t iolog_t0;              /* when it was opened: its timestamps count from there */
	uint64_t iolog_last_off;        /* offset of the last I/O it logged (a sync's, as fio) */
	volatile sig_atomic_t *stop;
	const char *aux_path;           /* --aux-path: where verify state files go; NULL = . */
	pthread_t thread;
	struct ss_state *ss;            /* steadystate: the judge of the jobs it leads (steadystate.c) */
	struct job *ss_leader;          /* the job whose judge covers this one; NULL = none */
	const struct job **wait_jobs;   /* wait_for= targets */
	unsigned nr_wait;
	struct submitq *subq;           /* io_submit_mode=offload's threads (submitq.c), NULL inline */
};

enum job_state {
	JOB_WAITING = 0,
	JOB_STARTING,
	JOB_RAMP,
	JOB_RUNNING,
	JOB_FSYNC,
	JOB_DONE,
	JOB_VERIFY,                     /* reading back what was written */
};

static inline uint64_t job_now(const struct job *j)
{
	return clock_ns(j->clk);
}

/* The job's thread does its I/Os itself, one at a time: a synchronous
 * engine, submitted inline (io_submit_mode=offload hands them to threads,
 * through the asynchronous path, asyncio.c and submitq.c). */
static inline bool job_inline_sync(const struct job *j)
{
	return (j->eng.ops->flags & ENGINE_SYNC) && !j->spec->io_submit_offload;
}

/* Does an I/O of this job have a submission latency (slat)? An async
 * I/O does; a sync engine's does not, except the null engine's at
 * iodepth > 1, which fio times as queued (ENGINE_SLAT_AT_DEPTH). The
 * stats and the slat log both ask here, so the JSON and the log agree. */
static inline bool job_measures_slat(const struct job *j, bool async)
{
	return async || ((j->eng.ops->flags & ENGINE_SLAT_AT_DEPTH) && j->spec->iodepth > 1);
}

/* The job stops: a signal, a thread that could not start, or exitall. */
static inline bool job_stopping(const struct job *j)
{
	return *j->stop || atomic_load_explicit(&j->terminate, memory_order_relaxed) ||
	       (j->sync && atomic_load_explicit(&j->sync->stopping, memory_order_relaxed));
}

/* For IOB_ASSERT: u is one of the job's units, and [buf, buf + buflen)
 * lies inside that unit's own buf_size bytes (a short transfer's rest
 * starts further in). */
static inline bool job_unit_ok(const struct job *j, const struct io_unit *u)
{
	if (u->index >= j->nr_units || u != &j->units[u->index])
		return false;
	const char *own = (const char *)j->buf_mem + (uint64_t)u->index * j->buf_size;
	const char *b = u->buf;
	return b >= own && u->buflen <= j->buf_size &&
	       (uint64_t)(b - own) <= j->buf_size - u->buflen;
}

/* jobwait.c: the job's sleeps, ended early by a stop request. Wait until
 * deadline_ns (CLOCK_MONOTONIC); false when the run stops first. */
bool job_wait_until(struct job *j, uint64_t deadline_ns);
/* wait_for=: wait until every job in wait_jobs is done; false when the
 * run stops first. */
bool job_wait_for_jobs(struct job *j);
/* Make every job waiting in s return (the main thread, on a stop). */
void run_sync_stop(struct run_sync *s);

/* latency.c: latency_target= searches the highest queue depth whose
 * windows (latency_window) keep latency_percentile of their I/Os within
 * the target: depth 1 first, doubled while windows meet it, bisected once
 * one misses; at the depth found one more window runs with fresh
 * statistics (lat_reset) and the job stops (lat_stop 1), unless
 * latency_run keeps it adjusting. With latency_percentile 100, one I/O
 * over the target misses the window at once, and at depth 1 stops the job
 * with ETIMEDOUT, as in fio. max_latency= stops the job with ETIMEDOUT at
 * the first I/O of a direction slower than its limit. */
void job_latency_init(struct job *j);
void job_latency_io(struct job *j, const struct io_unit *u, uint64_t lat, uint64_t now);

/* blockinfo.c: block_error_percentiles. job_blocks_init() (at setup)
 * checks the job has one file of at most BLOCK_INFOS_MAX trim-blocks and
 * makes its j->res.blocks; job_blocks_note() records a finished write or
 * trim (ok) or a failed one in the trim-blocks it covers. */
int job_blocks_init(struct job *j);
void job_blocks_note(struct job *j, const struct io_unit *u, bool ok);

static inline char job_state_char(const struct job *j)
{
	switch (atomic_load(&j->state)) {
	case JOB_WAITING: return 'P';
	case JOB_STARTING: return 'S';
	case JOB_RAMP: return '/';
	case JOB_FSYNC: return 'F';
	case JOB_VERIFY: return 'V';
	case JOB_DONE: return '_';
	default: break;
	}
	unsigned rw = j->spec->rw;
	bool rnd = rw & RW_RAND;
	if ((rw & RW_READ) && (rw & RW_WRITE))
		return rnd ? 'm' : 'M';
	if (rw & RW_WRITE)
		return rnd ? 'w' : 'W';
	return rnd ? 'r' : 'R';
}

#endif
