/*
 * A tiny unit-test harness: CHECK() counts passes and failures and prints a
 * "not ok FILE:LINE: EXPRESSION: MESSAGE" line for each failure (passes stay
 * silent); check_done() prints the "NAME: N passed, M failed" summary that
 * tests/run_all.sh adds up and returns the exit status (0 pass, 1 fail).
 * SKIP() prints a "skip - WHAT: REASON" line that run_all.sh counts and
 * names: only for what the README's commands cannot change (not root, a
 * kernel without the feature); a missing tool is a failed CHECK.
 * Header-only so each test is one standalone file.
 */
#ifndef IOBENCH_TESTS_CHECK_H
#define IOBENCH_TESTS_CHECK_H

#include <stdio.h>

static int check_failed;
static int check_passed;

#define CHECK(cond, ...) do { \
	if (cond) { check_passed++; } else { \
		check_failed++; \
		printf("not ok %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		printf(__VA_ARGS__); printf("\n"); \
	} } while (0)

#define SKIP(what, ...) do { \
	printf("skip - %s: ", what); printf(__VA_ARGS__); printf("\n"); \
	} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
