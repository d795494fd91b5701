/*
 * Parse callbacks for options whose values are not about the I/O pattern
 * itself: size/offset with "%", filesize and startdelay ranges,
 * per-direction rate, rate_iops and their minimums, thinktime_blocks,
 * percentile_list, unified_rw_reporting, kb_base, randseed and name.
 */
#include "spec/options_cb_int.h"
#include "util/strutil.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int opt_cb_size(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	uint64_t v;
	unsigned pct;
	const char *why = NULL;
	if (parse_size_pct(val, s->kb_base, &v, &pct, &why))
		return opt_fail(c, -EINVAL, "size", val, why);
	s->size = v;
	s->size_pct = pct;
	return 0;
}

int opt_cb_offset(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	uint64_t v;
	unsigned pct;
	const char *why = NULL;
	if (parse_size_pct(val, s->kb_base, &v, &pct, &why))
		return opt_fail(c, -EINVAL, "offset", val, why);
	s->offset = v;
	s->offset_pct = pct;
	return 0;
}

int opt_cb_filesize(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	uint64_t lo, hi;
	const char *why = NULL;
	if (parse_size_range(val, s->kb_base, &lo, &hi, &why))
		return opt_fail(c, -EINVAL, "size", val, why);
	s->filesize_min = lo;
	s->filesize_max = hi;
	return 0;
}

int opt_cb_startdelay(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	uint64_t lo, hi;
	const char *why = NULL;
	if (parse_time_range(val, NS_PER_SEC, &lo, &hi, &why))
		return opt_fail(c, -EINVAL, "time", val, why);
	s->startdelay_min = lo;
	s->startdelay_max = hi;
	return 0;
}

int opt_cb_rate(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *why = NULL;
	if (parse_size_per_dir(val, s->kb_base, s->rate, &why))
		return opt_fail(c, -EINVAL, "rate", val, why);
	return 0;
}

int opt_cb_rate_iops(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	/* per-direction counts: parsed as sizes with kb_base 1000 so 1k = 1000 */
	const char *why = NULL;
	if (parse_size_per_dir(val, 1000, s->rate_iops, &why))
		return opt_fail(c, -EINVAL, "rate", val, why);
	return 0;
}

int opt_cb_rate_min(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *why = NULL;
	if (parse_size_per_dir(val, s->kb_base, s->rate_min, &why))
		return opt_fail(c, -EINVAL, "rate", val, why);
	return 0;
}

int opt_cb_rate_iops_min(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *why = NULL;
	if (parse_size_per_dir(val, 1000, s->rate_iops_min, &why))
		return opt_fail(c, -EINVAL, "rate", val, why);
	return 0;
}

int opt_cb_thinktime_blocks(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *why = NULL;
	uint64_t n;
	if (!val || parse_uint(val, 1000, &n, &why))
		return opt_fail(c, -EINVAL, "count", val ? val : "", why);
	if (n > UINT32_MAX)
		return opt_fail(c, -ERANGE, "count", val, "too large");
	/* as fio: 0 stalls after every I/O, like 1 */
	s->thinktime_blocks = n ? (unsigned)n : 1;
	s->thinktime_blocks_set = true;
	return 0;
}

int opt_cb_max_latency(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct dir_parts dp;
	uint64_t v[DDIR_RWDIR_CNT];
	const char *why = NULL;
	if (!val || split_per_dir(val, &dp, &why))
		return opt_fail(c, -EINVAL, "time", val ? val : "", why);
	for (int i = 0; i < DDIR_RWDIR_CNT; i++) {
		if (!dp.set[i])
			continue;
		char *part = xstrndup(dp.part[i], dp.len[i]);
		int rc = parse_time(part, NS_PER_US, &v[i], &why);
		free(part);
		if (rc)
			return opt_fail(c, -EINVAL, "time", val, why);
	}
	for (int i = 0; i < DDIR_RWDIR_CNT; i++)
		if (dp.set[i])
			s->max_latency[i] = v[i];
	return 0;
}

int opt_cb_latency_percentile(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	/* fio's type is a ':' list; only the first value counts */
	const char *why = NULL;
	double p;
	char *first = xstrndup(val ? val : "", val ? strcspn(val, ":") : 0);
	int rc = parse_double(first, &p, &why);
	free(first);
	if (rc)
		return opt_fail(c, -EINVAL, "percentage", val ? val : "", why);
	if (!(p > 0 && p <= 100))
		return opt_fail(c, -ERANGE, "percentage", val, "must be above 0 and at most 100");
	s->latency_percentile = p;
	return 0;
}

int opt_cb_percentile_list(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	char **f;
	size_t n = str_split_escaped(val, ':', &f);
	double v[MAX_PERCENTILES];
	int ret = 0;
	if (n > 20) {
		ret = opt_fail(c, -ERANGE, "percentile list", val, "at most 20 percentiles");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const char *why = NULL;
		if (parse_double(f[i], &v[i], &why)) {
			ret = opt_fail(c, -EINVAL, "percentile", f[i], why);
			goto out;
		}
		if (v[i] <= 0 || v[i] > 100) {
			ret = opt_fail(c, -ERANGE, "percentile", f[i], "must be above 0 and at most 100");
			goto out;
		}
	}
	memcpy(s->percentile_list, v, n * sizeof(v[0]));
	s->nr_percentiles = (unsigned)n;
out:
	str_list_free(f);
	return ret;
}

int opt_cb_unified_rw_reporting(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	bool b;
	int rc = opt_word_bool(val, &b, c);
	if (rc)
		return rc;
	s->unified_rw_reporting = b;
	return 0;
}

int opt_cb_kb_base(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	if (!strcmp(val, "1000"))
		s->kb_base = 1000;
	else if (!strcmp(val, "1024"))
		s->kb_base = 1024;
	else
		return opt_fail(c, -EINVAL, "value", val, "use 1000 or 1024");
	return 0;
}

int opt_cb_randseed(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	uint64_t v;
	const char *why = NULL;
	if (parse_uint(val, 1000, &v, &why))
		return opt_fail(c, -EINVAL, "number", val, why);
	s->randseed = v;
	s->randseed_set = true;
	return 0;
}

int opt_cb_name(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	if (!*val)
		return opt_fail(c, -EINVAL, "name", val, "a job name cannot be empty");
	free(s->name);
	s->name = xstrdup(val);
	return 0;
}
