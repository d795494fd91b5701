/*
 * Value expansion, fio's rules: ${VAR} takes the environment variable (unset
 * gives an empty string); $ncpus, $mb_memory and $pagesize are the machine's
 * online CPUs, memory in MiB and page size; any other '$' is kept as written.
 * Arithmetic: each parenthesised group is evaluated and replaced by its
 * value, so "($mb_memory/2)m" becomes e.g. "8000m".
 */
#include "jobfile/jobfile_int.h"
#include "sys/sysmem.h"
#include "util/xmalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sbuf {
	char *s;
	size_t len, alloc;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->alloc) {
		b->alloc = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->alloc);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static bool reserved(const char *p, size_t n, char *out, size_t outlen)
{
	if (n == 5 && !strncmp(p, "ncpus", 5))
		snprintf(out, outlen, "%u", sys_ncpus());
	else if (n == 9 && !strncmp(p, "mb_memory", 9))
		snprintf(out, outlen, "%llu", (unsigned long long)(sys_mem_bytes() >> 20));
	else if (n == 8 && !strncmp(p, "pagesize", 8))
		snprintf(out, outlen, "%lu", sys_pagesize());
	else
		return false;
	return true;
}

char *jf_expand_vars(const char *s, const char **why)
{
	struct sbuf b = { 0 };
	sb_add(&b, "", 0);
	for (const char *p = s; *p;) {
		if (p[0] == '$' && p[1] == '{') {
			const char *close = strchr(p + 2, '}');
			if (!close) {
				*why = "unterminated '${'";
				free(b.s);
				return NULL;
			}
			char *var = xstrndup(p + 2, close - (p + 2));
			char num[32];
			const char *v = getenv(var);
			if (!v && reserved(var, strlen(var), num, sizeof(num)))
				v = num;
			if (v)
				sb_add(&b, v, strlen(v));
			free(var);
			p = close + 1;
			continue;
		}
		if (p[0] == '$') {
			size_t n = 0;
			while (isalnum((unsigned char)p[1 + n]) || p[1 + n] == '_')
				n++;
			char num[32];
			if (reserved(p + 1, n, num, sizeof(num))) {
				sb_add(&b, num, strlen(num));
				p += 1 + n;
				continue;
			}
		}
		sb_add(&b, p, 1);
		p++;
	}
	return b.s;
}

static void add_number(struct sbuf *b, double v)
{
	char num[64];
	if (fabs(v) < 9.2e18 && v == (double)(long long)v)
		snprintf(num, sizeof(num), "%lld", (long long)v);
	else
		snprintf(num, sizeof(num), "%.17g", v);
	sb_add(b, num, strlen(num));
}

char *jf_expand_arith(const char *s, bool *bare, const char **why)
{
	struct sbuf b = { 0 };
	sb_add(&b, "", 0);
	*bare = false;
	for (const char *p = s; *p;) {
		if (*p != '(') {
			/* a ')' outside an expression is left to the value's own
			 * parser, as fio's ("65536)" is a size followed by junk) */
			sb_add(&b, p, 1);
			p++;
			*bare = false;
			continue;
		}
		int level = 0;
		const char *q = p;
		for (; *q; q++) {
			level += *q == '(';
			level -= *q == ')';
			if (!level)
				break;
		}
		if (!*q) {
			*why = "unbalanced '('";
			free(b.s);
			return NULL;
		}
		double v;
		if (jf_eval(p, (size_t)(q + 1 - p), &v, why)) {
			free(b.s);
			return NULL;
		}
		add_number(&b, v);
		p = q + 1;
		*bare = true;
	}
	return b.s;
}
