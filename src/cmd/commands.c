/*
 * The command table and dispatcher: `iobench CMD ARGS...`, `iobench help`,
 * `iobench --version`, and `iobench` alone, which is `iobench quick .`;
 * invoked under the name `fio` (a symlink), iobench is `iobench run`.
 * An unknown command suggests the nearest name. The dispatcher acts on a
 * descriptor's flags (command.h), builds a command's parser from its rows
 * and the shared ones, prints its usage from the same rows, and checks the
 * table at start-up.
 */
#include "cmd/command.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/output.h"
#include "cmd/storing.h"
#include "engines/engine.h"
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

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))


/* The results store, for CMD_OPENS_STORE: opened once the options are
 * parsed (with their --db), closed after the command (cmd/storing.h); for
 * CMD_READS_STORE: its --db kept once parsed, closed after the command. */
static const struct {
	int (*open)(struct cmd_ctx *ctx, const struct cmd_common *common);
	void (*reads)(struct cmd_ctx *ctx, const struct cmd_common *common);
	void (*close)(struct cmd_ctx *ctx);
} store_hooks = { cmd_store_open, cmd_store_reads, cmd_store_close };

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

unsigned command_common_mask(const struct command *c)
{
	return c->common | (c->flags & CMD_WATCHES_ENV ? COMMON_ENVWATCH : 0);
}

void command_print_usage(const struct command *c, FILE *out)
{
	fputs(c->usage, out);
	if (c->opts)
		cmdopt_print_rows(out, c->opts, ~0u, c->help_for);
	cmdopt_print_rows(out, cmd_common_rows, command_common_mask(c), c->help_for);
	if (c->usage_tail)
		fputs(c->usage_tail, out);
}

void command_parser(struct cmdopt_parser *p, const struct command *c, void *own,
		    struct cmd_common *common)
{
	memset(p, 0, sizeof(*p));
	p->mode = c->flags & CMD_FIO_ARGS ? CMDOPT_FIO : CMDOPT_STRICT;
	p->command = c->name;
	if (c->opts)
		p->sets[p->nr_sets++] = (struct cmdopt_set){ c->opts, ~0u, own };
	p->sets[p->nr_sets++] = (struct cmdopt_set){ cmd_common_rows, command_common_mask(c), common };
}

int command_parsed(struct cmd_ctx *ctx, const struct cmd_common *common)
{
	if ((ctx->cmd->flags & CMD_OPENS_STORE) && store_hooks.open &&
	    store_hooks.open(ctx, common) < 0)
		return -1;
	if ((ctx->cmd->flags & CMD_READS_STORE) && store_hooks.reads)
		store_hooks.reads(ctx, common);
	return 0;
}

int command_parse(struct cmd_ctx *ctx, const struct cmdopt_parser *p, int argc, char **argv,
		  const struct cmd_common *common)
{
	char why[1024];
	int rc = cmdopt_parse(p, argc, argv, why, sizeof(why));
	if (rc == CMDOPT_HELP_ASKED) {
		command_print_usage(ctx->cmd, stdout);
		return CMDOPT_HELP_ASKED;
	}
	if (rc < 0) {
		error("%s", why);
		return -1;
	}
	return command_parsed(ctx, common);
}

int command_check_root(const struct command *c, uid_t euid)
{
	if (!(c->flags & CMD_NEEDS_ROOT) || euid == 0)
		return 0;
	error("'iobench %s' needs root: run it as root", c->name);
	return -EPERM;
}

/* The dispatcher's work for one command, with its context's invocation. */
static int run_command(const struct command *c, int argc, char **argv,
		       const struct dist_hooks *dist, bool as_fio)
{
	if (command_check_root(c, geteuid()) < 0)
		return 1;
	struct cmd_ctx ctx = { .cmd = c, .argc = argc, .argv = argv, .dist = dist,
			       .as_fio = as_fio };
	int status = c->run(&ctx, argc, argv);
	if (store_hooks.close)
		store_hooks.close(&ctx);
	/* whatever a command that succeeded printed must have reached stdout
	 * (commands with a report check it themselves, naming it; one that
	 * failed has said why, and says nothing twice) */
	if (status == 0 && output_check(stdout, NULL, NULL) < 0)
		status = 1;
	return status;
}

