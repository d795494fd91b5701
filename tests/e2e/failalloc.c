/*
 * LD_PRELOAD shim for tests/e2e/test_nomem.sh: makes one chosen allocation
 * fail, so the paths that must report -ENOMEM instead of aborting can be
 * run on any machine. IOB_FAILALLOC=FUNC:SIZE[:NTH] fails the NTH (default
 * the first) call of FUNC (malloc, calloc or memalign, the last meaning
 * posix_memalign) whose size in bytes (calloc: nmemb * size) is exactly
 * SIZE, or with +SIZE at least SIZE; every other call goes to glibc's
 * allocator. Built by the test with
 * cc -shared -fPIC; only for the release build (ASan has its own malloc).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t nmemb, size_t size);
void *__libc_memalign(size_t align, size_t n);

static atomic_ulong seen;

/* Is this the call to fail? */
static int fail_now(const char *fn, size_t n)
{
	const char *e = getenv("IOB_FAILALLOC");
	size_t len = strlen(fn);
	if (!e || strncmp(e, fn, len) || e[len] != ':')
		return 0;
	char *end;
	const char *v = e + len + 1;
	int at_least = *v == '+';
	unsigned long long want = strtoull(v + at_least, &end, 10);
	unsigned long nth = *end == ':' ? strtoul(end + 1, NULL, 10) : 1;
	if (at_least ? n < want : n != want)
		return 0;
	return atomic_fetch_add(&seen, 1) + 1 == nth;
}

void *malloc(size_t n)
{
	if (fail_now("malloc", n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

void *calloc(size_t nmemb, size_t size)
{
	size_t n;
	if (__builtin_mul_overflow(nmemb, size, &n))
		n = (size_t)-1;
	if (fail_now("calloc", n)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(nmemb, size);
}

int posix_memalign(void **p, size_t align, size_t n)
{
	if (fail_now("memalign", n))
		return ENOMEM;
	void *q = __libc_memalign(align, n);
	if (!q)
		return ENOMEM;
	*p = q;
	return 0;
}
