/*
 * Values of the scheduling and clock options (options_sched.h). As in fio,
 * cpus_allowed and cpumask set the same thing, so the later one clears the
 * other; both are kept as written and checked against the CPUs of this
 * machine when given. nice, prio and prioclass are signed so "not set" (-1
 * for the last two) stays distinct from 0. gtod_reduce switches the four
 * disable_* options (and clat percentiles) as fio's does.
 */
#include "spec/options_cb_int.h"
#include "spec/options_sched.h"
#include "sys/affinity.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int job_spec_cpuset(const struct job_spec *s, cpu_set_t *out, char *why, size_t whylen)
{
	int ret;
	if (s->cpus_allowed)
		ret = cpuset_parse(s->cpus_allowed, out, why, whylen);
	else if (s->cpumask)
		ret = cpumask_parse(s->cpumask, out, why, whylen);
	else
		return 0;
	return ret ? ret : 1;
}

int opt_cb_cpus_allowed(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	cpu_set_t set;
	char why[160];
	int ret = cpuset_parse(val, &set, why, sizeof(why));
	if (ret)
		return opt_fail(c, ret, "CPU list", val, why);
	free(s->cpus_allowed);
	free(s->cpumask);
	s->cpus_allowed = xstrdup(val);
	s->cpumask = NULL;
	return 0;
}

int opt_cb_cpumask(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	cpu_set_t set;
	char why[160];
	int ret = cpumask_parse(val, &set, why, sizeof(why));
	if (ret)
		return opt_fail(c, ret, "CPU mask", val, why);
	free(s->cpus_allowed);
	free(s->cpumask);
	s->cpumask = xstrdup(val);
	s->cpus_allowed = NULL;
	return 0;
}

/* A CPU list kept as written, once it parses. */
static int set_cpu_list(char **dst, const char *val, struct opt_ctx *c)
{
	cpu_set_t set;
	char why[160];
	int ret = cpuset_parse(val, &set, why, sizeof(why));
	if (ret)
		return opt_fail(c, ret, "CPU list", val, why);
	free(*dst);
	*dst = xstrdup(val);
	return 0;
}

int opt_cb_log_compression_cpus(void *target, const char *val, struct opt_ctx *c)
{
	return set_cpu_list(&((struct job_spec *)target)->log_compression_cpus, val, c);
}

int opt_cb_verify_async_cpus(void *target, const char *val, struct opt_ctx *c)
{
	return set_cpu_list(&((struct job_spec *)target)->verify_async_cpus, val, c);
}

/* A signed integer in [lo, hi]. */
static int int_in(const char *val, int lo, int hi, int *out, struct opt_ctx *c)
{
	char *end;
	errno = 0;
	long v = strtol(val, &end, 10);
	if (end == val || *end || errno)
		return opt_fail(c, -EINVAL, "number", val, "not an integer");
	if (v < lo || v > hi) {
		char range[64];
		snprintf(range, sizeof(range), "must be from %d to %d", lo, hi);
		return opt_fail(c, -ERANGE, "number", val, range);
	}
	*out = (int)v;
	return 0;
}

int opt_cb_nice(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	return int_in(val, -20, 19, &s->nice, c);
}

int opt_cb_prio(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	return int_in(val, 0, 7, &s->ioprio, c);
}

int opt_cb_prioclass(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	return int_in(val, 0, 3, &s->ioprio_class, c);
}

int opt_cb_clocksource(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	enum clock_source src;
	if (clock_source_parse(val, &src))
		return opt_fail(c, -EINVAL, "clock source", val, "use gettimeofday, clock_gettime or cpu");
	s->clocksource = src;
	return 0;
}

int opt_cb_gtod_reduce(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	bool b = true;
	const char *why = NULL;
	if (val && parse_bool(val, &b, &why))
		return opt_fail(c, -EINVAL, "boolean", val, why);
	s->gtod_reduce = b;
	s->disable_lat = s->disable_clat = s->disable_slat = s->disable_bw = b;
	s->clat_percentiles = !b;
	return 0;
}
