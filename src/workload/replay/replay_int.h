/*
 * Inside workload/replay/: a log's entries and the files it names, the
 * readers of fio's text iologs (replay_src.c) and of blktrace files
 * (blktrace.c), and the options applied to each entry.
 */
#ifndef IOBENCH_WORKLOAD_REPLAY_REPLAY_INT_H
#define IOBENCH_WORKLOAD_REPLAY_REPLAY_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engines/ddir.h"
#include "workload/logs/iolog.h"
#include "workload/replay/replay.h"

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
/* replay_files.c: an offset of the log with replay_scale and replay_align
 * applied. */
uint64_t replay_place(const struct job_spec *s, uint64_t off);
/* The index of name in files, added at the end when it is not there. */
unsigned replay_file_add(struct replay_files *files, const char *name);
/* The index of name in files, ~0u when it is not there. */
unsigned replay_file_index(struct replay_files *files, const char *name);
void replay_files_free(struct replay_files *files);

/* A log's gap of ns scaled by replay_time_scale (percent of the log's
 * rate), saturating at UINT64_MAX: a log's clock may jump by 2^63. */
uint64_t replay_scaled_delay(uint64_t ns, unsigned time_scale);

#endif
