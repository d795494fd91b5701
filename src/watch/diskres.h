/*
 * Disk statistics around a measured interval, shared by `run` and the
 * bonnie++ suite: collect the whole-disk devices under some paths
 * (devres_devices_for_path, each device once), snapshot /proc/diskstats at
 * the start, and at the end turn the deltas into struct disk_result (the
 * fio disk_util figures). Sampling is off the hot path.
 */
#ifndef IOBENCH_WATCH_DISKRES_H
#define IOBENCH_WATCH_DISKRES_H

#include <stddef.h>
#include <stdint.h>

#include "sys/diskstats.h"
#include "results/results.h"

struct diskres {
	char (*names)[64];       /* devices, each once */
	size_t nr;
	size_t alloc;
	struct diskstat *before; /* nr snapshots from diskres_begin */
};

/* Add the devices under path (none for tmpfs and the like, or when the
 * path cannot be examined). Zeroed memory is an empty set. */
void diskres_add_path(struct diskres *d, const char *path);
/* Snapshot every device now (a device that vanished reads as zeros). */
void diskres_begin(struct diskres *d);
/* The deltas since diskres_begin into a new array *out (*nr entries; never
 * NULL, free() it); a device that has vanished is left out. */
void diskres_end(const struct diskres *d, uint64_t elapsed_ms, struct disk_result **out,
		 size_t *nr);
void diskres_release(struct diskres *d);

#endif
