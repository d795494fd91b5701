/*
 * Implementation of the error(), error_at(), error_errno(), warning(),
 * note() and die() helpers and the error capture declared in error.h. All
 * output goes to stderr so that stdout stays machine-readable.
 */
#include "util/error.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

/* The error capture (error.h): the one global beside the signal flags. */
static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;
static struct error_capture *capture;

static void capture_add(const char *where, const char *msg)
{
	pthread_mutex_lock(&capture_lock);
	if (capture) {
		capture->msgs = xrealloc(capture->msgs, (capture->nr + 1) * sizeof(*capture->msgs));
		capture->msgs[capture->nr++] = where ? xasprintf("%s: %s", where, msg) : xstrdup(msg);
	}
	pthread_mutex_unlock(&capture_lock);
}

/* Print "iobench: PREFIXmessage[: strerror]" (or "WHERE: PREFIX..."),
 * capturing errors. */
static void vreport_at(const char *where, const char *prefix, const char *fmt, va_list ap,
		       int err, bool is_error)
{
	char msg[4096];
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		n = 0;
	if (err && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - n, ": %s", strerror(err));
	fprintf(stderr, "%s: %s%s\n", where ? where : "iobench", prefix, msg);
	if (is_error)
		capture_add(where, msg);
}

static void vreport(const char *prefix, const char *fmt, va_list ap, int err)
{
	vreport_at(NULL, prefix, fmt, ap, err, false);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport_at(NULL, "error: ", fmt, ap, 0, true);
	va_end(ap);
	return -EINVAL;
}

void error_at(const char *where, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport_at(where, "error: ", fmt, ap, 0, true);
	va_end(ap);
}

int error_errno(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport_at(NULL, "error: ", fmt, ap, err < 0 ? -err : err, true);
	va_end(ap);
	return err < 0 ? err : -err;
}

void error_capture_begin(struct error_capture *c)
{
	pthread_mutex_lock(&capture_lock);
	capture = c;
	pthread_mutex_unlock(&capture_lock);
}

void error_capture_end(void)
{
	pthread_mutex_lock(&capture_lock);
	capture = NULL;
	pthread_mutex_unlock(&capture_lock);
}

void error_capture_release(struct error_capture *c)
{
	for (size_t i = 0; i < c->nr; i++)
		free(c->msgs[i]);
	free(c->msgs);
	c->msgs = NULL;
	c->nr = 0;
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
