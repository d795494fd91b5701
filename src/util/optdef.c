/*
 * The generic half of option rows (optdef.h): find a row by name or alias,
 * and store a value at the row's offset into the table's target by the
 * row's type (bool, count, size, time, string) with its range checked, or
 * through the row's callback, or one of its words (posval); store every
 * row's default. Also the helpers that format every option error the same
 * way.
 */
#include "util/optdef.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct option_def *optdef_find(const struct option_def *rows, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++) {
		const struct option_def *o = &rows[i];
		if (!strcmp(o->name, key))
			return o;
		for (int a = 0; a < 2; a++)
			if (o->alias[a] && !strcmp(o->alias[a], key))
				return o;
	}
	return NULL;
}

int opt_fail(struct opt_ctx *c, int err, const char *what, const char *val, const char *reason)
{
	snprintf(c->why, c->whylen, "invalid %s '%s' for option '%s'%s%s", what, val ? val : "",
		 c->key, reason ? ": " : "", reason ? reason : "");
	return err;
}

int opt_failf(struct opt_ctx *c, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->why, c->whylen, fmt, ap);
	va_end(ap);
	return err;
}

static void *field(void *target, const struct option_def *o)
{
	return (char *)target + o->off;
}

static int set_uint(void *target, const struct option_def *o, const char *val, struct opt_ctx *c)
{
	uint64_t v;
	const char *why = NULL;
	uint64_t max = o->max ? o->max : (o->width == 4 ? UINT32_MAX : UINT64_MAX);
	int ret = o->type == OPT_SIZE ? parse_size(val, c->kb_base, &v, &why)
				      : parse_uint(val, 1000, &v, &why);
	if (ret)
		return opt_fail(c, ret, o->type == OPT_SIZE ? "size" : "number", val, why);
	if (v < o->min || v > max) {
		char range[96];
		if (max == UINT64_MAX || max == UINT32_MAX)
			snprintf(range, sizeof(range), "must be at least %llu", (unsigned long long)o->min);
		else
			snprintf(range, sizeof(range), "must be from %llu to %llu",
				 (unsigned long long)o->min, (unsigned long long)max);
		return opt_fail(c, -ERANGE, o->type == OPT_SIZE ? "size" : "number", val, range);
	}
	if (o->width == 4)
		*(unsigned *)field(target, o) = (unsigned)v;
	else
		*(uint64_t *)field(target, o) = v;
	return 0;
}

const struct opt_posval *optdef_word_n(const struct option_def *o, const char *val, size_t n)
{
	for (const struct opt_posval *p = o->posval; p && p->word; p++)
		if (strlen(p->word) == n &&
		    (o->word_case ? !strncmp(val, p->word, n) : !strncasecmp(val, p->word, n)))
			return p;
	return NULL;
}

const struct opt_posval *optdef_word(const struct option_def *o, const char *val)
{
	return optdef_word_n(o, val, strlen(val));
}

const char *optdef_word_name(const struct option_def *o, int value)
{
	for (const struct opt_posval *p = o->posval; p && p->word; p++)
		if (!p->unlisted && p->value == value)
			return p->word;
	return NULL;
}

/* The listed words of o joined as "a, b or c" (a message of a word_commas
 * row: "a, b, c"), each with its arg, and for help with its meaning,
 * appended at buf + n; returns the new length. */
static size_t join_words(const struct option_def *o, bool help, char *buf, size_t n, size_t len)
{
	size_t listed = 0, k = 0;
	for (const struct opt_posval *p = o->posval; p && p->word; p++)
		listed += !p->unlisted;
	for (const struct opt_posval *p = o->posval; p && p->word && n < len; p++) {
		if (p->unlisted)
			continue;
		k++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s%s%s",
				      k == 1 ? "" : k == listed && (help || !o->word_commas) ? " or " : ", ",
				      p->word, p->arg ? p->arg : "", help && p->help ? " (" : "",
				      help && p->help ? p->help : "", help && p->help ? ")" : "");
	}
	return n < len ? n : len;
}

const char *optdef_words(const struct option_def *o, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	join_words(o, false, buf, 0, len);
	return buf;
}

/* "use a, b or c": the listed words of o. */
int optdef_word_fail(const struct option_def *o, const char *val, struct opt_ctx *c)
{
	char list[512];
	size_t n = (size_t)snprintf(list, sizeof(list), "%s ", o->word_use ? o->word_use : "use");
	n = join_words(o, false, list, n, sizeof(list));
	if (o->word_tail && n < sizeof(list))
		snprintf(list + n, sizeof(list) - n, "%s", o->word_tail);
	return opt_fail(c, -EINVAL, o->word_what ? o->word_what : "value", val, list);
}

static int set_word(void *target, const struct option_def *o, const char *val, struct opt_ctx *c)
{
	const struct opt_posval *p = optdef_word(o, val);
	if (!p)
		return optdef_word_fail(o, val, c);
	if (o->width == 1)
		*(bool *)field(target, o) = p->value != 0;
	else
		*(int *)field(target, o) = p->value;
	return 0;
}

static int set_typed(void *target, const struct option_def *o, const char *val, struct opt_ctx *c)
{
	const char *why = NULL;
	switch (o->type) {
	case OPT_BOOL: {
		bool b = true;
		if (val && parse_bool(val, &b, &why))
			return opt_fail(c, -EINVAL, "boolean", val, why);
		*(bool *)field(target, o) = b;
		return 0;
	}
	case OPT_UINT:
	case OPT_SIZE:
		return set_uint(target, o, val, c);
	case OPT_TIME: {
		uint64_t ns;
		if (parse_time(val, o->unit, &ns, &why))
			return opt_fail(c, -EINVAL, "time", val, why);
		*(uint64_t *)field(target, o) = ns;
		return 0;
	}
	case OPT_STR: {
		char **p = field(target, o);
		free(*p);
		*p = xstrdup(val ? val : ""); /* a bare flag-like key: "" */
		return 0;
	}
	case OPT_WORD:
		return set_word(target, o, val, c);
	case OPT_FUNC:
		break;
	}
	return o->parse(target, val, c);
}

int optdef_set(const struct option_def *o, void *target, const char *val, struct opt_ctx *c)
{
	c->opt = o;
	if (!val && !o->is_flag)
		return opt_failf(c, -EINVAL, "option '%s' needs a value", c->key);
	if (val && !*val && o->type != OPT_STR)
		return opt_failf(c, -EINVAL, "option '%s' needs a value", c->key);
	return set_typed(target, o, val, c);
}

int optdef_defaults(const struct option_def *rows, size_t n, void *target, unsigned kb_base,
		    char *why, size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		const struct option_def *o = &rows[i];
		if (!o->def || o->def_doc)
			continue;
		struct opt_ctx c = { .opt = o, .key = o->name, .kb_base = kb_base, .why = why,
				     .whylen = whylen };
		int rc = optdef_set(o, target, o->def, &c);
		if (rc < 0)
			return rc;
	}
	return 0;
}

const char *optdef_help(const struct option_def *o, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s%s", o->help, o->posval ? ": " : "");
	if (o->posval && n < len)
		n = join_words(o, true, buf, n, len);
	const char *const *v = o->choices ? o->choices() : NULL;
	for (; v && *v && n < len; v++)
		n += (size_t)snprintf(buf + n, len - n, " %s", *v);
	return buf;
}
