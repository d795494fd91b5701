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
 * Lines: "KIND ARG..." with each argument percent-encoded (no blanks):
 *   image PATH          remove the file
 *   mkdir PATH          remove the (empty) directory
 *   loop DEV:INO PATH   detach every loop device backed by that inode
 *   mount DIR           unmount DIR
 *   knob FILE OLD       write OLD back to FILE (sys/sysknob.h)
 *   qsnap DISK@MAJ:MIN TEXT  put the queue saved in TEXT back, in order,
 *                       under its knob lock (sweep_knobs.c)
 *   cmd COMMAND         run COMMAND with /bin/sh (a teardown template)
 *   sweep ID            sweep ID of the database beside the journal is
 *                       marked interrupted if it is still marked running
 *   undo N              entry N (0-based) is undone
 */
#ifndef IOBENCH_SWEEP_SWEEP_JOURNAL_H
#define IOBENCH_SWEEP_SWEEP_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

struct sweep_jentry {
	char *kind;
	char *a, *b; /* arguments (b may be NULL) */
	bool undone;
};

struct sweep_journal {
	char *path;
	int fd;             /* -1: not open */
	struct sweep_jentry *v;
	size_t n, alloc;
	const char *sysfs;  /* the knobs' /sys (NULL: /sys; a test's fake tree) */
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
