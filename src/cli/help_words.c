/*
 * `iobench help words TOPIC [CMD]`: the words a shell completes, one per
 * line, read from the same tables as the usage and the man page, so the
 * bash completion (completion/iobench.bash) cannot drift from the code:
 * the commands, a command's flags (its own rows and the shared rows it
 * takes), a command's subcommands, the job options (the option table and
 * every engine's own rows, as --NAME= for run's command line), the
 * engines, and the values of a job option that takes words (its row's
 * listed words, or its choices: the engines for ioengine).
 */
#include "cli/help_words.h"

#include <errno.h>
#include <string.h>

#include "cli/command.h"
#include "cli/common_opts.h"
#include "engines/engine.h"
#include "spec/options.h"
#include "util/error.h"

static void rows_words(FILE *out, const struct cmdopt *rows, unsigned mask)
{
	for (const struct cmdopt *r = rows; !cmdopt_row_end(r); r++) {
		if (r->group && !(r->group & mask))
			continue;
		if (r->name)
			fprintf(out, "--%s%s\n", r->name, r->arg == CMDOPT_REQARG ? "=" : "");
		if (r->letter)
			fprintf(out, "-%c\n", r->letter);
	}
}

static void option_words(FILE *out, const struct option_def *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *spell[3] = { rows[i].name, rows[i].alias[0], rows[i].alias[1] };
		for (int k = 0; k < 3; k++)
			if (spell[k])
				fprintf(out, "--%s=\n", spell[k]);
	}
}

/* The words option key takes, from the first row of that name (the job
 * table's, then the engines'): 0, or -EINVAL when no row is named key. */
static int value_words(FILE *out, const char *key)
{
	const struct option_def *o = key ? option_find_any(key) : NULL;
	if (!o)
		return error("'iobench help words values' needs a job option name%s%s%s",
			     key ? ", not '" : "", key ? key : "", key ? "'" : "");
	for (const struct opt_posval *p = o->posval; p && p->word; p++)
		if (!p->unlisted)
			fprintf(out, "%s\n", p->word);
	const char *const *v = o->choices ? o->choices() : NULL;
	for (; v && *v; v++)
		fprintf(out, "%s\n", *v);
	return 0;
}

static const struct command *need_command(const struct command_table *t, const char *topic,
					   const char *arg)
{
	const struct command *c = arg ? command_table_find(t, arg) : NULL;
	if (!c)
		error("'iobench help words %s' needs a command name%s%s%s", topic,
		      arg ? ", not '" : "", arg ? arg : "", arg ? "'" : "");
	return c;
}

int help_words(FILE *out, const struct command_table *t, const char *topic, const char *arg)
{
	const struct command *c;
	if (!strcmp(topic, "commands")) {
		for (size_t i = 0; i < t->n; i++)
			fprintf(out, "%s\n", t->v[i]->name);
	} else if (!strcmp(topic, "flags")) {
		if (!(c = need_command(t, topic, arg)))
			return -EINVAL;
		if (c->opts)
			rows_words(out, c->opts, ~0u);
		rows_words(out, cmd_common_rows, command_common_mask(c));
	} else if (!strcmp(topic, "subcommands")) {
		if (!(c = need_command(t, topic, arg)))
			return -EINVAL;
		const char *w;
		for (size_t i = 0; c->subcommand_at && (w = c->subcommand_at(i)); i++)
			fprintf(out, "%s\n", w);
	} else if (!strcmp(topic, "options")) {
		const struct engine_ops *e;
		option_words(out, option_table, option_table_len);
		for (size_t i = 0; (e = engine_at(i)); i++)
			option_words(out, e->options, e->nr_options);
	} else if (!strcmp(topic, "engines")) {
		for (const char *const *e = engine_names(); *e; e++)
			fprintf(out, "%s\n", *e);
	} else if (!strcmp(topic, "values")) {
		return value_words(out, arg);
	} else {
		return error("unknown topic '%s' for 'iobench help words': give commands, "
			     "flags CMD, subcommands CMD, options, engines or values OPTION", topic);
	}
	return 0;
}
