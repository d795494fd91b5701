/*
 * fio value parsing for units.h: numbers with optional fractions and unit
 * suffixes, percentages, times, booleans, ranges and per-direction lists.
 * Arithmetic is done in 128 bits so overflow is caught, never wrapped.
 */
#include "util/units.h"
#include "util/array.h"

#include <inttypes.h>
#include <stdio.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SET_WHY(w, msg) do { if (w) *(w) = (msg); } while (0)

typedef unsigned __int128 u128;

/* A parsed decimal: ip + num/den, with the unit suffix text after it. */
struct number {
	uint64_t ip, num, den;
	bool neg;
	const char *suffix; /* points into the input, trailing blanks trimmed */
	size_t suffix_len;
};

static void trim_bounds(const char **b, const char **e)
{
	while (*b < *e && isspace((unsigned char)**b))
		(*b)++;
	while (*e > *b && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* Parse [-]digits[.digits] or 0xHEX from [b, e); the rest is the suffix. */
static int scan_number(const char *b, const char *e, struct number *n, const char **why)
{
	memset(n, 0, sizeof(*n));
	n->den = 1;
	trim_bounds(&b, &e);
	if (b == e) {
		SET_WHY(why, "empty value");
		return -EINVAL;
	}
	if (*b == '-' || *b == '+') {
		n->neg = *b == '-';
		b++;
	}
	if (e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) {
		const char *p = b + 2;
		if (p == e || !isxdigit((unsigned char)*p)) {
			SET_WHY(why, "not a number");
			return -EINVAL;
		}
		for (; p < e && isxdigit((unsigned char)*p); p++) {
			unsigned d = isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10);
			if (n->ip > (UINT64_MAX - d) / 16) {
				SET_WHY(why, "number too large");
				return -ERANGE;
			}
			n->ip = n->ip * 16 + d;
		}
		n->suffix = p;
		n->suffix_len = e - p;
		return 0;
	}
	const char *p = b;
	bool digits = false;
	for (; p < e && isdigit((unsigned char)*p); p++) {
		unsigned d = *p - '0';
		digits = true;
		if (n->ip > (UINT64_MAX - d) / 10) {
			SET_WHY(why, "number too large");
			return -ERANGE;
		}
		n->ip = n->ip * 10 + d;
	}
	if (p < e && *p == '.') {
		p++;
		for (; p < e && isdigit((unsigned char)*p); p++) {
			digits = true;
			if (n->den < 1000000000000000000ULL) {
				n->num = n->num * 10 + (*p - '0');
				n->den *= 10;
			}
		}
	}
	if (!digits) {
		SET_WHY(why, "not a number");
		return -EINVAL;
	}
	n->suffix = p;
	n->suffix_len = e - p;
	return 0;
}

static bool suffix_is(const struct number *n, const char *s)
{
	return n->suffix_len == strlen(s) && !strncasecmp(n->suffix, s, n->suffix_len);
}

/* Multiplier of a size suffix; *pct set for '%'. */
static int size_mult(const struct number *n, unsigned kb_base, uint64_t *mult, bool *pct,
		     const char **why)
{
	static const char letters[] = "kmgtpe";
	*pct = false;
	*mult = 1;
	if (n->suffix_len == 0 || suffix_is(n, "b"))
		return 0;
	if (suffix_is(n, "%")) {
		*pct = true;
		return 0;
	}
	const char *l = strchr(letters, tolower((unsigned char)n->suffix[0]));
	if (!l || !*l) {
		SET_WHY(why, "unknown unit suffix");
		return -EINVAL;
	}
	unsigned pow = (unsigned)(l - letters) + 1;
	unsigned base = kb_base == 1000 ? 1000 : 1024;
	const char *rest = n->suffix + 1;
	size_t rl = n->suffix_len - 1;
	if (rl == 2 && !strncasecmp(rest, "ib", 2))
		base = base == 1000 ? 1024 : 1000; /* fio's deliberate inversion */
	else if (!(rl == 0 || (rl == 1 && (tolower((unsigned char)*rest) == 'b' ||
					     tolower((unsigned char)*rest) == 'i')))) {
		SET_WHY(why, "unknown unit suffix");
		return -EINVAL;
	}
	u128 m = 1;
	while (pow--)
		m *= base;
	*mult = (uint64_t)m;
	return 0;
}

/* ip.frac * mult, floored; -ERANGE on overflow. */
static int scale(const struct number *n, uint64_t mult, uint64_t *out, const char **why)
{
	u128 v = (u128)n->ip * mult + ((u128)n->num * mult) / n->den;
	if (v > UINT64_MAX) {
		SET_WHY(why, "value too large");
		return -ERANGE;
	}
	*out = (uint64_t)v;
	return 0;
}

static int size_bounded(const char *b, const char *e, unsigned kb_base, uint64_t *out,
			unsigned *pct, bool allow_neg, bool *neg, const char **why)
{
	struct number n;
	uint64_t mult;
	bool is_pct;
	int ret = scan_number(b, e, &n, why);
	if (ret)
		return ret;
	/* as fio's number parser: what follows the number and its unit is
	 * ignored from the first punctuation character other than '%'
	 * ("65536)" is 65536, "512/25" is 512, "1k:25" is 1024). fio ignores
	 * a blank and what follows too ("4 k" is 4 there); that is refused
	 * here, as a unit set apart by mistake. */
	for (size_t i = 0; i < n.suffix_len; i++)
		if (ispunct((unsigned char)n.suffix[i]) && n.suffix[i] != '%') {
			n.suffix_len = i;
			break;
		}
	if (n.neg && !allow_neg) {
		SET_WHY(why, "negative value");
		return -ERANGE;
	}
	ret = size_mult(&n, kb_base, &mult, &is_pct, why);
	if (ret)
		return ret;
	if (is_pct) {
		if (!pct) {
			SET_WHY(why, "a percentage is not allowed here");
			return -EINVAL;
		}
		if (n.num || n.ip < 1 || n.ip > 100) {
			SET_WHY(why, "percentage must be a whole number from 1 to 100");
			return -ERANGE;
		}
		*pct = (unsigned)n.ip;
		*out = 0;
		return 0;
	}
	if (pct)
		*pct = 0;
	if (neg)
		*neg = n.neg;
	return scale(&n, mult, out, why);
}

int parse_size(const char *s, unsigned kb_base, uint64_t *out, const char **why)
{
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	return size_bounded(s, s + strlen(s), kb_base, out, NULL, false, NULL, why);
}

int parse_size_pct(const char *s, unsigned kb_base, uint64_t *out, unsigned *pct,
		   const char **why)
{
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	return size_bounded(s, s + strlen(s), kb_base, out, pct, false, NULL, why);
}

int parse_ssize(const char *s, unsigned kb_base, int64_t *out, const char **why)
{
	uint64_t v;
	bool neg = false;
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	int ret = size_bounded(s, s + strlen(s), kb_base, &v, NULL, true, &neg, why);
	if (ret)
		return ret;
	if (v > (uint64_t)INT64_MAX) {
		SET_WHY(why, "value too large");
		return -ERANGE;
	}
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Find the range separator: ':' or a '-' that is not a leading sign. */
static const char *range_sep(const char *s)
{
	const char *c = strchr(s, ':');
	if (c)
		return c;
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' || *p == '+')
		p++;
	return strchr(p, '-');
}

int parse_size_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi,
		     const char **why)
{
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	const char *sep = range_sep(s);
	const char *end = s + strlen(s);
	int ret = size_bounded(s, sep ? sep : end, kb_base, lo, NULL, false, NULL, why);
	if (ret)
		return ret;
	if (!sep) {
		*hi = *lo;
		return 0;
	}
	ret = size_bounded(sep + 1, end, kb_base, hi, NULL, false, NULL, why);
	if (ret)
		return ret;
	if (*lo > *hi) {
		uint64_t t = *lo;
		*lo = *hi;
		*hi = t;
	}
	return 0;
}

static int time_bounded(const char *b, const char *e, uint64_t unit, uint64_t *ns,
			const char **why)
{
	static const struct { const char *s; uint64_t ns; } units[] = {
		{ "d", 86400 * NS_PER_SEC }, { "h", 3600 * NS_PER_SEC },
		{ "m", 60 * NS_PER_SEC }, { "min", 60 * NS_PER_SEC },
		{ "s", NS_PER_SEC }, { "sec", NS_PER_SEC },
		{ "ms", NS_PER_MS }, { "msec", NS_PER_MS },
		{ "us", NS_PER_US }, { "usec", NS_PER_US },
		{ "ns", 1 }, { "nsec", 1 },
	};
	struct number n;
	int ret = scan_number(b, e, &n, why);
	if (ret)
		return ret;
	if (n.neg) {
		SET_WHY(why, "negative time");
		return -ERANGE;
	}
	uint64_t mult = 0;
	if (n.suffix_len == 0)
		mult = unit;
	for (size_t i = 0; !mult && i < ARRAY_SIZE(units); i++)
		if (suffix_is(&n, units[i].s))
			mult = units[i].ns;
	if (!mult) {
		SET_WHY(why, "unknown time unit (use d, h, m, s, ms, us or ns)");
		return -EINVAL;
	}
	return scale(&n, mult, ns, why);
}

int parse_time(const char *s, uint64_t default_unit_ns, uint64_t *ns, const char **why)
{
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	return time_bounded(s, s + strlen(s), default_unit_ns, ns, why);
}

int parse_time_range(const char *s, uint64_t default_unit_ns, uint64_t *lo, uint64_t *hi,
		     const char **why)
{
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	const char *sep = range_sep(s);
	const char *end = s + strlen(s);
	int ret = time_bounded(s, sep ? sep : end, default_unit_ns, lo, why);
	if (ret)
		return ret;
	if (!sep) {
		*hi = *lo;
		return 0;
	}
	ret = time_bounded(sep + 1, end, default_unit_ns, hi, why);
	if (ret)
		return ret;
	if (*lo > *hi) {
		uint64_t t = *lo;
		*lo = *hi;
		*hi = t;
	}
	return 0;
}

int parse_uint(const char *s, unsigned kb_base, uint64_t *out, const char **why)
{
	return parse_size(s, kb_base, out, why);
}

int parse_double(const char *s, double *out, const char **why)
{
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	const char *b = s, *e = s + strlen(s);
	trim_bounds(&b, &e);
	if (b == e) {
		SET_WHY(why, "empty value");
		return -EINVAL;
	}
	char buf[64];
	if ((size_t)(e - b) >= sizeof(buf)) {
		SET_WHY(why, "number too long");
		return -EINVAL;
	}
	memcpy(buf, b, e - b);
	buf[e - b] = '\0';
	char *end;
	double v = strtod(buf, &end);
	if (*end || end == buf || isspace((unsigned char)buf[0])) {
		SET_WHY(why, "not a number");
		return -EINVAL;
	}
	if (!isfinite(v)) {
		SET_WHY(why, "number out of range");
		return -ERANGE;
	}
	*out = v;
	return 0;
}

int parse_percent(const char *s, double *out, const char **why)
{
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	char buf[64];
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n && s[n - 1] == '%')
		n--;
	if (n >= sizeof(buf)) {
		SET_WHY(why, "number too long");
		return -EINVAL;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	double v;
	int ret = parse_double(buf, &v, why);
	if (ret)
		return ret;
	if (v < 0 || v > 100) {
		SET_WHY(why, "percentage must be between 0 and 100");
		return -ERANGE;
	}
	*out = v;
	return 0;
}

int parse_bool(const char *s, bool *out, const char **why)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	const char *b = s, *e = s + strlen(s);
	trim_bounds(&b, &e);
	size_t n = e - b;
	for (size_t i = 0; i < 4; i++) {
		if (n == strlen(yes[i]) && !strncasecmp(b, yes[i], n)) {
			*out = true;
			return 0;
		}
		if (n == strlen(no[i]) && !strncasecmp(b, no[i], n)) {
			*out = false;
			return 0;
		}
	}
	SET_WHY(why, "not a boolean (use 1/0, true/false, yes/no or on/off)");
	return -EINVAL;
}

