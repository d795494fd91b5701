/*
 * How much of a file sits in the page cache unwritten: cachestat(2)
 * (Linux 6.5+) counts a file's pages that are dirty or under writeback,
 * which says directly whether a buffered writer's data reached the device,
 * whatever else the device was doing (another file's writeback, other
 * processes). Older kernels answer -ENOSYS and the callers fall back to
 * device statistics.
 */
#ifndef IOBENCH_SYS_CACHESTAT_H
#define IOBENCH_SYS_CACHESTAT_H

#include <stdint.h>

/* Bytes of path's page cache that are dirty or under writeback now;
 * 0 or -errno (-ENOSYS: no cachestat on this kernel). */
int cachestat_unwritten(const char *path, uint64_t *bytes);

#endif
