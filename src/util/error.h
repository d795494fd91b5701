/*
 * Error reporting, git style: messages are lowercase without a trailing period
 * and quote their subject. error() prints "iobench: error: ..." to stderr and
 * returns -EINVAL so callers can write `return error("bad 'bs' value '%s'", v)`;
 * error_errno() returns the negative errno it was given and appends its text.
 * Nothing here touches global errno. die() is for impossible states only.
 */
#ifndef IOBENCH_UTIL_ERROR_H
#define IOBENCH_UTIL_ERROR_H

#include <stdarg.h>

#define PRINTF_LIKE(a, b) __attribute__((format(printf, a, b)))

int error(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* err is a negative errno (as returned by our functions); returns it. */
int error_errno(int err, const char *fmt, ...) PRINTF_LIKE(2, 3);
void warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
void note(const char *fmt, ...) PRINTF_LIKE(1, 2);
_Noreturn void die(const char *fmt, ...) PRINTF_LIKE(1, 2);

#endif
