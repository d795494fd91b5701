/*
 * The device guard: the one check every path that writes, trims or formats
 * (run, quick, bonnie) makes before touching a file, so iobench never
 * destroys data the user did not explicitly offer.
 *
 * For a path that resolves (through symlinks such as /dev/disk/by-id/...) to
 * a block device it refuses when the device, a partition of it, or (for a
 * partition) its whole disk
 *   - is in use: mounted (matched by device number in /proc/self/mountinfo,
 *     never by name), used as swap (/proc/swaps), held by another device
 *     (/sys/class/block/X/holders: md, dm, LVM; followed recursively to say
 *     whether the holder is mounted), holding the filesystem of a loop
 *     device's backing file or of a file mounted itself (erofs), or busy
 *     for an exclusive open;
 *   - or shares its storage with a device in use: a loop device over it,
 *     another loop device over the same backing inode (any offset), the
 *     block device a loop device is backed by (each examined by these same
 *     rules, recursively), or, for a loop device, an active swap file or
 *     a mounted file backing it;
 *   - or carries data: a filesystem, RAID, LVM, swap or partition-table
 *     signature (libblkid safe probing of the device and its partitions).
 * Data can be offered for destruction with --allow-destroy=DEVICE naming
 * that exact device (compared by device number after resolving symlinks; a
 * partition's disk or another device does not count). A device in use is
 * refused even then: unmount it, swapoff it or remove its holder first.
 * Read-only mode (--readonly, readonly=1) refuses every write, trim and
 * format on any path. Regular files (and anything else that is not a block
 * device, or does not exist yet) pass otherwise.
 *
 * This checks a path at one moment. Whatever iobench then opens to write
 * goes through devguard_open() (sys/dev/guardopen.h), which checks the opened
 * descriptor itself, so nothing can be swapped in between.
 */
#ifndef IOBENCH_SYS_DEV_DEVGUARD_H
#define IOBENCH_SYS_DEV_DEVGUARD_H

#include <stdbool.h>
#include <stddef.h>

/* What the caller is about to do; OR them together. 0 (a read) always passes. */
#define DEVGUARD_WRITE  0x1u
#define DEVGUARD_TRIM   0x2u
#define DEVGUARD_FORMAT 0x4u
/* Only say what is on the device and how it is used ("it is /dev/loop3:
 * ext4 signature found, label 'x'"), for messages about a device found
 * where it was not expected: returns 1 when something was found, 0 when
 * not ("no signature found, not in use"), never a refusal. */
#define DEVGUARD_DESCRIBE 0x8u

/* What the user allowed, from the command line. Zeroed = nothing allowed. */
struct devguard_allow {
	const char *const *devices; /* --allow-destroy=DEVICE values, as given */
	size_t nr_devices;
	const char *readonly_by;    /* non-NULL: read-only mode, set by this
				       (e.g. "--readonly", "readonly=1") */
};

/*
 * May the caller do `what` to path? Returns
 *    0        yes (not a block device, or an unused device without data, or
 *             one with data that allow names);
 *   -EROFS    no: read-only mode (any path);
 *   -EBUSY    no: the device (or a partition, its disk, a holder, a device
 *             sharing its storage) is in use; --allow-destroy does not
 *             change this;
 *   -EPERM    no: it carries a signature and allow does not name it;
 *   -errno    no: the check itself failed (fail closed).
 * On every refusal `why` holds the whole reason, naming the device, each
 * thing found and the remedy, e.g. "/dev/loop3: partition /dev/loop3p1 is
 * mounted at /mnt/x; ..." or "/dev/loop3: ext4 signature found, label
 * 'data'; to destroy it anyway, add --allow-destroy=/dev/loop3". The caller
 * prefixes what it was doing: "job 'a': refusing to write to 'PATH': WHY".
 */
int devguard_check(const char *path, unsigned what, const struct devguard_allow *allow,
		   char *why, size_t whylen);

/* devguard_check() on the block device open on fd (the descriptor's own
 * inode, whatever its name has become): passes when fd is not a block
 * device. excl_held: the caller holds the device with O_EXCL, so the
 * "busy for an exclusive open" probe is skipped (it would find the
 * caller). path is what the caller named, for the messages. Opening files
 * to write them goes through devguard_open() (sys/dev/guardopen.h), which calls
 * this on the descriptor it opened. */
int devguard_check_fd(int fd, const char *path, unsigned what, const struct devguard_allow *allow,
		      bool excl_held, char *why, size_t whylen);

/* Each --allow-destroy value must name an existing block device: 0, or
 * -ENOENT/-ENOTBLK with `why` naming the bad value. */
int devguard_allow_validate(const struct devguard_allow *allow, char *why, size_t whylen);

/* "write to", "trim", "format" (the strongest of what), for messages. */
const char *devguard_verb(unsigned what);

#endif
