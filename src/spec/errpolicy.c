/*
 * Error policies (errpolicy.h), with fio 3.33's rules as checked against the
 * real fio: a kind may go on only when continue_on_error (or an ignore_error
 * list, options_errors.c) set its bit, and then only after an error in its
 * ignore_error list, or after EIO or EILSEQ when it has none. So
 * continue_on_error=all still stops at ENOSPC; ignore_error=,ENOSPC does not.
 */
#include "spec/errpolicy.h"
#include "util/array.h"

#include <errno.h>

static const int default_non_fatal[] = { EIO, EILSEQ };

enum err_kind err_kind_of(enum ddir d, int err)
{
	if (err == EILSEQ)
		return ERR_KIND_VERIFY;
	return d == DDIR_READ ? ERR_KIND_READ : ERR_KIND_WRITE;
}

const char *err_kind_name(enum err_kind k)
{
	static const char *const names[] = { "read", "write", "verify" };
	return k < ERR_KIND_CNT ? names[k] : "?";
}

bool error_policy_continues(const struct job_spec *s, enum err_kind k, int err)
{
	if (k >= ERR_KIND_CNT || !(s->continue_on_error & (1u << k)))
		return false;
	const int *list = s->ignore_error[k];
	unsigned n = s->nr_ignore_error[k];
	if (!n) {
		list = default_non_fatal;
		n = ARRAY_SIZE(default_non_fatal);
	}
	for (unsigned i = 0; i < n; i++)
		if (list[i] == err)
			return true;
	return false;
}
