/*
 * The words shell completion offers (`iobench help words`), generated from
 * the command, option and engine tables.
 */
#ifndef IOBENCH_CLI_HELP_WORDS_H
#define IOBENCH_CLI_HELP_WORDS_H

#include <stdio.h>

/* Print topic's words ("commands", "flags" CMD, "subcommands" CMD,
 * "options", "engines") one per line; 0, or -EINVAL with a message. */
int help_words(FILE *out, const char *topic, const char *arg);

#endif
