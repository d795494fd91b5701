/*
 * `iobench help [CMD | options [NAME] | man | words TOPIC [ARG]]`: the
 * command list generated from the command table, one command's usage, the
 * job-option table or one option, the man page generated from the same
 * tables, or the words shell completion offers (help_words.c).
 */
#include "cmd/commands.h"

#include <stdio.h>
#include <string.h>

#include "cli/help_words.h"
#include "cli/manpage.h"
#include "util/error.h"
#include "spec/options.h"

static void print_overview(FILE *out)
{
	fprintf(out, "usage: iobench [COMMAND [ARGS...]]\n\n"
		     "iobench is a storage benchmark: fio-compatible job files, a quick\n"
		     "suite, and honest statistics. With no command it runs 'iobench quick .'.\n\n"
		     "commands:\n");
	command_print_list(out);
	fprintf(out, "\n'iobench help COMMAND' shows a command's usage; 'iobench help options'\n"
		     "lists every job option ('iobench help options NAME' one of them);\n"
		     "'iobench help man' prints the man page.\n");
}

static int topic(void *arg, const char *word, char *why, size_t len)
{
	cmdopt_list_add(arg, word);
	return 0;
}

static int run_help(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct cmdopt_list topics = { 0 };
	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, NULL, NULL);
	p.operand = topic;
	p.operand_arg = &topics;
	int rc = command_parse(ctx, &p, argc, argv, NULL), status = 1;
	if (rc) {
		status = rc > 0 ? 0 : 1;
	} else if (!topics.n) {
		print_overview(stdout);
		status = 0;
	} else if (topics.n >= 2 && topics.n <= 3 && !strcmp(topics.v[0], "words")) {
		status = help_words(stdout, commands_table(), topics.v[1],
				    topics.n == 3 ? topics.v[2] : NULL) < 0;
	} else if (topics.n == 2 && !strcmp(topics.v[0], "options")) {
		status = options_print_one(stdout, topics.v[1]) < 0 ? 1 : 0;
	} else if (topics.n > 1) {
		error("'iobench help' takes one topic, not '%s' after '%s'; see 'iobench help'",
		      topics.v[1], topics.v[0]);
	} else if (!strcmp(topics.v[0], "options")) {
		options_print_help(stdout);
		status = 0;
	} else if (!strcmp(topics.v[0], "man")) {
		manpage_write(stdout, commands_table());
		status = 0;
	} else {
		const struct command *c = command_find(topics.v[0]);
		if (!c) {
			error("no help for '%s': not a command", topics.v[0]);
			print_overview(stderr);
		} else {
			command_print_usage(c, stdout);
			status = 0;
		}
	}
	cmdopt_list_release(&topics);
	return status;
}

const struct command cmd_help = {
	.name = "help",
	.summary = "show commands, a command's usage, the job options or the man page",
	.usage = "usage: iobench help [COMMAND | options [NAME] | man | words TOPIC [ARG]]\n"
		 "\n"
		 "'words' prints what shell completion offers, one per line: the commands,\n"
		 "a command's flags or subcommands ('words flags run'), the job options\n"
		 "('words options'), the engines ('words engines') or the values a job\n"
		 "option takes ('words values rw').\n"
		 "\n"
		 "options:\n",
	.common = COMMON_HELP,
	.run = run_help,
};
