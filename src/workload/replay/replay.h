/*
 * Replaying an I/O log (read_iolog=; writing one, write_iolog=, is
 * workload/logs/iolog.h's), in fio 3.33's formats. A log is a sequence of entries: a file is added,
 * opened or closed, a read, write, trim, sync or datasync is issued, or
 * the replay waits. The sources are fio's text iologs, version 2 ("fio
 * version 2 iolog": no timestamps, "wait" lines) and version 3 (each line
 * starts with the microseconds since the log began), and blktrace binary
 * files (struct blk_io_trace of the kernel's <linux/blktrace_api.h>,
 * recognised by their magic, either byte order): their queue events become
 * reads, writes, trims and syncs (flushes) of the device they were traced
 * on, found in /dev by its number. The options of the replay (replay_skip,
 * replay_scale, replay_align, replay_redirect, replay_time_scale,
 * replay_no_stall) are applied as each entry is read, as fio does.
 *
 * Setup reads the whole log once (replay_plan): the files it names become
 * the job's files, checked by the device guard for what the log does to
 * them (writes, trims) before the run starts. The replay then takes the
 * entries it kept (fio's default), or reads the log again as it goes
 * (read_iolog_chunked, in bounded memory), and issues each entry after the
 * delay the log gives since the previous one.
 */
#ifndef IOBENCH_WORKLOAD_REPLAY_REPLAY_H
#define IOBENCH_WORKLOAD_REPLAY_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct job;
struct io_unit;
struct job_spec;
struct devguard_allow;

/* The job's replay (job.h's j->replay). */
struct replay;
/* Read the job's log, make its files the job's (j->files, j->nr_files,
 * planned and guarded as files.c plans its own), and keep the entries
 * unless read_iolog_chunked. 0 or -errno after an error. */
int replay_plan(struct job *j, const struct devguard_allow *guard);
/* The largest length of an I/O in the log (the buffers' size). */
uint64_t replay_max_len(const struct job *j);
/* The next data I/O into u, after doing the file actions, syncs and waits
 * before it and its delay: 1, 0 at the end of the log (or a stop), or
 * -errno of a failed action (the job's error). */
int replay_next_io(struct job *j, struct io_unit *u);
void replay_free(struct job *j);

/* merge_blktrace_file: merge the traces of spec->read_iolog by time into
 * spec->merge_blktrace_file (with merge_blktrace_scalars and _iters), as
 * fio does before replaying it; 0 or -errno after an error. */
int blktrace_merge(const struct job_spec *spec, const struct devguard_allow *allow);

#endif
