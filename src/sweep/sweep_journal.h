/*
 * The restore journal of a sweep: every change a sweep makes to the machine
 * (an image file or directory created, a loop device attached, a
 * filesystem mounted, a queue knob or sysctl changed with its old value, a
 * teardown command owed) is appended to it and fsync'd BEFORE the change is
 * made, and marked undone once undone. Undoing goes through the journal
 * too, newest first, so the end of a point, the end of the sweep, a signal,
 * and `iobench sweep --restore` after a crash or SIGKILL all put the
 * machine back the same way. The file sits next to the results database
 * (DB-sweep-journal), is held with flock (one sweep per database at a time),
 * and is removed once everything in it is undone.
 *
 * The journal and its folder must be owned by the user running iobench
 * and writable by nobody else (checked on the open descriptors; the
 * journal is created O_EXCL|O_NOFOLLOW, mode 0600), or nothing in it is
 * read. It never carries a command to run, and every entry proves that
 * the sweep made what it undoes: an entry without its proof, or whose
 * proof does not match the machine or the sweep's plan as the database
 * beside the journal stores it, is refused (said, naming the entry) and
 * left alone.
 *
 * Lines: "KIND ARG..." with each argument percent-encoded (no blanks):
 *   sweep ID PID        the sweep (ID in the database beside the journal,
 *                       run by process PID: its mount point is
 *                       /tmp/iobench-sweep-PID); undone: marked interrupted
 *                       if it is still marked running
 *   image PATH          remove the file: one of the stored plan's images,
 *                       with the device and inode its proof recorded
 *   mkdir PATH          remove the (empty) directory: the sweep's mount
 *                       point or one above a plan's image, with its inode
 *   loop DEV:INO PATH   detach every loop device backed by that inode
 *                       (LOOP_GET_STATUS64) whose backing file (sysfs) is
 *                       PATH, the proven image of an image entry
 *   mount DIR SOURCE    unmount DIR, the sweep's mount point, when the top
 *                       mount there is the one its proof names (mount id
 *                       and source in /proc/self/mountinfo)
 *   knob FILE OLD       write OLD back to FILE (sys/sysknob.h)
 *   teardown ID P:T     teardown template T of the stored plan of sweep
 *                       ID, expanded for point P, run with /bin/sh
 *   procs PG:START:SID CGROUP|-  a command's process group (sweep_group_int.h):
 *                       ended first of all
 *   made N PROOF        the proof of entry N, once the thing exists:
 *                       MAJ:MIN:INO of an image or directory, ID@SOURCE
 *                       of a mount
 *   qsnap DISK@MAJ:MIN TEXT  put the queue saved in TEXT back, in order,
 *                       under its knob lock (sweep_knobs.c)
 *   undo N              entry N (0-based) is undone
 * A "cmd COMMAND" line (what journals once held) is refused, never run.
 */
#ifndef IOBENCH_SWEEP_SWEEP_JOURNAL_H
#define IOBENCH_SWEEP_SWEEP_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

struct store;

struct sweep_jentry {
	char *kind;
	char *a, *b; /* arguments (b may be NULL) */
	char *proof; /* from its "made" line, or NULL */
	bool undone;
};

struct sweep_journal {
	char *path;
	int fd;             /* -1: not open */
	struct sweep_jentry *v;
	size_t n, alloc;
	const char *sysfs;  /* the knobs' /sys (NULL: /sys; a test's fake tree) */
	struct store *store;  /* the database beside it when the caller has it open
				 (a running sweep's; borrowed), else NULL: opened
				 when needed (a second connection of one process
				 to the database would drop the first one's locks) */
	struct sweep_jsweep *sw; /* the stored sweep the entries are checked against,
				    read when first needed (sweep_jproof.c) */
};

/* DB-sweep-journal for the database at db (xmalloc'ed). */
char *sweep_journal_path(const char *db);
/* Open (creating) the journal at path, locked, with what it holds already
 * read in. 0, -EBUSY (said) when another sweep holds it, or -errno. */
int sweep_journal_open(struct sweep_journal *j, const char *path);
/* Append an entry and fsync it (a journal never opened, fd -1, is a dry
 * run's: in memory only); its index in *entry (may be NULL). */
int sweep_journal_add(struct sweep_journal *j, const char *kind, const char *a, const char *b,
		      size_t *entry);
/* Record the proof of entry (a "made" line): what the thing is, now that
 * it exists. */
int sweep_journal_prove(struct sweep_journal *j, size_t entry, const char *proof);
/* Is entry e well-formed (a known kind, its arguments as the kind has
 * them; a "cmd" line never is)? 0, or -EINVAL with why. */
int sweep_journal_entry_check(const struct sweep_jentry *e, char *why, size_t whylen);
/* Mark entry done with nothing to undo (the change it announced did not
 * happen: the file to create was there already). */
int sweep_journal_forget(struct sweep_journal *j, size_t entry);
/* Undo every entry from the newest down to index mark (not undone yet),
 * marking each undone. Every entry is tried; 0, or the first -errno (each
 * failure said). */
int sweep_journal_rollback(struct sweep_journal *j, size_t mark);
/* Start the journal afresh (empty), once everything in it is undone. */
int sweep_journal_reset(struct sweep_journal *j);
/* How many entries are still to undo. */
size_t sweep_journal_pending(const struct sweep_journal *j);
/* Close; with remove (everything undone) the file is deleted. */
void sweep_journal_close(struct sweep_journal *j, bool remove);

/* `iobench sweep --restore`: undo everything the journal at path holds.
 * 0 (*had says whether there was anything), or -errno. */
int sweep_journal_restore(const char *path, bool *had);

#endif
