/*
 * util/xmalloc.h: xmemalign returns memory aligned as asked, usable over its
 * whole length (ASan checks the writes), also for 0 bytes; when the memory
 * cannot be had it prints "iobench: fatal: out of memory allocating N bytes
 * aligned to A" once and aborts, as every x*() allocator does (checked in a
 * re-executed child, with ASan told to return NULL instead of reporting;
 * ASan still prints a warning line of its own).
 * xgrow keeps what it had and zeroes what it adds.
 */
#include "check.h"
#include "util/array.h"
#include "util/xmalloc.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HUGE_SIZE ((size_t)1 << 62) /* no machine has it */

static void test_aligned(void)
{
	static const size_t aligns[] = { sizeof(void *), 64, 4096, 1 << 16 };
	for (size_t i = 0; i < ARRAY_SIZE(aligns); i++) {
		unsigned char *p = xmemalign(aligns[i], 12345);
		CHECK(p && (uintptr_t)p % aligns[i] == 0, "xmemalign(%zu) is aligned: %p", aligns[i],
		      (void *)p);
		memset(p, 0xa5, 12345);
		CHECK(p[0] == 0xa5 && p[12344] == 0xa5, "all 12345 bytes are usable");
		free(p);
	}
	void *z = xmemalign(4096, 0);
	CHECK(z && (uintptr_t)z % 4096 == 0, "xmemalign of 0 bytes gives a freeable pointer");
	free(z);
}

static void test_grow(void)
{
	size_t alloc = 0;
	int *v = xgrow(NULL, &alloc, 3, sizeof(int));
	CHECK(v && alloc > 3, "xgrow makes index 3 fit (alloc %zu)", alloc);
	for (size_t i = 0; i < alloc; i++)
		v[i] = (int)i + 1;
	size_t before = alloc;
	v = xgrow(v, &alloc, before + 5, sizeof(int));
	CHECK(alloc > before + 5, "xgrow grows past %zu (alloc %zu)", before + 5, alloc);
	bool kept = true, zeroed = true;
	for (size_t i = 0; i < before; i++)
		kept &= v[i] == (int)i + 1;
	for (size_t i = before; i < alloc; i++)
		zeroed &= v[i] == 0;
	CHECK(kept && zeroed, "old entries kept, new ones zero");
	free(v);
}

/* Run ourselves with "--die": the child asks xmemalign for HUGE_SIZE. */
static void test_dies(const char *self)
{
	int p[2];
	if (pipe(p) < 0) {
		CHECK(0, "pipe");
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		setenv("ASAN_OPTIONS", "allocator_may_return_null=1:detect_leaks=0", 1);
		execl(self, self, "--die", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	char err[512] = "";
	size_t n = 0;
	ssize_t r;
	while (n < sizeof(err) - 1 && (r = read(p[0], err + n, sizeof(err) - 1 - n)) > 0)
		n += (size_t)r;
	close(p[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	char want[128];
	snprintf(want, sizeof(want), "iobench: fatal: out of memory allocating %zu bytes aligned to 4096\n",
		 HUGE_SIZE);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "out of memory aborts (status %#x)", st);
	/* the one line iobench prints (ASan adds a warning of its own) */
	const char *at = strstr(err, want);
	CHECK(at && (at == err || at[-1] == '\n') && !strstr(at + 1, "iobench:"),
	      "the message is exactly '%s' once, got '%s'", want, err);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--die")) {
		void *p = xmemalign(4096, HUGE_SIZE);
		free(p);
		return 0; /* not reached */
	}
	test_aligned();
	test_grow();
	test_dies("/proc/self/exe");
	return check_done("test_xmalloc");
}
