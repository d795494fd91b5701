/*
 * btrfs facts for the system capture (sysinfo.h) through its ioctls on the
 * mount point, none of which needs privileges: BTRFS_IOC_FS_INFO (UUID,
 * device count, node and sector size), BTRFS_IOC_DEV_INFO for each devid
 * (what `btrfs filesystem show` lists), BTRFS_IOC_SPACE_INFO (what
 * `btrfs filesystem df` lists: type, profile, total, used) and the label.
 */
#include "sys/sysinfo/sysinfo.h"

#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/xmalloc.h"

static char *uuid_str(const unsigned char u[16])
{
	return xasprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
			 u[12], u[13], u[14], u[15]);
}

static void capture_devs(int fd, struct sysinfo_btrfs *b, uint64_t max_id)
{
	size_t alloc = 0;

	/* devids can have holes after a device was removed */
	for (uint64_t id = 1; id <= max_id && b->nr_devs < 1024; id++) {
		struct btrfs_ioctl_dev_info_args d;
		memset(&d, 0, sizeof(d));
		d.devid = id;
		if (ioctl(fd, BTRFS_IOC_DEV_INFO, &d))
			continue;
		b->devs = xgrow(b->devs, &alloc, b->nr_devs, sizeof(*b->devs));
		struct sysinfo_btrfs_dev *dev = &b->devs[b->nr_devs++];
		dev->devid = (int64_t)d.devid;
		dev->size_bytes = (int64_t)d.total_bytes;
		dev->used_bytes = (int64_t)d.bytes_used;
		d.path[sizeof(d.path) - 1] = 0;
		dev->path = d.path[0] ? xstrdup((char *)d.path) : NULL;
	}
}

static void capture_spaces(int fd, struct sysinfo_btrfs *b)
{
	struct btrfs_ioctl_space_args probe = { 0 }, *args;

	/* first ask how many, then fetch them */
	if (ioctl(fd, BTRFS_IOC_SPACE_INFO, &probe) || !probe.total_spaces || probe.total_spaces > 256)
		return;
	args = xcalloc(1, sizeof(*args) + probe.total_spaces * sizeof(args->spaces[0]));
	args->space_slots = probe.total_spaces;
	if (!ioctl(fd, BTRFS_IOC_SPACE_INFO, args)) {
		uint64_t n = args->total_spaces < args->space_slots ? args->total_spaces : args->space_slots;
		b->spaces = xcalloc(n ? n : 1, sizeof(*b->spaces));
		for (uint64_t i = 0; i < n; i++) {
			struct sysinfo_btrfs_space *s = &b->spaces[b->nr_spaces++];
			s->type = xstrdup(sysinfo_btrfs_space_type(args->spaces[i].flags));
			s->profile = xstrdup(sysinfo_btrfs_profile(args->spaces[i].flags));
			s->total_bytes = (int64_t)args->spaces[i].total_bytes;
			s->used_bytes = (int64_t)args->spaces[i].used_bytes;
		}
	}
	free(args);
}

void sysinfo_btrfs_capture(struct sysinfo_fs *fs)
{
	struct btrfs_ioctl_fs_info_args info;
	char label[FSLABEL_MAX + 1];
	int fd = open(fs->mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &info)) {
		close(fd);
		return;
	}
	struct sysinfo_btrfs *b = xcalloc(1, sizeof(*b));
	b->uuid = uuid_str(info.fsid);
	b->num_devices = (int64_t)info.num_devices;
	b->nodesize = info.nodesize;
	b->sectorsize = info.sectorsize;
	memset(label, 0, sizeof(label));
	if (!ioctl(fd, BTRFS_IOC_GET_FSLABEL, label) && label[0])
		b->label = xstrndup(label, FSLABEL_MAX);
	capture_devs(fd, b, info.max_id);
	capture_spaces(fd, b);
	close(fd);
	fs->btrfs = b;
}
