/*
 * Allocation wrappers that never return NULL: running out of memory while
 * setting up a benchmark is not recoverable in any useful way, so these print
 * what failed and abort. Use plain malloc where a failure must be handled.
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
/* Grow *arr (of *alloc elements of size sz) so index `need` fits. */
void *xgrow(void *arr, size_t *alloc, size_t need, size_t sz);

#endif
