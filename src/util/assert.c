/*
 * The failure path of IOB_ASSERT (assert.h): say which invariant broke and
 * where, then abort so a core dump or the sanitizer's stack trace shows how.
 * Compiled in every build, so a test can call it in a release build too.
 */
#include "util/assert.h"

#include <stdio.h>
#include <stdlib.h>

void iob_assert_fail(const char *cond, const char *file, int line, const char *func)
{
	fprintf(stderr, "iobench: assertion failed: %s:%d: %s: %s\n", file, line, func, cond);
	fflush(stderr);
	abort();
}
