/*
 * Applying one option to a job spec: look the key up in option_table (name
 * or alias), parse the value by the row's type, range-check it and store it
 * at the row's offset; unknown keys get a "did you mean" suggestion and fio
 * options iobench lacks say so; a key an engine declares goes to that
 * engine's rows (options_engine.c). Also job_spec_finalize(), which derives
 * the values fio derives once every option is in.
 */
#include "spec/options_cb_int.h"
#include "spec/options_engine_int.h"
#include "spec/extengine.h"
#include "engines/engine.h"
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

/* Every spelling of rows[0..n) into cands[], with its canonical name. */
static size_t add_spellings(const struct option_def *rows, size_t n, const char **cands,
			    const char **canon, size_t at)
{
	for (size_t i = 0; i < n; i++) {
		const struct option_def *o = &rows[i];
		canon[at] = o->name;
		cands[at++] = o->name;
		for (int a = 0; a < 2; a++)
			if (o->alias[a]) {
				canon[at] = o->name;
				cands[at++] = o->alias[a];
			}
	}
	return at;
}

const char *option_suggest(const char *key)
{
	/* every name and alias, of the job options and every engine's: three per row at most */
	const struct engine_ops *e;
	size_t rows = option_table_len;
	for (size_t i = 0; (e = engine_at(i)); i++)
		rows += e->nr_options;
	const char **cands = xcalloc(3 * rows, sizeof(*cands));
	const char **canon = xcalloc(3 * rows, sizeof(*canon));
	size_t n = add_spellings(option_table, option_table_len, cands, canon, 0);
	for (size_t i = 0; (e = engine_at(i)); i++)
		n = add_spellings(e->options, e->nr_options, cands, canon, n);
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
	if (s->ext_engine && fio_ext_engine_has(s->ext_engine, key))
		return 0; /* the job is refused for its engine already (opt_cb_ioengine) */
	if (!o) {
		char ext[256];
		if (!option_find_engine(key) && fio_ext_engine_option_why(key, ext, sizeof(ext)))
			return opt_failf(&c, -ENOTSUP, "%s", ext);
		if (option_find_engine(key))
			return engine_option_set(s, key, value, &c);
		if (option_is_fio(key))
			return opt_failf(&c, -ENOTSUP, "option '%s' is a fio option that iobench does not implement yet", key);
		const char *near = option_suggest(key);
		if (near)
			return opt_failf(&c, -ENOENT, "unknown option '%s' (did you mean '%s'?)", key, near);
		return opt_failf(&c, -ENOENT, "unknown option '%s'", key);
	}
	int rc = optdef_set(o, s, value, &c);
	if (rc == 0 && o->off == offsetof(struct job_spec, iodepth) && o->type == OPT_UINT)
		s->iodepth_set = true;
	return rc;
}

void job_spec_finalize(struct job_spec *s)
{
	/* as fio: "time_based requires a runtime/timeout setting", and the
	 * job runs as if time_based were not set (job_write_opts_check warns) */
	if (s->time_based && !s->runtime) {
		s->time_based = false;
		s->time_based_dropped = true;
	}
	if (s->pre_read)
		s->invalidate = false; /* as fio: dropping what was just read would undo it */
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
	spec_logs_finalize(s);
	const struct engine_ops *e = job_spec_engine(s);
	engine_opts_for(s, e); /* the engine's options, its defaults where none was set */
	struct engine_job_hints h = { 0 };
	if (e && e->job_hints)
		e->job_hints(s->engine_opts, &h);
	if (h.thinktime_set) { /* as fio's cpuio: a stall after every I/O, no spin */
		s->thinktime = h.thinktime_ns;
		s->thinktime_spin = 0;
		s->thinktime_blocks = 1;
		s->thinktime_blocks_issue = false;
		s->thinktime_iotime = 0;
	}
}