int split_per_dir(const char *s, struct dir_parts *out, const char **why)
{
	memset(out, 0, sizeof(*out));
	if (!s) {
		SET_WHY(why, "missing value");
		return -EINVAL;
	}
	const char *p = s;
	unsigned n = 0;
	for (;;) {
		const char *c = strchr(p, ',');
		const char *e = c ? c : p + strlen(p);
		if (n == 3) {
			SET_WHY(why, "more than three comma-separated values (read,write,trim)");
			return -EINVAL;
		}
		const char *b = p;
		trim_bounds(&b, &e);
		out->part[n] = b;
		out->len[n] = (unsigned)(e - b);
		out->set[n] = e > b;
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	bool any = false;
	for (unsigned i = 0; i < n; i++)
		any |= out->set[i];
	if (!any) {
		SET_WHY(why, "empty value");
		return -EINVAL;
	}
	/* a list not ending in a comma hands its last value on */
	if (out->set[n - 1])
		for (unsigned i = n; i < 3; i++) {
			out->part[i] = out->part[n - 1];
			out->len[i] = out->len[n - 1];
			out->set[i] = true;
		}
	return 0;
}

int parse_size_per_dir(const char *s, unsigned kb_base, uint64_t out[3], const char **why)
{
	struct dir_parts dp;
	uint64_t v[3];
	int ret = split_per_dir(s, &dp, why);
	if (ret)
		return ret;
	for (int i = 0; i < 3; i++) {
		if (!dp.set[i])
			continue;
		ret = size_bounded(dp.part[i], dp.part[i] + dp.len[i], kb_base, &v[i], NULL,
				   false, NULL, why);
		if (ret)
			return ret;
	}
	for (int i = 0; i < 3; i++)
		if (dp.set[i])
			out[i] = v[i];
	return 0;
}

const char *fmt_iec(uint64_t bytes, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	unsigned u = 0;
	while (v >= 1024 && u + 1 < ARRAY_SIZE(unit)) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 "B", bytes);
	else
		snprintf(buf, len, "%.*f%s", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit[u]);
	return buf;
}
