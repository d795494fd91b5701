/*
 * output_check() for output.h.
 */
#include "cli/output.h"

#include <errno.h>
#include <stdio_ext.h>
#include <string.h>

#include "util/error.h"

int output_failed(FILE *out, int err, const char *what, const char *where)
{
	if (err > 0)
		err = -err;
	__fpurge(out);
	clearerr(out);
	char place[1100];
	if (where)
		snprintf(place, sizeof(place), "'%s'", where);
	else
		snprintf(place, sizeof(place), "standard output");
	error("cannot write %s%sto %s: %s", what ? what : "", what ? " " : "", place,
	      strerror(-err));
	return err;
}

int output_check(FILE *out, const char *what, const char *where)
{
	int err = 0;
	errno = 0;
	if (fflush(out) != 0)
		err = errno ? errno : EIO;
	else if (ferror(out))
		err = EIO; /* an earlier flush failed and took its reason along */
	if (!err)
		return 0;
	return output_failed(out, -err, what, where);
}
