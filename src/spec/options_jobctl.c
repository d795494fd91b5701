/*
 * Parse callbacks of the job-control options: exit_what, exitall,
 * exitall_on_error, exec_prerun and exec_postrun are plain rows (exit_what's
 * words, spelt exactly as fio 3.33 takes them, are its row's);
 * workload/jobctl.c runs them. Here: unit_base, steadystate's criterion and window, and the options of
 * fio's profiles, which fio takes in every job.
 */
#include "spec/options_cb_int.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <stdlib.h>

#include <errno.h>
#include <string.h>

/*
 * The options of fio's built-in profiles (profile=tiobench: size, block,
 * numruns, dir, threads; profile=act: device-names, load, test-duration,
 * threads-per-queue, read-req-num-512-blocks, large-block-op-kbytes,
 * prep). fio 3.33 takes them in any job and, without that profile, does
 * nothing with them: `threads=1` (fio's waitfor.fio, steadystate.fio) is
 * tiobench's thread count, not `thread`. iobench checks the value as fio
 * does and keeps nothing (profile= itself is not implemented).
 */
int opt_cb_profile_int(void *target, const char *val, struct opt_ctx *c)
{
	const char *why = NULL;
	uint64_t n;
	if (!val || parse_uint(val, c->kb_base, &n, &why))
		return opt_fail(c, -EINVAL, "number", val ? val : "", why ? why : "a value is needed");
	return 0;
}

int opt_cb_profile_size(void *target, const char *val, struct opt_ctx *c)
{
	const char *why = NULL;
	uint64_t n;
	if (!val || parse_size(val, c->kb_base, &n, &why))
		return opt_fail(c, -EINVAL, "size", val ? val : "", why ? why : "a value is needed");
	return 0;
}

int opt_cb_profile_str(void *target, const char *val, struct opt_ctx *c)
{
	if (!val || !*val)
		return opt_fail(c, -EINVAL, "value", "", "a value is needed");
	return 0;
}

/* steadystate=iops|iops_slope|bw|bw_slope:N[%] (fio's spellings). bw's N
 * without % is a size in bytes/s, as fio reads it (bw:1m). */
int opt_cb_steadystate(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *colon = val ? strchr(val, ':') : NULL;
	const struct opt_posval *crit = colon ? optdef_word_n(c->opt, val, (size_t)(colon - val)) : NULL;
	if (!crit) /* the row's words, each with its :N */
		return optdef_word_fail(c->opt, val ? val : "", c);
	bool bw = crit->value & 2, slope = crit->value & 1;
	const char *num = colon + 1;
	size_t len = strlen(num);
	bool pct = len && num[len - 1] == '%';
	const char *why = NULL;
	double limit;
	if (pct || !bw) {
		char *v = xstrndup(num, pct ? len - 1 : len);
		int rc = parse_double(v, &limit, &why);
		free(v);
		if (rc || limit < 0)
			return opt_fail(c, -EINVAL, "limit", num, why ? why : "it must not be negative");
	} else {
		uint64_t bytes;
		if (parse_size(num, c->kb_base, &bytes, &why))
			return opt_fail(c, -EINVAL, "limit", num, why);
		limit = (double)bytes;
	}
	s->ss_bw = bw;
	s->ss_slope = slope;
	s->ss_pct = pct;
	s->ss_limit = limit;
	return 0;
}

/* steadystate_duration: a time in whole seconds (the window holds one
 * sample a second), default unit s */
int opt_cb_ss_dur(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *why = NULL;
	uint64_t ns;
	if (!val || parse_time(val, NS_PER_SEC, &ns, &why))
		return opt_fail(c, -EINVAL, "time", val ? val : "", why ? why : "a value is needed");
	if (ns % NS_PER_SEC)
		return opt_fail(c, -EINVAL, "time", val, "give whole seconds: one sample is taken a second");
	if (ns / NS_PER_SEC > 86400)
		return opt_fail(c, -ERANGE, "time", val, "at most a day");
	s->ss_dur = ns;
	return 0;
}

/* unit_base: 0 (auto: bytes), 8 (bytes) or 1 (bits), as fio spells them */
int opt_cb_unit_base(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	if (val && (!strcmp(val, "0") || !strcmp(val, "8")))
		s->unit_bits = false;
	else if (val && !strcmp(val, "1"))
		s->unit_bits = true;
	else
		return opt_fail(c, -EINVAL, "value", val ? val : "", "use 0 (auto), 8 (bytes) or 1 (bits)");
	return 0;
}
