/*
 * Job-file lexer: splits text into lines and each line into a section header
 * `[name]`, an `include FILE` directive or an option `key[=value]`. A ';' or
 * '#' starts a comment anywhere on a line. ${VAR} and $ncpus-style
 * variables are expanded in values here; arithmetic is left to parse.c
 * because only numeric options take it. Columns are 1-based bytes.
 */
#include "jobfile/jobfile_int.h"
#include "util/xmalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void broken_section(struct jf_items *it, const struct jf_loc *loc)
{
	jf_add(it, JF_SECTION, "", 0, loc)->broken = true;
}

static void lex_section(struct jf_items *it, const struct jf_loc *loc, const char *b,
			const char *e)
{
	const char *close = memchr(b, ']', e - b);
	if (!close) {
		jf_error(it, loc, 0, "unterminated section header (missing ']')");
		broken_section(it, loc);
		return;
	}
	for (const char *p = close + 1; p < e; p++)
		if (!is_blank(*p)) {
			jf_error(it, loc, loc->col + (unsigned)(p - b),
				 "unexpected text after section header");
			broken_section(it, loc);
			return;
		}
	const char *nb = b + 1, *ne = close;
	while (nb < ne && is_blank(*nb))
		nb++;
	while (ne > nb && is_blank(ne[-1]))
		ne--;
	if (nb == ne) {
		jf_error(it, loc, 0, "empty section name");
		broken_section(it, loc);
		return;
	}
	for (const char *p = nb; p < ne; p++)
		if (!isprint((unsigned char)*p) || *p == '[') {
			jf_error(it, loc, loc->col + (unsigned)(p - b), "invalid character in section name");
			broken_section(it, loc);
			return;
		}
	jf_add(it, JF_SECTION, nb, ne - nb, loc);
}

static void lex_option(struct jf_items *it, const struct jf_loc *loc, const char *b,
		       const char *e)
{
	const char *eq = memchr(b, '=', e - b);
	const char *ke = eq ? eq : e;
	while (ke > b && is_blank(ke[-1]))
		ke--;
	if (ke == b) {
		jf_error(it, loc, 0, "missing option name before '='");
		return;
	}
	for (const char *p = b; p < ke; p++)
		if (!isgraph((unsigned char)*p)) {
			jf_error(it, loc, loc->col + (unsigned)(p - b),
				 "invalid character in option name '%.*s'", (int)(ke - b), b);
			return;
		}
	struct jf_item *item = jf_add(it, JF_OPTION, b, ke - b, loc);
	if (!eq)
		return;
	const char *vb = eq + 1, *ve = e;
	while (vb < ve && is_blank(*vb))
		vb++;
	while (ve > vb && is_blank(ve[-1]))
		ve--;
	item->value_col = loc->col + (unsigned)(vb - b);
	char *raw = xstrndup(vb, ve - vb);
	const char *why = NULL;
	item->value = jf_expand_vars(raw, &why);
	if (!item->value) {
		jf_error(it, loc, item->value_col, "%s in value '%s' of option '%s'", why, raw, item->name);
		free(item->name);
		it->nr--; /* reported; drop it so it is not reported again */
	}
	free(raw);
}

static void lex_line(struct jf_items *it, struct jf_loc *loc, const char *line, size_t len,
		     const char *const *stack, unsigned depth)
{
	const char *e = line + len;
	const char *nul = memchr(line, '\0', len);
	if (nul) {
		jf_error(it, loc, (unsigned)(nul - line) + 1, "NUL byte in job file");
		return;
	}
	for (const char *p = line; p < e; p++)
		if (*p == ';' || *p == '#') {
			e = p;
			break;
		}
	const char *b = line;
	while (b < e && is_blank(*b))
		b++;
	while (e > b && is_blank(e[-1]))
		e--;
	if (b == e)
		return;
	loc->col = (unsigned)(b - line) + 1;
	if (*b == '[') {
		lex_section(it, loc, b, e);
		return;
	}
	if (e - b > 8 && !strncmp(b, "include", 7) && is_blank(b[7])) {
		const char *pb = b + 8;
		while (pb < e && is_blank(*pb))
			pb++;
		char *raw = xstrndup(pb, e - pb);
		const char *why = NULL;
		char *path = jf_expand_vars(raw, &why);
		unsigned col = loc->col + (unsigned)(pb - b);
		if (!path)
			jf_error(it, loc, col, "%s in include path '%s'", why, raw);
		else if (!*path)
			jf_error(it, loc, col, "include needs a file name");
		else
			jf_include(it, loc, col, path, stack, depth);
		free(path);
		free(raw);
		return;
	}
	lex_option(it, loc, b, e);
}

void jf_lex_buffer(struct jf_items *it, const char *name, const char *text, size_t len,
		   const char *const *stack, unsigned depth)
{
	struct jf_loc loc = { .file = jf_intern_file(it, name), .line = 0, .col = 1 };
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		loc.line++;
		lex_line(it, &loc, text + pos, n, stack, depth);
		pos += n + 1;
	}
}
