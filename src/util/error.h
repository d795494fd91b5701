/*
 * Error reporting, git style: messages are lowercase without a trailing period
 * and quote their subject. error() prints "iobench: error: ..." to stderr and
 * returns -EINVAL so callers can write `return error("bad 'bs' value '%s'", v)`;
 * error_errno() returns the negative errno it was given and appends its text.
 * Nothing here touches global errno. die() is for impossible states only
 * (and for the x*() allocators: util/xmalloc.h says which memory may die).
 * Error messages can also be captured (below) for a report to carry them.
 */
#ifndef IOBENCH_UTIL_ERROR_H
#define IOBENCH_UTIL_ERROR_H

#include <stdarg.h>
#include <stddef.h>

#define PRINTF_LIKE(a, b) __attribute__((format(printf, a, b)))

int error(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* An error located elsewhere: prints "WHERE: error: MESSAGE" (a job file's
 * "file:line:col") instead of "iobench: error: MESSAGE". */
void error_at(const char *where, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* err is a negative errno (as returned by our functions); returns it. */
int error_errno(int err, const char *fmt, ...) PRINTF_LIKE(2, 3);
void warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
void note(const char *fmt, ...) PRINTF_LIKE(1, 2);
_Noreturn void die(const char *fmt, ...) PRINTF_LIKE(1, 2);

/*
 * Keeping the error messages as well as printing them, for output formats
 * that must carry the error themselves (a JSON report of a run that failed
 * before it started). While a capture is set, every error() and error_at()
 * message is also appended to it ("MESSAGE", or "WHERE: MESSAGE"); any
 * thread may report meanwhile. Only one capture is set at a time: the
 * pointer to it is, beside the signal flags, the one mutable global of
 * iobench, and the owner sets and clears it around the work it reports on.
 */
struct error_capture {
	char **msgs;
	size_t nr;
};
void error_capture_begin(struct error_capture *c);
void error_capture_end(void);
void error_capture_release(struct error_capture *c);

#endif
