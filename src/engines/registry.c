/*
 * The engine registry: the one explicit list of engines. ENGINE_LIST names
 * each engine once; the ops array and the name array are both generated from
 * it, so they cannot drift apart. engines_validate() checks every table at
 * start-up: required hooks present, async engines able to commit and reap,
 * names unique and equal to the name the list gives them.
 */
#include "engines/engine.h"
#include "engines/engines_list.h"
#include "util/error.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#define ENGINE_LIST(X) X(sync) X(psync) X(vsync) X(pvsync) X(pvsync2) X(null) \
	X(io_uring) X(libaio) X(posixaio) X(mmap) X(faulty)

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

const char *const *engine_names(void)
{
	return engine_name_table;
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
	return 0;
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
