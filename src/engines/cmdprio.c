/*
 * cmdprio options of io_uring and libaio (engines/cmdprio_int.h): their parsers
 * and the per-I/O choice. A choice draws one number in [0, 100) per read or
 * write; with cmdprio_percentage the I/O carries the priority when the draw
 * is below its direction's percentage, with cmdprio_bssplit the entries of
 * the I/O's block size are taken in order, each its share of the draw (as
 * fio's: 4k/50/2/3:4k/20 gives half of the 4k I/Os 2/3, a fifth the
 * cmdprio_class/cmdprio priority, the rest none).
 */
#include "engines/cmdprio_int.h"
#include "util/timeutil.h"
#include "util/error.h"
#include "util/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct cmdprio_opts *opts_of(void *target, struct opt_ctx *c)
{
	return (struct cmdprio_opts *)((char *)target + c->opt->off);
}

/* "A" or "A,B" (a third value, for trims, is ignored as fio does) into v[2]. */
static int per_dir(const char *val, struct opt_ctx *c, uint64_t lo, uint64_t hi, uint64_t v[2])
{
	char buf[64];
	char *save = NULL, *tok;
	unsigned n = 0;

	if (strlen(val) >= sizeof(buf))
		return opt_fail(c, -EINVAL, "value", val, "too long");
	snprintf(buf, sizeof(buf), "%s", val);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++) {
		uint64_t x;
		const char *why = NULL;
		if (n >= 3)
			return opt_fail(c, -EINVAL, "value", val, "at most reads,writes,trims");
		if (parse_uint(tok, 1000, &x, &why))
			return opt_fail(c, -EINVAL, "number", tok, why);
		if (x < lo || x > hi) {
			snprintf(buf, sizeof(buf), "must be from %llu to %llu", (unsigned long long)lo,
				 (unsigned long long)hi);
			return opt_fail(c, -ERANGE, "number", tok, buf);
		}
		if (n < 2)
			v[n] = x;
	}
	if (!n)
		return opt_fail(c, -EINVAL, "value", val, "empty");
	if (n == 1)
		v[1] = v[0];
	return 0;
}

int cmdprio_opt_percentage(void *target, const char *val, struct opt_ctx *c)
{
	struct cmdprio_opts *o = opts_of(target, c);
	uint64_t v[2];
	int ret = per_dir(val, c, 0, 100, v);

	if (ret)
		return ret;
	o->pct[0] = (uint8_t)v[0];
	o->pct[1] = (uint8_t)v[1];
	o->pct_set = v[0] || v[1]; /* as fio: 0 is no percentage at all */
	return 0;
}

int cmdprio_opt_class(void *target, const char *val, struct opt_ctx *c)
{
	struct cmdprio_opts *o = opts_of(target, c);
	uint64_t v[2];
	int ret = per_dir(val, c, 1, 3, v);

	if (ret)
		return ret;
	for (int d = 0; d < 2; d++)
		o->cls[d] = (uint8_t)v[d];
	return 0;
}

int cmdprio_opt_level(void *target, const char *val, struct opt_ctx *c)
{
	struct cmdprio_opts *o = opts_of(target, c);
	uint64_t v[2];
	int ret = per_dir(val, c, 0, 7, v);

	if (ret)
		return ret;
	for (int d = 0; d < 2; d++)
		o->level[d] = (uint8_t)v[d];
	return 0;
}

