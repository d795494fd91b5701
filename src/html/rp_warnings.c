/*
 * The warnings section: what the anomaly rules said about each run (the
 * "warnings" of its stored environment, or of its JSON output): the
 * message, what it is about, the evidence and the advice, grouped by run.
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

static void html_one(struct rp_doc *d, const char *run, struct json_object *w)
{
	FILE *o = d->out;
	const char *scope = str(w, "scope"), *ev = str(w, "evidence"), *adv = str(w, "advice");
	fputs("<div class=\"wl\"><p><b>", o);
	rp_esc(o, str(w, "message"));
	fputs("</b></p><p class=\"id\">", o);
	rp_esc(o, run);
	fputs(" · ", o);
	rp_esc(o, str(w, "id"));
	if (scope) {
		fputs(" · ", o);
		rp_esc(o, scope);
	}
	fputs("</p>", o);
	if (ev) {
		fputs("<p><i>evidence:</i> ", o);
		rp_esc(o, ev);
		fputs("</p>", o);
	}
	if (adv) {
		fputs("<p><i>advice:</i> ", o);
		rp_esc(o, adv);
		fputs("</p>", o);
	}
	fputs("</div>\n", o);
}

static int write(struct rp_doc *d)
{
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
			if (d->fmt == PAGE_HTML) {
				html_one(d, name, w);
				continue;
			}
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
	if (d->fmt != PAGE_HTML)
		rp_table_write(d, &t, NULL);
	rp_table_release(&t);
	(void)n;
	return 0;
}

const struct rp_section rp_sec_warnings = { "warnings", "Warnings", present, write };
