/*
 * Fuzz target: the argument vector of `iobench run` (cmd/run/run.c) through the
 * dispatcher: its own flags (--output-format, --set, --eta, ...; in fio
 * mode prefixes, -flag and values as the next word), job files named on
 * the command line and fio's --name=... job form. Input: the arguments
 * separated by newlines. "--parse-only" is always passed first so nothing
 * ever runs, and an argument naming a file (or following --output) is
 * replaced by its last path component inside the target's scratch
 * directory (so is the PATH of --output=PATH, and the target works in that
 * directory), which holds a few small job files, so it never opens a device
 * or a FIFO. Exit status must be 0 or 1.
 */
#include "common.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"

static const char *const files[] = {
	"a.fio", "[global]\nsize=1m\n[a]\nrw=randread\nbs=4k,8k\n",
	"b.fio", "[b]\ninclude inc.fio\nnumjobs=2\n",
	"inc.fio", "rw=write\n",
	"bad.fio", "[x]\nbs=4q\nrw=sideways\n",
	NULL,
};

/* The scratch directory, set once by LLVMFuzzerInitialize. */
static const char *dir;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_silence();
	if (!(dir = fuzz_scratch_dir(files)))
		abort();
	/* a relative path the rewriting below misses (a flag's =VALUE form)
	 * lands in the scratch directory, never in the artifacts' */
	if (chdir(dir) < 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fixed[] = { "run", "--parse-only" };
	static const struct command *run;
	if (!run && !(run = command_find("run")))
		abort();
	int argc;
	char **argv = fuzz_split(data, size, '\n', fixed, 2, &argc);
	for (int i = 2; i < argc; i++) {
		/* the word after --output is a path even when it looks like a flag */
		bool after_output = !strcmp(argv[i - 1], "--output") || !strcmp(argv[i - 1], "-output");
		const char *eq = NULL;
		if (!strncmp(argv[i], "--output=", 9) || !strncmp(argv[i], "-output=", 8))
			eq = strchr(argv[i], '=') + 1; /* --output=PATH: the path too */
		if (eq) {
			const char *base = strrchr(eq, '/');
			char *path;
			if (asprintf(&path, "--output=%s/%s", dir, base ? base + 1 : eq) < 0)
				abort();
			free(argv[i]);
			argv[i] = path;
			continue;
		}
		if ((argv[i][0] == '-' && !after_output) || !argv[i][0])
			continue;
		const char *slash = strrchr(argv[i], '/');
		char *path;
		if (asprintf(&path, "%s/%s", dir, slash ? slash + 1 : argv[i]) < 0)
			abort();
		free(argv[i]);
		argv[i] = path;
	}
	int status = command_run(run, argc, argv);
	if (status != 0 && status != 1)
		abort();
	fuzz_argv_free(argv, 2);
	return 0;
}