/* One "bs/pct[/class/level]" entry. */
static int parse_entry(char *e, struct opt_ctx *c, unsigned kb_base, struct cmdprio_split *out)
{
	char *f[5];
	unsigned n = 0;
	char *save = NULL;
	uint64_t x;
	const char *why = NULL;

	for (char *t = strtok_r(e, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
		if (n == 4)
			return opt_fail(c, -EINVAL, "entry", e, "use bs/pct or bs/pct/class/level");
		f[n++] = t;
	}
	if (n != 2 && n != 4)
		return opt_fail(c, -EINVAL, "entry", e, "use bs/pct or bs/pct/class/level");
	if (parse_size(f[0], kb_base, &out->bs, &why))
		return opt_fail(c, -EINVAL, "block size", f[0], why);
	if (parse_uint(f[1], 1000, &x, &why) || x > 100)
		return opt_fail(c, -ERANGE, "percentage", f[1], why ? why : "must be from 0 to 100");
	out->pct = (uint8_t)x;
	out->own = n == 4;
	if (n == 4) {
		if (parse_uint(f[2], 1000, &x, &why) || x > 3)
			return opt_fail(c, -ERANGE, "priority class", f[2], why ? why : "must be from 0 to 3");
		out->cls = (uint8_t)x;
		if (parse_uint(f[3], 1000, &x, &why) || x > 7)
			return opt_fail(c, -ERANGE, "priority level", f[3], why ? why : "must be from 0 to 7");
		out->level = (uint8_t)x;
	}
	return 0;
}

int cmdprio_opt_bssplit(void *target, const char *val, struct opt_ctx *c)
{
	struct cmdprio_opts *o = opts_of(target, c);
	char *copy = strdup(val), *dsave = NULL;
	unsigned d = 0;
	int ret = 0;

	if (!copy)
		return opt_failf(c, -ENOMEM, "out of memory");
	memset(o->bss, 0, sizeof(o->bss));
	memset(o->nr_bss, 0, sizeof(o->nr_bss));
	for (char *dir = strtok_r(copy, ",", &dsave); dir && !ret; dir = strtok_r(NULL, ",", &dsave), d++) {
		char *esave = NULL;
		if (d >= 2)
			break; /* trims: ignored, as fio */
		for (char *e = strtok_r(dir, ":", &esave); e && !ret; e = strtok_r(NULL, ":", &esave)) {
			if (o->nr_bss[d] == CMDPRIO_MAX_SPLIT) {
				ret = opt_failf(c, -EINVAL, "invalid value for option '%s': more than %d entries",
						c->key, CMDPRIO_MAX_SPLIT);
				break;
			}
			ret = parse_entry(e, c, c->kb_base, &o->bss[d][o->nr_bss[d]++]);
		}
	}
	free(copy);
	if (ret)
		return ret;
	if (!d)
		return opt_fail(c, -EINVAL, "value", val, "empty");
	if (d == 1) {
		memcpy(o->bss[1], o->bss[0], sizeof(o->bss[0]));
		o->nr_bss[1] = o->nr_bss[0];
	}
	o->bss_set = true;
	return 0;
}

int cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o, const struct engine_params *p,
		 const char *engine)
{
	memset(cp, 0, sizeof(*cp));
	if (o->pct_set && o->bss_set)
		return error("%s: cmdprio_percentage and cmdprio_bssplit are mutually exclusive", engine);
	cp->o = o;
	cp->on = (o->pct_set && (o->pct[0] || o->pct[1])) || (o->bss_set && (o->nr_bss[0] || o->nr_bss[1]));
	uint64_t seed = (p->seed_set ? p->seed : 0x636d647072696fULL) + 0x9e3779b97f4a7c15ULL * p->clone;
	/* randrepeat=0 without randseed: a different draw each run */
	if (!p->randrepeat && !p->seed_set)
		seed ^= now_ns();
	rng_seed(&cp->rng, seed ^ 0x7072696f);
	return 0;
}

static int value_of(const struct cmdprio_opts *o, unsigned d)
{
	return cmdprio_value(o->cls[d] ? o->cls[d] : CMDPRIO_CLASS_RT, o->level[d]);
}

int cmdprio_pick(struct cmdprio *cp, enum ddir d, uint64_t buflen)
{
	const struct cmdprio_opts *o = cp->o;

	if (!cp->on || (d != DDIR_READ && d != DDIR_WRITE))
		return -1;
	unsigned draw = (unsigned)rng_below(&cp->rng, 100);
	if (o->pct_set)
		return draw < o->pct[d] ? value_of(o, d) : -1;
	unsigned sum = 0;
	for (unsigned i = 0; i < o->nr_bss[d]; i++) {
		const struct cmdprio_split *s = &o->bss[d][i];
		if (s->bs != buflen)
			continue;
		sum += s->pct;
		if (draw < sum)
			return s->own ? cmdprio_value(s->cls, s->level) : value_of(o, d);
	}
	return -1;
}
