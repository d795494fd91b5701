/*
 * /proc/pressure/{io,memory,cpu} parser for procstat.h (Linux 4.20+):
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=0
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
 * The cpu file has no "full" line before 5.13.
 */
#include "sys/procstat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int parse_line(const char *p, struct psi_line *l)
{
	return sscanf(p, " avg10=%lf avg60=%lf avg300=%lf total=%" SCNu64, &l->avg10, &l->avg60,
		      &l->avg300, &l->total_us) == 4 ? 0 : -EINVAL;
}

int procstat_parse_psi(const char *text, struct proc_psi *out)
{
	bool some = false;

	memset(out, 0, sizeof(*out));
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		if (!strncmp(p, "some ", 5)) {
			if (parse_line(p + 4, &out->some))
				return -EINVAL;
			some = true;
		} else if (!strncmp(p, "full ", 5)) {
			if (parse_line(p + 4, &out->full))
				return -EINVAL;
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	if (!some)
		return -EINVAL;
	out->have = true;
	return 0;
}

const char *psi_resource_name(enum psi_resource r)
{
	static const char *const names[PSI_NR] = { "io", "memory", "cpu" };
	return r < PSI_NR ? names[r] : "?";
}
