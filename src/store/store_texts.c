/*
 * The texts of one run that its figures repeat (store_int.h): a figure
 * names its direction ("read", a device of disk_util, a bonnie phase) by
 * the id of a texts row, so a long text costs its length once per run, not
 * once per figure and again per index; and a figure whose job_name is its
 * job's name stores NULL (the view "figures" takes it from jobs). The
 * lookup is a hash table of this run's texts, kept while the run is being
 * written (a run's rows are written in one transaction, so no index on
 * the texts themselves is needed).
 */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

struct store_text_slot {
	uint64_t hash;
	char *text; /* NULL: free */
	size_t len;
	int64_t id;
};

static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

static struct store_text_slot *find(struct store_text_slot *tab, size_t cap, uint64_t h,
				    const char *text, size_t len)
{
	for (size_t i = (size_t)h & (cap - 1);; i = (i + 1) & (cap - 1)) {
		struct store_text_slot *e = &tab[i];
		if (!e->text || (e->hash == h && e->len == len && !memcmp(e->text, text, len)))
			return e;
	}
}

static void grow(struct store_tx *t)
{
	size_t cap = t->texts_cap ? t->texts_cap * 2 : 64;
	struct store_text_slot *tab = xcalloc(cap, sizeof(*tab));
	for (size_t i = 0; i < t->texts_cap; i++) {
		struct store_text_slot *e = &t->texts[i];
		if (e->text)
			*find(tab, cap, e->hash, e->text, e->len) = *e;
	}
	free(t->texts);
	t->texts = tab;
	t->texts_cap = cap;
	t->last_text = NULL;
}

int64_t store_tx_text(struct store_tx *t, const char *text)
{
	if (t->err_code)
		return 0;
	if (!text)
		text = "";
	size_t len = strlen(text);
	/* consecutive figures mostly share their direction */
	if (t->last_text && t->last_text->len == len && !memcmp(t->last_text->text, text, len))
		return t->last_text->id;
	if ((t->texts_len + 1) * 2 > t->texts_cap)
		grow(t);
	uint64_t h = fnv1a(text, len);
	struct store_text_slot *e = find(t->texts, t->texts_cap, h, text, len);
	if (!e->text) {
		if (!t->text && (t->err_code = store_prepare(t->st, "INSERT INTO texts (run_id, text) "
							       "VALUES (?1, ?2)", &t->text)) < 0)
			return 0;
		sqlite3_bind_int64(t->text, 1, t->run_id);
		sqlite3_bind_text(t->text, 2, text, (int)len, SQLITE_STATIC);
		int rc = store_step_done(t->st, t->text, "cannot store a text of a figure");
		sqlite3_clear_bindings(t->text);
		if (rc) {
			t->err_code = rc;
			return 0;
		}
		e->hash = h;
		e->text = xstrndup(text, len);
		e->len = len;
		e->id = sqlite3_last_insert_rowid(t->st->db);
		t->texts_len++;
	}
	t->last_text = e;
	return e->id;
}

void store_tx_note_job(struct store_tx *t, int idx, const char *name)
{
	if (idx < 0)
		return;
	if ((size_t)idx >= t->nr_job_names) {
		size_t n = (size_t)idx + 1 > t->nr_job_names * 2 ? (size_t)idx + 1 : t->nr_job_names * 2;
		t->job_names = xrealloc(t->job_names, n * sizeof(*t->job_names));
		memset(t->job_names + t->nr_job_names, 0, (n - t->nr_job_names) * sizeof(*t->job_names));
		t->nr_job_names = n;
	}
	free(t->job_names[idx]);
	t->job_names[idx] = xstrdup(name ? name : "");
}

bool store_tx_same_job_name(const struct store_tx *t, int idx, const char *name)
{
	return idx >= 0 && (size_t)idx < t->nr_job_names && t->job_names[idx] &&
	       !strcmp(t->job_names[idx], name ? name : "");
}

void store_tx_texts_release(struct store_tx *t)
{
	sqlite3_finalize(t->text);
	for (size_t i = 0; i < t->texts_cap; i++)
		free(t->texts[i].text);
	free(t->texts);
	for (size_t i = 0; i < t->nr_job_names; i++)
		free(t->job_names[i]);
	free(t->job_names);
}
