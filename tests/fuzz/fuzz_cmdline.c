/*
 * Fuzz target: fio's command-line job form (jobfile_parse_args), the
 * "--name=a --rw=read ..." vectors that follow `iobench run`. Input: the
 * arguments separated by newlines.
 */
#include "common.h"

#include <stdlib.h>

#include "jobfile/jobfile.h"
#include "spec/jobspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int argc;
	char **args = fuzz_split(data, size, '\n', NULL, 0, &argc);
	struct jobfile_ctx ctx = { 0 };
	struct job_list list = { 0 };
	int ret = jobfile_parse_args(argc, args, &list, &ctx);
	if (ret >= 0 ? (size_t)ret != list.nr : list.nr != 0)
		abort(); /* the count returned is the count added; a failure adds none */
	job_list_release(&list);
	fuzz_argv_free(args, 0);
	return 0;
}
