/*
 * The metadata workload (mdtest's phases), independent of MPI: one
 * process's share of a run in which nranks processes (MPI ranks, or just
 * one) create, stat, read and remove directories and files in a tree, with
 * mdtest 4.1's names and counts, so that its runs and iobench's can be
 * compared item for item:
 *   test dir  DIR/test-dir.<iteration>-0 (made by rank 0, removed at the end);
 *   tree      -z depth, -b branching: directories numbered breadth first, 0
 *             the root, the children of n being b·n+1 .. b·n+b; the root is
 *             mdtest_tree.0 (one shared tree, made by rank 0) or, with -u,
 *             mdtest_tree.<rank>.0 (each rank its own), and directory n > 0
 *             is <base>.<n> inside its parent, base being mdtest_tree or
 *             mdtest_tree.<rank>;
 *   items     -n per rank in all, spread evenly over the tree's directories
 *             (-n / directories each, -n rounded down to a multiple), or -I
 *             per directory; -L puts them only in the leaves; item i lives
 *             in directory i / per_dir (plus the skipped inner directories
 *             with -L) and is called file.mdtest.<rank>.<i> or
 *             dir.mdtest.<rank>.<i>;
 *   phases    tree creation, directory create/stat/remove (-D, or neither
 *             -D nor -F), file create (O_CREAT, -w bytes written, -y fsync),
 *             stat, read (open, -e bytes read, close), remove, tree
 *             removal; -C/-T/-E/-r choose among create/stat/read/remove as
 *             mdtest's do (none given: all). Creates and removes walk the
 *             tree depth first, stat and read go by item number, as mdtest.
 * Each phase is framed as mdtest frames it: the sync hook (a barrier in the
 * MPI glue; NULL for one process), the start time, the rank's items, the
 * end time before the barrier, the hook again, the end time. A phase's
 * time is end − start (so with a barrier it ends when the slowest rank
 * ends, as mdtest's), and the hook also agrees on failure: a rank that
 * fails passes its error to the hook, every rank stops after that phase,
 * and the items made so far are removed.
 * Every file is created through the device guard's open
 * (sys/dev/guardopen.h) with O_EXCL in a directory the run made; the test
 * directory's parent is checked once (read-only mode, /dev's own
 * filesystem) before anything is made.
 */
#ifndef IOBENCH_META_META_H
#define IOBENCH_META_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/dev/devguard.h"

/* The phases, in the order a run does them. */
enum meta_phase {
	META_TREE_CREATE,
	META_DIR_CREATE,
	META_DIR_STAT,
	META_DIR_REMOVE,
	META_FILE_CREATE,
	META_FILE_STAT,
	META_FILE_READ,
	META_FILE_REMOVE,
	META_TREE_REMOVE,
	META_NR_PHASES
};

/* mdtest's name of a phase in its SUMMARY table ("File creation"), and a
 * short one for JSON keys ("file_create"). */
const char *meta_phase_title(enum meta_phase p);
const char *meta_phase_key(enum meta_phase p);

/* Which of create/stat/read/remove run (-C -T -E -r). */
#define META_OP_CREATE 0x1u
#define META_OP_STAT   0x2u
#define META_OP_READ   0x4u
#define META_OP_REMOVE 0x8u
#define META_OP_ALL    0xfu

/* What the user asked for (mdtest's options). */
struct meta_spec {
	const char *dir;        /* -d: where the test directory is made */
	uint64_t items;         /* -n: items per rank (0: -I × directories) */
	uint64_t items_per_dir; /* -I (0: -n / directories) */
	unsigned depth;         /* -z */
	unsigned branch;        /* -b (mdtest's default 1) */
	bool unique_dir;        /* -u: a tree per rank */
	bool leaf_only;         /* -L */
	bool files, dirs;       /* -F, -D (meta_spec_check sets both when neither) */
	unsigned ops;           /* META_OP_*: 0 = all */
	uint64_t write_bytes;   /* -w */
	uint64_t read_bytes;    /* -e */
	bool sync_file;         /* -y: fsync each file after writing it */
	unsigned iterations;    /* -i (the caller loops; meta_run does one) */
	struct devguard_allow guard; /* --readonly refuses (every phase writes) */
};

/* The tree and the items, from a spec (pure arithmetic). */
struct meta_tree {
	unsigned depth, branch;
	uint64_t num_dirs;      /* directories in one tree, the root included */
	uint64_t per_dir;       /* items in each directory that has items */
	uint64_t items;         /* items per rank */
	uint64_t first_dir;     /* the first directory with items (-L: the first leaf) */
};

