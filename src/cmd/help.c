/*
 * `iobench help [CMD | options | man]`: the command list generated from the
 * command table, one command's usage, the job-option table, or the man page
 * generated from the same tables.
 */
#include "cmd/command.h"

#include <stdio.h>
#include <string.h>

#include "cmd/manpage.h"
#include "util/error.h"
#include "workload/options.h"

static void print_overview(FILE *out)
{
	fprintf(out, "usage: iobench [COMMAND [ARGS...]]\n\n"
		     "iobench is a storage benchmark: fio-compatible job files, a quick\n"
		     "suite, and honest statistics. With no command it runs 'iobench quick .'.\n\n"
		     "commands:\n");
	command_print_list(out);
	fprintf(out, "\n'iobench help COMMAND' shows a command's usage; 'iobench help options'\n"
		     "lists every job option; 'iobench help man' prints the man page.\n");
}

static int run_help(int argc, char **argv)
{
	if (argc < 2) {
		print_overview(stdout);
		return 0;
	}
	if (argc > 2) {
		error("'iobench help' takes one topic, not '%s' after '%s'; see 'iobench help'",
		      argv[2], argv[1]);
		return 1;
	}
	if (!strcmp(argv[1], "options")) {
		options_print_help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "man")) {
		manpage_write(stdout);
		return 0;
	}
	const struct command *c = command_find(argv[1]);
	if (!c) {
		error("no help for '%s': not a command", argv[1]);
		print_overview(stderr);
		return 1;
	}
	fputs(c->usage, stdout);
	return 0;
}

const struct command cmd_help = {
	.name = "help",
	.summary = "show commands, a command's usage, the job options or the man page",
	.usage = "usage: iobench help [COMMAND | options | man]\n",
	.run = run_help,
};
