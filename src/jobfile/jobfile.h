/*
 * The fio-syntax job-file parser: INI sections, key=value options, comments,
 * `include FILE`, ${ENV} and $ncpus/$mb_memory/$pagesize expansion,
 * arithmetic in parentheses, and fio's command-line job form
 * (--name=a --rw=read ...). It turns them into job specs through the option
 * table (spec/options.h) and checks each job with job_spec_validate().
 *
 * Every problem is printed to stderr as one line
 * "FILE:LINE:COL: error: MESSAGE" (command-line options use the file name
 * "<command line>" and the argument number as LINE, --set values "<--set>");
 * all problems of a file are reported before the parse fails with -EINVAL,
 * and a failed parse adds no job to the list. A job file that cannot be read
 * gives "FILE: error: cannot open: REASON".
 */
#ifndef IOBENCH_JOBFILE_JOBFILE_H
#define IOBENCH_JOBFILE_JOBFILE_H

#include <stddef.h>

#include "spec/jobspec.h"

struct jobfile_ctx {
	/* "KEY=VALUE" overrides applied to every job after its own options */
	const char *const *set_opts;
	size_t nr_set;
	/* --parse-only: leave the filesystem alone (directory= need not
	 * exist), as fio's dry run does */
	bool parse_only;
	/* --readonly: each job is refused at its option's line when it runs a
	 * program or creates a file (SPEC_VALIDATE_READONLY) */
	bool readonly;
	/* --debug=parse: a trace of each option handled, in fio's form
	 * ("parse    PID  handle_option=NAME, ptr=VALUE"), on stdout */
	bool debug_parse;
};

/*
 * Check the --set overrides on their own, once: each bad one is reported
 * as "<--set>:N:COL: error: ..." and -EINVAL returned. Parsing a file checks
 * them again against its jobs, so a caller with several job files checks
 * first and parses nothing when they are bad (one message, not one per file).
 */
int jobfile_check_sets(const struct jobfile_ctx *ctx);

/* The whole text of a job file, as jobfile_parse_file reads it (*text
 * xmalloc'ed). 0 or -errno; -EINVAL: not a regular file (a FIFO, a device,
 * a directory: refused without blocking). */
int jobfile_read_text(const char *path, char **text, size_t *len);
/* What path is when it is not a regular file ("a FIFO", "a directory",
 * "a character device", ...), else NULL. */
const char *jobfile_not_regular(const char *path);

/*
 * Parse one job file and append its jobs to list in order (numjobs is not
 * expanded). file_index > 0 makes the file's first job a stonewall, as fio
 * separates job files. The [global] options of file 0 go to
 * list->global_opts. Returns the number of jobs added, or -EINVAL.
 */
int jobfile_parse_file(const char *path, unsigned file_index, struct job_list *list,
		       const struct jobfile_ctx *ctx);

/*
 * Parse fio's command-line job form: argv holds only job options such as
 * {"--name=a", "--rw=read"}. Options before the first --name form a global
 * section; --name=global starts one. Returns the number of jobs added, or
 * -EINVAL.
 */
int jobfile_parse_args(int argc, char **argv, struct job_list *list, const struct jobfile_ctx *ctx);

/*
 * Parse job-file text held in memory (for tests and fuzzing); name is used
 * in messages and as the base for relative includes.
 */
int jobfile_parse_buffer(const char *name, const char *text, size_t len, unsigned file_index,
			 struct job_list *list, const struct jobfile_ctx *ctx);

#endif
