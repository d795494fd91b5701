/*
 * Running other programs for a sweep: mkfs, losetup, the setup and teardown
 * templates (/bin/sh -c), and the points' workloads (this binary again, as
 * /proc/self/exe run|bonnie|quick). The child's stdout is kept (losetup
 * --show prints the device) or dropped, and the tail of its stderr is kept
 * for the message of a failed step. While a child runs, a stop request
 * (SIGINT/SIGTERM to the sweep, sweep_exec_stop) is passed on to it.
 */
#ifndef IOBENCH_SWEEP_SWEEP_EXEC_H
#define IOBENCH_SWEEP_SWEEP_EXEC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct sweep_cmd {
	char *const *argv;      /* argv[0] is looked up in PATH (and /usr/sbin, /sbin) */
	const char *what;       /* its name in messages; NULL: argv[0] */
	const char *cwd;        /* NULL: ours */
	char *const *env_add;   /* "K=V" added to the environment, NULL-terminated, or NULL */
	char *out;              /* its stdout (NUL-terminated, cut to outlen), or NULL: dropped */
	size_t outlen;
	volatile sig_atomic_t *stop; /* set by the signal handler: pass SIGTERM on */
};

/* Run c and wait. 0 when it exited 0; otherwise -1 with why holding what
 * failed: "mkfs.xfs exited with status 1: <its last stderr line>". */
int sweep_exec(const struct sweep_cmd *c, char *why, size_t whylen);
/* The words of a command line split on blanks, with '...' and "..." quoting
 * (NULL-terminated, free with sweep_words_free). */
char **sweep_words(const char *line);
void sweep_words_free(char **w);
/* argv as one line, for --dry-run and messages (xmalloc'ed). */
char *sweep_argv_text(char *const *argv);

#endif
