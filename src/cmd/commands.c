/*
 * The command table and dispatcher: `iobench CMD ARGS...`, `iobench help`,
 * `iobench --version`, and `iobench` alone, which is `iobench quick .`.
 * An unknown command suggests the nearest name.
 */
#include "cmd/command.h"

#include <stdio.h>
#include <string.h>

#include "cmd/output.h"
#include "engines/engine.h"
#include "util/error.h"
#include "util/strutil.h"

extern const struct command cmd_run;
extern const struct command cmd_quick;
extern const struct command cmd_bonnie;
extern const struct command cmd_sysinfo;
extern const struct command cmd_monitor;
extern const struct command cmd_help;
extern const struct command cmd_version;

static const struct command *const commands[] = {
	&cmd_run,
	&cmd_quick,
	&cmd_bonnie,
	&cmd_sysinfo,
	&cmd_monitor,
	&cmd_help,
	&cmd_version,
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct command *command_at(size_t i)
{
	return i < NR_COMMANDS ? commands[i] : NULL;
}

const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

void command_print_list(FILE *out)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "   %-10s %s\n", commands[i]->name, commands[i]->summary);
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
	if (engines_validate() < 0)
		return 1;
	if (argc < 2) {
		char *quick_argv[] = { (char *)"quick", (char *)".", NULL };
		int status = cmd_quick.run(2, quick_argv);
		if (status == 0 && output_check(stdout, NULL, NULL) < 0)
			status = 1;
		return status;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "-V"))
		name = "version";
	else if (!strcmp(name, "--help") || !strcmp(name, "-h"))
		name = "help";
	const struct command *c = command_find(name);
	if (!c)
		return unknown_command(name);
	int status = c->run(argc - 1, argv + 1);
	/* whatever a command that succeeded printed must have reached stdout
	 * (commands with a report check it themselves, naming it; one that
	 * failed has said why, and says nothing twice) */
	if (status == 0 && output_check(stdout, NULL, NULL) < 0)
		status = 1;
	return status;
}
