/*
 * Internal to the job-file parser: the flat list of items (section headers
 * and options, each with file:line:col) that the lexer and the command-line
 * reader produce and parse.c turns into jobs, plus the error helper that
 * prints one "FILE:LINE:COL: error: ..." line and counts it.
 */
#ifndef IOBENCH_JOBFILE_JOBFILE_INT_H
#define IOBENCH_JOBFILE_JOBFILE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "jobfile/jobfile.h"

#define JF_MAX_INCLUDE_DEPTH 16
#define JF_MAX_FILE_BYTES (16u << 20)

struct jf_loc {
	const char *file; /* owned by jf_items.files */
	unsigned line, col;
};

enum jf_kind { JF_SECTION, JF_OPTION };

struct jf_item {
	enum jf_kind kind;
	char *name;          /* section name or option key */
	char *value;         /* option value after ${} expansion; NULL for a bare key */
	struct jf_loc loc;   /* the '[' or the first character of the key */
	unsigned value_col;  /* column of the value (options) */
	bool broken;         /* a section header already reported as bad: its
			      * options are skipped so errors do not cascade */
};

struct jf_items {
	struct jf_item *v;
	size_t nr, alloc;
	char **files;        /* file names the locations point to */
	size_t nr_files, files_alloc;
	int errors;
	/* from the command line: fio's getopt knows an engine's options only
	 * once --ioengine has named that engine, so they apply in order there,
	 * not after the section's other options as in a file */
	bool cmdline;
};

void jf_error(struct jf_items *it, const struct jf_loc *loc, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
const char *jf_intern_file(struct jf_items *it, const char *name);
struct jf_item *jf_add(struct jf_items *it, enum jf_kind kind, const char *name, size_t nlen,
		       const struct jf_loc *loc);
void jf_items_release(struct jf_items *it);

/* lexer.c: append the items of a buffer (name for messages and includes). */
void jf_lex_buffer(struct jf_items *it, const char *name, const char *text, size_t len,
		   const char *const *stack, unsigned depth);
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
