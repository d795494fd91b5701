/*
 * Internal to the logs (joblog.c: the job side, joblog_writer.c: the writer
 * thread and the files): what a job's logs hold, a stream (one job's
 * samples of one kind, one ring), a file (one or more streams write it) and
 * the writer.
 */
#ifndef IOBENCH_WORKLOAD_LOGS_JOBLOG_INT_H
#define IOBENCH_WORKLOAD_LOGS_JOBLOG_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "engines/ddir.h"
#include "workload/logs/fiolog.h"
#include "workload/logs/joblog.h"
#include "workload/logs/logring_int.h"

enum joblog_kind {
	JOBLOG_BW = 0,
	JOBLOG_IOPS,
	JOBLOG_LAT,
	JOBLOG_CLAT,
	JOBLOG_SLAT,
	JOBLOG_HIST,
	JOBLOG_NR,
};

/* A histogram record in a hist stream's ring: header, then the bins. */
struct joblog_hist_rec {
	uint64_t time_ms;
	uint64_t bs;
	uint32_t ddir;
	uint32_t nbins;
	uint64_t bins[];
};

struct log_file {
	char *path;
	FILE *fp;
	bool compressed;       /* .fz: zlib chunks of binary samples */
	unsigned char *chunk;  /* samples waiting to be compressed */
	size_t chunk_len, chunk_cap;
	int err;               /* first write error (-errno), 0 if none */
};

struct log_stream {
	struct logring ring;
	struct log_file *file;
	enum joblog_kind kind;
	bool offset, log_prio; /* columns of the text line */
};

struct joblog_win {
	uint64_t sum, n, max;
};

struct job_logs {
	struct log_writer *w;
	struct log_stream *st[JOBLOG_NR]; /* NULL: that log is off */
	bool started;
	uint64_t epoch_ns;      /* job clock at time 0 */
	uint64_t stop_ms;       /* the runtime's end in log time, UINT64_MAX: none */
	uint64_t base_ms;       /* added to every time (log_unix_epoch, log_alternate_epoch) */
	int clock_id;           /* -1: no epoch clock */
	unsigned avg_ms, hist_ms, coarse;
	bool max_value, offset;
	uint16_t prio;          /* the job's ioprio, class << 13 | level */
	unsigned dirs;          /* directions the job does (bits 1 << ddir) */
	uint64_t last_ms[JOBLOG_NR];                   /* latency kinds: window starts */
	uint64_t next_ms[JOBLOG_NR];                   /* bw, iops: the next line's due time */
	struct joblog_win win[JOBLOG_NR][DDIR_RWDIR_CNT];
	uint64_t *hbins[DDIR_RWDIR_CNT];               /* FIOLOG_HIST_BINS each, or NULL */
	uint64_t hist_last[DDIR_RWDIR_CNT];
	uint64_t hist_n[DDIR_RWDIR_CNT];
	uint64_t hist_bs[DDIR_RWDIR_CNT];
	bool hist_on[DDIR_RWDIR_CNT];
};

struct log_writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;   /* CLOCK_MONOTONIC: a ring is half full, or stop */
	pthread_cond_t space;  /* CLOCK_MONOTONIC: the writer drained the rings */
	_Atomic bool stop;
	bool running;
	struct log_stream **streams;
	size_t nr_streams, alloc_streams;
	struct log_file **files;
	size_t nr_files, alloc_files;
	_Atomic uint64_t waits; /* times a job thread found its ring full */
	/* --bandwidth-log */
	bool agg;
	bool agg_tick, agg_final; /* JOBLOG_AGG_TICK, JOBLOG_AGG_FINAL */
	struct job *jobs;
	size_t nr_jobs;
	uint64_t agg_interval_ns, agg_t0, agg_last;
	uint64_t agg_next_tick; /* agg_tick: the next status look */
	_Atomic bool agg_report; /* a --status-interval JSON report was written */
	uint64_t agg_bytes[DDIR_RWDIR_CNT];
	struct log_file *agg_file[DDIR_RWDIR_CNT];
};

/* joblog.c, pure (unit-tested): the bw/iops line due by time t ms, as
 * fio's timer writes it: 1 and *due_ms (the stamp, a multiple of avg_ms)
 * if *next_ms <= t and *next_ms <= stop_ms (no line is due past the
 * runtime's end), *next_ms then the first multiple of avg_ms after
 * min(t, stop_ms) (the due times between are empty windows: no line);
 * else 0. avg_ms 0: never. */
unsigned joblog_rate_due(uint64_t *next_ms, uint64_t t, uint64_t stop_ms, unsigned avg_ms,
			 uint64_t *due_ms);
/* A window's rate over span_ms: bw KiB/s from bytes, else I/Os per second
 * (ios); truncated as fio's; 0 for span 0. */
uint64_t joblog_rate_value(bool bw, uint64_t bytes, uint64_t ios, uint64_t span_ms);

/* joblog_writer.c: a job thread's ring is full: wake the writer and wait
 * for room; returns the slot. */
void *joblog_wait_slot(struct log_writer *w, struct logring *r);
/* Wake the writer (a ring reached half). */
void joblog_kick(struct log_writer *w);

#endif
