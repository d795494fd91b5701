/*
 * Internal to the option table: setting an option that an engine declares
 * (options_engine.c). option_set() hands a key here when no job option has
 * that name but some engine's rows do.
 */
#ifndef IOBENCH_SPEC_OPTIONS_ENGINE_INT_H
#define IOBENCH_SPEC_OPTIONS_ENGINE_INT_H

#include "spec/options.h"

/* Parse value into s's options struct for the engine s->ioengine names
 * (started from that engine's defaults if s holds none for it); a key that
 * engine does not declare is -EINVAL, "'hipri' is not an option of engine
 * 'psync' (io_uring and pvsync2 have it)". */
int engine_option_set(struct job_spec *s, const char *key, const char *value, struct opt_ctx *c);

/* s's options struct for engine e (NULL for an engine without options),
 * made from e's defaults when s holds none for e; s's options for another
 * engine are dropped. */
void *engine_opts_for(struct job_spec *s, const struct engine_ops *e);

#endif
