/*
 * Applying one option to a job spec: look the key up in option_table (name
 * or alias), parse the value by the row's type, range-check it and store it
 * at the row's offset; unknown keys get a "did you mean" suggestion and fio
 * options iobench lacks say so. Also job_spec_finalize(), which derives the
 * values fio derives once every option is in.
 */
#include "workload/options_cb.h"
#include "util/strutil.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct option_def *option_find(const char *key)
{
	return optdef_find(option_table, option_table_len, key);
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

int option_set(struct job_spec *s, const char *key, const char *value, char *why, size_t whylen)
{
	const struct option_def *o = option_find(key);
	struct opt_ctx c = { .opt = o, .key = key, .kb_base = s->kb_base, .why = why, .whylen = whylen };
	if (!o) {
		if (option_is_fio(key))
			return opt_failf(&c, -ENOTSUP, "option '%s' is a fio option that iobench does not implement yet", key);
		const char *near = option_suggest(key);
		if (near)
			return opt_failf(&c, -ENOENT, "unknown option '%s' (did you mean '%s'?)", key, near);
		return opt_failf(&c, -ENOENT, "unknown option '%s'", key);
	}
	return optdef_set(o, s, value, &c);
}

void job_spec_finalize(struct job_spec *s)
{
	if (!s->iodepth_low || s->iodepth_low > s->iodepth)
		s->iodepth_low = s->iodepth;
	if (!s->iodepth_batch || s->iodepth_batch > s->iodepth)
		s->iodepth_batch = s->iodepth;
	if (s->iodepth_batch_complete_max < s->iodepth_batch_complete_min)
		s->iodepth_batch_complete_max = s->iodepth_batch_complete_min;
}
