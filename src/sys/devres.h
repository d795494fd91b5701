/*
 * Device resolution: which block devices hold a path, for disk statistics
 * and the device guard. A path maps to the disk it is on (a partition maps
 * to its whole disk, as fio's disk stats do), and from there down the stack:
 * a loop device to the devices holding its backing file, a dm/md device to
 * its slaves. Filesystems with anonymous device numbers (btrfs, overlay) are
 * resolved through the mount table, and btrfs lists all its member devices.
 * Also small block-device queries, and the sysfs and mount-table helpers
 * the device guard (devguard.h) shares.
 */
#ifndef IOBENCH_SYS_DEVRES_H
#define IOBENCH_SYS_DEVRES_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Fill names[0..*n) with the whole-disk names (as in /proc/diskstats) under
 * path, the disk the path is on first, each once. A path that does not exist
 * yet resolves through its nearest existing parent. Returns 0 (*n may be 0:
 * tmpfs and the like sit on no block device), -ENOSPC when more than max
 * were found (the first max are filled), or -errno when path cannot be
 * examined. */
int devres_devices_for_path(const char *path, char (*names)[64], size_t max, size_t *n);
/* The nearest existing path at or above path (path itself if it exists)
 * into buf, with its stat; -errno when none can be examined. */
struct stat;
int devres_existing_ancestor(const char *path, char *buf, size_t len, struct stat *st);
/* 1 if path is a block device, 0 if it is something else, or -errno. */
int devres_is_block_device(const char *path);
/* Size in bytes of the block device open on fd (BLKGETSIZE64). */
int devres_bdev_size(int fd, uint64_t *bytes);
/* Logical block size of the block device open on fd (BLKSSZGET). */
int devres_logical_block_size(int fd, unsigned *bytes);


/* Helpers shared with the device guard (devguard.c). */

/* The resolved sysfs directory of block device number dev, e.g.
 * /sys/devices/virtual/block/loop3/loop3p1 (a partition's sits inside its
 * disk's); -ENOENT when sysfs does not know the device. */
int devres_sysdir_of_dev(dev_t dev, char real[PATH_MAX]);
/* The first line of a small (sysfs) file, without its newline. */
int devres_read_line(const char *file, char *buf, size_t len);
/* Undo the octal escapes (\040 for a space etc.) that /proc/self/mountinfo
 * and /proc/swaps use in paths, in place. */
void devres_unescape(char *s);

/* One line of /proc/self/mountinfo, split in place (pointers into it). */
struct devres_mount {
	dev_t dev;        /* field 3, MAJ:MIN (anonymous 0:N for btrfs, overlay...) */
	char *mountpoint; /* unescaped */
	char *fstype;
	char *source;     /* unescaped; a device path for block filesystems */
	char *root;       /* field 4, unescaped: the mount's root within the filesystem */
	char *options;    /* field 6: per-mount options */
	char *super_options; /* the last field: per-superblock options (may be NULL) */
};
/* Parse one mountinfo line (its newline is cut); -EINVAL if malformed. */
int devres_parse_mountinfo(char *line, struct devres_mount *m);
/* The mountinfo entry whose mount point is the longest prefix of the
 * resolved path real (later entries win ties: they are mounted on top).
 * m points into *line, which the caller frees. -ENOENT if none covers it. */
int devres_find_mount(const char *real, char **line, struct devres_mount *m);
/* The sysfs names (as in /sys/class/block) of every member of the btrfs
 * filesystem that has member `member`, from /sys/fs/btrfs/FSID/devices, in
 * name order. -ENOENT if no btrfs has that member, -ENOSPC past max. */
int devres_btrfs_members(const char *member, char (*names)[64], size_t max, size_t *n);

#endif
