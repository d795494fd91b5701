/*
 * The job's files while it runs (workload/files/): their names, the
 * guarded opens and closes (openfiles=, verify's reopen), a file gone while
 * the job ran, unlink=. Planning and laying them out is setup's
 * (workload/setup/setup.h).
 */
#ifndef IOBENCH_WORKLOAD_FILES_FILES_H
#define IOBENCH_WORKLOAD_FILES_FILES_H

#include <signal.h>
#include <stdbool.h>

#include "workload/job/job.h"

/* filenames.c: the job's file names, NULL-terminated, their count in *n;
 * NULL (*bad set when the spec is at fault, with its message) when none,
 * or when *stop (may be NULL) is set while they are made */
char **job_file_paths(const struct job_spec *s, unsigned *n, bool *bad,
		      volatile sig_atomic_t *stop);

/* fileopen.c: the engine opens the planned files, each descriptor judged
 * (sys/dev/guardopen.h) before the job uses it; and closes them. */
int job_files_open(struct job *j);
/* openfiles= is below the number of files: they are opened as used. */
static inline bool job_files_limited(const struct job *j)
{
	return j->spec->openfiles && j->spec->openfiles < j->nr_files;
}
void job_files_close(struct job *j);
/* One file of the job opened (guarded, as job_files_open does) or closed:
 * what a replayed log's open and close actions and openfiles= do. */
int job_file_open_one(struct job *j, unsigned i);
void job_file_close_one(struct job *j, unsigned i);
/* openfiles=: verify reads back (and trims) blocks of files the writes
 * closed already; job_file_reopen() opens f again for that, beyond the
 * openfiles limit as fio does, and job_files_close_reopened() closes what
 * it opened once that I/O is back. */
int job_file_reopen(struct job *j, const struct job_file *f);
void job_files_close_reopened(struct job *j);
/* The files open as open[] says (closing the others first): a read-back
 * that replays the writes' file choices starts with the files open that
 * were open when they began. */
int job_files_open_as(struct job *j, const bool *open);
void job_files_invalidate(struct job *j);
/* vanished.c: before closing, fail the job (res.error ENOENT, message) if
 * one of its open regular files was deleted or replaced while it ran. */
int job_files_check_present(struct job *j);
/* unlink=1: remove the job's regular files after the run. */
void job_files_unlink(struct job *j);
/* Remove f, a file this run laid out (laid_out_here), only while its name
 * still has the inode made (devguard_unlink_created); a file put in its
 * place is left alone. */
void job_file_remove_made(struct job_file *f);

#endif
