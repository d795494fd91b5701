/*
 * Parse callbacks of the randomness options: random_distribution (zipf,
 * pareto and normal with fio's default parameters and the zipf/pareto
 * center, zoned and zoned_abs zone lists) and percentage_random.
 */
#include "spec/options_cb_int.h"
#include "util/array.h"
#include "util/strutil.h"
#include "util/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * zoned:P/R:P/R... (abs: P/SIZE); fields f[1..n-1] are the zones. As in
 * fio 3.33, a zoned range left out ("20/", "20" or "20/0") is a share of
 * what the given ranges leave: the rest of 100% split evenly (integer
 * division) among the zones without one, so zoned:50/5:30/15:20/ puts 20%
 * of the I/O in the last 80%. A zoned_abs size cannot be left out.
 */
static int parse_zones(struct job_spec *s, char **f, size_t n, bool abs, struct opt_ctx *c)
{
	const char *what = abs ? "zoned_abs zone" : "zoned zone";
	if (n < 2)
		return opt_fail(c, -EINVAL, what, f[0], abs ? "give zones as zoned_abs:PERCENT/SIZE[:PERCENT/SIZE...]"
							    : "give zones as zoned:PERCENT/PERCENT[:PERCENT/PERCENT...]");
	if (n - 1 > MAX_DIST_ZONES)
		return opt_failf(c, -ERANGE, "option '%s' takes at most %d zones, not %zu", c->key,
				 MAX_DIST_ZONES, n - 1);
	unsigned acc = 0, rng = 0, missing = 0;
	for (size_t i = 1; i < n; i++) {
		struct dist_zone *z = &s->dist_zones[i - 1];
		char *slash = strchr(f[i], '/');
		if (!slash && abs)
			return opt_fail(c, -EINVAL, what, f[i], "expected ACCESS/SIZE, e.g. 60/1g");
		if (slash)
			*slash = '\0';
		const char *range = slash ? slash + 1 : "";
		uint64_t a, r;
		const char *why = NULL;
		if (parse_uint(f[i], 1000, &a, &why) || a > 100)
			return opt_fail(c, -EINVAL, "access percentage", f[i], why ? why : "must be from 0 to 100");
		z->access_pct = (unsigned)a;
		if (abs) {
			if (parse_size(range, s->kb_base, &r, &why) || !r)
				return opt_fail(c, -EINVAL, "zone size", range, why ? why : "must be above 0");
			z->size = r;
			z->size_pct = 0;
		} else {
			r = 0;
			if (*range && (parse_uint(range, 1000, &r, &why) || r > 100))
				return opt_fail(c, -EINVAL, "range percentage", range,
						why ? why : "must be from 0 to 100 (0 or nothing: a share of the rest)");
			z->size_pct = (unsigned)r;
			z->size = 0;
			rng += (unsigned)r;
			missing += !r;
		}
		acc += (unsigned)a;
	}
	/* fio 3.33's two checks, in its words' sense */
	if (acc != 100)
		return opt_failf(c, -EINVAL, "access percentages of option '%s' add up to %u, not 100", c->key, acc);
	if (rng > 100)
		return opt_failf(c, -EINVAL, "range percentages of option '%s' add up to %u, more than 100", c->key, rng);
	if (missing) {
		unsigned share = (100 - rng) / missing;
		if (!share)
			return opt_failf(c, -EINVAL, "option '%s' leaves %u zone%s without a range, but the given "
					 "ranges add up to %u%%: nothing is left to share", c->key, missing,
					 missing == 1 ? "" : "s", rng);
		for (size_t i = 0; i + 1 < n; i++)
			if (!s->dist_zones[i].size_pct)
				s->dist_zones[i].size_pct = share;
	}
	s->nr_dist_zones = (unsigned)(n - 1);
	return 0;
}

int opt_cb_random_distribution(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	/* fio 3.33 refuses every per-direction form too ("failed parsing") */
	if (strchr(val, ','))
		return opt_failf(c, -ENOTSUP, "per-direction values of option '%s' are not implemented yet "
				 "(fio 3.33 refuses them too)", c->key);
	char **f;
	size_t n = str_split_escaped(val, ':', &f);
	int ret = 0;
	const struct opt_posval *dist = optdef_word(c->opt, f[0]); /* the row's words */
	if (!dist) {
		ret = optdef_word_fail(c->opt, val, c);
		goto out;
	}
	enum random_dist d = (enum random_dist)dist->value;
	double p = d == DIST_ZIPF ? 1.1 : d == DIST_PARETO ? 0.2 : 0, center = -1; /* the row's help */
	const char *why = NULL;
	if (d == DIST_ZONED || d == DIST_ZONED_ABS) {
		ret = parse_zones(s, f, n, d == DIST_ZONED_ABS, c);
		goto set;
	}
	if (d == DIST_RANDOM) {
		if (n > 1)
			ret = opt_fail(c, -EINVAL, "distribution", val, "'random' takes no parameter");
		goto set;
	}
	if (n > 1 && parse_double(f[1], &p, &why)) {
		ret = opt_fail(c, -EINVAL, "distribution", val, why);
		goto out;
	}
	if (n > 2) {
		if (d == DIST_NORMAL || n > 3) {
			ret = opt_fail(c, -EINVAL, "distribution", val,
				       d == DIST_NORMAL ? "normal takes no center" : "too many ':' fields");
			goto out;
		}
		if (parse_double(f[2], &center, &why) || center < 0 || center > 1) {
			ret = opt_fail(c, -ERANGE, "distribution center", f[2], why ? why : "must be from 0 to 1");
			goto out;
		}
	}
	if (d == DIST_ZIPF && (p <= 0 || p == 1.0))
		ret = opt_fail(c, -ERANGE, "distribution", val, "zipf theta must be above 0 and not 1");
	else if (d == DIST_PARETO && (p <= 0 || p >= 1))
		ret = opt_fail(c, -ERANGE, "distribution", val, "pareto power must be between 0 and 1");
	else if (d == DIST_NORMAL && (p < 0 || p > 100))
		ret = opt_fail(c, -ERANGE, "distribution", val, "normal deviation must be from 0 to 100");
set:
	if (!ret) {
		s->random_distribution = d;
		s->dist_param = p;
		s->dist_center = center;
		if (d != DIST_ZONED && d != DIST_ZONED_ABS)
			s->nr_dist_zones = 0;
	}
out:
	str_list_free(f);
	return ret;
}

int opt_cb_percentage_random(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct dir_parts dp;
	const char *why = NULL;
	if (split_per_dir(val, &dp, &why))
		return opt_fail(c, -EINVAL, "percentage", val, why);
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!dp.set[d])
			continue;
		char buf[32];
		size_t len = dp.len[d] < sizeof(buf) - 1 ? dp.len[d] : sizeof(buf) - 1;
		memcpy(buf, dp.part[d], len);
		buf[len] = '\0';
		uint64_t v;
		if (parse_uint(buf, 1000, &v, &why) || v > 100)
			return opt_fail(c, -EINVAL, "percentage", buf, why ? why : "must be from 0 to 100");
		s->perc_random[d] = (unsigned)v;
	}
	return 0;
}
