/*
 * The whole writable state of a block queue, to put back what a change
 * made the kernel change beside it (writing max_sectors_kb, rotational,
 * write_cache and other limits resets read_ahead_kb; a scheduler switch
 * resets nr_requests and every iosched/ value; nr_requests resets
 * mq-deadline's async_depth). A snapshot holds every regular file of
 * SYSFS/block/DISK/queue/ and queue/iosched/ that has a write bit and can
 * be read; the read-only ones and those that cannot be read (write-only)
 * are left out and listed. The restore writes back only the values that
 * differ now, in the order that makes them stick (the scheduler, then
 * nr_requests, then the iosched/ knobs, then max_sectors_kb, then the
 * rest, read_ahead_kb last), goes round again while a later write undid
 * an earlier one, then reads every value back and says which did not
 * stick and why. So a knob the kernel refuses at its own value (io_poll,
 * discard_max_bytes: EINVAL) is never written unless it changed.
 */
#ifndef IOBENCH_SYS_SYSKNOB_SNAP_H
#define IOBENCH_SYS_SYSKNOB_SNAP_H

#include <stddef.h>

struct sysknob_val {
	char *name; /* "read_ahead_kb", "iosched/fifo_batch" */
	char *val;  /* as read (the scheduler: the one in use) */
};

struct sysknob_snap {
	char disk[64];        /* the queue's disk: "loop3" */
	unsigned major, minor; /* its device number when taken */
	struct sysknob_val *v;
	size_t n;
	char *excluded;       /* take only: what was left out and why (NULL: nothing) */
};

/* Read the queue of disk (under sysfs; NULL: /sys) into s: 0, or -errno
 * with why (no such disk, no queue/). */
int sysknob_snap_take(const char *sysfs, const char *disk, struct sysknob_snap *s, char *why,
		      size_t whylen);
/* "DISK@MAJ:MIN" and "NAME=VALUE\n..." (xmalloc'ed): what a journal keeps. */
char *sysknob_snap_id(const struct sysknob_snap *s);
char *sysknob_snap_text(const struct sysknob_snap *s);
/* The snapshot an id and a text give (as written by the two above): 0,
 * or -EINVAL with why (a bad id, a knob name outside queue/). */
int sysknob_snap_parse(const char *id, const char *text, struct sysknob_snap *s, char *why,
		       size_t whylen);
/* Put s back as the top of this file says. 0 when every value reads as in
 * the snapshot (or the disk is gone, and its knobs with it); -ESTALE when
 * the disk's name now has another device number (nothing written); -EIO
 * when some value did not stick. *report (xmalloc'ed, NULL when all is
 * well) names each knob that did not stick with what it reads, what the
 * snapshot holds and why. */
int sysknob_snap_restore(const char *sysfs, const struct sysknob_snap *s, char **report);
/* The same with w writing each value instead of sysknob_write_in (a
 * test's model of the kernel's side effects). */
typedef int sysknob_writer(void *arg, const char *sysfs, const char *file, const char *val,
			   char *why, size_t whylen);
int sysknob_snap_restore_by(const char *sysfs, const struct sysknob_snap *s, sysknob_writer *w,
			    void *arg, char **report);
/* The order class of a knob name in the restore (0 first). */
int sysknob_snap_order(const char *name);
void sysknob_snap_release(struct sysknob_snap *s);

#endif
