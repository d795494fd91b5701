/*
 * Fuzz target: clocksource= names (clock_source_parse in util/clock.h). A
 * name that parses must be one clock_source_name() prints for the result.
 */
#include "common.h"

#include <stdlib.h>
#include <string.h>

#include "util/clock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	enum clock_source src;
	if (clock_source_parse(s, &src) == 0) {
		const char *name = clock_source_name(src);
		enum clock_source again;
		if (!name || clock_source_parse(name, &again) || again != src)
			abort();
	}
	free(s);
	return 0;
}
