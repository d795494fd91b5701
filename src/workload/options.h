/*
 * The option table: the one place that knows every job option iobench
 * accepts, its aliases, type, field in struct job_spec, range, unit, default
 * and help line. The job-file parser, `iobench help options`, the man page
 * and the JSON "job options" echo all read it; adding an option means one
 * field in jobspec.h and one row in options_table.c (plus a callback in
 * options_parse.c if the value is more than a number, size, time or bool).
 *
 * Options that fio 3.33 has but iobench does not are listed by name
 * (options_fio.c) so they fail with a clear "not implemented" message rather
 * than "unknown option".
 */
#ifndef IOBENCH_WORKLOAD_OPTIONS_H
#define IOBENCH_WORKLOAD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/optdef.h"
#include "workload/jobspec.h"

/* Rows are struct option_def (util/optdef.h); this table's target is
 * struct job_spec, so each row's off is an offsetof(struct job_spec, ...). */

/* The table, and its length. */
extern const struct option_def option_table[];
extern const size_t option_table_len;

/* Look up an option by name or alias; NULL when there is none. */
const struct option_def *option_find(const char *key);
/* Is key an option of fio 3.33 (any spelling)? */
bool option_is_fio(const char *key);
/* The nearest option name (canonical spelling) to key, or NULL. */
const char *option_suggest(const char *key);

/*
 * Parse `value` (NULL for a bare key) for option `key` into s, using
 * s->kb_base for sizes. Returns 0; -ENOENT for an unknown option (why holds
 * a suggestion); -ENOTSUP for a fio option iobench lacks; -EINVAL or -ERANGE
 * for a bad value. `why` gets the complete message, e.g.
 * "invalid size 'abc' for option 'size': not a number".
 */
int option_set(struct job_spec *s, const char *key, const char *value, char *why, size_t whylen);

/*
 * Derive what fio derives once all options are in: iodepth_low (0 or above
 * iodepth -> iodepth), iodepth_batch (0 or above iodepth -> iodepth),
 * iodepth_batch_complete_max (below min -> min). Call once per job after the
 * last option_set().
 */
void job_spec_finalize(struct job_spec *s);

/*
 * Cross-option checks (bs larger than size, bssplit shares, rwmix sum,
 * numjobs 0, iodepth 0, min_bs > max_bs, missing directory, filename count
 * versus nrfiles, ...). Each problem is passed to report(arg, keys, msg)
 * where keys names the offending options so the caller can point at where
 * one was written: tiers separated by '|', most specific first, and within
 * a tier alternatives separated by ',' of which the one written last is to
 * blame (e.g. "bs,bsrange,bssplit|size").
 * With report NULL the problems are printed with error(). Returns 0 or
 * -EINVAL when there was at least one problem.
 */
typedef void (*spec_problem_fn)(void *arg, const char *keys, const char *msg);
int job_spec_validate(const struct job_spec *s, spec_problem_fn report, void *arg);

/* `iobench help options`: a table of name, type, default and help. */
void options_print_help(FILE *out);
/* troff ".TP" entries for the man page's OPTIONS section. */
void options_print_man(FILE *out);

#endif
