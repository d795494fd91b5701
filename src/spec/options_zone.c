/*
 * Parse callbacks of fio's zone options whose values are more than a number
 * or a word (zonemode's words are its row's in options_table.c): zoneskip= (bytes, or Nz: N zones of
 * zonesize) and the zone_reset_threshold / zone_reset_frequency fractions
 * (fio's type is a ':' list of floats; the first counts). The checks that
 * need several options (zonesize with zonemode) are job_spec_validate's;
 * the device check of zonemode=zbd is workload/iogen/zones.c's.
 */
#include "spec/options_cb_int.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int opt_cb_zoneskip(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *why = NULL;
	size_t n = strlen(val);
	if (n > 1 && (val[n - 1] == 'z' || val[n - 1] == 'Z')) {
		char *num = xstrndup(val, n - 1), *end;
		unsigned long long z = strtoull(num, &end, 10);
		bool ok = *num && !*end && num[0] != '-';
		free(num);
		if (!ok)
			return opt_fail(c, -EINVAL, "zone count", val, "expected N or Nz (N zones)");
		s->zoneskip = z;
		s->zoneskip_zones = true;
		return 0;
	}
	uint64_t v;
	if (parse_size(val, s->kb_base, &v, &why))
		return opt_fail(c, -EINVAL, "size", val, why);
	s->zoneskip = v;
	s->zoneskip_zones = false;
	return 0;
}

/* zone_reset_threshold and zone_reset_frequency: a fraction from 0 to 1 */
int opt_cb_zone_fraction(void *target, const char *val, struct opt_ctx *c)
{
	const char *why = NULL;
	double v;
	char *first = xstrndup(val, strcspn(val, ":"));
	int rc = parse_double(first, &v, &why);
	free(first);
	if (rc)
		return opt_fail(c, -EINVAL, "fraction", val, why);
	if (!(v >= 0 && v <= 1))
		return opt_fail(c, -ERANGE, "fraction", val, "must be from 0 to 1, as in fio");
	*(double *)((char *)target + c->opt->off) = v;
	return 0;
}
