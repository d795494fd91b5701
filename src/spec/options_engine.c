/*
 * Values of engine options that need a callback (options_engine.h). fio
 * takes nonvectored as an int whose default -1 means "ask the kernel
 * whether IORING_OP_READ/WRITE exist and use them if so"; 0 forces the
 * vectored READV/WRITEV and anything positive the plain ones.
 * sqthread_poll_cpu pins the SQPOLL thread, so whether it was given at all
 * matters as much as its value.
 */
#include "spec/options_cb.h"
#include "spec/options_engine.h"
#include "util/units.h"

#include <errno.h>
#include <string.h>

int opt_cb_nonvectored(struct job_spec *s, const char *val, struct opt_ctx *c)
{
	uint64_t v;
	const char *why = NULL;

	if (!strcmp(val, "-1")) {
		s->nonvectored = -1;
		return 0;
	}
	if (parse_uint(val, 1000, &v, &why))
		return opt_fail(c, -EINVAL, "number", val, why ? why : "use -1, 0 or 1");
	s->nonvectored = v ? 1 : 0;
	return 0;
}

int opt_cb_sqthread_poll_cpu(struct job_spec *s, const char *val, struct opt_ctx *c)
{
	uint64_t v;
	const char *why = NULL;

	if (parse_uint(val, 1000, &v, &why))
		return opt_fail(c, -EINVAL, "number", val, why);
	if (v > 65535)
		return opt_fail(c, -ERANGE, "number", val, "must be from 0 to 65535");
	s->sqthread_poll_cpu = (unsigned)v;
	s->sqthread_poll_cpu_set = true;
	return 0;
}
