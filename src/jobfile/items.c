/*
 * The item list shared by the lexer, the command-line reader and the job
 * builder: adding items, interning file names so locations stay valid, and
 * printing "FILE:LINE:COL: error: ..." lines (one per problem, counted).
 */
#include "jobfile/jobfile_int.h"
#include "util/error.h"
#include "util/xmalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void jf_error(struct jf_items *it, const struct jf_loc *loc, unsigned col, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* keep the one-line promise whatever bytes the input held */
	for (char *p = msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	char where[1200];
	snprintf(where, sizeof(where), "%s:%u:%u", loc->file, loc->line, col ? col : loc->col);
	error_at(where, "%s", msg);
	it->errors++;
}

const char *jf_intern_file(struct jf_items *it, const char *name)
{
	for (size_t i = 0; i < it->nr_files; i++)
		if (!strcmp(it->files[i], name))
			return it->files[i];
	it->files = xgrow(it->files, &it->files_alloc, it->nr_files, sizeof(*it->files));
	it->files[it->nr_files] = xstrdup(name);
	return it->files[it->nr_files++];
}

struct jf_item *jf_add(struct jf_items *it, enum jf_kind kind, const char *name, size_t nlen,
		       const struct jf_loc *loc)
{
	it->v = xgrow(it->v, &it->alloc, it->nr, sizeof(*it->v));
	struct jf_item *item = &it->v[it->nr++];
	memset(item, 0, sizeof(*item));
	item->kind = kind;
	item->name = xstrndup(name, nlen);
	item->loc = *loc;
	return item;
}

void jf_items_release(struct jf_items *it)
{
	for (size_t i = 0; i < it->nr; i++) {
		free(it->v[i].name);
		free(it->v[i].value);
	}
	free(it->v);
	for (size_t i = 0; i < it->nr_files; i++)
		free(it->files[i]);
	free(it->files);
	memset(it, 0, sizeof(*it));
}
