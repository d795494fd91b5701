/*
 * The compare model's lists (cmp_model.h): runs, their figures, labels and
 * context, and selections, all owning copies of their strings.
 */
#include "compare/cmp_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

static size_t key_hash(const char *k)
{
	uint64_t h = 1469598103934665603ull;
	for (; *k; k++) {
		h ^= (unsigned char)*k;
		h *= 1099511628211ull;
	}
	return (size_t)h;
}

/* The slot of key: the one holding it, or the free one where it goes. */
static size_t *slot_of(const struct cmp_kvs *l, const char *key)
{
	for (size_t i = key_hash(key) & (l->nslots - 1);; i = (i + 1) & (l->nslots - 1))
		if (!l->slots[i] || !strcmp(l->v[l->slots[i] - 1].key, key))
			return &l->slots[i];
}

/* Index entry i (the first entry of a key keeps the slot, as get finds it). */
static void index_entry(struct cmp_kvs *l, size_t i)
{
	if ((l->n + 1) * 2 > l->nslots) {
		free(l->slots);
		l->nslots = l->nslots ? l->nslots * 2 : 16;
		while ((l->n + 1) * 2 > l->nslots)
			l->nslots *= 2;
		l->slots = xcalloc(l->nslots, sizeof(*l->slots));
		for (size_t k = 0; k < l->n; k++)
			if (k != i) {
				size_t *sl = slot_of(l, l->v[k].key);
				if (!*sl)
					*sl = k + 1;
			}
	}
	size_t *sl = slot_of(l, l->v[i].key);
	if (!*sl)
		*sl = i + 1;
}

void cmp_kvs_add(struct cmp_kvs *l, const char *key, const char *value)
{
	l->v = xgrow(l->v, &l->alloc, l->n, sizeof(*l->v));
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = xstrdup(value ? value : "");
	l->n++;
	index_entry(l, l->n - 1);
}

void cmp_kvs_set(struct cmp_kvs *l, const char *key, const char *value)
{
	size_t *sl = l->nslots ? slot_of(l, key) : NULL;
	if (sl && *sl) {
		struct cmp_kv *e = &l->v[*sl - 1];
		free(e->value);
		e->value = xstrdup(value ? value : "");
		return;
	}
	cmp_kvs_add(l, key, value);
}

const char *cmp_kvs_get(const struct cmp_kvs *l, const char *key)
{
	size_t *sl = l->nslots ? slot_of(l, key) : NULL;
	return sl && *sl ? l->v[*sl - 1].value : NULL;
}

void cmp_kvs_release(struct cmp_kvs *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	free(l->slots);
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

void cmp_sels_unique_labels(struct cmp_sel *sels, size_t nsel)
{
	for (size_t i = 0; i < nsel; i++)
		for (size_t j = i + 1; j < nsel; j++)
			if (!strcmp(sels[i].label, sels[j].label)) {
				for (size_t k = 0; k < nsel; k++) {
					free(sels[k].label);
					sels[k].label = xasprintf("%c", (int)('A' + (k < 26 ? k : 25)));
				}
				return;
			}
}
