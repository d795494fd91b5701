/*
 * IOB_ASSERT(cond): an invariant, SQLite style. In builds with
 * IOBENCH_ASSERTS defined (meson.build defines it for buildtype=debug and
 * for every sanitizer build, so build-asan/ and the fuzz build check them)
 * a false condition prints "iobench: assertion failed: FILE:LINE: FUNC:
 * COND" to stderr and aborts. In release builds (build/, buildtype
 * debugoptimized or release) it compiles to nothing: the condition is
 * type-checked but never evaluated, so it must have no side effects and
 * may be as costly as it needs to be.
 *
 * An assert states what the code around it guarantees (depth never above
 * iodepth, an offset inside the file's region, an index inside its array);
 * it is not error handling. Anything the user, a file or the kernel can
 * make false is checked with an error message instead.
 */
#ifndef IOBENCH_UTIL_ASSERT_H
#define IOBENCH_UTIL_ASSERT_H

#include <stdbool.h>

_Noreturn void iob_assert_fail(const char *cond, const char *file, int line, const char *func)
	__attribute__((cold));

#ifdef IOBENCH_ASSERTS
#define IOB_ASSERTS_ON 1
#define IOB_ASSERT(cond) \
	(__builtin_expect(!!(cond), 1) ? (void)0 \
				       : iob_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define IOB_ASSERTS_ON 0
#define IOB_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

#endif
