/*
 * Parse callbacks of the replay options that are more than a number or a
 * string: replay_skip (a comma list of read, write, trim and sync, as fio
 * takes it), replay_align (a power of 2, as fio insists) and the two
 * ':'-separated float lists of merge_blktrace_scalars and _iters, index
 * paired with read_iolog's files.
 */
#include "spec/options_cb_int.h"
#include "util/strutil.h"
#include "util/units.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

/* replay_skip=KIND[,KIND...]: each one of the row's words, a direction */
int opt_cb_replay_skip(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	char **parts;
	size_t n = str_split_escaped(val ? val : "", ',', &parts);
	unsigned mask = 0;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const struct opt_posval *kind = optdef_word(c->opt, parts[i]);
		if (!kind)
			rc = optdef_word_fail(c->opt, parts[i], c);
		else
			mask |= 1u << kind->value;
	}
	str_list_free(parts);
	if (!rc)
		s->replay_skip = mask;
	return rc;
}

int opt_cb_replay_align(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	uint64_t v;
	const char *why = NULL;
	if (parse_size(val, c->kb_base, &v, &why))
		return opt_fail(c, -EINVAL, "alignment", val, why);
	if (v & (v - 1))
		return opt_fail(c, -EINVAL, "alignment", val, "must be a power of 2");
	s->replay_align = v;
	return 0;
}

/* merge_blktrace_scalars / merge_blktrace_iters: c->opt->off is the array,
 * the count follows it (jobspec.h keeps them together). */
int opt_cb_merge_list(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	bool iters = c->opt->off == offsetof(struct job_spec, merge_blktrace_iters);
	double *out = iters ? s->merge_blktrace_iters : s->merge_blktrace_scalars;
	unsigned *nr = iters ? &s->nr_merge_blktrace_iters : &s->nr_merge_blktrace_scalars;
	double v[MAX_MERGE_LOGS];
	char **parts;
	size_t n = str_split_escaped(val ? val : "", ':', &parts);
	int rc = 0;
	if (n > MAX_MERGE_LOGS)
		rc = opt_failf(c, -ERANGE, "option '%s' takes at most %d values, one per file of "
			       "read_iolog (got %zu)", c->key, MAX_MERGE_LOGS, n);
	for (size_t i = 0; i < n && !rc; i++) {
		const char *why = NULL;
		if (parse_double(parts[i], &v[i], &why))
			rc = opt_fail(c, -EINVAL, "value", parts[i], why);
		else if (v[i] <= 0)
			rc = opt_fail(c, -ERANGE, "value", parts[i], iters ? "passes must be at least 1"
				      : "a percentage of the trace's time must be above 0");
		else if (iters)
			v[i] = (double)(unsigned)v[i]; /* whole passes, as fio */
	}
	str_list_free(parts);
	if (!rc) {
		memcpy(out, v, n * sizeof(v[0]));
		*nr = (unsigned)n;
	}
	return rc;
}
