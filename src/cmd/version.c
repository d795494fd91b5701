/*
 * `iobench version` (also `iobench --version`): the version and the engines
 * this build has.
 */
#include "cli/command.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "util/error.h"

struct version_opts {
	bool engines;
};

static int no_operand(void *arg, const char *word, char *why, size_t len)
{
	snprintf(why, len, "unknown argument '%s' for 'iobench version' (only -v); see 'iobench "
		 "help version'", word);
	return -EINVAL;
}

static const struct cmdopt version_rows[] = {
	{ NULL, 'v', CMDOPT_NOARG, CMDOPT_TRUE, offsetof(struct version_opts, engines), NULL, 0, NULL,
	  "also list the engines this build has" },
	CMDOPT_END,
};

static int run_version(struct cmd_ctx *ctx, int argc, char **argv)
{
	struct version_opts o = { false };
	struct cmdopt_parser p;
	command_parser(&p, ctx->cmd, &o, NULL);
	p.operand = no_operand;
	int rc = command_parse(ctx, &p, argc, argv, NULL);
	if (rc)
		return rc > 0 ? 0 : 1;
	printf("iobench %s\n", IOBENCH_VERSION);
	if (o.engines) {
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
	.usage = "usage: iobench version [-v]\n       iobench --version\n\noptions:\n",
	.opts = version_rows,
	.common = COMMON_HELP,
	.run = run_version,
};