/*
 * Check the spec and plan the tree: 0, or -EINVAL with err saying what is
 * wrong (no items, -n and -I together, a tree too large, -e with -D only).
 * Fills in files/dirs (both when neither) and ops (all when 0).
 */
int meta_spec_check(struct meta_spec *s, struct meta_tree *t, char *err, size_t errlen);

/* Directory n's path below the tree's root directory ("" for the root,
 * "<base>.1/<base>.4" for 4 with -b 3): its length, or -ENAMETOOLONG. base
 * is "mdtest_tree" or "mdtest_tree.<rank>". */
int meta_dir_path(const struct meta_tree *t, const char *base, uint64_t n, char *buf, size_t len);
/* The directory item i of a rank lives in. */
uint64_t meta_item_dir(const struct meta_tree *t, uint64_t i);
/* The item numbers of directory n: [*first, *first + per_dir), or none
 * (returns false) for an inner directory with -L. */
bool meta_dir_items(const struct meta_tree *t, uint64_t n, uint64_t *first);
/* Item i's name (mdtest's: its number counts the directories before the
 * first that holds items, so -L names match): "file.mdtest.<rank>.<n>" or
 * "dir.mdtest.<rank>.<n>" as kind is "file" or "dir". */
void meta_item_name(const struct meta_tree *t, const char *kind, int rank, uint64_t i, char *buf,
		    size_t len);
/* The tree's root ("mdtest_tree.0", "mdtest_tree.3.0") and base names. */
void meta_tree_names(const struct meta_spec *s, int rank, char *root, size_t rlen, char *base,
		     size_t blen);

/*
 * The barrier between phases: called by every rank at the same points,
 * with the rank's own status (0 or -errno); returns the status every rank
 * agrees on (0, or the error of a rank that failed, which the glue names).
 * NULL fn: one process, the status passes through.
 */
struct meta_sync {
	int (*fn)(void *arg, int rc);
	void *arg;
};

/* One phase of one rank. Times are the rank's CLOCK_MONOTONIC ns: only
 * differences are meaningful across ranks. */
struct meta_phase_fig {
	bool ran;
	uint64_t items;        /* items this rank did */
	uint64_t start_ns;     /* after the opening barrier */
	uint64_t end_bb_ns;    /* after the rank's last item, before the barrier */
	uint64_t end_ns;       /* after the closing barrier */
};

struct meta_result {
	struct meta_phase_fig ph[META_NR_PHASES];
	int error;             /* 0, or this rank's -errno (the first) */
	char msg[512];         /* what failed, with the path */
	int agreed;            /* the status the ranks agreed on (0: all fine) */
};

/*
 * One iteration (test-dir.<iteration>-0) of rank `rank` of nranks. Returns
 * 0, or the agreed error (-errno): res->error/msg say what failed on this
 * rank (if it did). Whatever happens, what the run created is removed
 * unless the run left removing to a later one (-C without -r).
 */
int meta_run(const struct meta_spec *s, const struct meta_tree *t, int rank, int nranks,
	     unsigned iteration, const struct meta_sync *sync, struct meta_result *res);

#endif

/*
 * mdtest's figures of one iteration from every rank's result (ranks[n]):
 * per phase, the items of all ranks, the phase's time (the longest rank's
 * end − start: each ends at the closing barrier, so ≈ the slowest rank's
 * finish) and the aggregate rate = all items / that time (mdtest's
 * SUMMARY rate and its CSV "all" row: the same number when every rank has
 * the same items); and the ranks' own rates before the barrier (items /
 * (end before barrier − start)) as min, max and mean (mdtest's
 * --show-perrank-statistics). The tree phases count, as mdtest does, one
 * tree's directories over rank 0's time, with -u too (all_items has them
 * all).
 */
struct meta_phase_agg {
	bool ran;
	uint64_t items;        /* the figure's items: all ranks' (one tree for the tree phases) */
	uint64_t all_items;    /* every rank's items summed */
	double time_s;
	double rate;           /* items / time_s, ops/s */
	double rank_min, rank_max, rank_mean; /* the ranks' rates before the barrier */
};
void meta_aggregate(const struct meta_tree *t, const struct meta_result *ranks, int n,
		    struct meta_phase_agg out[META_NR_PHASES]);

/* Over iterations (mdtest's SUMMARY columns): max, min, mean and the
 * sample standard deviation (÷ (n − 1); 0 for one iteration). */
struct meta_stat {
	double max, min, mean, sd;
};
void meta_stat_of(const double *v, unsigned n, struct meta_stat *out);
