/*
 * Fuzz target: --output-format lists (report_parse_formats in
 * report/report.h). A list that parses must give a non-empty mask of known
 * format bits.
 */
#include "common.h"

#include <stdlib.h>

#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	unsigned f = 0;
	const unsigned known = REPORT_NORMAL | REPORT_JSON | REPORT_JSONPLUS | REPORT_TERSE;
	if (report_parse_formats(s, &f) == 0 && (!f || (f & ~known)))
		abort();
	free(s);
	return 0;
}
