/*
 * verify_pattern, as fio 3.33 reads it: pieces written one after another
 * with nothing between them —
 *   0xHEX    the bytes as written, most significant first (an odd digit
 *            count gets a leading zero nibble): 0x12345 = 01 23 45;
 *   DECIMAL  a 32-bit integer, little-endian, in as few bytes as hold it
 *            (1 to 4; a negative one takes 4): 300 = 2c 01, -12 = f4 ff ff ff;
 *   "TEXT"   the bytes between double quotes;
 *   %o       the offset of the block, 8 bytes little-endian.
 * The whole pattern (at most 512 bytes) repeats over each verify interval.
 */
#include "spec/verify_opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

static int add(struct vpattern *p, const uint8_t *b, size_t n, char *why, size_t whylen)
{
	if (p->len + n > VPATTERN_MAX) {
		snprintf(why, whylen, "longer than %d bytes", VPATTERN_MAX);
		return -EINVAL;
	}
	memcpy(p->bytes + p->len, b, n);
	p->len += n;
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int parse_hex(const char **sp, struct vpattern *p, char *why, size_t whylen)
{
	const char *s = *sp + 2, *start = s;
	while (hexval((unsigned char)*s) >= 0)
		s++;
	size_t nd = (size_t)(s - start);
	if (!nd) {
		snprintf(why, whylen, "no hex digits after '0x'");
		return -EINVAL;
	}
	uint8_t b[VPATTERN_MAX];
	size_t nb = (nd + 1) / 2;
	if (nb > sizeof(b)) {
		snprintf(why, whylen, "longer than %d bytes", VPATTERN_MAX);
		return -EINVAL;
	}
	const char *d = start;
	for (size_t i = 0; i < nb; i++) {
		int hi = (i == 0 && nd % 2) ? 0 : hexval((unsigned char)*d++);
		int lo = hexval((unsigned char)*d++);
		b[i] = (uint8_t)(hi << 4 | lo);
	}
	*sp = s;
	return add(p, b, nb, why, whylen);
}

static int parse_dec(const char **sp, struct vpattern *p, char *why, size_t whylen)
{
	const char *s = *sp;
	bool neg = *s == '-';
	if (neg)
		s++;
	if (!isdigit((unsigned char)*s)) {
		snprintf(why, whylen, "'%c' is not a number, \"text\", 0xHEX or %%o", **sp);
		return -EINVAL;
	}
	long long v = 0;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > 2147483648LL) {
			snprintf(why, whylen, "decimal number out of 32-bit range (use 0x... for more bytes)");
			return -EINVAL;
		}
	}
	if (neg)
		v = -v;
	if (v > 2147483647LL) {
		snprintf(why, whylen, "decimal number out of 32-bit range (use 0x... for more bytes)");
		return -EINVAL;
	}
	uint32_t u = (uint32_t)(int32_t)v;
	size_t n = 4;
	if (!neg)
		for (n = 1; n < 4 && (u >> (8 * n)); n++)
			;
	uint8_t b[4] = { (uint8_t)u, (uint8_t)(u >> 8), (uint8_t)(u >> 16), (uint8_t)(u >> 24) };
	*sp = s;
	return add(p, b, n, why, whylen);
}

int vpattern_parse(const char *text, struct vpattern *p, char *why, size_t whylen)
{
	memset(p, 0, sizeof(*p));
	p->bytes = xmalloc(VPATTERN_MAX);
	p->slots = xmalloc(VPATTERN_MAX / 8 * sizeof(*p->slots));
	const char *s = text;
	int rc = 0;
	while (*s && !rc) {
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			rc = parse_hex(&s, p, why, whylen);
		} else if (*s == '"') {
			const char *end = strchr(s + 1, '"');
			if (!end) {
				snprintf(why, whylen, "unterminated string");
				rc = -EINVAL;
				break;
			}
			rc = add(p, (const uint8_t *)s + 1, (size_t)(end - s - 1), why, whylen);
			s = end + 1;
		} else if (s[0] == '%' && s[1] == 'o') {
			uint8_t zero[8] = { 0 };
			p->slots[p->nr_slots] = p->len;
			rc = add(p, zero, 8, why, whylen);
			if (!rc)
				p->nr_slots++;
			s += 2;
		} else {
			rc = parse_dec(&s, p, why, whylen);
		}
	}
	if (!rc && !p->len) {
		snprintf(why, whylen, "empty pattern");
		rc = -EINVAL;
	}
	if (rc)
		vpattern_release(p);
	return rc;
}

void vpattern_release(struct vpattern *p)
{
	free(p->bytes);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}

void vpattern_fill(const struct vpattern *p, uint64_t offset, uint8_t *buf, uint64_t len)
{
	if (!p->len || !len)
		return;
	uint64_t n = len < p->len ? len : p->len;
	memcpy(buf, p->bytes, n);
	for (unsigned i = 0; i < p->nr_slots; i++)
		for (unsigned k = 0; k < 8 && p->slots[i] + k < n; k++)
			buf[p->slots[i] + k] = (uint8_t)(offset >> (8 * k));
	/* double the filled prefix (a whole number of patterns) until full */
	for (uint64_t done = n, c; done < len; done += c) {
		c = len - done < done ? len - done : done;
		memcpy(buf + done, buf, c);
	}
}
