/*
 * util/assert.h: in a build with asserts (debug, ASan) a false IOB_ASSERT
 * aborts (SIGABRT) after printing exactly "iobench: assertion failed:
 * FILE:LINE: FUNC: COND" once; a true one does nothing. In a release build
 * the condition is never evaluated (a side effect in it does not happen) and
 * nothing aborts. iob_assert_fail itself prints and aborts in every build.
 * Each case runs in a child process, its stderr read through a pipe.
 */
#include "check.h"
#include "util/assert.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct outcome {
	int status;     /* from waitpid */
	char err[512];  /* what the child wrote to stderr */
};

/* Run fn(arg) in a child with stderr on a pipe; the child exits 0 after it. */
static void in_child(void (*fn)(int), int arg, struct outcome *o)
{
	int p[2];
	memset(o, 0, sizeof(*o));
	if (pipe(p) < 0) {
		CHECK(0, "pipe");
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		fn(arg);
		_exit(0);
	}
	close(p[1]);
	size_t n = 0;
	ssize_t r;
	while (n < sizeof(o->err) - 1 && (r = read(p[0], o->err + n, sizeof(o->err) - 1 - n)) > 0)
		n += (size_t)r;
	close(p[0]);
	waitpid(pid, &o->status, 0);
}

static int evaluated;
static int bump(void)
{
	return ++evaluated;
}

enum { FALSE_LINE = __LINE__ + 3 };
static void false_assert(int x)
{
	IOB_ASSERT(x == 2);
}

static void true_assert(int x)
{
	IOB_ASSERT(x == 1);
	IOB_ASSERT(bump() > 0);
	if (IOB_ASSERTS_ON && evaluated != 1)
		_exit(3); /* the condition was not evaluated exactly once */
	if (!IOB_ASSERTS_ON && evaluated != 0)
		_exit(4); /* a release build evaluated it */
}

static void direct_fail(int x)
{
	iob_assert_fail("n < depth", "src/x.c", 42, "fn");
}

static bool aborted(const struct outcome *o)
{
	return WIFSIGNALED(o->status) && WTERMSIG(o->status) == SIGABRT;
}

int main(void)
{
	struct outcome o;
	char want[256];

	printf("asserts are %s in this build\n", IOB_ASSERTS_ON ? "on" : "off");

	in_child(false_assert, 1, &o);
	if (IOB_ASSERTS_ON) {
		snprintf(want, sizeof(want), "iobench: assertion failed: %s:%d: false_assert: x == 2\n",
			 __FILE__, FALSE_LINE);
		CHECK(aborted(&o), "a false assert aborts (status %#x)", o.status);
		CHECK(strcmp(o.err, want) == 0, "message is exactly '%s', got '%s'", want, o.err);
	} else {
		CHECK(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0,
		      "release build: a false assert does nothing (status %#x)", o.status);
		CHECK(o.err[0] == 0, "release build: nothing printed, got '%s'", o.err);
	}

	in_child(true_assert, 1, &o);
	CHECK(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 0,
	      "a true assert passes; its condition is evaluated once with asserts, never "
	      "without (status %#x)", o.status);
	CHECK(o.err[0] == 0, "a true assert prints nothing, got '%s'", o.err);

	in_child(direct_fail, 0, &o);
	CHECK(aborted(&o), "iob_assert_fail aborts in every build (status %#x)", o.status);
	CHECK(strcmp(o.err, "iobench: assertion failed: src/x.c:42: fn: n < depth\n") == 0,
	      "iob_assert_fail's message, got '%s'", o.err);
	return check_done("test_assert");
}
