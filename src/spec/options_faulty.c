/*
 * Values of the faulty engine's options (iobench's own; fio has no such
 * engine). A selector is "none", "every:N" (the Nth, 2Nth, ... read or write
 * the engine sees), "offset:OFF[,OFF...]" (the I/Os whose range covers one
 * of up to 16 byte offsets; sizes take units) or "random:PCT" (each I/O with
 * probability PCT percent, from a stream seeded by randseed). faulty_engine
 * must name another engine; faulty_errno takes a name (EIO) or a number.
 */
#include "spec/options_cb.h"
#include "spec/options_faulty.h"
#include "engines/engine.h"
#include "util/errname.h"
#include "util/units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int opt_cb_faulty_engine(struct job_spec *s, const char *val, struct opt_ctx *c)
{
	if (!strcmp(val, "faulty"))
		return opt_fail(c, -EINVAL, "engine", val, "the faulty engine cannot wrap itself");
	if (!engine_find(val))
		return opt_fail(c, -EINVAL, "engine", val, "not an engine; see 'iobench help options'");
	if (strlen(val) >= sizeof(s->faulty_engine))
		return opt_fail(c, -EINVAL, "engine", val, "name too long");
	snprintf(s->faulty_engine, sizeof(s->faulty_engine), "%s", val);
	return 0;
}

static int parse_offsets(struct job_spec *s, const char *p, struct faulty_sel *sel,
			 const char *val, struct opt_ctx *c)
{
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char one[64];
		uint64_t off;
		const char *why = NULL;
		if (!n || n >= sizeof(one))
			return opt_fail(c, -EINVAL, "selector", val, "an empty or overlong offset");
		memcpy(one, p, n);
		one[n] = '\0';
		if (parse_size(one, s->kb_base, &off, &why))
			return opt_fail(c, -EINVAL, "selector", val, why);
		if (sel->nr_offsets == FAULTY_MAX_OFFSETS)
			return opt_fail(c, -ERANGE, "selector", val, "at most 16 offsets");
		sel->offsets[sel->nr_offsets++] = off;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (!sel->nr_offsets)
		return opt_fail(c, -EINVAL, "selector", val, "offset: needs at least one offset");
	return 0;
}

static int parse_sel(struct job_spec *s, const char *val, struct faulty_sel *out, struct opt_ctx *c)
{
	static const char usage[] = "use none, every:N, offset:OFF[,OFF...] or random:PCT";
	struct faulty_sel sel = { .kind = FAULTY_SEL_NONE };
	const char *why = NULL;
	const char *arg = strchr(val, ':');
	size_t n = arg ? (size_t)(arg - val) : strlen(val);

	if (!arg && !strcasecmp(val, "none")) {
		*out = sel;
		return 0;
	}
	if (!arg)
		return opt_fail(c, -EINVAL, "selector", val, usage);
	arg++;
	if (n == 5 && !strncasecmp(val, "every", n)) {
		if (parse_uint(arg, 1000, &sel.every, &why) || !sel.every)
			return opt_fail(c, -EINVAL, "selector", val, why ? why : "N must be at least 1");
		sel.kind = FAULTY_SEL_EVERY;
	} else if (n == 6 && !strncasecmp(val, "offset", n)) {
		int rc = parse_offsets(s, arg, &sel, val, c);
		if (rc)
			return rc;
		sel.kind = FAULTY_SEL_OFFSET;
	} else if (n == 6 && !strncasecmp(val, "random", n)) {
		if (parse_percent(arg, &sel.pct, &why))
			return opt_fail(c, -EINVAL, "selector", val, why);
		sel.kind = FAULTY_SEL_RANDOM;
	} else {
		return opt_fail(c, -EINVAL, "selector", val, usage);
	}
	*out = sel;
	return 0;
}

int opt_cb_faulty_fail(struct job_spec *s, const char *val, struct opt_ctx *c)
{
	return parse_sel(s, val, &s->faulty_fail, c);
}

int opt_cb_faulty_corrupt(struct job_spec *s, const char *val, struct opt_ctx *c)
{
	return parse_sel(s, val, &s->faulty_corrupt, c);
}

int opt_cb_faulty_delay_select(struct job_spec *s, const char *val, struct opt_ctx *c)
{
	/* unset means every I/O (every:1); delaying none is faulty_delay=0 */
	if (!strcasecmp(val, "none"))
		return opt_fail(c, -EINVAL, "selector", val, "to delay nothing, leave faulty_delay at 0");
	return parse_sel(s, val, &s->faulty_delay_select, c);
}

int opt_cb_faulty_errno(struct job_spec *s, const char *val, struct opt_ctx *c)
{
	int e = errno_parse(val);
	if (e < 0)
		return opt_fail(c, -EINVAL, "errno", val, "use a name such as EIO or ENOSPC, or a number");
	s->faulty_errno = e;
	return 0;
}

int opt_cb_faulty_dir(struct job_spec *s, const char *val, struct opt_ctx *c)
{
	if (!strcasecmp(val, "read"))
		s->faulty_dir = RW_READ;
	else if (!strcasecmp(val, "write"))
		s->faulty_dir = RW_WRITE;
	else if (!strcasecmp(val, "any"))
		s->faulty_dir = 0;
	else
		return opt_fail(c, -EINVAL, "direction", val, "use read, write or any");
	return 0;
}
