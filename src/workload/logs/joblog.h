/*
 * fio's time-series logs (write_bw_log, write_iops_log, write_lat_log,
 * write_hist_log and their log_* options), written while the jobs run.
 * A job thread turns each completion into log samples (one per I/O, or one
 * per log_avg_msec window) and puts them in a bounded ring per log file
 * (logring.h); one writer thread per run formats them in fio's line format
 * (fiolog.h) and writes, or zlib-compresses, them. The I/O path never waits
 * for a disk: only when a ring is full (the writer fell a whole ring
 * behind) does the job thread wait for room. Memory is fixed per log file
 * and does not grow with run length (JOBLOG_RING_BYTES, doc/logs.md).
 *
 * Files are named as fio names them: PREFIX_bw.N.log, _iops, _lat, _clat,
 * _slat, _clat_hist, N the job's number in the run from 1 (no ".N" with
 * per_job_logs=0, where jobs with the same prefix share one file), ".fz"
 * added with log_store_compressed. They are created in the current
 * directory, through the guarded open (sys/guardopen.h), before any job
 * starts.
 */
#ifndef IOBENCH_WORKLOAD_LOGS_JOBLOG_H
#define IOBENCH_WORKLOAD_LOGS_JOBLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/dev/devguard.h"
#include "spec/jobspec.h"

struct job;
struct io_unit;
struct job_logs;
struct log_writer;

/* Samples per ring, and what one ring of plain samples costs. */
#define JOBLOG_RING_RECORDS 8192u
#define JOBLOG_HIST_RING_RECORDS 16u

/* Does the spec ask for any log? */
bool joblog_wanted(const struct job_spec *s);


/* fio's --bandwidth-log: its files, and when it writes a line */
#define JOBLOG_AGG 1u        /* create agg-{read,write,trim}_bw.log */
#define JOBLOG_AGG_TICK 2u   /* lines while the progress line is shown (every 250 ms a look) */
#define JOBLOG_AGG_FINAL 4u  /* a line at the end (the report has JSON) */

/*
 * Open the log files of jobs[0..nr) and start the writer thread; each job
 * with logs gets j->logs. bandwidth_log: JOBLOG_AGG* flags, 0 for none:
 * also write fio's --bandwidth-log files (agg-read_bw.log,
 * agg-write_bw.log, agg-trim_bw.log: the summed KiB/s of all jobs since the
 * previous line, when more than the smallest bwavgtime has passed, at the
 * moments the flags name; as fio 3.33, which takes these samples only when
 * it computes its ETA display or its JSON report). *out is NULL when no
 * log is wanted. 0, or -errno after a message (nothing stays open then).
 */
int joblog_run_begin(struct log_writer **out, struct job *jobs, size_t nr,
		     const struct devguard_allow *allow, unsigned bandwidth_log);
/* A periodic (--status-interval) JSON report was written: as fio, a
 * --bandwidth-log line for it (if JOBLOG_AGG_FINAL). w may be NULL. */
void joblog_agg_report(struct log_writer *w);
/* After every job thread has ended: write what is queued, close the files,
 * free everything (the jobs' j->logs too). 0, or the first write error
 * (-errno, after a message). w may be NULL. */
int joblog_run_end(struct log_writer *w, struct job *jobs, size_t nr);

/* Job thread: measuring starts (after ramp_time): the logs' time 0;
 * end_ns: when the runtime ends (0 or UINT64_MAX: no runtime). */
void joblog_start(struct job_logs *l, uint64_t now_ns, uint64_t end_ns);
/* Job thread: u completed at now_ns with bytes moved; has_slat: it has a
 * submission latency. */
void joblog_io(struct job_logs *l, const struct io_unit *u, uint64_t bytes, uint64_t now_ns,
	       bool has_slat);
/* Job thread: the job ends at now_ns: the latency logs' last partial
 * windows, the bw/iops line due at the runtime's end. */
void joblog_finish(struct job_logs *l, uint64_t now_ns);

#endif
