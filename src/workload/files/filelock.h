/*
 * lockfile=: fio's per-file locks, taken around each I/O by every job of
 * the run that uses the same file (by name) with lockfile set: exclusive
 * (one job's I/O at a time) or readwrite (reads together, a write or trim
 * alone), kept for lockfile_batch I/Os in a row to the same file. They are
 * locks in memory between the run's threads, as fio's are between its
 * jobs, not locks on the files themselves: nothing is written or opened
 * for them.
 */
#ifndef IOBENCH_WORKLOAD_FILES_FILELOCK_H
#define IOBENCH_WORKLOAD_FILES_FILELOCK_H

#include <stddef.h>

#include "workload/job/job.h"

struct file_locks;

/* The run's locks, one per file name some job with lockfile uses; each
 * such job gets j->file_locks[i] for its file i. NULL when no job locks. */
struct file_locks *file_locks_make(struct job *jobs, size_t nr);
void file_locks_free(struct file_locks *l, struct job *jobs, size_t nr);

/* Before an I/O of direction d to file fi: take its lock (or keep the one
 * held for the batch). After it: job_file_unlock(j, false) lets it go when
 * the batch is used up; true lets it go at once (the job ends). */
void job_file_lock(struct job *j, unsigned fi, enum ddir d);
void job_file_unlock(struct job *j, bool now);

#endif
