/*
 * Before any I/O (workload/setup/): the job's files planned (names,
 * sizes, the device guard; a replay's from its log) and laid out, then
 * released; free space, direct=1's alignment, atomic= and write_barrier=.
 */
#ifndef IOBENCH_WORKLOAD_SETUP_SETUP_H
#define IOBENCH_WORKLOAD_SETUP_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "workload/job/job.h"

/* files.c: resolve names and sizes, lay out, release (fileopen.c opens).
 * job_files_plan() makes every check and writes nothing: names, the device
 * guard on every file written or trimmed, sizes, allow_file_create, no
 * file created in /dev, a verify pass's file as the write pass left it.
 * prev[0..nprev) are the run's earlier jobs: what they lay out counts as
 * there. job_files_layout() then creates and extends files as planned
 * (fio's "Laying out IO file" note to notes, unless NULL);
 * job_files_open() has the engine open them and judges each descriptor
 * (sys/dev/guardopen.h) before the job uses it. */
int job_files_plan(struct job *j, const struct devguard_allow *guard, const struct job *prev,
		   size_t nprev);
int job_files_layout(struct job *j, FILE *notes);
/* fill_device on a job that only reads found the filesystem full: its
 * file is empty and, as fio, the job reads nothing. */
bool job_files_nothing_to_read(const struct job *j);

/* In the job's thread (create_serialize=0, unlink_each_loop): plan and lay
 * out its files again, as they are on disk now (the files closed first). */
int job_files_replan(struct job *j);
/* The plan released: the replay (replay_free), the names and arrays. */
void job_files_release(struct job *j);
/* pre_read: read every file's region once, into the page cache. */
int job_files_pre_read(struct job *j);

/* space.c: refuse layouts that need more than their filesystems have
 * free (summed over all the jobs' files on each filesystem). */
int job_files_check_space(const struct job *jobs, size_t nr);

/* align.c: refuse direct=1 jobs whose sizes or offsets are misaligned. */
int job_check_direct_alignment(const struct job *j);

/* writeopts.c: atomic= (refused where the device cannot write atomically)
 * and write_barrier= (a warning: no engine here has barriers); 0 or -1. */
int job_write_opts_check(struct job *j);

#endif
