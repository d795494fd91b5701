/*
 * What the files of a running sweep share (sweep_run.c, sweep_target.c,
 * sweep_point.c): the context and the steps. Every step that changes the
 * machine goes through the journal first; with dry set it only prints what
 * it would do.
 */
#ifndef IOBENCH_SWEEP_SWEEP_INT_H
#define IOBENCH_SWEEP_SWEEP_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "sweep/sweep_design_int.h"
#include "sweep/sweep_journal.h"
#include "sweep/sweep_plan_int.h"
#include "sweep/sweep_run.h"
#include "sys/sysknob_lock.h"
#include "sys/sysknob_snap.h"

struct sweep_ctx {
	const struct sweep_opts *o;
	const struct sweep_plan *p;
	const struct sweep_points *pts;
	struct sweep_journal j;
	bool dry;
	FILE *out;                 /* the dry run's listing */
	char **devs;               /* the target's block devices (/dev/loop3 ...) */
	size_t ndev;
	char **disks;              /* their whole disks' names, for queue knobs */
	size_t ndisk;
	char *mnt;                 /* where the workload runs */
	const char **allow_v;      /* --allow-destroy and the loop devices made here */
	size_t nr_allow;
	struct devguard_allow allow;
	int64_t sweep_id;
	char *exe;                 /* this binary */
	volatile sig_atomic_t *stop;
	struct sysknob_lock *locks; /* the knob locks held (sweep_knobs.c) */
	size_t nlock;
	struct sysknob_snap *snaps; /* the target queues as they were */
	size_t nsnap;
};

/* sweep_target.c: check the targets (nothing changes): what the plan and
 * the command line say (each device a block device named by
 * --allow-destroy, the directory there), and with state what the machine
 * says (the device guard: not in use; no image there yet), which an
 * earlier sweep's restore may change. */
int sweep_target_check(struct sweep_ctx *c, bool state);
/* Create the images and attach them, make the mount point; fill devs, disks, mnt. */
int sweep_target_setup(struct sweep_ctx *c);

/* sweep_point.c: set point i up, run its workload, tear it down. 0 done,
 * or -1 with the reason in why (the point failed). */
int sweep_point_run(struct sweep_ctx *c, size_t i, char *why, size_t whylen);

/* Drop the page cache before a workload, as the plan's drop_caches says
 * (or print it in a dry run); a failure is a warning. */
void sweep_drop_caches(struct sweep_ctx *c);

/* sweep_command.c: the command = workload of point i, its repetitions
 * stored as runs: 0, or -1 with why (the command failed: its status). */
int sweep_command_point(struct sweep_ctx *c, size_t i, char *why, size_t whylen);

/* A template with {FACTOR}, {dev}, {devs}, {mnt} and {fs} replaced
 * (xmalloc'ed). */
char *sweep_expand(const struct sweep_ctx *c, size_t i, const char *t);

/* sweep_racing.c: the race design's rounds over the points (stored as
 * they end). 0, or -1 when stopped or the goal is bad. */
int sweep_race_run(struct sweep_ctx *c, size_t *done, size_t *failed);

/* sweep_knobs.c: before the first change, lock the knobs of every target
 * queue (and the vm sysctls when the plan turns one) per device, save each
 * queue whole and journal it: 0, or -1 said (another iobench holds one). */
int sweep_knobs_begin(struct sweep_ctx *c);
/* Put every saved queue back and check it: 0, or -1 with each knob that
 * did not stick said (as errors when final, else as warnings). */
int sweep_knobs_restore(struct sweep_ctx *c, bool final);
/* Drop the locks and the snapshots. */
void sweep_knobs_end(struct sweep_ctx *c);
/* The journal's "qsnap ID TEXT" entry undone (sweep --restore): the lock
 * taken, the queue put back, what did not stick said. 0, or -errno (the
 * queue is another iobench's now: the entry stays). */
int sweep_knobs_undo(const char *sysfs, const char *id, const char *text);
/* The journal's "knob FILE OLD" entry undone: OLD written back under the
 * lock of FILE's device (a queue or md knob) or the vm lock. 0, or -errno
 * said (another iobench holds it now: the entry stays). */
int sweep_knobs_undo_knob(const char *sysfs, const char *file, const char *old);

/* A knob change: journaled old value, then the write (or the dry line). */
int sweep_set_knob(struct sweep_ctx *c, const char *file, const char *value, char *why,
		   size_t whylen);
/* Run argv (or print it in a dry run): 0, or -1 with why. */
int sweep_step_exec(struct sweep_ctx *c, char *const *argv, const char *what, char *why,
		    size_t whylen);

#endif
