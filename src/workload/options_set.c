/*
 * Applying one option to a job spec: look the key up in option_table (name
 * or alias), parse the value by the row's type, range-check it and store it
 * at the row's offset; unknown keys get a "did you mean" suggestion and fio
 * options iobench lacks say so. Also job_spec_finalize(), which derives the
 * values fio derives once every option is in.
 */
#include "workload/options_cb.h"
#include "util/strutil.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct option_def *option_find(const char *key)
{
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_def *o = &option_table[i];
		if (!strcmp(o->name, key))
			return o;
		for (int a = 0; a < 2; a++)
			if (o->alias[a] && !strcmp(o->alias[a], key))
				return o;
	}
	return NULL;
}

const char *option_suggest(const char *key)
{
	/* every name and alias: three per row at most */
	size_t max = 3 * option_table_len;
	const char **cands = xcalloc(max, sizeof(*cands));
	const char **canon = xcalloc(max, sizeof(*canon));
	size_t n = 0;
	for (size_t i = 0; i < option_table_len; i++) {
		const struct option_def *o = &option_table[i];
		canon[n] = o->name;
		cands[n++] = o->name;
		for (int a = 0; a < 2; a++)
			if (o->alias[a]) {
				canon[n] = o->name;
				cands[n++] = o->alias[a];
			}
	}
	const char *best = suggest_nearest(key, cands, n), *found = NULL;
	for (size_t i = 0; best && i < n && !found; i++)
		if (cands[i] == best)
			found = canon[i];
	free(cands);
	free(canon);
	return found;
}

static void *field(struct job_spec *s, const struct option_def *o)
{
	return (char *)s + o->off;
}

static int set_uint(struct job_spec *s, const struct option_def *o, const char *val,
		    struct opt_ctx *c)
{
	uint64_t v;
	const char *why = NULL;
	uint64_t max = o->max ? o->max : (o->width == 4 ? UINT32_MAX : UINT64_MAX);
	int ret = o->type == OPT_SIZE ? parse_size(val, s->kb_base, &v, &why)
				      : parse_uint(val, 1000, &v, &why);
	if (ret)
		return opt_fail(c, ret, o->type == OPT_SIZE ? "size" : "number", val, why);
	if (v < o->min || v > max) {
		char range[96];
		if (max == UINT64_MAX || max == UINT32_MAX)
			snprintf(range, sizeof(range), "must be at least %llu", (unsigned long long)o->min);
		else
			snprintf(range, sizeof(range), "must be from %llu to %llu",
				 (unsigned long long)o->min, (unsigned long long)max);
		return opt_fail(c, -ERANGE, o->type == OPT_SIZE ? "size" : "number", val, range);
	}
	if (o->width == 4)
		*(unsigned *)field(s, o) = (unsigned)v;
	else
		*(uint64_t *)field(s, o) = v;
	return 0;
}

static int set_typed(struct job_spec *s, const struct option_def *o, const char *val,
		     struct opt_ctx *c)
{
	const char *why = NULL;
	switch (o->type) {
	case OPT_BOOL: {
		bool b = true;
		if (val && parse_bool(val, &b, &why))
			return opt_fail(c, -EINVAL, "boolean", val, why);
		*(bool *)field(s, o) = b;
		return 0;
	}
	case OPT_UINT:
	case OPT_SIZE:
		return set_uint(s, o, val, c);
	case OPT_TIME: {
		uint64_t ns;
		if (parse_time(val, o->unit, &ns, &why))
			return opt_fail(c, -EINVAL, "time", val, why);
		*(uint64_t *)field(s, o) = ns;
		return 0;
	}
	case OPT_STR: {
		char **p = field(s, o);
		free(*p);
		*p = xstrdup(val);
		return 0;
	}
	case OPT_FUNC:
		break;
	}
	return o->parse(s, val, c);
}

int option_set(struct job_spec *s, const char *key, const char *value, char *why, size_t whylen)
{
	const struct option_def *o = option_find(key);
	struct opt_ctx c = { .opt = o, .key = key, .why = why, .whylen = whylen };
	if (!o) {
		if (option_is_fio(key))
			return opt_failf(&c, -ENOTSUP, "option '%s' is a fio option that iobench does not implement yet", key);
		const char *near = option_suggest(key);
		if (near)
			return opt_failf(&c, -ENOENT, "unknown option '%s' (did you mean '%s'?)", key, near);
		return opt_failf(&c, -ENOENT, "unknown option '%s'", key);
	}
	if (!value && !o->is_flag)
		return opt_failf(&c, -EINVAL, "option '%s' needs a value", key);
	if (value && !*value && o->type != OPT_STR)
		return opt_failf(&c, -EINVAL, "option '%s' needs a value", key);
	return set_typed(s, o, value, &c);
}

void job_spec_finalize(struct job_spec *s)
{
	if (!s->iodepth_low || s->iodepth_low > s->iodepth)
		s->iodepth_low = s->iodepth;
	if (!s->iodepth_batch || s->iodepth_batch > s->iodepth)
		s->iodepth_batch = s->iodepth;
	if (s->iodepth_batch_complete_max < s->iodepth_batch_complete_min)
		s->iodepth_batch_complete_max = s->iodepth_batch_complete_min;
	/* as fio: a stall every thinktime_blocks I/Os caps the queue there */
	if (s->thinktime && s->thinktime_blocks < s->iodepth) {
		s->iodepth = s->thinktime_blocks;
		if (s->iodepth_low > s->iodepth)
			s->iodepth_low = s->iodepth;
		if (s->iodepth_batch > s->iodepth)
			s->iodepth_batch = s->iodepth;
		if (s->iodepth_batch_complete_min > s->iodepth)
			s->iodepth_batch_complete_min = s->iodepth;
		if (s->iodepth_batch_complete_max > s->iodepth)
			s->iodepth_batch_complete_max = s->iodepth;
	}
}
