/*
 * The dispatcher's work for one command (command.h): it acts on the
 * descriptor's flags, builds the command's parser from its rows and the
 * shared ones, prints its usage from the same rows, and checks a table of
 * descriptors; the table itself is the commands' (cmd/commands.c), handed
 * in where it is read.
 */
#include "cli/command.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/output.h"
#include "cli/storing.h"
#include "util/error.h"

/* The results store, for CMD_OPENS_STORE: opened once the options are
 * parsed (with their --db), closed after the command (cli/storing.h); for
 * CMD_READS_STORE: its --db kept once parsed, closed after the command. */
static const struct {
	int (*open)(struct cmd_ctx *ctx, const struct cmd_common *common);
	void (*reads)(struct cmd_ctx *ctx, const struct cmd_common *common);
	void (*close)(struct cmd_ctx *ctx);
} store_hooks = { cmd_store_open, cmd_store_reads, cmd_store_close };

const struct command *command_table_find(const struct command_table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i]->name, name))
			return t->v[i];
	return NULL;
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

int command_dispatch(const struct command *c, int argc, char **argv,
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

int command_table_validate(const struct command_table *t)
{
	int rc = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct command *c = t->v[i];
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
