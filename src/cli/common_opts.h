/*
 * The options several commands share, declared once: one row each in
 * cmd_common_rows (common_opts.c), their values in struct cmd_common. A
 * command takes the ones it names in its descriptor's `common` bits (the
 * envwatch flags come with CMD_WATCHES_ENV); each command still checks the
 * values its way (run's --output-format knows fio's formats, bonnie's
 * normal and json), and may word a shared row's help for itself.
 *
 * --repeat belongs here too: a COMMON_* bit, a field below and one row in
 * cmd_common_rows.
 */
#ifndef IOBENCH_CLI_COMMON_OPTS_H
#define IOBENCH_CLI_COMMON_OPTS_H

#include <stdbool.h>

#include "cli/cmdopt.h"
#include "watch/envwatch.h"

enum cmd_common_bits {
	COMMON_OUTPUT_FORMAT = 1 << 0, /* --output-format=FMT */
	COMMON_OUTPUT        = 1 << 1, /* --output=FILE */
	COMMON_ALLOW_DESTROY = 1 << 2, /* --allow-destroy=DEVICE, repeatable */
	COMMON_READONLY      = 1 << 3, /* --readonly */
	COMMON_ENVWATCH      = 1 << 4, /* --monitor-interval, --no-monitor, --warn-slab,
					  --memory-limit: given by CMD_WATCHES_ENV */
	COMMON_HELP          = 1 << 5, /* -h, --help: print the usage and stop */
	COMMON_REPEAT        = 1 << 6, /* --repeat=N|auto[:W%], --max-repeat=N, --drop-caches */
	COMMON_DB            = 1 << 7, /* --db=PATH: where results are kept */
	COMMON_NO_STORE      = 1 << 8, /* --no-store */
	COMMON_LABEL         = 1 << 9, /* --label=K=V, repeatable */
};

/* --repeat, --max-repeat, --drop-caches (runner/repeat/repeat.h runs them). */
struct repeat_opts {
	unsigned count;      /* --repeat N: run N times; 0 = not given (once) */
	bool automatic;      /* --repeat auto[:W%] */
	double width;        /* W as a fraction (auto), default 0.05 */
	unsigned max_reps;   /* --max-repeat, default REPEAT_MAX_DEFAULT; 0 = not given */
	bool drop_caches;    /* --drop-caches: sync and drop the page cache before each */
};

#define REPEAT_MAX_DEFAULT 10
#define REPEAT_MIN_AUTO 3    /* auto never stops before this many */
#define REPEAT_COUNT_MAX 10000

struct cmd_common {
	const char *output_format;        /* NULL: the command's default */
	const char *output;               /* NULL: stdout */
	struct cmdopt_list allow_destroy; /* each a DEVICE, not empty */
	bool readonly;
	struct envwatch_opts env;         /* defaults from envwatch_opts_init */
	struct repeat_opts repeat;        /* COMMON_REPEAT */
	const char *db;                   /* --db, NULL: IOBENCH_DB or the default */
	bool no_store;                    /* --no-store */
	struct cmdopt_list labels;        /* --label K=V, each checked (store_label_parse) */
};

extern const struct cmdopt cmd_common_rows[];

/* --db's help for the commands that read the store (compare, results) */
#define COMMON_DB_READ_HELP                                                              \
	"the results database (default $IOBENCH_DB, else "                               \
	"$XDG_DATA_HOME/iobench/results.db, else ~/.local/share/iobench/results.db)"

void cmd_common_init(struct cmd_common *c);
void cmd_common_release(struct cmd_common *c);
/* The --repeat options agree with each other and with the user running
 * them (--drop-caches needs root: euid 0): 0, or -EINVAL / -EPERM with a
 * one-line message in why. Checked before anything runs. */
int cmd_common_check_repeat(const struct repeat_opts *r, unsigned euid, char *why, size_t len);

#endif
