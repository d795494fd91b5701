/*
 * Parse callbacks of the error-policy options, fio 3.33's rules as checked
 * against the real fio: continue_on_error (its words, none, read, write,
 * io, verify, all, 0 and 1, are its row's in options_table.c) sets which
 * kinds of error a job may go on after; ignore_error=READ,WRITE,VERIFY
 * takes one ':'-separated list of errno names or numbers per kind
 * (",ENOSPC" lists only writes) and lets each listed kind go on, but only
 * after the listed errors.
 */
#include "spec/options_cb_int.h"
#include "spec/options_errors_int.h"
#include "spec/errpolicy.h"
#include "util/errname.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

/* One kind's list "EIO:ENOSPC:122" of n bytes into s. */
static int parse_list(struct job_spec *s, enum err_kind k, const char *p, size_t n,
		      struct opt_ctx *c)
{
	unsigned nr = 0;
	while (n) {
		const char *colon = memchr(p, ':', n);
		size_t len = colon ? (size_t)(colon - p) : n;
		char name[32];
		if (!len || len >= sizeof(name))
			return opt_failf(c, -EINVAL, "invalid error list for option '%s': "
					 "an empty or overlong error name in the %s list",
					 c->key, err_kind_name(k));
		memcpy(name, p, len);
		name[len] = '\0';
		int e = errno_parse(name);
		if (e < 0)
			return opt_failf(c, -EINVAL, "invalid error '%s' for option '%s': "
					 "not an errno name (EIO, ENOSPC, ...) or number", name, c->key);
		if (nr == MAX_IGNORE_ERRORS)
			return opt_failf(c, -ERANGE, "too many errors in the %s list of option '%s' "
					 "(at most %d)", err_kind_name(k), c->key, MAX_IGNORE_ERRORS);
		s->ignore_error[k][nr++] = e;
		if (!colon)
			break;
		n -= len + 1;
		p = colon + 1;
	}
	s->nr_ignore_error[k] = nr;
	if (nr)
		s->continue_on_error |= 1u << k;
	return 0;
}

int opt_cb_ignore_error(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *p = val;
	for (int k = 0; k < ERR_KIND_CNT; k++) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n) {
			int rc = parse_list(s, (enum err_kind)k, p, n, c);
			if (rc)
				return rc;
		}
		if (!comma)
			return 0;
		p = comma + 1;
	}
	return opt_fail(c, -EINVAL, "error list", val,
			"at most three lists: READ,WRITE,VERIFY, errors in a list separated by ':'");
}
