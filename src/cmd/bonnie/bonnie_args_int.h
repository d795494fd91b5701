/*
 * bonnie++ 2.00a's command line for `iobench bonnie`: the letters -d -s -n
 * -m -r -x -u -g -q -f[N] -b -D -c -z -Z -p -y with bonnie++'s value syntax
 * (sizes in MiB with a g/t suffix, "size:chunk:seeks:seekers",
 * "num:max:min:dirs:chunk" with k/m/g suffixes, -1/-2 for links, letters
 * grouped as getopt allows), plus iobench's long options (--precise,
 * --no-precise, --random-data, --output-format, --allow-destroy,
 * --readonly). Parsing checks syntax only and says which value is wrong;
 * ranges (chunk sizes, the 2×RAM rule) are bonnie_spec_validate's.
 */
#ifndef IOBENCH_CMD_BONNIE_BONNIE_ARGS_INT_H
#define IOBENCH_CMD_BONNIE_BONNIE_ARGS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/common_opts.h"
#include "bonnie/bonnie.h"

enum bonnie_output {
	BONNIE_OUT_NORMAL, /* bonnie++'s text table and CSV line */
	BONNIE_OUT_JSON,
};

/* -y */
enum bonnie_sync_mode {
	BONNIE_SYNC_NONE,
	BONNIE_SYNC_SEM,    /* -y s: wait on the semaphores made by -p */
	BONNIE_SYNC_PROMPT, /* -y p: wait for a line on stdin */
};

struct bonnie_args {
	struct bonnie_spec spec;
	char *user;              /* -u's user part (owned), or NULL */
	char *group;             /* -g, or -u's :group (owned), or NULL */
	int sem_procs;           /* -p: 0 not given, -1 delete, N > 0 create */
	enum bonnie_sync_mode sync;
	bool size_given;         /* -s given (else 2×RAM when RAM is known) */
	bool ram_given;          /* -r given (else the RAM is detected) */
	bool repeats_given;      /* -x given: CSV lines only, as bonnie++ */
	int precise;             /* --precise 1, --no-precise 0, -1 unset */
	enum bonnie_output output;
	bool help;               /* -h/--help */
	struct cmd_common common; /* --output-format, --allow-destroy, --readonly and
				     the watch's flags (env) */
};

/* The letters and long options, for cmd_bonnie's descriptor. */
extern const struct cmdopt bonnie_rows[];

/* Fill *a from argv[1..argc-1] (argv[0] is the command name) with
 * cmd_bonnie's rows. The spec starts from bonnie_spec_init(). Returns 0
 * (with a->help set when -h/--help was met: what follows is not read),
 * or -EINVAL with a one-line message naming the bad flag or value in why.
 * Release with bonnie_args_release() in both cases. */
int bonnie_args_parse(int argc, char **argv, struct bonnie_args *a, char *why, size_t whylen);
void bonnie_args_release(struct bonnie_args *a);

/* bonnie++'s size_from_str(): a decimal integer (a leading '-' allowed)
 * times 1024^(i+1) when its last character is the i-th of suffixes
 * (case-insensitive; "gt" for -s, "kmg" for byte sizes, "k" for counts).
 * Returns 0 or -EINVAL for anything else. */
int bonnie_parse_num(const char *s, const char *suffixes, long long *out);

#endif
