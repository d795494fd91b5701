/*
 * Inside workload/iogen/: zonemode=strided's offsets, which iogen.c asks
 * zones.c for.
 */
#ifndef IOBENCH_WORKLOAD_IOGEN_IOGEN_INT_H
#define IOBENCH_WORKLOAD_IOGEN_IOGEN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/job/job.h"

/* zonemode=strided: the offset of the next I/O of len bytes in the file's
 * current zone (rnd: anywhere in it); 0 when it would cross the file
 * region's end (the pass is over), else 1. */
int zone_strided_next(struct job *j, struct job_file *f, struct file_gen *g, bool rnd,
		      uint64_t len, uint64_t *off);
void zone_strided_reset(struct file_gen *g);

#endif
