/*
 * Signatures on a block device, from libblkid: filesystems, RAID and LVM
 * members, swap, encrypted volumes and partition tables, described in words
 * for the device guard's messages ("ext4 signature found, label 'data'",
 * "partition table (dos) found").
 */
#ifndef IOBENCH_SYS_DEV_DEVSIG_INT_H
#define IOBENCH_SYS_DEV_DEVSIG_INT_H

#include <stddef.h>

/*
 * Probe the block device at path (superblocks and partition tables, with
 * libblkid's safe probing; conflicting signatures are listed one by one).
 * Writes a description of everything found to out, items separated by
 * "; ". Returns how many signatures were found (0: none, out is empty), or
 * -errno when the device cannot be probed.
 */
int devsig_describe(const char *path, char *out, size_t outlen);

#endif
