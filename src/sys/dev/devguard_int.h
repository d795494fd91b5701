/*
 * What the device guard's files share (devguard.c, devguard_findings.c,
 * devguard_topo.c, devguard_inuse.c), private to src/sys/dev/: a device
 * and its relatives (members), the message being built from findings, the
 * kinds of use with their remedies, the sysfs and mount-table lookups and
 * the in-use scan. Nothing outside src/sys/dev/ includes it.
 */
#ifndef IOBENCH_SYS_DEV_DEVGUARD_INT_H
#define IOBENCH_SYS_DEV_DEVGUARD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define MAX_MEMBERS 128
#define MAX_HOLDER_DEPTH 8
#define MAX_RELATED_DEPTH 8 /* loop over loop over ... */
#define MAX_SEEN 256
#define RELLEN 1024         /* one finding's chain of relations */

/* The device and its relatives. */
struct member {
	dev_t dev;
	char name[64];    /* as in /sys/class/block: loop3, loop3p1 */
	const char *role; /* "" (the device itself), "partition ", "whole disk " */
};

/* The message being built: findings separated by "; ". */
struct findings {
	char *buf;
	size_t len, used;
	unsigned in_use, data;
	unsigned uses; /* USE_* kinds found, for the remedy */
	bool excl_held; /* the caller holds the device open with O_EXCL: no probe of it */
};

/* Append a finding ("; " before it), continue the last one, or write a
 * whole message to why (any of them truncates rather than overflows). */
void dg_add(struct findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dg_cont(struct findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dg_say(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Kinds of use, each with its remedy (in the order the message lists them). */
enum {
	USE_MOUNTED = 1u << 0,
	USE_SWAP = 1u << 1,
	USE_HELD = 1u << 2,
	USE_LOOPS = 1u << 3,
	USE_SWAPFILE = 1u << 4,
	USE_FILEMOUNTS = 1u << 5,
	USE_FILEMOUNT = 1u << 6,
	USE_SHARED = 1u << 7,
	USE_BUSY = 1u << 8,
};

/* Count a use found on the device (kind) or on a device that shares its
 * storage (related: the remedy is then about that device). */
void dg_used(struct findings *f, bool related, unsigned kind);
/* The remedies of the kinds of use in uses, ", "-separated, into out. */
void dg_remedies(unsigned uses, char *out, size_t len);

/* The device number in a sysfs "dev" file ("MAJ:MIN"): 0 or -ENOENT. */
int dg_sysfs_dev(const char *dir, dev_t *dev);
/* The device (sysfs directory sysdir) first, then its partitions, or the
 * disk it is a partition of, into m[0..*n) (at most MAX_MEMBERS). */
int dg_collect_members(const char *sysdir, dev_t dev, struct member *m, size_t *n);
/* Block device number behind a mount source or swap path, or 0. */
dev_t dg_bdev_of_path(const char *p);
/* Where dev is mounted (its first mount) into mnt: 1 found, 0 not, -errno. */
int dg_mount_of(dev_t dev, char *mnt, size_t len);
/* Is dev an active swap area? 1, 0 or -errno. */
int dg_swap_of(dev_t dev);
/* " (vg-data)" for a device-mapper device, "" otherwise. */
void dg_dm_name(const char *name, char *out, size_t len);
/* Append how device `name` (number dev) is used (mounted, swap, held by
 * a holder, and what holds that) to the last finding. */
void dg_describe_holder_use(struct findings *f, const char *name, dev_t dev, int depth);

/* Is the device (real, members m[0..n)) in use, by itself or through a
 * device that shares its storage? 0 with the findings in f, or -errno
 * with err saying what could not be examined. */
int dg_check_in_use(struct findings *f, const char *real, const struct member *m, size_t n,
		    char *err, size_t errlen);

#endif
