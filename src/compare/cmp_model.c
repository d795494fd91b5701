/*
 * The compare model's lists (cmp_model.h): runs, their figures, labels and
 * context, and selections, all owning copies of their strings.
 */
#include "compare/cmp_model.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

void cmp_kvs_add(struct cmp_kvs *l, const char *key, const char *value)
{
	l->v = xgrow(l->v, &l->alloc, l->n, sizeof(*l->v));
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = xstrdup(value ? value : "");
	l->n++;
}

void cmp_kvs_set(struct cmp_kvs *l, const char *key, const char *value)
{
	for (size_t i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i].key, key)) {
			free(l->v[i].value);
			l->v[i].value = xstrdup(value ? value : "");
			return;
		}
	}
	cmp_kvs_add(l, key, value);
}

const char *cmp_kvs_get(const struct cmp_kvs *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return l->v[i].value;
	return NULL;
}

void cmp_kvs_release(struct cmp_kvs *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

struct cmp_run *cmp_runs_push(struct cmp_runs *l)
{
	l->v = xgrow(l->v, &l->alloc, l->n, sizeof(*l->v));
	struct cmp_run *r = &l->v[l->n++];
	memset(r, 0, sizeof(*r));
	return r;
}

void cmp_runs_move(struct cmp_runs *dst, struct cmp_runs *src)
{
	for (size_t i = 0; i < src->n; i++) {
		struct cmp_run *r = cmp_runs_push(dst);
		*r = src->v[i];
	}
	free(src->v);
	memset(src, 0, sizeof(*src));
}

void cmp_runs_release(struct cmp_runs *l)
{
	for (size_t i = 0; i < l->n; i++)
		cmp_run_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void cmp_run_add_fig(struct cmp_run *r, const char *job, const char *dir, const char *name,
		     double value)
{
	r->figs = xgrow(r->figs, &r->alloc_figs, r->nr_figs, sizeof(*r->figs));
	struct cmp_fig *f = &r->figs[r->nr_figs++];
	f->job = xstrdup(job);
	f->dir = xstrdup(dir);
	f->name = xstrdup(name);
	f->value = value;
}

const struct cmp_fig *cmp_run_fig(const struct cmp_run *r, const char *job, const char *dir,
				  const char *name)
{
	for (size_t i = 0; i < r->nr_figs; i++) {
		const struct cmp_fig *f = &r->figs[i];
		if (!strcmp(f->name, name) && !strcmp(f->dir, dir) && !strcmp(f->job, job))
			return f;
	}
	return NULL;
}

void cmp_run_release(struct cmp_run *r)
{
	for (size_t i = 0; i < r->nr_figs; i++) {
		free(r->figs[i].job);
		free(r->figs[i].dir);
		free(r->figs[i].name);
	}
	free(r->figs);
	free(r->host);
	free(r->tool);
	free(r->source);
	free(r->source_format);
	free(r->raw);
	cmp_kvs_release(&r->labels);
	cmp_kvs_release(&r->context);
	memset(r, 0, sizeof(*r));
}

void cmp_sel_init(struct cmp_sel *s, const char *name, const char *label)
{
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->label = xstrdup(label ? label : name);
}

void cmp_sel_release(struct cmp_sel *s)
{
	cmp_runs_release(&s->runs);
	free(s->name);
	free(s->label);
	memset(s, 0, sizeof(*s));
}
