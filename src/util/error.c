/*
 * Implementation of the error(), warning() and die() helpers declared in
 * error.h. All output goes to stderr so that stdout stays machine-readable.
 */
#include "util/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vreport(const char *prefix, const char *fmt, va_list ap, int err)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), "iobench: %s", prefix);
	if (n < 0)
		n = 0;
	if ((size_t)n < sizeof(buf))
		n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	if (err && (size_t)n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ": %s", strerror(err));
	fprintf(stderr, "%s\n", buf);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error: ", fmt, ap, 0);
	va_end(ap);
	return -EINVAL;
}

int error_errno(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error: ", fmt, ap, err < 0 ? -err : err);
	va_end(ap);
	return err < 0 ? err : -err;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, 0);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap, 0);
	va_end(ap);
	abort();
}
