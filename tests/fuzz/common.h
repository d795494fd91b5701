/*
 * Shared by the libFuzzer targets in this folder: the two entry points
 * libFuzzer calls (declared here so -Wmissing-prototypes stays quiet), and
 * helpers to silence the parsers' messages, to turn fuzz input into
 * NUL-terminated strings or argument vectors, and to give a target a private
 * scratch directory as its working directory.
 */
#ifndef IOBENCH_TESTS_FUZZ_COMMON_H
#define IOBENCH_TESTS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdlib.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* common.c defines a weak one that only calls fuzz_silence(); a target
 * that needs more setup defines its own. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A property the parser's header promises: abort() so libFuzzer reports it. */
#define REQUIRE(cond) do { if (!(cond)) abort(); } while (0)

/*
 * Point the stdio streams `stderr` and `stdout` at /dev/null so error(),
 * warning() and usage texts print nothing. libFuzzer keeps the FILE it
 * captured at start-up and the sanitizers write to fd 2 directly, so their
 * reports still show. Call once, from LLVMFuzzerInitialize.
 */
void fuzz_silence(void);

/* A NUL-terminated copy of data (free() it); embedded NULs end it early. */
char *fuzz_strndup(const uint8_t *data, size_t size);

/*
 * Split data on `sep` into a NULL-terminated vector of NUL-terminated
 * strings after `nfixed` leading fixed strings (not copied). *argc gets the
 * count including the fixed ones. Free with fuzz_argv_free(argv, nfixed).
 */
char **fuzz_split(const uint8_t *data, size_t size, char sep, const char *const *fixed,
		  int nfixed, int *argc);
void fuzz_argv_free(char **argv, int nfixed);

/*
 * Create a scratch directory (under $TMPDIR or /tmp) holding the small job
 * files named in files[] with the given contents (pairs name, text; NULL
 * ends the list), so paths and `include` lines in fuzz input reach known
 * files. The working directory is left alone (libFuzzer resolves its
 * command-line paths against it). The directory is removed at exit.
 * Returns its absolute path, or NULL.
 */
const char *fuzz_scratch_dir(const char *const *files);

#endif
