/*
 * `iobench version` (also `iobench --version`): the version and the engines
 * this build has.
 */
#include "cmd/command.h"

#include <stdio.h>

#include "engines/engine.h"

static int run_version(int argc, char **argv)
{
	printf("iobench %s\n", IOBENCH_VERSION);
	if (argc > 1) {
		printf("engines:");
		for (const char *const *e = engine_names(); *e; e++)
			printf(" %s", *e);
		printf("\n");
	}
	return 0;
}

const struct command cmd_version = {
	.name = "version",
	.summary = "print the version (with -v, also the engines)",
	.usage = "usage: iobench version [-v]\n       iobench --version\n",
	.run = run_version,
};
