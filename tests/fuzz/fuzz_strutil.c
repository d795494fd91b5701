/*
 * Fuzz target: the ':'-separated, '\:'-escaped lists of filename= and
 * directory= (str_split_escaped in util/strutil.h), and str_trim. Input: a
 * separator byte, then the text. The fields joined back with escaping must
 * give the input again when it held no other backslash before a separator.
 */
#include "common.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/strutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	char sep = data[0] ? (char)data[0] : ':';
	char *s = fuzz_strndup(data + 1, size - 1);
	char **fields;
	size_t n = str_split_escaped(s, sep, &fields);
	REQUIRE(n >= 1 && fields[n] == NULL);
	/* re-escape and join: equal to s unless s had "\\<sep>" ambiguity */
	size_t len = strlen(s);
	char *joined = malloc(2 * len + n + 1), *p = joined;
	if (!joined)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (i)
			*p++ = sep;
		for (const char *c = fields[i]; *c; c++) {
			if (*c == sep)
				*p++ = '\\';
			*p++ = *c;
		}
	}
	*p = '\0';
	bool plain = true;
	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '\\' && s[i + 1] == '\\')
			plain = false;
	if (plain)
		REQUIRE(!strcmp(joined, s));
	free(joined);
	str_list_free(fields);
	char *t = str_trim(s);
	REQUIRE(t >= s && t <= s + len);
	free(s);
	return 0;
}
