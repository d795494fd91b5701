/*
 * Parse callback of bwavgtime/iopsavgtime: a time in ms by default, and a
 * note that it was written, because a bw/iops log sets them from
 * log_avg_msec otherwise, as fio does (spec_logs_finalize, also here).
 */
#include "spec/options_cb_int.h"
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

void spec_logs_finalize(struct job_spec *s)
{
	uint64_t win = (uint64_t)s->log_avg_msec * 1000000ULL;
	if (s->bw_log && !s->bw_avg_time_set && win)
		s->bw_avg_time = win;
	if (s->iops_log && !s->iops_avg_time_set && win)
		s->iops_avg_time = win;
}
