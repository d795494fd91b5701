/*
 * The option table: the one place that knows every job option iobench
 * accepts, its aliases, type, field in struct job_spec, range, unit, default
 * and help line. The job-file parser, `iobench help options`, the man page
 * and the JSON "job options" echo all read it; adding an option means one
 * field in jobspec.h and one row in options_table.c (plus a callback in the
 * options_*.c file of its kind, declared in options_cb_int.h, if the value is
 * more than a number, size, time, bool or string).
 *
 * Options that fio 3.33 has but iobench does not are listed by name
 * (options_fio.c) so they fail with a clear "not implemented" message rather
 * than "unknown option".
 */
#ifndef IOBENCH_SPEC_OPTIONS_H
#define IOBENCH_SPEC_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/optdef.h"
#include "spec/jobspec.h"

struct engine_ctx;

/* Rows are struct option_def (util/optdef.h); this table's target is
 * struct job_spec, so each row's off is an offsetof(struct job_spec, ...). */

/* The table, and its length. */
extern const struct option_def option_table[];
extern const size_t option_table_len;

/* Look up an option by name or alias; NULL when there is none. */
const struct option_def *option_find(const char *key);
/* The row named key of the first engine that declares it (engines/
 * engine.h), NULL when none does: the value's type and the canonical name,
 * whichever engine the job ends up with. */
const struct option_def *option_find_engine(const char *key);
/* option_find(), else option_find_engine(). */
const struct option_def *option_find_any(const char *key);
/* The engine s->ioengine names (psync when unset), NULL if it names none. */
const struct engine_ops *job_spec_engine(const struct job_spec *s);
/* Fill ctx (whose ops the caller has set) with what its engine may know of
 * job s (finalized: job_spec_finalize() gives it its engine's options):
 * engine_params from the spec, and s's options struct. 0, or -EINVAL with
 * a message when s holds no options struct for an engine that has options. */
int engine_ctx_setup(struct engine_ctx *ctx, const struct job_spec *s);
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
 * An engine's option (option_find_engine) goes into s->engine_opts for the
 * engine s->ioengine names now, and is -EINVAL when that engine lacks it:
 * set ioengine first (the job-file parser applies a section's engine
 * options after its other options).
 */
int option_set(struct job_spec *s, const char *key, const char *value, char *why, size_t whylen);

/*
 * Derive what fio derives once all options are in: iodepth_low (0 or above
 * iodepth -> iodepth), iodepth_batch (0 or above iodepth -> iodepth),
 * iodepth_batch_complete_max (below min -> min); and drop engine options
 * set for an engine other than the final ioengine (that engine starts from
 * its defaults). Call once per job after the last option_set().
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
/* The same with flags: SPEC_VALIDATE_NO_FS skips what looks at the
 * filesystem (that directory= exists), for --parse-only as fio's. */
#define SPEC_VALIDATE_NO_FS 1u
/* SPEC_VALIDATE_READONLY: the run is in read-only mode (--readonly), as
 * if the job said readonly=1 for what it runs and creates: a program
 * (ioengine=exec, exec_prerun, exec_postrun), a donor, a buffer file */
#define SPEC_VALIDATE_READONLY 2u
int job_spec_validate_flags(const struct job_spec *s, unsigned flags, spec_problem_fn report, void *arg);

/* `iobench help options`: a table of name, type, default and help, then
 * the engines with their summaries and each engine's own options. */
void options_print_help(FILE *out);
/* One option alone, as fio's --cmdhelp=NAME: name and help, aliases, type,
 * default and range. 0, or -EINVAL after a "did you mean" for no such option. */
int options_print_one(FILE *out, const char *key);
/* troff ".TP" entries for the man page's OPTIONS section. */
void options_print_man(FILE *out);
/* The man page's ENGINES section: each engine, its summary and its options. */
void options_print_man_engines(FILE *out);

#endif
