/*
 * The progress line on a terminal's stderr, fio style:
 * `Jobs: 2 (f=2): [W(2)][45.0%][w=120MiB/s][w=30.0k IOPS][eta 00m:05s]`.
 * Only the main thread writes it, about once a second; it is never shown
 * when stderr is not a terminal, so it cannot end up in JSON or a log.
 */
#ifndef IOBENCH_WORKLOAD_PROGRESS_H
#define IOBENCH_WORKLOAD_PROGRESS_H

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
};

void progress_init(struct progress *p, struct job *jobs, size_t nr, uint64_t now);
void progress_update(struct progress *p, uint64_t now);
void progress_clear(struct progress *p);

#endif
