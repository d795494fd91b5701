/*
 * Fuzz target: option values through option_set() (spec/options.h),
 * every option of option_table with arbitrary values, then
 * job_spec_finalize(), job_spec_validate() and a deep copy. Input: lines
 * "KEY=VALUE" or a bare "KEY", applied in order to one spec; a KEY written
 * "%N" means option_table[N % option_table_len], so the fuzzer reaches every
 * option without knowing its name.
 */
#include "common.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/jobspec.h"
#include "spec/options.h"

static void ignore_problem(void *arg, const char *keys, const char *msg)
{
	(*(unsigned *)arg)++;
	if (!keys || !msg)
		abort();
}

static void apply_line(struct job_spec *s, char *line)
{
	char why[512];
	char *eq = strchr(line, '=');
	const char *key = line, *value = NULL;
	if (eq) {
		*eq = '\0';
		value = eq + 1;
	}
	if (key[0] == '%') {
		unsigned long n = strtoul(key + 1, NULL, 10);
		key = option_table[n % option_table_len].name;
	}
	why[0] = '\0';
	int ret = option_set(s, key, value, why, sizeof(why));
	if (ret && ret != -ENOENT && ret != -ENOTSUP && ret != -EINVAL && ret != -ERANGE)
		abort(); /* only the documented errors */
	if (ret && !why[0])
		abort(); /* every failure explains itself */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int n;
	char **lines = fuzz_split(data, size, '\n', NULL, 0, &n);
	struct job_spec s, copy;
	job_spec_defaults(&s);
	for (int i = 0; i < n; i++)
		if (lines[i][0])
			apply_line(&s, lines[i]);
	job_spec_finalize(&s);
	unsigned problems = 0;
	int ret = job_spec_validate(&s, ignore_problem, &problems);
	if ((ret == 0) != (problems == 0))
		abort(); /* -EINVAL exactly when a problem was reported */
	job_spec_copy(&copy, &s);
	job_spec_release(&s);
	job_spec_release(&copy);
	fuzz_argv_free(lines, 0);
	return 0;
}
