/*
 * The words shell completion offers (`iobench help words`), generated from
 * the command, option and engine tables.
 */
#ifndef IOBENCH_CLI_HELP_WORDS_H
#define IOBENCH_CLI_HELP_WORDS_H

#include <stdio.h>

struct command_table;
/* Print topic's words ("commands", "flags" CMD, "subcommands" CMD: of t's
 * commands; "options", "engines"; "values" OPTION: the words a job option
 * takes) one per line; 0, or -EINVAL with a message. */
int help_words(FILE *out, const struct command_table *t, const char *topic, const char *arg);

#endif
