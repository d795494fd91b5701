/*
 * The command table (commands.h): `iobench CMD ARGS...`, `iobench help`,
 * `iobench --version`, and `iobench` alone, which is `iobench quick .`;
 * invoked under the name `fio` (a symlink), iobench is `iobench run`.
 * An unknown command suggests the nearest name. What is done for one
 * command (its flags, its parser, its usage, the table's check at
 * start-up) is the framework's dispatcher (cli/dispatch.c).
 */
#include "cmd/commands.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "util/array.h"
#include "util/error.h"
#include "util/strutil.h"

extern const struct command cmd_run;
extern const struct command cmd_quick;
extern const struct command cmd_bonnie;
extern const struct command cmd_results;
extern const struct command cmd_compare;
extern const struct command cmd_report;
extern const struct command cmd_sysinfo;
extern const struct command cmd_monitor;
extern const struct command cmd_sweep;
extern const struct command cmd_help;
extern const struct command cmd_version;

static const struct command *const commands[] = {
	&cmd_run,
	&cmd_quick,
	&cmd_bonnie,
	&cmd_results,
	&cmd_compare,
	&cmd_report,
	&cmd_sysinfo,
	&cmd_monitor,
	&cmd_sweep,
	&cmd_help,
	&cmd_version,
};

#define NR_COMMANDS (ARRAY_SIZE(commands))

static const struct command_table table = { commands, NR_COMMANDS };

const struct command_table *commands_table(void)
{
	return &table;
}

const struct command *command_at(size_t i)
{
	return i < NR_COMMANDS ? commands[i] : NULL;
}

const struct command *command_find(const char *name)
{
	return command_table_find(&table, name);
}

void command_print_list(FILE *out)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "   %-10s %s\n", commands[i]->name, commands[i]->summary);
}

int command_run(const struct command *c, int argc, char **argv)
{
	return command_dispatch(c, argc, argv, NULL, false);
}

int command_run_as_fio(const struct command *c, int argc, char **argv)
{
	return command_dispatch(c, argc, argv, NULL, true);
}

int command_run_dist(const struct command *c, int argc, char **argv,
		     const struct dist_hooks *dist)
{
	return command_dispatch(c, argc, argv, dist, false);
}

int commands_validate(void)
{
	return command_table_validate(&table);
}

static int unknown_command(const char *name)
{
	const char *names[NR_COMMANDS];
	for (size_t i = 0; i < NR_COMMANDS; i++)
		names[i] = commands[i]->name;
	const char *near = suggest_nearest(name, names, NR_COMMANDS);
	if (near)
		error("'%s' is not an iobench command; did you mean '%s'?", name, near);
	else
		error("'%s' is not an iobench command; see 'iobench help'", name);
	return 1;
}

int cmd_main(int argc, char **argv)
{
	if (engines_validate() < 0 || commands_validate() < 0)
		return 1;
	/* invoked as `fio` (a symlink, as harnesses call it): `iobench run`,
	 * told so (cmd_ctx.as_fio), which makes it fio 3.33 to its readers */
	const char *base = argc > 0 && argv[0] ? strrchr(argv[0], '/') : NULL;
	if (argc > 0 && argv[0] && !strcmp(base ? base + 1 : argv[0], "fio"))
		return command_run_as_fio(&cmd_run, argc, argv);
	if (argc < 2) {
		char *quick_argv[] = { (char *)"quick", (char *)".", NULL };
		return command_run(&cmd_quick, 2, quick_argv);
	}
	const char *name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "-V"))
		name = "version";
	else if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	const struct command *c = command_find(name);
	if (!c)
		return unknown_command(name);
	return command_run(c, argc - 1, argv + 1);
}
