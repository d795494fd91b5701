/*
 * Watching the machine around a workload, for every command that runs one
 * (run, quick, bonnie): capture the system under a path once at the start,
 * sample /proc with the monitor while the workload runs, note other
 * processes' storage I/O, and hand it all over as a struct run_env for the
 * anomaly checks and the reporters; the same per window of the workload
 * (a run's stonewall batches) when the command marks them; and note what
 * could not be watched. struct envwatch_opts holds what the command-line
 * flags that tune it ask (--monitor-interval=SEC, --no-monitor,
 * --warn-slab=SIZE, --memory-limit=SIZE: their rows are cli/common_opts.c's;
 * the memory cgroup is watch/memlimit.h's).
 */
#ifndef IOBENCH_WATCH_ENVWATCH_H
#define IOBENCH_WATCH_ENVWATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sys/monitor/monitor.h"
#include "sys/procio_sampler.h"
#include "results/runenv.h"

struct envwatch_opts {
	uint64_t interval_ns;   /* 0 = the monitor's default (1 s) */
	bool no_monitor;
	uint64_t warn_slab_bytes;
	uint64_t memory_limit;  /* --memory-limit, 0 = none */
	bool drops_root;        /* the command gives up root after envwatch_begin:
				   keep what needs root open, or in a sampler
				   that stays root (sys/procio_sampler.h) */
};

void envwatch_opts_init(struct envwatch_opts *o);

struct envwatch {
	struct run_env *env;
	struct monitor *mon;
	struct procio_snapshot before;
	uint64_t self_rd, self_wr;
	bool have_dev;
	dev_t dev;        /* the filesystem (or block device) under the path */
	int self_fd;      /* /proc/self/io, opened while root (procio_self_fd) */
	struct procio_sampler sampler; /* with drops_root, as root */
	/* the open window (envwatch_window_begin): */
	struct procio_snapshot win_before;
	uint64_t win_rd, win_wr;
	long win_sample;  /* its first monitor sample, -1 none */
	/* the end of the last window, which the next one starts from when it
	 * follows at once (stonewall batches run back to back) */
	bool have_edge;
	uint64_t edge_ns;
	struct procio_snapshot edge_procs;
	bool edge_self_io;
	uint64_t edge_rd, edge_wr;
	long edge_sample;
};

/* Capture the system under path (the workload's directory or file; one
 * that does not exist yet resolves through its parent) and start watching.
 * Never fails the run: what cannot be captured is left out. */
void envwatch_begin(struct envwatch *w, const char *path, const struct envwatch_opts *o);
/* A window of the workload starts (reporting groups g0..g1) or ends: a
 * monitor sample is taken at once and this process's and the others'
 * storage I/O noted, so the window is judged on its own. */
void envwatch_window_begin(struct envwatch *w, unsigned g0, unsigned g1);
void envwatch_window_end(struct envwatch *w);
/* Stop watching; returns the environment (owned by the caller; free with
 * run_env_free) with everything but the warnings filled in. */
struct run_env *envwatch_end(struct envwatch *w);

#endif
