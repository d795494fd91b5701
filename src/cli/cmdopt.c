/*
 * The table-driven command-line parser (cmdopt.h): one pass over argv,
 * each word an operand, a long option (exact, or in fio mode a unique
 * prefix, or a foreign job option by its name or a unique prefix), or a
 * group of letters; and the messages for what is none of them.
 */
#include "cli/cmdopt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/strutil.h"
#include "util/xmalloc.h"

/* do_long: nothing of that name (the caller may try letters). */
#define NO_MATCH 2
/* candidates named in an "ambiguous" message */
#define MAX_NAMED 8

void cmdopt_list_add(struct cmdopt_list *l, const char *s)
{
	l->v = xrealloc(l->v, (l->n + 2) * sizeof(*l->v));
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

void cmdopt_list_release(struct cmdopt_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

size_t cmdopt_suggest_score(const char *word, const char *cand)
{
	size_t wl = strlen(word), cl = strlen(cand);
	size_t limit = wl / 3 > 1 ? wl / 3 : 1;
	if (!wl)
		return (size_t)-1;
	if ((wl > cl ? wl - cl : cl - wl) <= limit) {
		size_t d = str_distance(word, cand);
		if (d <= limit)
			return d;
	}
	if (wl >= 3 && !strncasecmp(word, cand, wl))
		return limit + 1;
	return (size_t)-1;
}

/* A row found, and the struct its offset points into. */
struct hit {
	const struct cmdopt *row;
	void *dest;
};

#define FOR_ROWS(p, s, r) \
	for (const struct cmdopt_set *s = (p)->sets; s < (p)->sets + (p)->nr_sets; s++) \
		for (const struct cmdopt *r = s->rows; !cmdopt_row_end(r); r++) \
			if (cmdopt_row_taken(r, s->mask))

static bool find_exact(const struct cmdopt_parser *p, const char *key, size_t klen, struct hit *h)
{
	FOR_ROWS(p, s, r)
		if (r->name && strlen(r->name) == klen && !strncmp(r->name, key, klen)) {
			*h = (struct hit){ r, s->dest };
			return true;
		}
	return false;
}

/* Rows whose name begins with key[0..klen): how many, the first in *h,
 * the first MAX_NAMED names in names[]. */
static size_t find_prefix(const struct cmdopt_parser *p, const char *key, size_t klen,
			  struct hit *h, const char **names)
{
	size_t n = 0;
	FOR_ROWS(p, s, r)
		if (r->name && !strncmp(r->name, key, klen)) {
			if (!n)
				*h = (struct hit){ r, s->dest };
			if (n < MAX_NAMED)
				names[n] = r->name;
			n++;
		}
	return n;
}

static bool find_letter(const struct cmdopt_parser *p, char c, struct hit *h)
{
	FOR_ROWS(p, s, r)
		if (r->letter && r->letter == c) {
			*h = (struct hit){ r, s->dest };
			return true;
		}
	return false;
}

static int apply(const struct hit *h, const char *value, char *why, size_t len)
{
	char *field = (char *)h->dest + h->row->off;
	switch (h->row->action) {
	case CMDOPT_TRUE:
		*(bool *)field = true;
		return 0;
	case CMDOPT_FALSE:
		*(bool *)field = false;
		return 0;
	case CMDOPT_STRING:
		*(const char **)field = value;
		return 0;
	case CMDOPT_APPEND:
		cmdopt_list_add((struct cmdopt_list *)field, value);
		return 0;
	case CMDOPT_CALL:
		return h->row->fn(h->dest, h->row, value, why, len);
	case CMDOPT_HELP:
		return CMDOPT_HELP_ASKED;
	}
	return fail(why, len, "option row '%s' has no action", h->row->name);
}

/* "did you mean '--x'?" among the rows and the foreign names, or the
 * pointer to 'iobench help CMD'. */
static void unknown(const struct cmdopt_parser *p, const char *shown, int shown_len,
		    const char *key, size_t klen, char *why, size_t len)
{
	char *k = xstrndup(key, klen);
	const char **names = xcalloc(1, sizeof(*names));
	size_t n = 0;
	FOR_ROWS(p, s, r)
		if (r->name) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = r->name;
		}
	const char *best = suggest_nearest(k, names, n);
	size_t score = best ? cmdopt_suggest_score(k, best) : (size_t)-1;
	if (p->mode == CMDOPT_FIO && p->foreign && p->foreign->nearest) {
		size_t fs = (size_t)-1;
		const char *f = p->foreign->nearest(p->foreign->arg, k, &fs);
		if (f && fs < score) {
			best = f;
			score = fs;
		}
	}
	if (best)
		fail(why, len, "unknown option '%.*s' for 'iobench %s'; did you mean '--%s'?",
		     shown_len, shown, p->command, best);
	else
		fail(why, len, "unknown option '%.*s' for 'iobench %s'; see 'iobench help %s'",
		     shown_len, shown, p->command, p->command);
	free(names);
	free(k);
}

/* A foreign option name[0..nlen) of the given kind: its value from
 * "=..." (val) or, as its kind says, the next word. */
static int take_foreign(const struct cmdopt_parser *p, int kind, const char *shown, int shown_len,
			const char *name, size_t nlen, const char *val, int argc, char **argv,
			int *i, char *why, size_t len)
{
	const struct cmdopt_foreign *fo = p->foreign;
	if (!val && kind == CMDOPT_REQARG) {
		if (*i + 1 >= argc)
			return fail(why, len, "option '%.*s' needs a value", shown_len, shown);
		val = argv[++*i];
	} else if (!val && kind == CMDOPT_MAYBEARG && *i + 1 < argc && argv[*i + 1][0] != '-') {
		val = argv[++*i];
	}
	int rc = fo->take(fo->arg, name, nlen, val, why, len);
	return rc < 0 ? rc : 0;
}

/* The foreign kind of key[0..klen), or -1 (also outside fio mode). */
static int foreign_kind(const struct cmdopt_parser *p, const char *key, size_t klen)
{
	const struct cmdopt_foreign *fo = p->foreign;
	if (p->mode != CMDOPT_FIO || !fo || !fo->kind || !fo->take)
		return -1;
	return fo->kind(fo->arg, key, klen);
}

/* A long option's row found: its value from "=..." or the next word. */
static int take_long(const struct cmdopt_parser *p, const struct hit *h, const char *word,
		     const char *val, int argc, char **argv, int *i, char *why, size_t len)
{
	const struct cmdopt *r = h->row;
	if (r->arg == CMDOPT_NOARG && val) {
		/* fio mode: --readonly=1 is the job option readonly */
		int kind = foreign_kind(p, r->name, strlen(r->name));
		if (kind >= 0)
			return take_foreign(p, kind, word, (int)(val - 1 - word), r->name,
					    strlen(r->name), val, argc, argv, i, why, len);
		return fail(why, len, "option '--%s' takes no value, not '%s'", r->name, val);
	}
	if (r->arg == CMDOPT_REQARG && !val) {
		if (*i + 1 >= argc)
			return fail(why, len, "option '--%s' needs a value", r->name);
		val = argv[++*i];
	}
	return apply(h, val, why, len);
}

/* rows[0..min(nrows, MAX_NAMED)) and foreign[0..listed) of nforeign */
static int ambiguous(const struct cmdopt_parser *p, const char *shown, int shown_len,
		     const char **rows, size_t nrows, const char **foreign, size_t listed,
		     size_t nforeign, char *why, size_t len)
{
	size_t off = (size_t)snprintf(why, len, "option '%.*s' is ambiguous for 'iobench %s'; "
				      "possibilities:", shown_len, shown, p->command);
	size_t named = 0;
	for (size_t k = 0; k < nrows && k < MAX_NAMED && named < MAX_NAMED && off < len; k++, named++)
		off += (size_t)snprintf(why + off, len - off, " '--%s'", rows[k]);
	for (size_t k = 0; k < listed && named < MAX_NAMED && off < len; k++, named++)
		off += (size_t)snprintf(why + off, len - off, " '--%s'", foreign[k]);
	if (off < len && nrows + nforeign > named)
		snprintf(why + off, len - off, " and %zu more", nrows + nforeign - named);
	return -EINVAL;
}

/* word is "--key[=value]" (or "-key[=value]" in fio mode); key points
 * past the dashes. 0, CMDOPT_HELP_ASKED, -EINVAL, or NO_MATCH when
 * nothing has that name (why untouched). */
static int do_long(const struct cmdopt_parser *p, const char *word, const char *key, int argc,
		   char **argv, int *i, char *why, size_t len)
{
	const char *eq = strchr(key, '=');
	size_t klen = eq ? (size_t)(eq - key) : strlen(key);
	const char *val = eq ? eq + 1 : NULL;
	int shown_len = (int)(key - word + klen);
	const struct cmdopt_foreign *fo = p->mode == CMDOPT_FIO ? p->foreign : NULL;
	struct hit h;
	if (!klen)
		return NO_MATCH;
	if (find_exact(p, key, klen, &h))
		return take_long(p, &h, word, val, argc, argv, i, why, len);
	int kind = foreign_kind(p, key, klen);
	if (kind >= 0)
		return take_foreign(p, kind, word, shown_len, key, klen, val, argc, argv, i, why,
				    len);
	if (p->mode != CMDOPT_FIO)
		return NO_MATCH;
	/* getopt_long_only: a unique prefix, among the rows and the
	 * foreign options alike */
	const char *rows[MAX_NAMED], *foreign[MAX_NAMED];
	size_t nr = find_prefix(p, key, klen, &h, rows);
	size_t nf = fo && fo->prefixed ? fo->prefixed(fo->arg, key, klen, foreign, MAX_NAMED) : 0;
	/* a job option of a row's name (readonly) is that row here */
	struct hit same;
	size_t listed = nf < MAX_NAMED ? nf : MAX_NAMED;
	for (size_t k = 0; k < listed;)
		if (find_exact(p, foreign[k], strlen(foreign[k]), &same)) {
			memmove(foreign + k, foreign + k + 1, (listed - k - 1) * sizeof(*foreign));
			listed--;
			nf--;
		} else {
			k++;
		}
	if (nr == 1 && nf == 0)
		return take_long(p, &h, word, val, argc, argv, i, why, len);
	if (nr == 0 && nf == 1 && listed == 1 &&
	    (kind = foreign_kind(p, foreign[0], strlen(foreign[0]))) >= 0)
		return take_foreign(p, kind, word, shown_len, foreign[0], strlen(foreign[0]), val,
				    argc, argv, i, why, len);
	if (nr + nf > 1)
		return ambiguous(p, word, shown_len, rows, nr, foreign, listed, nf, why, len);
	return NO_MATCH;
}

/* A group of letters: "-qb", "-s64", "-s 64", "-f", "-f4". */
static int do_short(const struct cmdopt_parser *p, const char *word, int argc, char **argv,
		    int *i, char *why, size_t len)
{
	for (const char *c = word + 1; *c; c++) {
		struct hit h;
		int rc;
		if (!find_letter(p, *c, &h)) {
			if (c == word + 1 && c[1]) {
				/* "-size=1g": name the word, and --size if near */
				const char *key = word + 1;
				size_t klen = strcspn(key, "=");
				unknown(p, word, (int)(klen + 1), key, klen, why, len);
				return -EINVAL;
			}
			return fail(why, len, "unknown option '-%c' for 'iobench %s'; see 'iobench help %s'",
				    *c, p->command, p->command);
		}
		const char *val = NULL;
		switch (h.row->arg) {
		case CMDOPT_NOARG:
			if ((rc = apply(&h, NULL, why, len)) != 0)
				return rc;
			continue;
		case CMDOPT_OPTARG:
			val = c[1] ? c + 1 : NULL;
			break;
		case CMDOPT_MAYBEARG: /* foreign only: no row has it */
		case CMDOPT_REQARG:
			if (c[1])
				val = c + 1;
			else if (*i + 1 < argc)
				val = argv[++*i];
			else
				return fail(why, len, "option '-%c' needs a value", *c);
			break;
		}
		return apply(&h, val, why, len);
	}
	return 0;
}

static int operand(const struct cmdopt_parser *p, const char *word, char *why, size_t len)
{
	if (!p->operand)
		return fail(why, len, "unexpected argument '%s' for 'iobench %s'; see 'iobench help %s'",
			    word, p->command, p->command);
	return p->operand(p->operand_arg, word, why, len);
}

/* argv[*i] (and the value it takes); *options false after "--". */
static int parse_word(const struct cmdopt_parser *p, int argc, char **argv, int *i, bool *options,
		      char *why, size_t len)
{
	const char *w = argv[*i];
	int rc;
	if (!*options || w[0] != '-' || !w[1])
		return operand(p, w, why, len);
	if (!strcmp(w, "--")) {
		*options = false;
		return 0;
	}
	if (w[1] == '-') {
		rc = do_long(p, w, w + 2, argc, argv, i, why, len);
		if (rc == NO_MATCH) {
			size_t klen = strcspn(w + 2, "=");
			unknown(p, w, (int)(klen + 2), w + 2, klen, why, len);
			rc = -EINVAL;
		}
		return rc;
	}
	if (p->mode != CMDOPT_FIO)
		return do_short(p, w, argc, argv, i, why, len);
	/* getopt_long_only: a lone letter that is an option is one;
	 * otherwise a long name first, then the letters */
	struct hit h;
	bool letter = find_letter(p, w[1], &h);
	rc = letter && !w[2] ? NO_MATCH : do_long(p, w, w + 1, argc, argv, i, why, len);
	if (rc == NO_MATCH && letter)
		return do_short(p, w, argc, argv, i, why, len);
	if (rc == NO_MATCH) {
		size_t klen = strcspn(w + 1, "=");
		unknown(p, w, (int)(klen + 1), w + 1, klen, why, len);
		rc = -EINVAL;
	}
	return rc;
}

int cmdopt_parse(const struct cmdopt_parser *p, int argc, char **argv, char *why, size_t len)
{
	bool options = true;
	char later[256]; /* keep_going: the messages after the first */
	int first = 0;
	why[0] = 0;
	for (int i = 1; i < argc; i++) {
		int rc = first ? parse_word(p, argc, argv, &i, &options, later, sizeof(later))
			       : parse_word(p, argc, argv, &i, &options, why, len);
		if (rc == CMDOPT_HELP_ASKED)
			return first ? first : rc;
		if (rc < 0 && !p->keep_going)
			return rc;
		if (rc < 0 && !first)
			first = rc;
	}
	return first;
}

/* --- the usage lines ------------------------------------------------- */

#define HELP_COL 23
#define WIDTH 79

static const char *help_of(const struct cmdopt *r, const struct cmdopt_help *over)
{
	for (; r->name && over && over->name; over++)
		if (!strcmp(over->name, r->name))
			return over->help;
	return r->help;
}

/* "  -i, --interval=SEC" */
static int flag_text(const struct cmdopt *r, char *buf, size_t len)
{
	const char *meta = r->meta ? r->meta : "VALUE";
	int n = snprintf(buf, len, "  ");
	if (r->letter)
		n += snprintf(buf + n, len - (size_t)n, "-%c%s", r->letter, r->name ? ", " : "");
	if (r->name)
		n += snprintf(buf + n, len - (size_t)n, "--%s", r->name);
	/* "--set KEY=VALUE" rather than "--set=KEY=VALUE" */
	bool space = !r->name || strchr(meta, '=');
	if (r->arg == CMDOPT_REQARG)
		n += snprintf(buf + n, len - (size_t)n, space ? " %s" : "=%s", meta);
	else if (r->arg == CMDOPT_OPTARG)
		n += snprintf(buf + n, len - (size_t)n, r->name ? "[=%s]" : "[%s]", meta);
	return n;
}

/* Words of text from column col, wrapped at WIDTH to HELP_COL; a '\n' in
 * text starts a new line. */
static void wrap(FILE *out, const char *text, int col)
{
	const char *s = text;
	bool first = true;
	while (*s) {
		if (*s == '\n') {
			fprintf(out, "\n%*s", HELP_COL, "");
			col = HELP_COL;
			first = true;
			s++;
			continue;
		}
		if (*s == ' ') {
			s++;
			continue;
		}
		size_t wl = strcspn(s, " \n");
		if (!first && col + 1 + (int)wl > WIDTH) {
			fprintf(out, "\n%*s", HELP_COL, "");
			col = HELP_COL;
			first = true;
		}
		if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(s, 1, wl, out);
		col += (int)wl;
		s += wl;
		first = false;
	}
	fputc('\n', out);
}

void cmdopt_print_rows(FILE *out, const struct cmdopt *rows, unsigned mask,
		       const struct cmdopt_help *overrides)
{
	for (const struct cmdopt *r = rows; !cmdopt_row_end(r); r++) {
		const char *help = help_of(r, overrides);
		if (!cmdopt_row_taken(r, mask) || !help)
			continue;
		char flag[128];
		int n = flag_text(r, flag, sizeof(flag));
		fputs(flag, out);
		if (n + 2 > HELP_COL) {
			fprintf(out, "\n%*s", HELP_COL, "");
		} else {
			fprintf(out, "%*s", HELP_COL - n, "");
		}
		wrap(out, help, HELP_COL);
	}
}
