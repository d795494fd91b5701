/*
 * Parse callback of bwavgtime/iopsavgtime: a time in ms by default, and a
 * note that it was written, because a bw/iops log sets them from
 * log_avg_msec otherwise, as fio does (joblog_spec_finalize).
 */
#include "workload/options_cb.h"
#include "util/units.h"

#include <errno.h>
#include <stddef.h>

int opt_cb_avgtime(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	uint64_t ns;
	const char *why = NULL;
	if (parse_time(val, NS_PER_MS, &ns, &why))
		return opt_fail(c, -EINVAL, "time", val, why);
	*(uint64_t *)((char *)s + c->opt->off) = ns;
	if (c->opt->off == offsetof(struct job_spec, bw_avg_time))
		s->bw_avg_time_set = true;
	else
		s->iops_avg_time_set = true;
	return 0;
}
