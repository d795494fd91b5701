/*
 * Device resolution: which block devices hold a path, for disk statistics
 * and the device guard. A path maps to the disk it is on (a partition maps
 * to its whole disk, as fio's disk stats do), and from there down the stack:
 * a loop device to the devices holding its backing file, a dm/md device to
 * its slaves. Filesystems with anonymous device numbers (btrfs, overlay) are
 * resolved through the mount table, and btrfs lists all its member devices.
 * Also small block-device queries.
 */
#ifndef IOBENCH_SYS_DEVRES_H
#define IOBENCH_SYS_DEVRES_H

#include <stddef.h>
#include <stdint.h>

/* Fill names[0..*n) with the whole-disk names (as in /proc/diskstats) under
 * path, the disk the path is on first, each once. A path that does not exist
 * yet resolves through its nearest existing parent. Returns 0 (*n may be 0:
 * tmpfs and the like sit on no block device), -ENOSPC when more than max
 * were found (the first max are filled), or -errno when path cannot be
 * examined. */
int devres_devices_for_path(const char *path, char (*names)[64], size_t max, size_t *n);
/* 1 if path is a block device, 0 if it is something else, or -errno. */
int devres_is_block_device(const char *path);
/* Size in bytes of the block device open on fd (BLKGETSIZE64). */
int devres_bdev_size(int fd, uint64_t *bytes);
/* Logical block size of the block device open on fd (BLKSSZGET). */
int devres_logical_block_size(int fd, unsigned *bytes);

#endif
