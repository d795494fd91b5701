/*
 * The option table: the one place that knows every job option iobench
 * accepts, its aliases, type, field in struct job_spec, range, unit, default
 * and help line. The job-file parser, `iobench help options`, the man page
 * and the JSON "job options" echo all read it; adding an option means one
 * field in jobspec.h and one row in options_table.c (plus a callback in the
 * options_*.c file of its kind, declared in options_cb.h, if the value is
 * more than a number, size, time, bool or string).
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

#include "workload/jobspec.h"

enum opt_type {
	OPT_BOOL,  /* bool field; a bare key means true */
	OPT_UINT,  /* unsigned or uint64_t field (width), plain count */
	OPT_SIZE,  /* uint64_t bytes with unit suffixes, honours kb_base */
	OPT_TIME,  /* uint64_t ns; a bare number is in `unit` ns */
	OPT_STR,   /* char * field, xstrdup'ed */
	OPT_FUNC,  /* parsed by the callback only */
};

/* What a parse callback gets besides the spec and the value. */
struct opt_ctx {
	const struct option_def *opt;
	const char *key;  /* as the user wrote it, for messages */
	char *why;        /* message buffer */
	size_t whylen;
};
typedef int (*option_parse_fn)(struct job_spec *s, const char *val, struct opt_ctx *c);

struct option_def {
	const char *name;
	const char *alias[2];   /* other spellings, NULL when unused */
	enum opt_type type;
	size_t off;             /* offsetof(struct job_spec, field) */
	unsigned width;         /* sizeof the field for OPT_UINT (4 or 8) */
	uint64_t min, max;      /* numeric range; max 0 = no upper bound */
	uint64_t unit;          /* OPT_TIME: ns per unit of a bare number */
	const char *type_text;  /* value syntax for help: "int", "size", ... */
	const char *def;        /* default as text, NULL = none */
	const char *help;       /* one line, lowercase */
	option_parse_fn parse;  /* OPT_FUNC, or extra handling after the generic parse */
	bool is_flag;           /* the key alone is valid (bool-like) */
};

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
