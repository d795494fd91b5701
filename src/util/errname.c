/*
 * errno names (errname.h): a name is looked up by walking the errno values
 * the C library names, since there is no reverse table to ask; numbers are
 * taken as they are.
 */
#include "util/errname.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ERRNO_MAX 4095

int errno_parse(const char *s)
{
	if (!s || !*s)
		return -EINVAL;
	if (*s >= '0' && *s <= '9') {
		char *end;
		long v = strtol(s, &end, 10);
		if (*end || v < 1 || v > ERRNO_MAX)
			return -EINVAL;
		return (int)v;
	}
	for (int e = 1; e < 256; e++) {
		const char *n = strerrorname_np(e);
		if (n && !strcasecmp(n, s))
			return e;
	}
	return -EINVAL;
}

const char *errno_name(int err)
{
	const char *n = err > 0 ? strerrorname_np(err) : NULL;
	return n ? n : "E?";
}
