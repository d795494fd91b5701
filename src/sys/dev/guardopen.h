/*
 * The guarded open: THE way iobench opens anything it writes. Job files and
 * devices (layout and the engines' opens), --output, verify state files,
 * bonnie's scratch files, probe files, and every writer to come (logs, the
 * results database, reports) open through devguard_open()/devguard_openat(),
 * or, when someone else must do the open(2) itself (an I/O engine), hand the
 * descriptor to devguard_adopt() before the first byte is written.
 *
 * The check is made on the OPENED descriptor (fstat), never on a name that
 * could change between the check and the use:
 *   - read-only mode (--readonly, readonly=1) refuses every write to data
 *     under test, on any path, before anything is opened; iobench's own
 *     output (DEVGUARD_OWN) may still go to files, terminals and pipes,
 *     never to a block device;
 *   - a block device a job writes or trims goes through the device guard
 *     (devguard.h: in use, signatures, --allow-destroy) on the descriptor's
 *     device number, while the run holds it with O_EXCL (devguard_claims),
 *     so nobody can mount it or build a RAID or LVM on it meanwhile;
 *   - iobench's own output is never written to a block device, whatever
 *     --allow-destroy says;
 *   - what the caller planned (devguard_seen) must still be there: a file
 *     planned as a regular file is opened with O_NOFOLLOW (unless it was
 *     planned through a symlink) and must be a regular file, a planned
 *     device must be the same device number; anything else is refused,
 *     naming what was found instead;
 *   - a file is created only where none exists (O_CREAT|O_EXCL, which never
 *     follows a symlink), never in /dev's own filesystem (a name there that
 *     does not exist is a device that is not there, not a file to make),
 *     and truncated (O_TRUNC) only after the checks passed.
 * Every refusal returns -errno with `why` saying what was found, e.g.
 * "'/tmp/x/b' was a regular file when the job was set up and is now a
 * symbolic link to '/dev/loop3' (it is /dev/loop3: ext4 signature found,
 * label 'data')"; the caller prefixes what it was doing.
 */
#ifndef IOBENCH_SYS_DEV_GUARDOPEN_H
#define IOBENCH_SYS_DEV_GUARDOPEN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "sys/dev/devguard.h"

/* Whose bytes the caller writes. */
enum devguard_kind {
	DEVGUARD_DATA, /* data under test: a job's file or device, bonnie's files */
	DEVGUARD_OWN,  /* iobench's own output: report, state, log, database, probe */
};

/* What a planning step found at a path, for devguard_open/adopt to insist on.
 * type 0 means "did not exist": a regular file is expected. */
struct devguard_seen {
	mode_t type;   /* S_IFREG, S_IFBLK, S_IFCHR, or 0 */
	dev_t rdev;    /* S_IFBLK, S_IFCHR: the device number */
	bool symlink;  /* the name was a symlink then (it is followed, and the
			  file it reaches must still be of this type) */
};

/* Exclusive (O_EXCL) claims on the block devices a run writes, shared by
 * its jobs (a second O_EXCL open of a device fails even in the same
 * process) and counted: the claim goes when the last user releases it. */
struct devguard_claim {
	dev_t dev;
	int fd;
	unsigned refs;
};
struct devguard_made {
	dev_t dev;
	ino_t ino;
};
struct devguard_claims {
	pthread_mutex_t lock;
	struct devguard_claim *v;
	size_t n, cap;
	/* the files the run created through devguard_create_shared: a later
	 * job of the run may use one again (e4defrag's donor of several jobs);
	 * made_lock of their own (the open under it may take a claim) */
	pthread_mutex_t made_lock;
	struct devguard_made *made;
	size_t nmade, capmade;
};
void devguard_claims_init(struct devguard_claims *c);
/* Closes every claim still held. */
void devguard_claims_release(struct devguard_claims *c);
/* Take the claim on dev, the block device open on fd, or share it when it
 * is held already: 0, -EBUSY when another open holds the device
 * exclusively, or -errno. devguard_adopt/open do this for data writes. */
