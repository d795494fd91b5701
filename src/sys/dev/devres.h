/*
 * Device resolution: which block devices hold a path, for disk statistics
 * and the device guard. A path maps to the disk it is on (a partition maps
 * to its whole disk, as fio's disk stats do), and from there down the stack:
 * a loop device to the devices holding its backing file, a dm/md device to
 * its slaves. Filesystems with anonymous device numbers (btrfs, overlay) are
 * resolved through the mount table, and btrfs lists all its member devices.
 * Also small block-device queries, the table of bound loop devices and
 * what backs each, and the sysfs and mount-table helpers the device guard
 * (devguard.h) shares.
 */
#ifndef IOBENCH_SYS_DEV_DEVRES_H
#define IOBENCH_SYS_DEV_DEVRES_H

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
	int id;           /* field 1, the mount id */
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

/* A bound loop device and what backs it. The backing inode comes from the
 * LOOP_GET_STATUS64 ioctl (lo_device, lo_inode, lo_rdevice), so two loop
 * devices over one file compare equal whatever names reach it; where the
 * device node cannot be opened, from stat() of the path sysfs shows. */
struct devres_loop {
	char name[64];       /* as in /sys/block: loop6 */
	dev_t dev;           /* its device number, 7:6 */
	dev_t back_dev;      /* device of the filesystem holding the backing inode */
	uint64_t back_ino;   /* the backing inode */
	dev_t back_rdev;     /* the backing block device when the backing file is
				one (losetup /dev/loop7 /dev/sdb), else 0 */
	uint64_t offset;     /* where the loop device starts in its backing file */
	uint64_t sizelimit;  /* bytes of it used; 0 = up to its end */
	char file[PATH_MAX]; /* the backing file as sysfs names it ("(deleted)" cut) */
	int deleted;         /* sysfs says the backing file was deleted */
};
/* What backs bound loop device `name` (as in /sys/block): 0, -ENXIO when
 * it is not bound (or not a loop device), or -errno when it cannot be
 * examined. */
int devres_loop_info(const char *name, struct devres_loop *l);
/* Every bound loop device, in name order, into *loops (malloc'd, the
 * caller frees it; NULL when *n is 0). 0, or -errno when one cannot be
 * examined: its name is then in bad (if not NULL), and *loops is NULL. */
int devres_loops(struct devres_loop **loops, size_t *n, char bad[64]);

#endif
