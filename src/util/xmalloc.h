/*
 * Allocation wrappers that never return NULL: they print what failed and
 * abort (die()), for memory whose size the program bounds.
 *
 * The rule: which allocations may die and which must fail with -ENOMEM.
 *  - x*() (may die): small bookkeeping whose size the program bounds or that
 *    grows with the input's text: structs, strings, option and result
 *    tables, per-job and per-device arrays, histogram groups, iodepth-sized
 *    engine slots (iodepth <= 65535). Running out there means the machine
 *    is already lost, and an abort says where.
 *  - plain malloc/calloc/posix_memalign/mmap, returning -ENOMEM with a
 *    message that names the size and what it was for: anything sized by
 *    the user, that a typing slip can make absurd: I/O buffers (bs,
 *    iodepth x bs, bonnie++'s chunk sizes, verify's read-back scratch) and
 *    tables with one entry per file, per block or per I/O that an option
 *    counts (nrfiles, bonnie++'s -n, verify_backlog). A benchmark asked for
 *    too much must say so and exit 1, never abort.
 * die() itself is for states that cannot happen (util/error.h);
 * IOB_ASSERT (util/assert.h) states the invariants.
 */
#ifndef IOBENCH_UTIL_XMALLOC_H
#define IOBENCH_UTIL_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* n bytes aligned to align (a power of two, at least sizeof(void *)); free
 * with free(). For aligned bookkeeping and fixed-size buffers only: an I/O
 * buffer the user sizes uses posix_memalign and returns -ENOMEM. */
void *xmemalign(size_t align, size_t n);
/* Grow *arr (of *alloc elements of size sz) so index `need` fits. */
void *xgrow(void *arr, size_t *alloc, size_t need, size_t sz);

#endif
