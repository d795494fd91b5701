/*
 * The machine around a run: what iobench captured once at the start (the
 * system capture, sys/sysinfo/sysinfo.h), what it sampled while the workload ran
 * (the monitor series and its summary, sys/monitor/monitor.h), which other
 * processes did storage I/O meanwhile, what a --memory-limit cgroup did
 * (sys/memcg.h), the same per window of the run (a
 * stonewall batch: each is judged on its own), what could not be watched
 * and why, and the anomaly warnings judged at the end
 * (watch/anomaly.h). run and quick results and bonnie results each own
 * one; reporters read it like the rest of a result.
 */
#ifndef IOBENCH_RESULTS_RUNENV_H
#define IOBENCH_RESULTS_RUNENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/ddir.h"
#include "sys/memcg.h"
#include "sys/monitor/monitor.h"
#include "sys/monitor/monitor_calc.h"
#include "sys/procio.h"
#include "sys/sysinfo/sysinfo.h"

struct run_warning {
	const char *id;  /* static, stable: "page-cache-read", "foreign-io", ... */
	char *message;   /* what looks wrong, one line */
	char *evidence;  /* the figures that show it */
	char *advice;    /* what to do about it */
	/* what it is about: a part of the run ("group 1, job 'seq-buf'",
	 * "phase 'block input'") or NULL for the whole run */
	char *scope;
	int group_first, group_last; /* its reporting groups, -1 when none */
	char **jobs;     /* the jobs (or phases) it names, nr_jobs of them */
	size_t nr_jobs;
};

/* A part of the run judged on its own: one stonewall batch, the jobs of
 * reporting groups group_first..group_last. */
struct run_window {
	unsigned group_first, group_last;
	bool have_samples;          /* monitor samples sample_first..sample_last */
	size_t sample_first, sample_last;
	struct monitor_summary summary; /* of those samples, when have_samples */
	bool have_self_io;
	uint64_t self_read_bytes, self_write_bytes;
	struct procio_entry *others; /* as run_env's, over the window */
	size_t nr_others;
};

/* Something the run could not watch, and why: "buffer_head slab",
 * "/proc/slabinfo is readable by root only: slab-growth was not checked". */
struct run_unwatched {
	const char *what; /* static */
	char *why;
};

/*
 * One job over time, on the monitor's clock (CLOCK_MONOTONIC): the run's
 * main thread reads the job's own progress counters (the relaxed atomics
 * the progress line reads; nothing is added to the I/O path) about once a
 * second, at the start and at the end of its batch, and notes when the
 * job ended (its thread said so) and its measured start (the end less the
 * job's runtime, so after ramp_time). The report draws bw and iops per
 * interval from the counters' differences.
 */
struct run_job_tick {
	uint64_t t_ns;
	uint64_t bytes[DDIR_RWDIR_CNT], ios[DDIR_RWDIR_CNT]; /* since the job started */
};
struct run_job_timeline {
	char *name;
	uint64_t start_ns, end_ns;  /* 0: not known (the job did not run) */
	struct run_job_tick *ticks;
	size_t n, alloc;
};
/* Add a reading; one within RUN_JOB_TICK_MIN_NS of the last (after the
 * first interval) replaces it. */
#define RUN_JOB_TICK_MIN_NS 250000000ull
void run_job_timeline_tick(struct run_job_timeline *t, uint64_t now_ns,
			   const uint64_t *bytes, const uint64_t *ios);
void run_job_timelines_free(struct run_job_timeline *t, size_t n);

/* A phase of the workload (bonnie's tests), on the same clock. */
struct run_phase {
	char *name;
	uint64_t start_ns, end_ns;
};

struct run_env {
	bool have_sysinfo;
	struct sysinfo si;
	bool have_monitor;
	struct monitor_series series;
	struct monitor_summary summary;
	bool have_self_io;
	uint64_t self_read_bytes, self_write_bytes; /* /proc/self/io growth over the run */
	struct procio_entry *others;  /* other processes with files on the run's filesystem
					 and their storage I/O over the run */
	size_t nr_others;
	uint64_t warn_slab_bytes;     /* slab-growth threshold */
	bool have_memcg;              /* the workload ran under --memory-limit ... */
	struct memcg_stats memcg;     /* ... and this is what the limit did */
	struct run_window *windows;   /* run's stonewall batches, in order */
	size_t nr_windows;
	struct run_unwatched *unwatched;
	size_t nr_unwatched;
	struct run_warning *warnings;
	size_t nr_warnings;
	struct run_job_timeline *timelines; /* the jobs over time (run, quick) */
	size_t nr_timelines;
	struct run_phase *phases;           /* bonnie's tests, in the order they ran */
	size_t nr_phases, alloc_phases;
};

/* Note a phase that starts (end false) or ends now (now_ns: CLOCK_MONOTONIC). */
void run_env_phase(struct run_env *e, const char *name, bool end, uint64_t now_ns);

/* Append a warning and return it (scope, groups and jobs unset); the three
 * texts are printf-formatted by the caller and owned by e from now on. */
struct run_warning *run_env_warn(struct run_env *e, const char *id, char *message, char *evidence,
				 char *advice);
/* Note that `what` could not be watched; why is owned by e from now on. */
void run_env_unwatched(struct run_env *e, const char *what, char *why);
/* The monitor's summary entry for a /proc/diskstats name, or NULL. */
const struct monitor_dev_summary *run_env_device(const struct run_env *e, const char *name);
void run_env_release(struct run_env *e);
void run_env_free(struct run_env *e);

#endif