int command_run(const struct command *c, int argc, char **argv)
{
	return run_command(c, argc, argv, NULL, false);
}

int command_run_as_fio(const struct command *c, int argc, char **argv)
{
	return run_command(c, argc, argv, NULL, true);
}

int command_run_dist(const struct command *c, int argc, char **argv,
		     const struct dist_hooks *dist)
{
	return run_command(c, argc, argv, dist, false);
}

/* --- the table's own check ----------------------------------------- */

/* Is flag ("--name" or "-c") written in text as a word of its own? */
static bool mentions(const char *text, const char *flag)
{
	size_t n = strlen(flag);
	for (const char *s = text; (s = strstr(s, flag)); s++) {
		char before = s == text ? ' ' : s[-1];
		char after = s[n];
		if (!isalnum((unsigned char)before) && before != '-' &&
		    !isalnum((unsigned char)after) && after != '-' && after != '_')
			return true;
	}
	return false;
}

static int validate_rows(const struct command *c, const struct cmdopt *rows, unsigned mask,
			 const char *usage, const char **names, size_t *nn, char *letters)
{
	int rc = 0;
	for (const struct cmdopt *r = rows; !cmdopt_row_end(r); r++) {
		if (!cmdopt_row_taken(r, mask))
			continue;
		char flag[64];
		if (r->name) {
			for (size_t k = 0; k < *nn; k++)
				if (!strcmp(names[k], r->name))
					rc = error("command '%s' has option '--%s' twice", c->name, r->name);
			names[(*nn)++] = r->name;
			snprintf(flag, sizeof(flag), "--%s", r->name);
			if (!mentions(usage, flag))
				rc = error("command '%s': its usage does not name '%s'", c->name, flag);
		}
		if (r->letter) {
			if (strchr(letters, r->letter))
				rc = error("command '%s' has option '-%c' twice", c->name, r->letter);
			size_t l = strlen(letters);
			letters[l] = r->letter;
			letters[l + 1] = 0;
			snprintf(flag, sizeof(flag), "-%c", r->letter);
			if (!mentions(usage, flag))
				rc = error("command '%s': its usage does not name '%s'", c->name, flag);
		}
		if (r->action == CMDOPT_CALL && !r->fn)
			rc = error("command '%s': option row '%s' has no callback", c->name,
				   r->name ? r->name : flag);
	}
	return rc;
}

int commands_validate(void)
{
	int rc = 0;
	for (size_t i = 0; i < NR_COMMANDS; i++) {
		const struct command *c = commands[i];
		char *usage = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&usage, &len);
		if (!m)
			return error_errno(-errno, "cannot check the command table");
		command_print_usage(c, m);
		fclose(m);
		const char *names[256];
		char letters[256] = "";
		size_t nn = 0, nrows = 0;
		for (const struct cmdopt *r = c->opts; r && !cmdopt_row_end(r); r++)
			nrows++;
		for (const struct cmdopt *r = cmd_common_rows; !cmdopt_row_end(r); r++)
			nrows++;
		if (nrows > 200) {
			free(usage);
			return error("command '%s' has more option rows than its check holds", c->name);
		}
		if (c->opts && validate_rows(c, c->opts, ~0u, usage, names, &nn, letters) < 0)
			rc = -EINVAL;
		if (validate_rows(c, cmd_common_rows, command_common_mask(c), usage, names, &nn,
				  letters) < 0)
			rc = -EINVAL;
		if ((c->flags & CMD_OPENS_STORE) && (c->flags & CMD_READS_STORE))
			rc = error("command '%s' both opens the store to store and reads it",
				   c->name);
		if ((c->common & COMMON_ENVWATCH) && !(c->flags & CMD_WATCHES_ENV))
			rc = error("command '%s' takes the envwatch options without CMD_WATCHES_ENV",
				   c->name);
		free(usage);
	}
	return rc;
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
