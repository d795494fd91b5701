/*
 * fio's log line and binary sample (fiolog.h), and the reader of compressed
 * logs: a .log.fz file is one or more zlib streams back to back, whose
 * inflated bytes are samples; a sample may span two streams.
 */
#include "workload/logs/fiolog.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "util/error.h"
#include "util/xmalloc.h"

#define IOPRIO_CLASS_RT 1

/* Decimal digits of v at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	unsigned n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_sep(char *p)
{
	*p++ = ',';
	*p++ = ' ';
	return p;
}

char *fiolog_put_u64(char *p, uint64_t v)
{
	return put_u64(p, v);
}

/* fio prints the value with %ld: a value past INT64_MAX shows negative */
static char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

size_t fiolog_format(char *buf, const struct fiolog_sample *s, bool offset, bool log_prio)
{
	static const char hex[] = "0123456789abcdef";
	char *p = put_u64(buf, s->time_ms);
	p = put_i64(put_sep(p), (int64_t)s->value);
	p = put_u64(put_sep(p), s->ddir);
	p = put_u64(put_sep(p), s->bs);
	if (offset)
		p = put_u64(put_sep(p), s->offset);
	p = put_sep(p);
	if (log_prio) {
		*p++ = '0';
		*p++ = 'x';
		for (int sh = 12; sh >= 0; sh -= 4)
			*p++ = hex[(s->prio >> sh) & 0xf];
	} else {
		*p++ = (s->prio >> 13) == IOPRIO_CLASS_RT ? '1' : '0';
	}
	*p++ = '\n';
	*p = '\0';
	return (size_t)(p - buf);
}

static void put_le(unsigned char *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

size_t fiolog_encode(unsigned char *out, const struct fiolog_sample *s, bool offset,
		     bool log_prio)
{
	uint32_t dd = s->ddir | (offset ? FIOLOG_F_OFFSET : 0) | (log_prio ? FIOLOG_F_PRIO : 0);
	memset(out, 0, FIOLOG_BIN_SIZE_OFFSET);
	put_le(out, s->time_ms, 8);
	put_le(out + 8, s->value, 8);
	put_le(out + 16, dd, 4);
	put_le(out + 20, s->prio, 2);
	put_le(out + 24, s->bs, 8);
	if (!offset)
		return FIOLOG_BIN_SIZE;
	put_le(out + 32, s->offset, 8);
	return FIOLOG_BIN_SIZE_OFFSET;
}

/* Print the whole samples at the start of buf[0..len); returns the bytes
 * used (a partial sample at the end stays for the next call). */
static size_t print_samples(const unsigned char *buf, size_t len, FILE *out)
{
	size_t pos = 0;
	char line[FIOLOG_LINE_MAX];
	while (len - pos >= FIOLOG_BIN_SIZE) {
		const unsigned char *p = buf + pos;
		uint32_t dd = (uint32_t)get_le(p + 16, 4);
		bool off = dd & FIOLOG_F_OFFSET;
		size_t sz = off ? FIOLOG_BIN_SIZE_OFFSET : FIOLOG_BIN_SIZE;
		if (len - pos < sz)
			break;
		struct fiolog_sample s = {
			.time_ms = get_le(p, 8),
			.value = get_le(p + 8, 8),
			.ddir = dd & ~(FIOLOG_F_OFFSET | FIOLOG_F_PRIO),
			.prio = (uint16_t)get_le(p + 20, 2),
			.bs = get_le(p + 24, 8),
			.offset = off ? get_le(p + 32, 8) : 0,
		};
		fiolog_format(line, &s, off, dd & FIOLOG_F_PRIO);
		fputs(line, out);
		pos += sz;
	}
	return pos;
}

int fiolog_inflate(const char *path, FILE *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(-errno, "cannot open log '%s'", path);
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK) {
		close(fd);
		return error("cannot start zlib to read '%s'", path);
	}
	enum { IN = 64 * 1024, OUT = 256 * 1024 };
	unsigned char *in = xmalloc(IN), *obuf = xmalloc(OUT);
	size_t have = 0; /* inflated bytes not printed yet, at obuf[0..have) */
	bool in_stream = false, any = false;
	int rc = 0;
	for (;;) {
		ssize_t n = read(fd, in, IN);
		if (n < 0) {
			rc = error_errno(-errno, "cannot read log '%s'", path);
			break;
		}
		if (n == 0)
			break;
		z.next_in = in;
		z.avail_in = (uInt)n;
		while (z.avail_in && rc == 0) {
			if (!in_stream) {
				inflateReset(&z);
				in_stream = true;
			}
			z.next_out = obuf + have;
			z.avail_out = (uInt)(OUT - have);
			int zr = inflate(&z, Z_NO_FLUSH);
			if (zr != Z_OK && zr != Z_STREAM_END && zr != Z_BUF_ERROR) {
				rc = error("'%s' is not a compressed log: %s at byte %lu", path,
					   z.msg ? z.msg : "zlib error", z.total_in);
				break;
			}
			have = OUT - z.avail_out;
			size_t used = print_samples(obuf, have, out);
			memmove(obuf, obuf + used, have - used);
			have -= used;
			if (zr == Z_STREAM_END) {
				in_stream = false;
				any = true;
			}
		}
		if (rc)
			break;
	}
	if (rc == 0 && in_stream)
		rc = error("'%s' ends inside a zlib stream (truncated log)", path);
	else if (rc == 0 && !any)
		rc = error("'%s' is empty: a compressed log holds at least one zlib stream", path);
	else if (rc == 0 && have)
		rc = error("'%s' ends inside a sample (%zu bytes left)", path, have);
	inflateEnd(&z);
	free(in);
	free(obuf);
	close(fd);
	return rc;
}
