/*
 * /proc/stat and /proc/loadavg parsers for procstat.h.
 */
#include "sys/procstat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text after "key " on the line that starts with it, or NULL. */
static const char *line_value(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ' ')
			return p + klen + 1;
	return NULL;
}

static int get_u64(const char *text, const char *key, uint64_t *out, bool required)
{
	const char *v = line_value(text, key);
	char *end;

	if (!v)
		return required ? -EINVAL : 0;
	*out = strtoull(v, &end, 10);
	return end == v ? -EINVAL : 0;
}

int procstat_parse_stat(const char *text, struct proc_stat *out)
{
	struct cpu_ticks *c = &out->cpu;
	const char *v;
	int n, ret;

	memset(out, 0, sizeof(*out));
	v = line_value(text, "cpu");
	if (!v)
		return -EINVAL;
	/* 4 fields on 2.4, 7 since 2.6.0, 8 steal, 9 guest, 10 guest_nice */
	n = sscanf(v, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &c->user, &c->nice,
		   &c->system, &c->idle, &c->iowait, &c->irq, &c->softirq, &c->steal, &c->guest,
		   &c->guest_nice);
	if (n < 4)
		return -EINVAL;
	if ((ret = get_u64(text, "intr", &out->intr, true)) ||
	    (ret = get_u64(text, "ctxt", &out->ctxt, true)) ||
	    (ret = get_u64(text, "processes", &out->forks, false)) ||
	    (ret = get_u64(text, "procs_running", &out->procs_running, false)) ||
	    (ret = get_u64(text, "procs_blocked", &out->procs_blocked, false)))
		return ret;
	return 0;
}

int procstat_parse_loadavg(const char *text, struct proc_loadavg *out)
{
	memset(out, 0, sizeof(*out));
	if (sscanf(text, "%lf %lf %lf %" SCNu64 "/%" SCNu64, &out->avg1, &out->avg5, &out->avg15,
		   &out->running, &out->threads) != 5)
		return -EINVAL;
	return 0;
}
