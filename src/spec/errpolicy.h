/*
 * Error policies with fio's semantics: continue_on_error names the kinds of
 * error (read, write, verify) a job may go on after, and ignore_error lists,
 * per kind, the errnos that count as non-fatal; a kind without a list uses
 * fio's default non-fatal errors, EIO and EILSEQ. Anything else stops the
 * job. The options themselves are parsed in options_errors.c.
 */
#ifndef IOBENCH_SPEC_ERRPOLICY_H
#define IOBENCH_SPEC_ERRPOLICY_H

#include <stdbool.h>

#include "engines/ddir.h"
#include "spec/jobspec.h"

/* The kind of an error (positive errno) hit by an I/O of direction d. */
enum err_kind err_kind_of(enum ddir d, int err);
/* May a job with spec s go on after error err (positive errno) of kind k? */
bool error_policy_continues(const struct job_spec *s, enum err_kind k, int err);
/* "read", "write" or "verify". */
const char *err_kind_name(enum err_kind k);

#endif
