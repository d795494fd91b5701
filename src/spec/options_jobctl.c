/*
 * Parse callbacks of the job-control options: exit_what (group, stonewall
 * or all, spelt exactly as fio 3.33 takes them). exitall, exitall_on_error,
 * exec_prerun and exec_postrun are plain rows; workload/jobctl.c runs them.
 * Also the options of fio's profiles, which fio takes in every job.
 */
#include "spec/options_cb.h"
#include "util/units.h"

#include <errno.h>
#include <string.h>

int opt_cb_exit_what(void *target, const char *val, struct opt_ctx *c)
{
	static const struct {
		const char *name;
		enum exit_what what;
	} whats[] = {
		{ "group", EXIT_WHAT_GROUP },
		{ "stonewall", EXIT_WHAT_STONEWALL },
		{ "all", EXIT_WHAT_ALL },
	};
	struct job_spec *s = target;
	for (size_t i = 0; val && i < sizeof(whats) / sizeof(whats[0]); i++)
		if (!strcmp(val, whats[i].name)) {
			s->exit_what = whats[i].what;
			return 0;
		}
	return opt_fail(c, -EINVAL, "value", val ? val : "", "use group, stonewall or all");
}

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
