/*
 * What sweep_journal.c and sweep_jproof.c share: undoing the entries that
 * must prove the sweep made what they undo (image, mkdir, loop, mount,
 * teardown), checked against the machine and the sweep's stored plan.
 */
#ifndef IOBENCH_SWEEP_SWEEP_JOURNAL_INT_H
#define IOBENCH_SWEEP_SWEEP_JOURNAL_INT_H

#include <stddef.h>

#include "sweep/sweep_journal.h"

/* Undo entry i (one of the kinds above). 0 done (or nothing was left to
 * undo), -1 with why: refused (not proven the sweep's) or failed. */
int sweep_jproof_undo(struct sweep_journal *j, size_t i, char *why, size_t whylen);
/* The command teardown entry i runs, re-derived from the stored plan
 * (xmalloc'ed), or NULL with why. */
char *sweep_jproof_teardown(struct sweep_journal *j, size_t i, char *why, size_t whylen);
void sweep_jsweep_free(struct sweep_jsweep *sw);
/* The proof of a mount the sweep just made at dir: "ID@SOURCE" of the top
 * mount there (mountinfo); 0, or -ENOENT when nothing is mounted there. */
int sweep_mount_proof(const char *dir, char *proof, size_t len);

#endif
