/*
 * The man page, generated from the command table and the option table so it
 * cannot drift from the code; doc/iobench.1 is its output, checked by a test.
 */
#ifndef IOBENCH_CLI_MANPAGE_H
#define IOBENCH_CLI_MANPAGE_H

#include <stdio.h>

struct command_table;
/* The page of the commands of t. */
void manpage_write(FILE *out, const struct command_table *t);

#endif
