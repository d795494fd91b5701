/*
 * The never-NULL allocation wrappers declared in xmalloc.h (which also
 * states when to use them and when an allocation must return -ENOMEM).
 */
#include "util/xmalloc.h"
#include "util/assert.h"
#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die("out of memory reallocating %zu bytes", n);
	return q;
}

void *xmemalign(size_t align, size_t n)
{
	void *p = NULL;
	IOB_ASSERT(align >= sizeof(void *) && (align & (align - 1)) == 0);
	int rc = posix_memalign(&p, align, n ? n : 1);
	if (rc)
		die("out of memory allocating %zu bytes aligned to %zu", n, align);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");
	if (!p)
		die("out of memory duplicating a string");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	if (!p)
		die("out of memory duplicating a string");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die("out of memory formatting a string");
	va_end(ap);
	return p;
}

void *xgrow(void *arr, size_t *alloc, size_t need, size_t sz)
{
	if (need < *alloc)
		return arr;
	size_t n = *alloc ? *alloc : 8;
	while (n <= need)
		n *= 2;
	arr = xrealloc(arr, n * sz);
	memset((char *)arr + *alloc * sz, 0, (n - *alloc) * sz);
	*alloc = n;
	return arr;
}
