/*
 * The progress line on a terminal's stderr, fio style:
 * `Jobs: 2 (f=2): [W(2)][45.0%][w=120MiB/s][w=30.0k IOPS][eta 00m:05s]`.
 * Only the main thread writes it, about once a second; it is shown only
 * when stderr is a terminal, or when asked for whatever stderr is (fio's
 * --eta=always), so it never ends up in JSON or in a report.
 */
#ifndef IOBENCH_WORKLOAD_PROGRESS_INT_H
#define IOBENCH_WORKLOAD_PROGRESS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/ddir.h"

struct job;

struct progress {
	struct job *jobs;
	size_t nr;
	uint64_t start_ns;
	uint64_t last_ns;
	uint64_t last_bytes[DDIR_RWDIR_CNT];
	uint64_t last_ios[DDIR_RWDIR_CNT];
	int width; /* characters written last time, to clear */
	uint64_t interval_ns;  /* --eta-interval (1 s) */
	uint64_t newline_ns;   /* --eta-newline: keep a line this often; 0 = never */
	uint64_t line_ns;      /* when the current line began */
	bool drawn;            /* a line was written once */
};

/* interval_ns 0: once a second; newline_ns 0: one line redrawn in place */
void progress_init(struct progress *p, struct job *jobs, size_t nr, uint64_t now,
		   uint64_t interval_ns, uint64_t newline_ns);
void progress_update(struct progress *p, uint64_t now);
void progress_clear(struct progress *p);

#endif
