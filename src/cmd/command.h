/*
 * Subcommand descriptors, like git's command table: each file in src/cmd
 * exports one `const struct command cmd_NAME`, listed once in commands.c.
 * `iobench help` is generated from the table and an unknown command suggests
 * the nearest name.
 */
#ifndef IOBENCH_CMD_COMMAND_H
#define IOBENCH_CMD_COMMAND_H

#include <stddef.h>
#include <stdio.h>

enum command_flags {
	CMD_NEEDS_ROOT = 1 << 0,
};

struct command {
	const char *name;
	const char *summary; /* one line, lowercase, no period */
	const char *usage;   /* full usage text printed by `iobench help NAME` */
	unsigned flags;
	int (*run)(int argc, char **argv); /* argv[0] is the command name; returns exit status */
};

int cmd_main(int argc, char **argv);
const struct command *command_find(const char *name);
/* The i-th command of the table, in `iobench help` order; NULL past the end. */
const struct command *command_at(size_t i);
void command_print_list(FILE *out);

#endif
