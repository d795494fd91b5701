/*
 * Parse callbacks of the verify options whose values are more than a number,
 * a flag or a word (verify='s words are its row's in options_table.c, and
 * so are the names verify_type_name gives): verify_pattern=
 * (checked here, kept as written, rendered per job by verify_cfg_init). As in
 * fio, a verify_pattern with no verify= set means verify=pattern.
 */
#include "spec/options.h"
#include "spec/options_cb_int.h"
#include "spec/verify_opts.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *verify_type_name(enum verify_type t)
{
	const struct option_def *o = option_find("verify");
	const char *name = o ? optdef_word_name(o, (int)t) : NULL;
	return name ? name : "?";
}

/* fio's buffer_pattern: verify_pattern's syntax without %o (fio refuses it). */
int opt_cb_buffer_pattern(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct vpattern p;
	char why[128];
	if (strchr(val, '\''))
		return opt_failf(c, -ENOTSUP, "a 'file' part of option '%s' is not implemented yet "
				 "(use 0xHEX, decimal and \"text\")", c->key);
	if (vpattern_parse(val, &p, why, sizeof(why)) < 0)
		return opt_fail(c, -EINVAL, "pattern", val, why);
	unsigned slots = p.nr_slots;
	vpattern_release(&p);
	if (slots)
		return opt_fail(c, -EINVAL, "pattern", val, "%o belongs to verify_pattern only, as in fio");
	free(s->buffer_pattern);
	s->buffer_pattern = xstrdup(val);
	return 0;
}

int opt_cb_verify_pattern(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct vpattern p;
	char why[128];
	if (vpattern_parse(val, &p, why, sizeof(why)) < 0)
		return opt_fail(c, -EINVAL, "pattern", val, why);
	vpattern_release(&p);
	free(s->verify_pattern);
	s->verify_pattern = xstrdup(val);
	if (s->verify == VERIFY_NONE)
		s->verify = VERIFY_PATTERN;
	return 0;
}
