/*
 * The faulty engine's options (iobench's own; fio has no such engine): its
 * rows, their parsers and its defaults. A selector is "none", "every:N" (the
 * Nth, 2Nth, ... read or write the engine sees), "offset:OFF[,OFF...]" (the
 * I/Os whose range covers one of up to 16 byte offsets; sizes take units)
 * or "random:PCT" (each I/O with probability PCT percent, from a stream
 * seeded by randseed). faulty_engine must name another engine; faulty_errno
 * takes a name (EIO) or a number.
 */
#include "engines/engine.h"
#include "engines/faulty_int.h"
#include "util/errname.h"
#include "util/units.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int opt_engine(void *target, const char *val, struct opt_ctx *c)
{
	struct faulty_opts *o = target;
	if (!strcmp(val, "faulty"))
		return opt_fail(c, -EINVAL, "engine", val, "the faulty engine cannot wrap itself");
	if (!engine_find(val))
		return opt_fail(c, -EINVAL, "engine", val, "not an engine; see 'iobench help options'");
	if (strlen(val) >= sizeof(o->engine))
		return opt_fail(c, -EINVAL, "engine", val, "name too long");
	snprintf(o->engine, sizeof(o->engine), "%s", val);
	return 0;
}

static int parse_offsets(const char *p, struct faulty_sel *sel, const char *val, struct opt_ctx *c)
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
		if (parse_size(one, c->kb_base, &off, &why))
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

static int parse_sel(const char *val, struct faulty_sel *out, struct opt_ctx *c)
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
		int rc = parse_offsets(arg, &sel, val, c);
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

static int opt_fail_sel(void *target, const char *val, struct opt_ctx *c)
{
	return parse_sel(val, &((struct faulty_opts *)target)->fail, c);
}

static int opt_corrupt(void *target, const char *val, struct opt_ctx *c)
{
	return parse_sel(val, &((struct faulty_opts *)target)->corrupt, c);
}

static int opt_delay_select(void *target, const char *val, struct opt_ctx *c)
{
	/* unset means every I/O (every:1); delaying none is faulty_delay=0 */
	if (!strcasecmp(val, "none"))
		return opt_fail(c, -EINVAL, "selector", val, "to delay nothing, leave faulty_delay at 0");
	return parse_sel(val, &((struct faulty_opts *)target)->delay_select, c);
}

static int opt_errno(void *target, const char *val, struct opt_ctx *c)
{
	int e = errno_parse(val);
	if (e < 0)
		return opt_fail(c, -EINVAL, "errno", val, "use a name such as EIO or ENOSPC, or a number");
	((struct faulty_opts *)target)->err = e;
	return 0;
}

static const struct opt_posval dir_words[] = {
	{ .word = "read", .value = RW_READ },
	{ .word = "write", .value = RW_WRITE },
	{ .word = "any", .value = 0 },
	{ .word = NULL },
};

#define FUNC(n, cb, tt, d, h) { .name = n, .type = OPT_FUNC, .parse = cb, .type_text = tt, \
	.def = d, .help = h }

const struct option_def faulty_options[FAULTY_NR_OPTIONS] = {
	FUNC("faulty_engine", opt_engine, "str", "psync", "the engine it wraps and passes every I/O to (sync or async)"),
	FUNC("faulty_fail", opt_fail_sel, "selector", "none", "I/Os to fail with faulty_errno: none, every:N (the Nth, 2Nth... read/write), offset:OFF[,OFF...] (I/Os covering a byte offset) or random:PCT (seeded by randseed; anew each run with randrepeat=0 and no randseed)"),
	FUNC("faulty_errno", opt_errno, "errno", "EIO", "the error failed I/Os get, by name (EIO, ENOSPC, EINVAL...) or number"),
	{ .name = "faulty_dir", .type = OPT_WORD, .off = offsetof(struct faulty_opts, dir), .width = sizeof(unsigned), .posval = dir_words, .word_what = "direction", .type_text = "str", .def = "any", .help = "the I/Os it acts on (the others pass untouched and are not counted by every:N)" },
	FUNC("faulty_corrupt", opt_corrupt, "selector", "none", "I/Os whose data gets one byte inverted (xor 0xff): a read after it completes, a write before the inner engine gets it; the byte at each offset:OFF, else the middle byte (offset + len/2)"),
	{ .name = "faulty_delay", .type = OPT_TIME, .off = offsetof(struct faulty_opts, delay), .unit = NS_PER_US, .type_text = "time", .def = "0", .help = "add this time to the chosen I/Os' completion (default unit: us)" },
	FUNC("faulty_delay_select", opt_delay_select, "selector", "every:1", "I/Os that faulty_delay slows down (same syntax as faulty_fail)"),
};
