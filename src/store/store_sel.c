/*
 * Selection words of stored runs (store/store_sel.h): parsing ids, ranges,
 * label sets and sweep:ID, the short name a selection is shown by, the
 * ids a word names in the store, and loading a run of it into the compare
 * model with the message the commands give for one that is not there.
 */
#include "store/store_sel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_model.h"
#include "util/error.h"
#include "util/xmalloc.h"

/* What separates the items of a word. */
#define SEL_SEPARATORS ", "

void store_ids_add(struct store_ids *l, int64_t id)
{
	for (size_t i = 0; l->n && id <= l->max && i < l->n; i++)
		if (l->v[i] == id)
			return;
	l->v = xgrow(l->v, &l->alloc, l->n, sizeof(*l->v));
	if (!l->n || id > l->max)
		l->max = id;
	l->v[l->n++] = id;
}

void store_ids_release(struct store_ids *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int store_sel_parse_id(const char *s, int64_t *id)
{
	int64_t v = 0;
	if (!*s)
		return -EINVAL;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		int d = *p - '0';
		if (v > (INT64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	if (v <= 0)
		return -EINVAL;
	*id = v;
	return 0;
}

static int bad_id(const char *cmd, const char *item, const char *word)
{
	return error("%s: '%s' in selection '%s' is not a run id (see 'iobench results list') "
		     "nor a label K=V", cmd, item, word);
}

/* One item of an ids word: "12" or "12-15". */
static int parse_item(const char *cmd, char *t, const char *word, struct store_ids *ids)
{
	char *dash = strchr(t, '-');
	int64_t a, b;
	if (!dash) {
		if (store_sel_parse_id(t, &a) < 0)
			return bad_id(cmd, t, word);
		store_ids_add(ids, a);
		return 0;
	}
	*dash = '\0';
	if (store_sel_parse_id(t, &a) < 0)
		return bad_id(cmd, t, word);
	if (store_sel_parse_id(dash + 1, &b) < 0)
		return bad_id(cmd, dash + 1, word);
	if (b < a || b - a > STORE_SEL_RANGE_MAX)
		return error("%s: bad range '%s-%s' in selection '%s'", cmd, t, dash + 1, word);
	for (int64_t i = a; i <= b; i++)
		store_ids_add(ids, i);
	return 0;
}

int store_sel_parse(const char *cmd, const char *word, unsigned flags, struct store_sel_word *w)
{
	memset(w, 0, sizeof(*w));
	if ((flags & STORE_SEL_SWEEP) && !strncmp(word, "sweep:", 6)) {
		w->kind = STORE_SEL_SWEEP_ID;
		if (store_sel_parse_id(word + 6, &w->sweep_id) < 0)
			return error("%s: '%s' in selection '%s' is not a sweep id (see 'iobench "
				     "results list')", cmd, word + 6, word);
		return 0;
	}
	w->kind = strchr(word, '=') ? STORE_SEL_LABELS : STORE_SEL_IDS;
	char *copy = xstrdup(word), *save = NULL;
	size_t alloc = 0;
	int rc = 0;
	for (char *t = strtok_r(copy, SEL_SEPARATORS, &save); t && !rc;
	     t = strtok_r(NULL, SEL_SEPARATORS, &save)) {
		if (w->kind == STORE_SEL_IDS) {
			rc = parse_item(cmd, t, word, &w->ids);
			continue;
		}
		w->labels = xgrow(w->labels, &alloc, w->nr_labels, sizeof(*w->labels));
		if ((rc = store_label_parse(t, &w->labels[w->nr_labels])) == 0)
			w->nr_labels++;
	}
	free(copy);
	if (rc < 0) {
		store_sel_word_release(w);
		return -EINVAL;
	}
	return 0;
}

void store_sel_word_release(struct store_sel_word *w)
{
	store_ids_release(&w->ids);
	store_labels_free(w->labels, w->nr_labels);
	memset(w, 0, sizeof(*w));
}

char *store_sel_short_name(const struct store_sel_word *w, const char *word)
{
	switch (w->kind) {
	case STORE_SEL_SWEEP_ID:
		return xasprintf("sweep %lld", (long long)w->sweep_id);
	case STORE_SEL_LABELS: {
		char *out = xstrdup("");
		for (size_t i = 0; i < w->nr_labels; i++) {
			char *x = xasprintf("%s%s%s", out, i ? "," : "", w->labels[i].value);
			free(out);
			out = x;
		}
		return out;
	}
	case STORE_SEL_IDS:
		break;
	}
	return xasprintf("run%s %s", w->ids.n > 1 ? "s" : "", word);
}

int store_sel_resolve(struct store *st, const struct store_sel_word *w,
		      const struct store_filter *base, struct store_ids *out)
{
	if (w->kind == STORE_SEL_IDS && !base) {
		for (size_t i = 0; i < w->ids.n; i++)
			store_ids_add(out, w->ids.v[i]);
		return 0;
	}
	struct store_filter f = base ? *base : (struct store_filter){ .since_ms = -1 };
	struct store_label *all = NULL;
	switch (w->kind) {
	case STORE_SEL_IDS:
		f.ids = w->ids.v;
		f.nr_ids = w->ids.n;
		if (!f.nr_ids)
			return 0; /* no id: no run (an empty id list is no condition) */
		break;
	case STORE_SEL_LABELS:
		all = xcalloc(f.nr_labels + w->nr_labels + 1, sizeof(*all));
		if (f.nr_labels)
			memcpy(all, f.labels, f.nr_labels * sizeof(*all));
		if (w->nr_labels)
			memcpy(all + f.nr_labels, w->labels, w->nr_labels * sizeof(*all));
		f.labels = all;
		f.nr_labels += w->nr_labels;
		break;
	case STORE_SEL_SWEEP_ID:
		f.sweep_id = w->sweep_id;
		break;
	}
	int64_t *got = NULL;
	size_t ng = 0;
	int rc = store_select(st, &f, &got, &ng);
	free(all);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < ng; i++)
		store_ids_add(out, got[i]);
	free(got);
	return 0;
}

int store_sel_all(struct store *st, const struct store_filter *base, struct store_ids *out)
{
	const struct store_sel_word every = { .kind = STORE_SEL_LABELS }; /* no label to hold */
	return store_sel_resolve(st, &every, base, out);
}

int store_sel_load(struct store *st, const char *cmd, int64_t id, struct cmp_runs *runs)
{
	struct cmp_run r;
	int rc = store_model_load(st, id, &r);
	if (rc == -ENOENT)
		error("%s: no run %lld in the results database '%s'", cmd, (long long)id,
		      store_path(st));
	if (rc < 0)
		return rc;
	*cmp_runs_push(runs) = r;
	return 0;
}
