/*
 * Running other programs for a sweep: mkfs, losetup, the setup and teardown
 * templates (/bin/sh -c), and the points' workloads (this binary again, as
 * /proc/self/exe run|bonnie|quick). The child's stdout is kept (losetup
 * --show prints the device) or dropped, and the tail of its stderr is kept
 * for the message of a failed step. While a child runs, a stop request
 * (SIGINT/SIGTERM to the sweep, sweep_exec_stop) is passed on to it.
 * Each child runs in a process group (and cgroup) of its own
 * (sweep_group_int.h), recorded in the journal before it may exec; what it
 * leaves running when it exits is killed then, or, for a setup template
 * (keep_group), when its point is undone.
 */
#ifndef IOBENCH_SWEEP_SWEEP_EXEC_INT_H
#define IOBENCH_SWEEP_SWEEP_EXEC_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct sweep_journal;

struct sweep_cmd {
	char *const *argv;      /* argv[0] is looked up in PATH (and /usr/sbin, /sbin) */
	const char *what;       /* its name in messages; NULL: argv[0] */
	const char *cwd;        /* NULL: ours */
	char *const *env_add;   /* "K=V" added to the environment, NULL-terminated, or NULL */
	char *out;              /* its stdout (NUL-terminated, cut to outlen), or NULL: dropped */
	size_t outlen;
	volatile sig_atomic_t *stop; /* set by the signal handler: pass SIGTERM on */
	struct sweep_journal *journal; /* records the child's group; NULL: none */
	bool keep_group;        /* what it leaves running stays until the journal undoes it */
};

/* Run c and wait. 0 when it exited 0; otherwise -1 with why holding what
 * failed: "mkfs.xfs exited with status 1: <its last stderr line>". */
int sweep_exec(const struct sweep_cmd *c, char *why, size_t whylen);
/* Journal g as a "procs" entry (its index in *entry). */
struct sweep_group;
int sweep_group_record(struct sweep_journal *j, const struct sweep_group *g, size_t *entry);
/* After the command exited: end what it left running (unless keep and
 * something does: the journal's undo ends it then) and, once ended, mark
 * the recorded entry done. */
void sweep_group_done(struct sweep_journal *j, const struct sweep_group *g, size_t entry,
		      bool recorded, bool keep);
/* The words of a command line split on blanks, with '...' and "..." quoting
 * (NULL-terminated, free with sweep_words_free). */
char **sweep_words(const char *line);
void sweep_words_free(char **w);
/* argv as one line, for --dry-run and messages (xmalloc'ed). */
char *sweep_argv_text(char *const *argv);

#endif
