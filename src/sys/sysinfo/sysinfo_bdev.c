/*
 * Per-block-device facts for the system capture (sysinfo.h), all from
 * /sys/class/block/NAME: identity (model, serial, size, rotational), the
 * block sizes and I/O hints, the write cache mode, the queue tunables a
 * benchmark depends on (scheduler, read_ahead_kb, nr_requests,
 * max_sectors_kb, rq_affinity, nomerges, wbt_lat_usec, iostats), and what
 * loop, md and dm devices add. The md and dm parts follow the kernel's
 * documented sysfs layout (md/level, md/chunk_size, md/raid_disks,
 * md/stripe_cache_size, dm/name, dm/uuid); there is no md or dm in the
 * test machines, so they are untested.
 */
#include "sys/sysinfo/sysinfo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "util/array.h"
#include "util/strutil.h"
#include "util/xmalloc.h"

static int64_t num_at(const char *dir, const char *rel)
{
	char file[PATH_MAX], buf[64], *end;
	long long v;

	if (snprintf(file, sizeof(file), "%s/%s", dir, rel) >= (int)sizeof(file) ||
	    devres_read_line(file, buf, sizeof(buf)))
		return SYSINFO_UNSET;
	v = strtoll(buf, &end, 10);
	return end == buf ? SYSINFO_UNSET : (int64_t)v;
}

/* A trimmed string attribute (model and vendor are blank-padded). */
static char *str_at(const char *dir, const char *rel)
{
	char file[PATH_MAX], buf[4096], *s;

	if (snprintf(file, sizeof(file), "%s/%s", dir, rel) >= (int)sizeof(file) ||
	    devres_read_line(file, buf, sizeof(buf)))
		return NULL;
	s = str_trim(buf);
	return s[0] ? xstrdup(s) : NULL;
}

static void capture_queue(struct sysinfo_bdev *b, const char *dir)
{
	static const struct { const char *name; size_t off; } nums[] = {
#define Q(f) { "queue/" #f, offsetof(struct sysinfo_bdev, f) }
		Q(rotational), Q(logical_block_size), Q(physical_block_size),
		Q(minimum_io_size), Q(optimal_io_size), Q(read_ahead_kb),
		Q(nr_requests), Q(max_sectors_kb), Q(max_hw_sectors_kb),
		Q(rq_affinity), Q(nomerges), Q(wbt_lat_usec), Q(iostats),
#undef Q
	};

	for (size_t i = 0; i < ARRAY_SIZE(nums); i++)
		*(int64_t *)((char *)b + nums[i].off) = num_at(dir, nums[i].name);
	b->write_cache = str_at(dir, "queue/write_cache");
	b->schedulers = str_at(dir, "queue/scheduler");
	/* "[mq-deadline] none"; a queue without a choice prints just "none" */
	b->scheduler = b->schedulers ? sysinfo_bracketed(b->schedulers) : NULL;
	if (b->schedulers && !b->scheduler && !strchr(b->schedulers, ' '))
		b->scheduler = xstrdup(b->schedulers);
}

void sysinfo_bdev_capture(struct sysinfo_bdev *b, const char *name)
{
	char link[PATH_MAX], dir[PATH_MAX], disk[PATH_MAX];
	int64_t sectors;

	memset(b, 0, sizeof(*b));
	b->name = xstrdup(name);
	/* every number starts unset */
	b->partition_number = b->start_sector = b->size_bytes = b->rotational = SYSINFO_UNSET;
	b->logical_block_size = b->physical_block_size = SYSINFO_UNSET;
	b->minimum_io_size = b->optimal_io_size = SYSINFO_UNSET;
	b->read_ahead_kb = b->nr_requests = b->max_sectors_kb = b->max_hw_sectors_kb = SYSINFO_UNSET;
	b->rq_affinity = b->nomerges = b->wbt_lat_usec = b->iostats = SYSINFO_UNSET;
	b->loop_offset = b->loop_dio = SYSINFO_UNSET;
	b->md_chunk_size = b->md_raid_disks = b->md_stripe_cache_size = SYSINFO_UNSET;

	snprintf(link, sizeof(link), "/sys/class/block/%s", name);
	if (!realpath(link, dir))
		return;
	b->devno = str_at(dir, "dev");
	sectors = num_at(dir, "size");
	if (sectors >= 0)
		b->size_bytes = sectors * 512;
	b->partition_number = num_at(dir, "partition");
	b->partition = b->partition_number != SYSINFO_UNSET;
	if (b->partition) {
		/* identity and queue belong to the disk, the parent directory */
		b->start_sector = num_at(dir, "start");
		snprintf(disk, sizeof(disk), "%s", dir);
		char *slash = strrchr(disk, '/');
		if (!slash)
			return;
		*slash = '\0';
	} else {
		snprintf(disk, sizeof(disk), "%s", dir);
		capture_queue(b, dir);
	}
	b->vendor = str_at(disk, "device/vendor");
	b->model = str_at(disk, "device/model");
	b->serial = str_at(disk, "device/serial");
	if (!b->serial)
		b->serial = str_at(disk, "serial"); /* virtio, nvme put it here */
	if (b->partition)
		return;
	b->loop_backing_file = str_at(dir, "loop/backing_file");
	b->loop_offset = num_at(dir, "loop/offset");
	b->loop_dio = num_at(dir, "loop/dio");
	b->md_level = str_at(dir, "md/level");
	b->md_chunk_size = num_at(dir, "md/chunk_size");
	b->md_raid_disks = num_at(dir, "md/raid_disks");
	b->md_stripe_cache_size = num_at(dir, "md/stripe_cache_size");
	b->dm_name = str_at(dir, "dm/name");
	b->dm_uuid = str_at(dir, "dm/uuid");
}

void sysinfo_bdev_release(struct sysinfo_bdev *b)
{
	char **strs[] = {
		&b->name, &b->devno, &b->vendor, &b->model, &b->serial, &b->write_cache,
		&b->scheduler, &b->schedulers, &b->loop_backing_file, &b->md_level,
		&b->dm_name, &b->dm_uuid,
	};

	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		free(*strs[i]);
	memset(b, 0, sizeof(*b));
}
