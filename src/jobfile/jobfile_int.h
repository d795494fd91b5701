/*
 * Internal to the job-file parser: includes, ${} and arithmetic expansion,
 * and turning the items (jobfile/items.h: what the lexer and the
 * command-line reader produce) into jobs.
 */
#ifndef IOBENCH_JOBFILE_JOBFILE_INT_H
#define IOBENCH_JOBFILE_JOBFILE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "jobfile/jobfile.h"
#include "jobfile/items.h"

#define JF_MAX_INCLUDE_DEPTH 16
#define JF_MAX_FILE_BYTES (16u << 20)

/* include.c: read a whole file; returns 0 or -errno. */
int jf_read_file(const char *path, char **text, size_t *len);
/* include.c: handle an `include PATH` line found in file `from`. */
void jf_include(struct jf_items *it, const struct jf_loc *loc, unsigned path_col, const char *path,
		const char *const *stack, unsigned depth);

/* expand.c: ${VAR}, $ncpus, $mb_memory, $pagesize. NULL + *why on error. */
char *jf_expand_vars(const char *s, const char **why);
/* expand.c: replace each (expression) by its value; *bare tells the value
 * ended with an expression (so a time is in microseconds, as fio says). */
char *jf_expand_arith(const char *s, bool *bare, const char **why);
/* arith.c: evaluate + - * / % ^ and parentheses over [s, s+len). */
int jf_eval(const char *s, size_t len, double *out, const char **why);

/* parse.c: turn items into jobs appended to list. */
int jf_build_jobs(struct jf_items *it, unsigned file_index, bool record_globals,
		  struct job_list *list, const struct jobfile_ctx *ctx);

#endif
