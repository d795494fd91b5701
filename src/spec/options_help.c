/*
 * Generated documentation of the options: the plain-text table behind
 * `iobench help options` and troff ".TP" entries for the man page, from
 * option_table and then, engine by engine from the registry, each engine's
 * summary and its own option rows (as fio's --enghelp); and one option
 * alone (`iobench help options NAME`, run's --cmdhelp=NAME). All read only
 * the tables, so they cannot drift from them.
 */
#include "spec/options.h"
#include "engines/engine.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"

static void print_names(FILE *out, const struct option_def *o, const char *sep)
{
	fputs(o->name, out);
	for (int a = 0; a < 2; a++)
		if (o->alias[a])
			fprintf(out, "%s%s", sep, o->alias[a]);
}

static void print_row(FILE *out, const struct option_def *o)
{
	char names[96], help[512];
	int n = snprintf(names, sizeof(names), "%s", o->name);
	for (int a = 0; a < 2 && n > 0 && (size_t)n < sizeof(names); a++)
		if (o->alias[a])
			n += snprintf(names + n, sizeof(names) - n, ", %s", o->alias[a]);
	const char *def = o->def ? o->def : "-";
	if (strlen(def) > 10)
		def = "see below";
	fprintf(out, "%-28s %-26s %-10s %s\n", names, o->type_text, def, optdef_help(o, help, sizeof(help)));
}

void options_print_help(FILE *out)
{
	const struct engine_ops *e;
	fprintf(out, "%-28s %-26s %-10s %s\n", "OPTION", "VALUE", "DEFAULT", "DESCRIPTION");
	for (size_t i = 0; i < option_table_len; i++)
		print_row(out, &option_table[i]);
	fputs("\nsizes take k m g t p (1024-based; KiB is 1000-based unless kb_base=1000),\n"
	      "times take d h m s ms us; ranges use '-' or ':'; per-direction values are\n"
	      "read,write,trim. default percentile_list: 1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99\n",
	      out);
	fprintf(out, "\n%-28s %s\n", "ENGINE (ioengine=)", "DESCRIPTION");
	for (size_t i = 0; (e = engine_at(i)); i++)
		fprintf(out, "%-28s %s\n", e->name, e->summary);
	for (size_t i = 0; (e = engine_at(i)); i++) {
		if (!e->nr_options)
			continue;
		fprintf(out, "\noptions of ioengine=%s (an error with any other engine):\n", e->name);
		for (size_t k = 0; k < e->nr_options; k++)
			print_row(out, &e->options[k]);
	}
}

/* Escape troff specials: backslash and a leading dot or quote. */
static void troff_text(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

static void man_row(FILE *out, const struct option_def *o)
{
	char help[512];
	fputs(".TP\n\\fB", out);
	print_names(out, o, "\\fR, \\fB");
	fputs("\\fR=\\fI", out);
	troff_text(out, o->type_text);
	fputs("\\fR\n", out);
	troff_text(out, optdef_help(o, help, sizeof(help)));
	if (o->def) {
		fputs(" (default: ", out);
		troff_text(out, o->def);
		fputc(')', out);
	}
	fputc('\n', out);
}

void options_print_man(FILE *out)
{
	for (size_t i = 0; i < option_table_len; i++)
		man_row(out, &option_table[i]);
}

void options_print_man_engines(FILE *out)
{
	const struct engine_ops *e;
	fputs(".SH ENGINES\n"
	      "A job's engine is its ioengine= option. The options listed under an\n"
	      "engine are its own: a job that uses another engine refuses them, as fio\n"
	      "does. In a job file they may come before ioengine= in their section; on\n"
	      "the command line they must follow \\-\\-ioengine. A job inherits the engine\n"
	      "options of [global] only while it keeps the engine of [global].\n", out);
	for (size_t i = 0; (e = engine_at(i)); i++) {
		fprintf(out, ".TP\n.B %s\n", e->name);
		troff_text(out, e->summary);
		fputc('\n', out);
		if (!e->nr_options)
			continue;
		fputs(".RS\n", out);
		for (size_t k = 0; k < e->nr_options; k++)
			man_row(out, &e->options[k]);
		fputs(".RE\n", out);
	}
}

int options_print_one(FILE *out, const char *key)
{
	const struct option_def *o = option_find_any(key); /* a job's or an engine's */
	if (!o) {
		const char *near = option_suggest(key);
		if (near)
			return error("no job option '%s'; did you mean '%s'?", key, near);
		return error("no job option '%s'; 'iobench help options' lists them", key);
	}
	fprintf(out, "%20s: %s\n", o->name, o->help);
	for (int a = 0; a < 2; a++)
		if (o->alias[a])
			fprintf(out, "%20s: %s\n", "alias", o->alias[a]);
	fprintf(out, "%20s: %s\n", "type", o->type_text);
	fprintf(out, "%20s: %s\n", "default", o->def ? o->def : "no default");
	if (o->type == OPT_UINT || o->type == OPT_SIZE || o->type == OPT_TIME) {
		if (o->max)
			fprintf(out, "%20s: min=%llu, max=%llu\n", "range", (unsigned long long)o->min,
				(unsigned long long)o->max);
		else if (o->min)
			fprintf(out, "%20s: min=%llu\n", "range", (unsigned long long)o->min);
	}
	return 0;
}
