/*
 * The arithmetic of fio job files: a recursive-descent evaluator over
 * doubles for + - * / % ^ (right-associative power), unary minus and
 * parentheses. Division or modulus by zero, junk and deep nesting are
 * errors, never crashes.
 */
#include "jobfile/jobfile_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ev {
	const char *p, *end;
	const char *why;
	unsigned depth;
};

static double expr(struct ev *e);

static void skip(struct ev *e)
{
	while (e->p < e->end && isspace((unsigned char)*e->p))
		e->p++;
}

static double primary(struct ev *e)
{
	skip(e);
	if (e->why)
		return 0;
	if (e->p >= e->end) {
		e->why = "incomplete arithmetic expression";
		return 0;
	}
	if (*e->p == '(') {
		if (++e->depth > 64) {
			e->why = "arithmetic expression nested too deeply";
			return 0;
		}
		e->p++;
		double v = expr(e);
		skip(e);
		if (!e->why && (e->p >= e->end || *e->p != ')'))
			e->why = "missing ')' in arithmetic expression";
		else
			e->p++;
		e->depth--;
		return v;
	}
	if (*e->p == '-' || *e->p == '+') {
		bool neg = *e->p == '-';
		e->p++;
		if (++e->depth > 64) {
			e->why = "arithmetic expression nested too deeply";
			return 0;
		}
		double v = primary(e);
		e->depth--;
		return neg ? -v : v;
	}
	if (!isdigit((unsigned char)*e->p) && *e->p != '.') {
		e->why = "invalid character in arithmetic expression";
		return 0;
	}
	char buf[64];
	size_t n = 0;
	while (e->p + n < e->end && n < sizeof(buf) - 1 &&
	       (isdigit((unsigned char)e->p[n]) || e->p[n] == '.'))
		n++;
	memcpy(buf, e->p, n);
	buf[n] = '\0';
	char *end;
	double v = strtod(buf, &end);
	if (*end) {
		e->why = "invalid number in arithmetic expression";
		return 0;
	}
	e->p += n;
	return v;
}

static double power(struct ev *e)
{
	double v = primary(e);
	skip(e);
	if (!e->why && e->p < e->end && *e->p == '^') {
		e->p++;
		if (++e->depth > 64) {
			e->why = "arithmetic expression nested too deeply";
			return 0;
		}
		double r = power(e);
		e->depth--;
		v = pow(v, r);
	}
	return v;
}

static double term(struct ev *e)
{
	double v = power(e);
	for (;;) {
		skip(e);
		if (e->why || e->p >= e->end || !strchr("*/%", *e->p))
			return v;
		char op = *e->p++;
		double r = power(e);
		if (op == '*') {
			v *= r;
		} else if (r == 0) {
			e->why = "division by zero in arithmetic expression";
			return 0;
		} else if (op == '/') {
			v /= r;
		} else {
			v = fmod(v, r);
		}
	}
}

static double expr(struct ev *e)
{
	double v = term(e);
	for (;;) {
		skip(e);
		if (e->why || e->p >= e->end || (*e->p != '+' && *e->p != '-'))
			return v;
		char op = *e->p++;
		double r = term(e);
		v = op == '+' ? v + r : v - r;
	}
}

int jf_eval(const char *s, size_t len, double *out, const char **why)
{
	struct ev e = { .p = s, .end = s + len };
	double v = expr(&e);
	skip(&e);
	if (!e.why && e.p != e.end)
		e.why = "unexpected text in arithmetic expression";
	if (!e.why && !isfinite(v))
		e.why = "arithmetic expression overflows";
	if (e.why) {
		*why = e.why;
		return -EINVAL;
	}
	*out = v;
	return 0;
}
