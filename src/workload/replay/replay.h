/*
 * Replaying an I/O log (read_iolog=) and writing one (write_iolog=), in
 * fio 3.33's formats. A log is a sequence of entries: a file is added,
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
#ifndef IOBENCH_WORKLOAD_REPLAY_H
#define IOBENCH_WORKLOAD_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engines/ddir.h"

struct job;
struct io_unit;
struct job_spec;
struct devguard_allow;

enum replay_kind { RP_ADD, RP_OPEN, RP_CLOSE, RP_IO, RP_WAIT };

/* One entry of a log, options applied. */
struct replay_entry {
	uint64_t offset;   /* bytes (RP_IO) */
	uint64_t delay_us; /* after the previous entry's issue (RP_WAIT: until this many
			      ms after the start, as fio 3.33 does) */
	uint64_t len;      /* bytes (RP_IO; 0 for syncs) */
	unsigned file;     /* index in replay_files */
	unsigned char kind;
	unsigned char ddir; /* RP_IO: enum ddir */
};

/* The files a log names, in the order it names them. */
struct replay_files {
	char **names;
	uint64_t *end;          /* the largest offset + length of an I/O to each */
	unsigned *what;         /* DEVGUARD_WRITE | DEVGUARD_TRIM done to each */
	unsigned n;
};

#define REPLAY_BLKTRACE 100 /* replay_src.version of a blktrace */

/* A log being read. */
struct replay_src {
	FILE *f;
	const char *path;
	int version;            /* 2, 3 or REPLAY_BLKTRACE */
	bool swap;              /* blktrace in the other byte order */
	unsigned line;          /* text: the line just read */
	uint64_t last_ttime;    /* the previous entry's time (v3 us, blktrace ns), 0 = none */
	uint64_t skipped_ro;    /* writes and trims left out in read-only mode */
	bool readonly;
	bool warned_zero;       /* blktrace: a zero-byte trace was reported */
	uint32_t dev_cache;     /* blktrace: the last device and its file */
	unsigned file_cache;
	bool have_cache;
	unsigned *dev_of;       /* blktrace: device number of each file */
	struct replay_entry pending; /* blktrace: a new file's I/O, after its open */
	bool have_pending;
	bool closing;           /* blktrace: at the end, a close per file */
	unsigned close_next;
	int depth_now[2];       /* blktrace: reads/writes queued since that direction's last completion */
	int depth_max[2];       /* the most of them a completion ended (fio's probed depth) */
	const struct job_spec *spec;
};

/* Open path as the log of spec (format by its first bytes); 0 or -errno
 * after an error naming it. readonly: leave writes and trims out. */
int replay_src_open(struct replay_src *src, const char *path, const struct job_spec *spec,
		    bool readonly);
void replay_src_close(struct replay_src *src);
/* The next entry into *e: 1, 0 at the end, -errno after an error naming
 * the log and the line or record. New file names go into files. */
int replay_src_next(struct replay_src *src, struct replay_files *files, struct replay_entry *e);
/* blktrace.c: is the file a blktrace (by its first record's magic)? *swap
 * says it is in the other byte order. */
bool blktrace_detect(FILE *f, bool *swap);
int blktrace_next(struct replay_src *src, struct replay_files *files, struct replay_entry *e);
/* The queue depth of the trace read so far, as fio 3.33 probes it: per
 * direction, the queue events (less the merges) since the last completion,
 * at their most when a completion comes; the larger direction's, at most
 * 1024 (a stacked device's trace lacks completions); 0 without any. */
unsigned blktrace_depth(const struct replay_src *src);
/* merge_blktrace_file: merge the traces of spec->read_iolog by time into
 * spec->merge_blktrace_file (with merge_blktrace_scalars and _iters), as
 * fio does before replaying it; 0 or -errno after an error. */
int blktrace_merge(const struct job_spec *spec, const struct devguard_allow *allow);
/* An offset of the log with replay_scale and replay_align applied. */
uint64_t replay_place(const struct job_spec *s, uint64_t off);
/* The index of name in files, added at the end when it is not there. */
unsigned replay_file_add(struct replay_files *files, const char *name);
/* The index of name in files, ~0u when it is not there. */
unsigned replay_file_index(struct replay_files *files, const char *name);
void replay_files_free(struct replay_files *files);

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
/* A log's gap of ns scaled by replay_time_scale (percent of the log's
 * rate), saturating at UINT64_MAX: a log's clock may jump by 2^63. */
uint64_t replay_scaled_delay(uint64_t ns, unsigned time_scale);

/* iolog_write.c: write_iolog=. Open (appending, through the device guard,
 * as iobench's own output) and write the header and an "add" per file;
 * then one line per file opened or closed and per I/O issued. */
int iolog_write_open(struct job *j);
void iolog_write_file(struct job *j, unsigned file, enum replay_kind what);
void iolog_write_io(struct job *j, const struct io_unit *u);
/* A sync the job issues itself: logged at the offset of the last I/O. */
void iolog_write_sync(struct job *j, const struct io_unit *u);
void iolog_write_close(struct job *j);

#endif
