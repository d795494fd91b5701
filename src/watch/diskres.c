/*
 * Disk statistics around a measured interval (diskres.h): device
 * collection, the start snapshot and the disk_result deltas at the end.
 */
#include "watch/diskres.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/dev/devres.h"
#include "util/xmalloc.h"

void diskres_add_path(struct diskres *d, const char *path)
{
	char found[8][64];
	size_t n = 0;
	if (devres_devices_for_path(path, found, 8, &n) < 0)
		return;
	for (size_t k = 0; k < n; k++) {
		bool dup = false;
		for (size_t m = 0; m < d->nr; m++)
			dup |= !strcmp(d->names[m], found[k]);
		if (dup)
			continue;
		d->names = xgrow(d->names, &d->alloc, d->nr, sizeof(*d->names));
		memcpy(d->names[d->nr++], found[k], 64);
	}
}

void diskres_begin(struct diskres *d)
{
	free(d->before);
	d->before = xcalloc(d->nr ? d->nr : 1, sizeof(*d->before));
	for (size_t m = 0; m < d->nr; m++)
		diskstat_find(d->names[m], &d->before[m]);
}

void diskres_end(const struct diskres *d, uint64_t elapsed_ms, struct disk_result **out,
		 size_t *nr)
{
	*out = xcalloc(d->nr ? d->nr : 1, sizeof(**out));
	*nr = 0;
	for (size_t m = 0; m < d->nr && d->before; m++) {
		struct diskstat after, x;
		if (diskstat_find(d->names[m], &after) < 0)
			continue;
		diskstat_delta(&d->before[m], &after, &x);
		struct disk_result *r = &(*out)[(*nr)++];
		snprintf(r->name, sizeof(r->name), "%s", d->names[m]);
		r->read_ios = x.rd_ios;
		r->write_ios = x.wr_ios;
		r->read_merges = x.rd_merges;
		r->write_merges = x.wr_merges;
		r->read_sectors = x.rd_sectors;
		r->write_sectors = x.wr_sectors;
		r->read_ticks = x.rd_ticks;
		r->write_ticks = x.wr_ticks;
		r->in_queue = x.time_in_queue;
		r->io_ticks = x.io_ticks;
		r->elapsed_ms = elapsed_ms;
		r->util = elapsed_ms ? 100.0 * (double)x.io_ticks / (double)elapsed_ms : 0.0;
		if (r->util > 100.0)
			r->util = 100.0;
	}
}

void diskres_release(struct diskres *d)
{
	free(d->names);
	free(d->before);
	memset(d, 0, sizeof(*d));
}
