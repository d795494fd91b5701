/*
 * Subcommand descriptors, like git's command table and tmux's cmd_entry:
 * each command in src/cmd (a file, or a folder cmd/NAME/ of several)
 * exports one `const struct command cmd_NAME`, listed once in
 * cmd/commands.c. A descriptor names the command, its usage text, its
 * option rows and the shared options it takes (cli/common_opts.h), and the
 * flags the dispatcher acts on; `run(ctx, argc, argv)` does the rest.
 * `iobench help`, `iobench help CMD` and the man page are generated from
 * the table; an unknown command suggests the nearest name.
 *
 * What the dispatcher does for the flags:
 * - CMD_NEEDS_ROOT: refuses, before the command runs, unless root. No
 *   command has it: run, quick, bonnie and monitor work unprivileged (the
 *   device guard and the watch say what needs root when they meet it).
 * - CMD_WATCHES_ENV: the command runs a workload and watches the machine
 *   around it (watch/envwatch.h): it takes the envwatch flags and lists them
 *   in its usage, with the defaults set. The capture itself stays the
 *   command's: where (the first job's directory, bonnie's -d) and when
 *   (after the memory cgroup is made, before bonnie drops root) follow from
 *   its parsed options.
 * - CMD_OPENS_STORE: the results store (store/store.h) is opened once the
 *   options are parsed (it needs --db; --no-store leaves ctx->store NULL),
 *   before the command touches anything (and before bonnie drops root),
 *   and closed after the command (cli/storing.h); one whose header says it
 *   is ready (store_ready) waits for the first result (ctx->store_later),
 *   or for bonnie dropping root (cmd_store_open_now). A database that cannot
 *   be used is said at once and the command still runs and prints its
 *   results: only then does it fail. Nothing is written while I/O runs.
 * - CMD_READS_STORE: the command uses a store that is there and stores no
 *   run (compare, report, results, sweep report): the dispatcher keeps the
 *   parsed --db, cmd_store_read (cmd/storing.h) opens the database when
 *   the command first needs it (compare --from never does), never creating
 *   one, and the dispatcher closes it after the command.
 * - CMD_FIO_ARGS: the options follow fio's getopt_long_only rules
 *   (cli/cmdopt.h), and the job options on the same line go to the job
 *   parser in order (run).
 */
#ifndef IOBENCH_CLI_COMMAND_H
#define IOBENCH_CLI_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli/cmdopt.h"
#include "cli/common_opts.h"

enum command_flags {
	CMD_NEEDS_ROOT = 1 << 0,
	CMD_WATCHES_ENV = 1 << 1,
	CMD_OPENS_STORE = 1 << 2,
	CMD_FIO_ARGS = 1 << 3,
	CMD_READS_STORE = 1 << 4,
};

struct store;
struct store_label;

/* What the dispatcher hands a command. */
struct cmd_ctx {
	const struct command *cmd;
	int argc;                    /* the command line from the command's name on */
	char **argv;
	struct store *store;         /* CMD_OPENS_STORE, once parsed; NULL with --no-store;
					CMD_READS_STORE, once cmd_store_read opened it */
	char *store_db;              /* CMD_READS_STORE: the --db parsed (NULL: none given) */
	char *store_later;           /* or the path of one store_ready took: opened when the
					first result is stored (cmd_store_put) */
	bool store_failed;           /* it could not be opened: the results are printed, and
					then not stored, and the exit status is 1 */
	struct store_label *labels;  /* --label, parsed with the store */
	size_t nr_labels;
	const struct dist_hooks *dist; /* iobench-mpi's run (dist/dist.h), or NULL */
	bool as_fio;                 /* invoked under the name `fio` (cmd_main): run is fio
					3.33 to whoever reads its output (fio's version,
					fio's banner, none of iobench's own lines in the
					normal output) and stores nothing without --db or
					IOBENCH_DB */
};

struct command {
	const char *name;
	const char *summary;    /* one line, lowercase, no period */
	const char *usage;      /* the usage text up to the option list, its
				   heading ("options:\n") included */
	const char *usage_tail; /* the text after the option list, or NULL */
	const struct cmdopt *opts; /* the command's own rows (CMDOPT_END), or NULL */
	unsigned common;        /* the shared options it takes: COMMON_* bits */
	const struct cmdopt_help *help_for; /* shared rows' help worded for this
					       command ({ NULL } ends), or NULL */
	unsigned flags;         /* CMD_* */
	/* its i-th subcommand (the first operand's words), NULL past the end;
	 * NULL for a command without (shell completion reads it) */
	const char *(*subcommand_at)(size_t i);
	int (*run)(struct cmd_ctx *ctx, int argc, char **argv); /* argv[0] is the
				   command name; returns the exit status */
};

/* A table of descriptors: the commands' (cmd/commands.h), handed to what
 * reads it (help, the man page, the completion words, the check). */
struct command_table {
	const struct command *const *v;
	size_t n;
};
/* The command of t named name, or NULL. */
const struct command *command_table_find(const struct command_table *t, const char *name);

/* The dispatcher for one command: its flags, the context (dist: iobench-mpi's
 * hooks, or NULL; as_fio: invoked as `fio`), run, and the check that what it
 * printed reached stdout. Returns the exit status. */
struct dist_hooks;
int command_dispatch(const struct command *c, int argc, char **argv,
		     const struct dist_hooks *dist, bool as_fio);
/* `iobench help CMD`: usage, the option list generated from the rows, tail. */
void command_print_usage(const struct command *c, FILE *out);
/* The shared rows c takes (COMMON_ENVWATCH with CMD_WATCHES_ENV). */
unsigned command_common_mask(const struct command *c);

/* c's option sets into p: its rows writing into own, the shared ones into
 * common (NULL when c takes none but --help); the mode from CMD_FIO_ARGS.
 * Operand and foreign hooks are the caller's to add. */
void command_parser(struct cmdopt_parser *p, const struct command *c, void *own,
		    struct cmd_common *common);
/* What the dispatcher does once a command's options are parsed (the
 * store, for CMD_OPENS_STORE). 0, or -1 after printing why. */
int command_parsed(struct cmd_ctx *ctx, const struct cmd_common *common);
/* cmdopt_parse with p, then command_parsed. 0: go on; CMDOPT_HELP_ASKED:
 * --help printed the usage (the command exits 0); -1: the error was
 * printed (it exits 1). */
int command_parse(struct cmd_ctx *ctx, const struct cmdopt_parser *p, int argc, char **argv,
		  const struct cmd_common *common);

/* CMD_NEEDS_ROOT under euid: 0, or -EPERM after printing why. */
int command_check_root(const struct command *c, uid_t euid);
/* t is sound: per command no long name or letter twice, every row's flag
 * named in its usage text, the envwatch rows only through CMD_WATCHES_ENV.
 * 0, or -EINVAL after printing what is wrong. */
int command_table_validate(const struct command_table *t);

#endif
