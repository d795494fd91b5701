/*
 * run's job files (run_files.c): a path or '-' (standard input), the
 * --section filter, --showcmd, --bandwidth-log.
 */
#ifndef IOBENCH_CMD_RUN_RUN_FILES_INT_H
#define IOBENCH_CMD_RUN_RUN_FILES_INT_H

#include <stddef.h>

#include "cli/cmdopt.h"
#include "jobfile/jobfile.h"
#include "spec/jobspec.h"

/* jobfile_parse_file, or for "-" the text of standard input ("<stdin>"
 * in messages). The number of jobs added, or -EINVAL. */
int run_parse_file(const char *path, unsigned index, struct job_list *list,
		   const struct jobfile_ctx *ctx);
/* --section NAME...: drop the jobs whose section is none of them (none
 * given: keep all). */
void run_keep_sections(struct job_list *list, const struct cmdopt_list *sections);
/* --showcmd: each job file as one fio command line on stdout, "fio
 * --global=opts --name=a --its=opts ... ". 0 or -EINVAL after the parse
 * errors. */
int run_showcmd(const char *const *files, size_t nf, const struct jobfile_ctx *ctx);

#endif
