/*
 * `iobench version` (also `iobench --version`): the version and the engines
 * this build has.
 */
#include "cmd/command.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "util/error.h"

static int run_version(int argc, char **argv)
{
	bool engines = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v")) {
			error("unknown argument '%s' for 'iobench version' (only -v); see 'iobench "
			      "help version'", argv[i]);
			return 1;
		}
		engines = true;
	}
	printf("iobench %s\n", IOBENCH_VERSION);
	if (engines) {
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
