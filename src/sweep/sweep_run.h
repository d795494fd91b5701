/*
 * Running a sweep (`iobench sweep PLAN`): check the plan's targets with
 * the device guard before anything changes, restore what an earlier sweep
 * left (its journal), make and attach the image files, then for each point
 * of the design in order: set it up (setup templates, mkfs, mount, the
 * queue knobs and sysctls), drop the page cache, run the workload as this
 * binary in a child (`iobench run|bonnie|quick --label FACTOR=LEVEL ...`,
 * the sweep's id and the point's labels in IOBENCH_SWEEP_ID and
 * IOBENCH_SWEEP_POINT, which the child's store honours), and tear it down
 * through the journal. A point that fails is recorded with its message
 * and the sweep goes on. --dry-run prints every step instead, changing
 * nothing; --resume continues a stored sweep.
 */
#ifndef IOBENCH_SWEEP_SWEEP_RUN_H
#define IOBENCH_SWEEP_SWEEP_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"
#include "sys/dev/devguard.h"

struct sweep_opts {
	const char *plan_path;          /* NULL with resume_id */
	const char *db;                 /* the results database's path */
	struct store *store;            /* NULL: none (--dry-run only) */
	const struct devguard_allow *allow; /* --allow-destroy */
	bool dry_run;
	int64_t resume_id;              /* > 0: --resume */
	FILE *out;                      /* --dry-run's listing, the analysis */
	/* the analysis of the sweep once it is over (`sweep report`'s, which
	 * lives above this layer), or NULL: 0, or -1 after printing why; nf 0:
	 * the factors the points name */
	int (*analyse)(struct store *st, int64_t sweep_id, const char *goal,
		       const char *const *factors, size_t nf, FILE *out);
};

/* The sweep; returns the exit status (0 all points done, 1 a point failed
 * or the sweep could not run, 128+N stopped by signal N). */
int sweep_run(const struct sweep_opts *o);
/* `iobench sweep --restore`: undo what the journal next to db holds.
 * Returns the exit status. */
int sweep_restore(const char *db, FILE *out);

#endif
