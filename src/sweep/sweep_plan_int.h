/*
 * A sweep plan (`iobench sweep PLAN`): an INI file read with the job-file
 * lexer (jobfile/), so every error is "FILE:LINE:COL: error: ...":
 *
 *   [target]    image = PATH (repeatable: several devices), image_size =,
 *               direct_io = 1; or device = /dev/X (repeatable; each must be
 *               named by --allow-destroy); or dir = an existing mounted
 *               directory (knob factors only); fs = the filesystem when no
 *               factor names it; mkfs.FS = and mount = options every
 *               point uses (before the factors' own)
 *   [factors]   NAME = LEVEL | LEVEL ...: fs, mkfs.FS, mount, mount.FS,
 *               scheduler, the queue knobs, iosched/NAME, vm.NAME,
 *               md.NAME (an md target's /sys/block/mdN/md/NAME that
 *               changes at run time; refused on image targets here, on
 *               devices that are no md array by sweep_target_check),
 *               btrfs.data, btrfs.metadata, job.OPTION (a fio job option
 *               set on every job: --set OPTION=LEVEL), and any other name
 *               that a setup or teardown template uses as {NAME};
 *               setup = / teardown = shell command templates (repeatable)
 *   [workload]  job = FILE (repeatable, one `iobench run` of all of them),
 *               bonnie = ARGS (repeatable, one `iobench bonnie` each),
 *               quick = [ARGS], command = SHELL (the rest of the line as
 *               written: its ; and # are the shell's; a shell command run
 *               in the mount directory and timed, sweep_command.c; with
 *               {mnt}, {dev}, {devs}, {fs}, {FACTOR} as the templates),
 *               repeat = N | auto[:W%] (command: N only),
 *               drop_caches = all | target | none (before each workload:
 *               the machine's page cache, default; or only the target
 *               filesystem's files and devices, sys/dropcache.h, for a
 *               shared machine; or nothing)
 *   [design]    type = full | ofat | lhs:N | race, goal = FIGURE
 *               (sweep_goal.h; race needs one), seed = N, and for race
 *               min_repeat = (default 3) and max_repeat = (default 10)
 *
 * Everything the plan says is checked here, before anything is touched.
 */
#ifndef IOBENCH_SWEEP_SWEEP_PLAN_INT_H
#define IOBENCH_SWEEP_SWEEP_PLAN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sweep_fkind {
	SWF_FS,          /* the filesystem made on the target */
	SWF_MKFS,        /* mkfs.FS options (fsname) */
	SWF_MOUNT,       /* mount options, for every fs or for fsname */
	SWF_SCHED,       /* the queue's I/O scheduler */
	SWF_QUEUE,       /* a queue knob: read_ahead_kb, iosched/NAME, ... */
	SWF_VM,          /* a vm sysctl */
	SWF_MD,          /* an md array's run-time knob: md.stripe_cache_size, ... */
	SWF_BTRFS_DATA,  /* mkfs.btrfs -d PROFILE over the target devices */
	SWF_BTRFS_META,  /* mkfs.btrfs -m PROFILE */
	SWF_JOBOPT,      /* job.OPTION: --set OPTION=LEVEL */
	SWF_PARAM,       /* used only by the setup/teardown templates */
};

struct sweep_factor {
	char *name;       /* as the labels name it ("iosched.fifo_batch" for iosched/fifo_batch) */
	char *knob;       /* the knob itself: "read_ahead_kb", "iosched/fifo_batch",
			     "vm.dirty_ratio", the option of job.OPTION */
	enum sweep_fkind kind;
	char *fsname;     /* applies only to points of this fs (mkfs.xfs, mount.xfs,
			     btrfs.*), or NULL */
	char **levels;
	size_t nr_levels;
	unsigned line, col; /* where the plan names it */
};

/* A text of the plan that reaches a program as its operands (a factor's
 * level, a setup or teardown template, the command, bonnie's and quick's
 * arguments, the fixed mkfs and mount options), where it starts, for the
 * check that none names a block device but the sweep's own
 * (sweep_operands_int.h). */
struct sweep_plan_text {
	char *text;
	char *what;         /* "factor 'mkfs.btrfs'", "a setup template" ... */
	unsigned line, col;
	bool shell;         /* a shell command line ({FACTOR}s expanded) */
};

enum sweep_target_kind { SWT_NONE, SWT_IMAGE, SWT_DEVICE, SWT_DIR };

enum sweep_design_kind { SWD_FULL, SWD_OFAT, SWD_LHS, SWD_RACE };

enum sweep_workload_kind { SWW_NONE, SWW_JOB, SWW_BONNIE, SWW_QUICK, SWW_COMMAND };

/* What is dropped from the page cache before each workload. */
enum sweep_drop { SWDROP_ALL, SWDROP_TARGET, SWDROP_NONE };

struct sweep_plan {
	char *path;        /* as given */
	char *text;        /* the file's text */
	size_t text_len;
	/* [target] */
	enum sweep_target_kind target;
	char **paths;      /* images or devices (absolute), or the directory */
	size_t nr_paths;
	uint64_t image_size;
	bool direct_io;
	char *fs;          /* fs = in [target], or NULL */
	char **fixed_mkfs; /* [target] mkfs.FS = OPTS: "FS\tOPTS" */
	size_t nr_fixed_mkfs;
	char *fixed_mount; /* [target] mount = OPTS, or NULL */
	/* [factors] */
	struct sweep_factor *factors;
	size_t nr_factors;
	char **setup, **teardown; /* templates */
	size_t nr_setup, nr_teardown;
	/* [workload] */
	enum sweep_workload_kind workload;
	char **jobs;       /* absolute job file paths */
	size_t nr_jobs;
	char **bonnie;     /* argument lines */
	size_t nr_bonnie;
	char *quick;       /* quick's arguments ("" for none) */
	char *command;     /* a shell command template ({mnt}, {dev}, {FACTOR}), or NULL */
	char *repeat;      /* as --repeat takes it, or NULL */
	enum sweep_drop drop; /* drop_caches = all (default) | target | none */
	/* [design] */
	enum sweep_design_kind design;
	unsigned lhs_n;
	char *design_text; /* "full", "lhs:8" */
	char *goal;        /* as written (checked by sweep_goal_parse), or NULL */
	unsigned race_min, race_max; /* race: the runs per point before a drop, at most */
	uint64_t seed;
	bool seed_given;
	struct sweep_plan_text *texts; /* what reaches programs, in plan order */
	size_t nr_texts;
};

/* Parse the plan text (name for messages and relative paths). 0, or
 * -EINVAL after printing every problem as file:line:col. */
int sweep_plan_parse(const char *name, const char *text, size_t len, struct sweep_plan *p);
/* Read and parse the plan file path. */
int sweep_plan_load(const char *path, struct sweep_plan *p);
void sweep_plan_release(struct sweep_plan *p);

/* Index of the factor of kind k (the first), or -1. */
int sweep_plan_find(const struct sweep_plan *p, enum sweep_fkind k);

#endif
