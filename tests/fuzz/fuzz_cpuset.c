/*
 * Fuzz target: fio's cpus_allowed lists and cpumask bit masks
 * (sys/affinity.h). Input: a selector byte (even: cpuset_parse, odd:
 * cpumask_parse), then the text. A parsed set must be non-empty for a list,
 * survive cpuset_format -> cpuset_parse unchanged, and give every job a
 * non-empty share under both cpus_allowed_policy values.
 */
#include "common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sys/affinity.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	bool mask = data[0] & 1;
	char *s = fuzz_strndup(data + 1, size - 1);
	char why[256] = "";
	cpu_set_t set;
	int ret = mask ? cpumask_parse(s, &set, why, sizeof(why))
		       : cpuset_parse(s, &set, why, sizeof(why));
	if (ret) {
		REQUIRE((ret == -EINVAL || ret == -ERANGE) && why[0]);
		free(s);
		return 0;
	}
	if (!mask)
		REQUIRE(CPU_COUNT(&set) > 0);
	REQUIRE(CPU_COUNT(&set) <= (int)cpus_configured());
	char text[CPU_SETSIZE * 8];
	cpuset_format(&set, text, sizeof(text));
	if (CPU_COUNT(&set)) {
		cpu_set_t again, job;
		REQUIRE(cpuset_parse(text, &again, why, sizeof(why)) == 0);
		REQUIRE(CPU_EQUAL(&set, &again));
		for (unsigned j = 0; j < 3; j++) {
			REQUIRE(affinity_for_job(&set, false, j, &job) == 0 && CPU_EQUAL(&job, &set));
			REQUIRE(affinity_for_job(&set, true, j, &job) == 0 && CPU_COUNT(&job) == 1);
		}
	}
	free(s);
	return 0;
}
