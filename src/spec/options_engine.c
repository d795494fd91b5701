/*
 * Engine options in a job spec. Each engine declares its own rows and
 * options struct (engines/engine.h); a spec holds one such struct, for the
 * engine its ioengine names, in engine_opts. Setting an engine option parses
 * it against the rows of the spec's engine at that moment; when ioengine
 * names another engine later, the struct starts again from that engine's
 * defaults (fio's rule: a job inherits its [global] section's engine
 * options only if it keeps the same engine). The job-file parser applies a
 * section's engine options after its other options, so within a section
 * their order does not matter, as in fio.
 */
#include "spec/options_cb_int.h"
#include "spec/options_engine_int.h"
#include "engines/engine.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "util/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct option_def *option_find_engine(const char *key)
{
	const struct engine_ops *e;
	const struct option_def *o;
	for (size_t i = 0; (e = engine_at(i)); i++)
		if ((o = engine_option_find(e, key)))
			return o;
	return NULL;
}

const struct option_def *option_find_any(const char *key)
{
	const struct option_def *o = option_find(key);
	return o ? o : option_find_engine(key);
}

const struct engine_ops *job_spec_engine(const struct job_spec *s)
{
	return engine_find(s->ioengine ? s->ioengine : "psync");
}

void *engine_opts_for(struct job_spec *s, const struct engine_ops *e)
{
	if (s->engine_opts_of == e && (s->engine_opts || !e || !e->nr_options))
		return s->engine_opts;
	free(s->engine_opts);
	s->engine_opts = NULL;
	s->engine_opts_of = e;
	if (e && e->nr_options) {
		char why[256];
		s->engine_opts = xmalloc(e->options_size);
		if (engine_options_init(e, s->engine_opts, s->kb_base, why, sizeof(why)))
			die("engine '%s' refuses a default of its own options: %s", e->name, why);
	}
	return s->engine_opts;
}

/* "io_uring has it", "io_uring and pvsync2 have it", "a, b and c have it" */
static void engines_with(const char *key, char *out, size_t len)
{
	const struct engine_ops *e, *names[16];
	size_t n = 0, w = 0;
	for (size_t i = 0; (e = engine_at(i)) && n < 16; i++)
		if (engine_option_find(e, key))
			names[n++] = e;
	out[0] = '\0';
	for (size_t i = 0; i < n && w < len; i++)
		w += (size_t)snprintf(out + w, len - w, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
				      names[i]->name);
	if (w < len)
		snprintf(out + w, len - w, " %s it", n == 1 ? "has" : "have");
}

int engine_option_set(struct job_spec *s, const char *key, const char *value, struct opt_ctx *c)
{
	const struct engine_ops *e = job_spec_engine(s);
	if (!e) /* opt_cb_ioengine() lets only engines in */
		return opt_failf(c, -EINVAL, "'%s' is an engine option, but ioengine '%s' is not an engine",
				 key, s->ioengine);
	const struct option_def *o = engine_option_find(e, key);
	if (!o) {
		char who[160];
		engines_with(key, who, sizeof(who));
		return opt_failf(c, -EINVAL, "'%s' is not an option of engine '%s' (%s)", key, e->name, who);
	}
	return optdef_set(o, engine_opts_for(s, e), value, c);
}

int engine_ctx_setup(struct engine_ctx *ctx, const struct job_spec *s)
{
	ctx->params = (struct engine_params){
		.iodepth = s->iodepth ? s->iodepth : 1,
		.direct = s->direct,
		.fadvise = s->fadvise_hint,
		.random = spec_is_rand(s),
		.seed = s->randseed,
		.seed_set = s->randseed_set,
		.randrepeat = s->randrepeat,
		.clone = s->jobnum,
		.job_name = s->name,
		.directory = s->directory,
		.unlink = s->unlink,
		.reads = spec_reads(s),
		.writes = spec_writes(s),
		.verify = s->verify != VERIFY_NONE,
		.runtime_ns = s->runtime,
	};
	/* as sched_apply sets it: best-effort when only prio is given, level 0
	 * when only prioclass is */
	if (s->ioprio >= 0 || s->ioprio_class >= 0)
		ctx->params.ioprio = (uint16_t)((s->ioprio_class > 0 ? s->ioprio_class : 2) << 13 |
						(s->ioprio > 0 ? s->ioprio : 0));
	ctx->opts = s->engine_opts_of == ctx->ops ? s->engine_opts : NULL;
	if (ctx->ops && ctx->ops->nr_options && !ctx->opts)
		return error("job '%s': engine '%s' has no options struct (its spec was not finalized "
			     "for it)",
			     s->name ? s->name : "", ctx->ops->name);
	return 0;
}