int devguard_claim(struct devguard_claims *c, int fd, dev_t dev);
/* Drop one use of the claim on dev (0: none; nothing happens). */
void devguard_unclaim(struct devguard_claims *c, dev_t dev);

/* How the caller uses the file. */
struct devguard_use {
	enum devguard_kind kind;
	unsigned what;                      /* DEVGUARD_WRITE | DEVGUARD_TRIM; 0: only reads */
	const struct devguard_allow *allow; /* --allow-destroy, read-only mode; NULL: none */
	const struct devguard_seen *seen;   /* NULL: no plan to insist on */
	struct devguard_claims *claims;     /* needed to write a block device */
	bool dir_checked;                   /* creating in a directory the caller made and
					       checked itself (bonnie's scratch directory):
					       the /dev rule is skipped */
};

/* A descriptor that passed. */
struct devguard_fd {
	int fd;
	struct stat st;  /* fstat of fd; for a file this open created, only
			    st_mode (S_IFREG) is set: it is new and empty */
	bool created;    /* this open created the file */
	dev_t claimed;   /* block device claimed for it (devguard_unclaim), or 0 */
};

/*
 * Open path (relative to dirfd, or AT_FDCWD) with flags (O_RDONLY/O_WRONLY/
 * O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_DIRECT, O_SYNC, O_APPEND...; O_CLOEXEC
 * is added) and check the descriptor as the top of this file says. 0 with
 * *out filled (the caller closes out->fd and, when out->claimed, unclaims),
 * or -errno with why saying why; nothing stays open then.
 */
int devguard_openat(int dirfd, const char *path, int flags, mode_t mode,
		    const struct devguard_use *u, struct devguard_fd *out, char *why, size_t whylen);
int devguard_open(const char *path, int flags, mode_t mode, const struct devguard_use *u,
		  struct devguard_fd *out, char *why, size_t whylen);

/*
 * The same checks on fd, which the caller opened from path itself (an I/O
 * engine's open_file). 0 with *out filled (out->fd is fd), or -errno with
 * why (fd is left open: the caller closes it its own way).
 */
int devguard_adopt(int fd, const char *path, const struct devguard_use *u,
		   struct devguard_fd *out, char *why, size_t whylen);

/*
 * iobench's own output file (--output, a state file, a log): devguard_open
 * as DEVGUARD_OWN writing, O_WRONLY|O_CREAT|O_TRUNC with mode 0644 (O_APPEND
 * instead of O_TRUNC when append), as a stdio stream. allow gives read-only
 * mode (NULL: none). 0 with *fp, or -errno with why.
 */
int devguard_fopen(const char *path, bool append, const struct devguard_allow *allow, FILE **fp,
		   char *why, size_t whylen);

/*
 * May a file be created at path? -ENOENT (why says it does not exist and
 * why iobench will not make it) when its directory is /dev's own filesystem
 * (devtmpfs: a missing name there is a device that is not there; /dev/shm
 * and other filesystems mounted below /dev are fine), else 0 (or -errno when
 * the directory cannot be examined: creating would fail the same way).
 */
int devguard_may_create(int dirfd, const char *path, char *why, size_t whylen);

/*
 * Create path (O_CREAT|O_EXCL with flags and mode, through devguard_open
 * with u) as a file of the run's own, or open it when the run created it
 * before (its inode is in c's list: jobs of one run that share a donor);
 * one that exists otherwise is somebody's: -EEXIST, why says so. c NULL:
 * only a new file will do. 0 with *out (out->created says which), or
 * -errno with why.
 */
int devguard_create_shared(struct devguard_claims *c, const char *path, int flags, mode_t mode,
			   const struct devguard_use *u, struct devguard_fd *out, char *why,
			   size_t whylen);

/*
 * Remove path (relative to dirfd, or AT_FDCWD), a file this run created,
 * only when the name still reaches the inode made describes (fstat of the
 * descriptor the O_CREAT|O_EXCL open returned): 0, -ESTALE when the name
 * is now another file or no regular file (left alone), or -errno; why
 * says what was found. Every removal of a file iobench made goes here.
 */
int devguard_unlink_created(int dirfd, const char *path, const struct stat *made, char *why,
			    size_t whylen);

#endif
