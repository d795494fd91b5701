/*
 * The knob lock: one iobench at a time turns the knobs of a device (a
 * sweep, run --ioscheduler=), whatever database it writes to, so the
 * second never saves the first one's value as the original. The lock is
 * flock(LOCK_EX|LOCK_NB) on /run/iobench/knobs-KEY.lock, KEY the queue's
 * device number (MAJ:MIN) or "vm" for the vm sysctls, with the holder's
 * pid written inside; the kernel drops it when the holder dies, so a lock
 * file a dead pid left blocks nothing (the next holder writes its own pid).
 * A holder that is this process or one of its ancestors (the sweep whose
 * workload is this run) lets it through: the outer one restores last.
 * /run/iobench must be root's (the user's running iobench) and writable by
 * no one else.
 */
#ifndef IOBENCH_SYS_SYSKNOB_LOCK_H
#define IOBENCH_SYS_SYSKNOB_LOCK_H

#include <stddef.h>

struct sysknob_lock {
	int fd;       /* -1: not held (none taken, or an ancestor holds it) */
	char key[32];
};

/* Where the lock files are: /run/iobench, or SYSFS/iobench-locks for a
 * test's fake sysfs tree (sysfs non-NULL), into dir[PATH_MAX]. */
void sysknob_lock_dir(const char *sysfs, char *dir, size_t len);
/* Take the lock KEY in dir (made if missing) for what (a disk's name or
 * "the vm sysctls", for messages). 0 (l->fd -1 when an ancestor holds it),
 * -EBUSY with why naming what, the holder's pid and the lock file, or
 * -errno with why. */
int sysknob_lock_take(const char *dir, const char *key, const char *what, struct sysknob_lock *l,
		      char *why, size_t whylen);
/* The same for the queue of disk (its device number from
 * SYSFS/block/DISK/dev, sysfs NULL: /sys). */
int sysknob_lock_disk(const char *sysfs, const char *disk, struct sysknob_lock *l, char *why,
		      size_t whylen);
/* Drop it (nothing when not held). */
void sysknob_lock_release(struct sysknob_lock *l);

#endif
