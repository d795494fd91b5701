/*
 * The job-file lexer and the items it makes, for whoever reads a file in
 * the job-file syntax (the job files themselves, sweep's plans): sections
 * and key = value options, each with its file:line:col (items.c), and the
 * "FILE:LINE:COL: error: ..." line that reports one and counts it. Turning
 * items into jobs is jobfile.h's.
 */
#ifndef IOBENCH_JOBFILE_ITEMS_H
#define IOBENCH_JOBFILE_ITEMS_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
