/*
 * Generated documentation of the option table: the plain-text table behind
 * `iobench help options`, and troff ".TP" entries for the OPTIONS section of
 * the man page. Both read only option_table, so they cannot drift from it.
 */
#include "spec/options.h"

#include <stdio.h>
#include <string.h>

static void print_names(FILE *out, const struct option_def *o, const char *sep)
{
	fputs(o->name, out);
	for (int a = 0; a < 2; a++)
		if (o->alias[a])
			fprintf(out, "%s%s", sep, o->alias[a]);
}

void options_print_help(FILE *out)
{
	fprintf(out, "%-28s %-26s %-10s %s\n", "OPTION", "VALUE", "DEFAULT", "DESCRIPTION");
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_def *o = &option_table[i];
		char names[96];
		int n = snprintf(names, sizeof(names), "%s", o->name);
		for (int a = 0; a < 2 && n > 0 && (size_t)n < sizeof(names); a++)
			if (o->alias[a])
				n += snprintf(names + n, sizeof(names) - n, ", %s", o->alias[a]);
		const char *def = o->def ? o->def : "-";
		if (strlen(def) > 10)
			def = "see below";
		fprintf(out, "%-28s %-26s %-10s %s\n", names, o->type_text, def, o->help);
	}
	fputs("\nsizes take k m g t p (1024-based; KiB is 1000-based unless kb_base=1000),\n"
	      "times take d h m s ms us; ranges use '-' or ':'; per-direction values are\n"
	      "read,write,trim. default percentile_list: 1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99\n",
	      out);
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

void options_print_man(FILE *out)
{
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_def *o = &option_table[i];
		fputs(".TP\n\\fB", out);
		print_names(out, o, "\\fR, \\fB");
		fputs("\\fR=\\fI", out);
		troff_text(out, o->type_text);
		fputs("\\fR\n", out);
		troff_text(out, o->help);
		if (o->def) {
			fputs(" (default: ", out);
			troff_text(out, o->def);
			fputc(')', out);
		}
		fputc('\n', out);
	}
}
