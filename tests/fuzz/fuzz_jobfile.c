/*
 * Fuzz target: the fio job-file parser (jobfile_parse_buffer), from the
 * lexer through ${VAR}/arithmetic expansion, includes, the option table and
 * job_spec_validate(). Input: job-file text; if it holds a NUL byte, what
 * follows is a NUL-separated list of --set KEY=VALUE overrides. The first
 * parse is file 0 and, when it succeeds, the text is parsed again into the
 * same list as file 1 (stonewall, [global] echo already taken). Relative
 * includes reach two small job files in a scratch directory. Jobs with
 * few clones are then expanded (numjobs) as a run would. Inputs that
 * mention dev/, proc/ or sys/ are skipped: the target runs as root and an
 * `include` of a device such as /dev/console could block or have effects.
 */
#include "common.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile/jobfile.h"
#include "spec/jobspec.h"
#include "util/array.h"
#include "workload/run.h"

static const char *const files[] = {
	"inc.fio", "bs=8k\nrw=randread\n",
	"job.fio", "[global]\nsize=1m\n[a]\ninclude inc.fio\n",
	NULL,
};

/* Clone numjobs as a run does (when the clones are few) and free them. */
static void expand(struct job_list *list)
{
	size_t total = 0;
	for (size_t i = 0; i < list->nr; i++)
		total += list->jobs[i].numjobs ? list->jobs[i].numjobs : 1;
	if (total > 256)
		return;
	struct job_list out;
	workload_expand(list, &out);
	if (out.nr != total)
		abort();
	job_list_release(&out);
}

/* The name the input is parsed under, inside the scratch directory, so
 * relative includes resolve there. Set once by LLVMFuzzerInitialize. */
static char name[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_silence();
	const char *dir = fuzz_scratch_dir(files);
	if (!dir)
		abort();
	snprintf(name, sizeof(name), "%s/fuzz.fio", dir);
	return 0;
}

static bool names_system_path(const uint8_t *data, size_t size)
{
	static const char *const bad[] = { "dev/", "proc/", "sys/" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (memmem(data, size, bad[i], strlen(bad[i])))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (names_system_path(data, size))
		return -1; /* not added to the corpus */
	const uint8_t *nul = memchr(data, 0, size);
	size_t textlen = nul ? (size_t)(nul - data) : size;
	char **sets = NULL;
	int nsets = 0;
	if (nul)
		sets = fuzz_split(nul + 1, size - textlen - 1, '\0', NULL, 0, &nsets);
	/* the parser takes a length, so the text is not NUL-terminated on purpose */
	char *text = malloc(textlen ? textlen : 1);
	if (!text)
		abort();
	memcpy(text, data, textlen);

	struct jobfile_ctx ctx = { .set_opts = (const char *const *)sets, .nr_set = (size_t)nsets };
	struct job_list list = { 0 };
	int ret = jobfile_parse_buffer(name, text, textlen, 0, &list, &ctx);
	if (ret > 0 && (size_t)ret != list.nr)
		abort(); /* the count returned is the count added */
	if (ret >= 0) {
		size_t before = list.nr;
		ret = jobfile_parse_buffer(name, text, textlen, 1, &list, &ctx);
		if (ret >= 0 && list.nr != before + (size_t)ret)
			abort();
		if (ret < 0 && list.nr != before)
			abort(); /* a failed parse adds no job */
	} else if (list.nr) {
		abort();
	}
	expand(&list);
	job_list_release(&list);
	free(text);
	if (sets)
		fuzz_argv_free(sets, 0);
	return 0;
}
