/*
 * The warnings section: what the anomaly rules said about each run (the
 * "warnings" of its stored environment, or of its JSON output): the
 * message, what it is about, the evidence and the advice: in HTML one card
 * per warning naming every run that raised it with its evidence, in
 * Markdown and text a row per run and warning.
 */
#include "html/rp_int.h"

#include <json-c/json.h>
#include <string.h>

static struct json_object *warnings(const struct page_run *r)
{
	struct json_object *w = rp_json_path(r->env, "warnings");
	return w && json_object_is_type(w, json_type_array) && json_object_array_length(w) ? w : NULL;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool present(const struct rp_doc *d)
{
	for (size_t i = 0; i < d->in->nr_runs; i++)
		if (warnings(&d->in->runs[i]))
			return true;
	return false;
}

/* HTML: one card per warning (id and message), naming every run that
 * raised it, with each run's evidence; the advice once. */
static void html_cards(struct rp_doc *d)
{
	FILE *o = d->out;
	const struct page_in *in = d->in;
	for (size_t i = 0; i < in->nr_runs; i++) {
		struct json_object *ws = warnings(&in->runs[i]);
		for (size_t k = 0; ws && k < json_object_array_length(ws); k++) {
			struct json_object *w = json_object_array_get_idx(ws, k);
			const char *id = str(w, "id"), *msg = str(w, "message");
			if (!id || !msg)
				continue;
			/* said already by an earlier run or warning? */
			bool seen = false;
			for (size_t j = 0; j <= i && !seen; j++) {
				struct json_object *wj = warnings(&in->runs[j]);
				size_t upto = j == i ? k : (wj ? json_object_array_length(wj) : 0);
				for (size_t q = 0; q < upto && !seen; q++) {
					struct json_object *x = json_object_array_get_idx(wj, q);
					seen = str(x, "id") && str(x, "message") && !strcmp(str(x, "id"), id) &&
					       !strcmp(str(x, "message"), msg);
				}
			}
			if (seen)
				continue;
			fputs("<div class=\"wl\"><p><b>", o);
			rp_esc(o, msg);
			fputs("</b> <span class=\"id\">", o);
			rp_esc(o, id);
			fputs("</span></p>\n", o);
			const char *adv = NULL;
			for (size_t j = i; j < in->nr_runs; j++) {
				struct json_object *wj = warnings(&in->runs[j]);
				for (size_t q = 0; wj && q < json_object_array_length(wj); q++) {
					struct json_object *x = json_object_array_get_idx(wj, q);
					if (!str(x, "id") || !str(x, "message") || strcmp(str(x, "id"), id) ||
					    strcmp(str(x, "message"), msg))
						continue;
					char name[200];
					rp_run_name(d, &in->runs[j], name, sizeof(name));
					const char *scope = str(x, "scope"), *ev = str(x, "evidence");
					fputs("<p><span class=\"id\">", o);
					rp_esc(o, name);
					if (scope) {
						fputs(" · ", o);
						rp_esc(o, scope);
					}
					fputs("</span>", o);
					if (ev) {
						fputs(" <i>evidence:</i> ", o);
						rp_esc(o, ev);
					}
					fputs("</p>\n", o);
					if (!adv)
						adv = str(x, "advice");
				}
			}
			if (adv) {
				fputs("<p><i>advice:</i> ", o);
				rp_esc(o, adv);
				fputs("</p>", o);
			}
			fputs("</div>\n", o);
		}
	}
}

static int write(struct rp_doc *d)
{
	if (d->fmt == PAGE_HTML) {
		html_cards(d);
		return 0;
	}
	struct rp_table t;
	rp_table_init(&t, 5, "run", "warning", "message", "evidence", "advice");
	size_t n = 0;
	for (size_t i = 0; i < d->in->nr_runs; i++) {
		struct json_object *ws = warnings(&d->in->runs[i]);
		char name[200];
		rp_run_name(d, &d->in->runs[i], name, sizeof(name));
		for (size_t k = 0; ws && k < json_object_array_length(ws); k++) {
			struct json_object *w = json_object_array_get_idx(ws, k);
			n++;
			const char *scope = str(w, "scope"), *ev = str(w, "evidence"), *adv = str(w, "advice");
			rp_table_row(&t);
			rp_table_cell(&t, 0, "%s", name);
			rp_table_cell(&t, 0, "%s%s%s%s", str(w, "id") ? str(w, "id") : "?",
				      scope ? " (" : "", scope ? scope : "", scope ? ")" : "");
			rp_table_cell(&t, 0, "%s", str(w, "message") ? str(w, "message") : "");
			rp_table_cell(&t, 0, "%s", ev ? ev : "");
			rp_table_cell(&t, 0, "%s", adv ? adv : "");
		}
	}
	rp_table_write(d, &t, NULL);
	rp_table_release(&t);
	(void)n;
	return 0;
}

const struct rp_section rp_sec_warnings = { "warnings", "Warnings", present, write };
