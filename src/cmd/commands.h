/*
 * The command table (commands.c): every command's descriptor, in `iobench
 * help` order, and the entry points that start one of them by its
 * descriptor (main.c, iobench-mpi, the fuzz targets), each through the
 * framework's dispatcher (cli/command.h).
 */
#ifndef IOBENCH_CMD_COMMANDS_H
#define IOBENCH_CMD_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "cli/command.h"

int cmd_main(int argc, char **argv);
/* command_dispatch for one command; returns the exit status. */
int command_run(const struct command *c, int argc, char **argv);
/* The same for iobench invoked as `fio`: the context's as_fio is set. */
int command_run_as_fio(const struct command *c, int argc, char **argv);
/* The same for iobench-mpi: the command gets dist in its context. */
int command_run_dist(const struct command *c, int argc, char **argv,
		     const struct dist_hooks *dist);
/* The whole table, for what reads it. */
const struct command_table *commands_table(void);
const struct command *command_find(const char *name);
/* The i-th command of the table, in `iobench help` order; NULL past the end. */
const struct command *command_at(size_t i);
void command_print_list(FILE *out);
/* command_table_validate of the table. */
int commands_validate(void);

#endif
