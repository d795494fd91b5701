/*
 * The engine registry: the one explicit list of engines. ENGINE_LIST names
 * each engine once; the ops array and the name array are both generated from
 * it, so they cannot drift apart. engines_validate() checks every table at
 * start-up: required hooks present, async engines able to commit and reap,
 * names unique and equal to the name the list gives them, a summary for
 * help, and option rows that fit the engine's options struct.
 */
#include "engines/engine.h"
#include "engines/engines_list_int.h"
#include "util/array.h"
#include "util/error.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ENGINE_LIST(X) X(sync) X(psync) X(vsync) X(pvsync) X(pvsync2) X(null) \
	X(io_uring) X(libaio) X(posixaio) X(mmap) X(faulty) \
	X(filecreate) X(filestat) X(filedelete) X(ftruncate) X(falloc) \
	X(cpuio) X(exec) X(sg) X(splice) X(net) X(netsplice) \
	X(e4defrag)

#define ENGINE_OPS(n) &engine_##n,
#define ENGINE_NAME(n) #n,

static const struct engine_ops *const engine_table[] = { ENGINE_LIST(ENGINE_OPS) NULL };
static const char *const engine_name_table[] = { ENGINE_LIST(ENGINE_NAME) NULL };

const struct engine_ops *engine_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; engine_table[i]; i++)
		if (!strcmp(engine_table[i]->name, name))
			return engine_table[i];
	return NULL;
}

const struct engine_ops *engine_at(size_t i)
{
	return i < ARRAY_SIZE(engine_table) ? engine_table[i] : NULL;
}

const char *const *engine_names(void)
{
	return engine_name_table;
}

const struct option_def *engine_option_find(const struct engine_ops *e, const char *key)
{
	return e && key ? optdef_find(e->options, e->nr_options, key) : NULL;
}

static size_t field_size(const struct option_def *o)
{
	switch (o->type) {
	case OPT_BOOL:
		return sizeof(bool);
	case OPT_UINT:
	case OPT_SIZE:
		return o->width;
	case OPT_TIME:
		return sizeof(uint64_t);
	default:
		return 0; /* a callback knows its own field */
	}
}

static int validate_options(const struct engine_ops *e)
{
	if (!e->nr_options != !e->options || !e->nr_options != !e->options_size)
		return error("engine '%s': options and their struct size go together", e->name);
	for (size_t i = 0; i < e->nr_options; i++) {
		const struct option_def *o = &e->options[i];
		if (!o->name || !o->help || !o->type_text)
			return error("engine '%s': option row %zu lacks a name, help or value syntax", e->name, i);
		if (o->type == OPT_STR)
			return error("engine '%s': option '%s' is a string row (engine options are copied "
				     "with memcpy)", e->name, o->name);
		if (o->type == OPT_FUNC ? !o->parse : o->off + field_size(o) > e->options_size)
			return error("engine '%s': option '%s' lies outside its options struct or lacks a parser",
				     e->name, o->name);
		const char *spelling[3] = { o->name, o->alias[0], o->alias[1] };
		for (int a = 0; a < 3; a++)
			if (spelling[a] && optdef_find(e->options, i, spelling[a]))
				return error("engine '%s': option '%s' is declared twice", e->name, spelling[a]);
	}
	if (!e->nr_options)
		return 0;
	char why[256];
	void *opts = xmalloc(e->options_size);
	int rc = engine_options_init(e, opts, 1024, why, sizeof(why));
	free(opts);
	return rc ? error("engine '%s': a default of its options is refused: %s", e->name, why) : 0;
}

int engine_options_init(const struct engine_ops *e, void *opts, unsigned kb_base, char *why,
			size_t whylen)
{
	memset(opts, 0, e->options_size);
	return optdef_defaults(e->options, e->nr_options, opts, kb_base, why, whylen);
}

static int validate_one(const struct engine_ops *e, const char *listed)
{
	if (!e->name || strcmp(e->name, listed))
		return error("engine '%s' has name '%s'", listed, e->name ? e->name : "(none)");
	if (!e->queue)
		return error("engine '%s' lacks 'queue'", listed);
	if (!e->open_file || !e->close_file)
		return error("engine '%s' lacks 'open_file' or 'close_file'", listed);
	if (!(e->flags & (ENGINE_SYNC | ENGINE_ASYNC)))
		return error("engine '%s' is neither sync nor async", listed);
	if ((e->flags & ENGINE_ASYNC) && (!e->commit || !e->reap))
		return error("async engine '%s' lacks 'commit' or 'reap'", listed);
	if (!e->summary || !*e->summary)
		return error("engine '%s' lacks a summary", listed);
	return validate_options(e);
}

int engines_validate(void)
{
	for (size_t i = 0; engine_table[i]; i++) {
		int ret = validate_one(engine_table[i], engine_name_table[i]);
		if (ret)
			return -EINVAL;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(engine_table[j]->name, engine_table[i]->name))
				return error("engine '%s' is listed twice", engine_table[i]->name);
	}
	return 0;
}
