/*
 * Fuzz target: the shared flag parser in strict mode with letters, through
 * bonnie_args_parse (cmd/bonnie/bonnie_args_int.h: bonnie++'s grouped
 * letters with attached, next-word and optional values, iobench's long
 * options, the shared rows). Input: the arguments separated by newlines. The parse
 * returns 0 or -EINVAL, and a refusal says why in one line.
 */
#include "common.h"

#include <errno.h>
#include <string.h>

#include "cmd/bonnie/bonnie_args_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fixed[] = { "bonnie" };
	int argc;
	char **argv = fuzz_split(data, size, '\n', fixed, 1, &argc);
	struct bonnie_args a;
	char why[512];
	int rc = bonnie_args_parse(argc, argv, &a, why, sizeof(why));
	REQUIRE(rc == 0 || rc == -EINVAL);
	if (rc < 0)
		REQUIRE(why[0] && !strchr(why, '\n'));
	bonnie_args_release(&a);
	fuzz_argv_free(argv, 1);
	return 0;
}
