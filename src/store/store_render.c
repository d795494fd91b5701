/*
 * Renderings: the text of each output format, produced by the reporters
 * into memory (open_memstream) one format at a time, so the store keeps
 * exactly what a run printed and `results show` can print it again.
 */
#include "store/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/bonnie_report.h"
#include "report/report.h"
#include "util/xmalloc.h"

void store_renderings_add(struct store_renderings *r, const char *format, const char *text,
			  size_t len, bool printed)
{
	struct store_rendering *e = NULL;
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].format, format))
			e = &r->v[i];
	if (!e) {
		r->v = xgrow(r->v, &r->alloc, r->n, sizeof(*r->v));
		e = &r->v[r->n++];
		e->format = xstrdup(format);
	} else {
		free(e->text);
	}
	e->text = xmalloc(len + 1);
	memcpy(e->text, text, len);
	e->text[len] = '\0';
	e->len = len;
	e->printed = printed;
}

const struct store_rendering *store_renderings_find(const struct store_renderings *r,
						    const char *format)
{
	for (size_t i = 0; r && i < r->n; i++)
		if (!strcmp(r->v[i].format, format))
			return &r->v[i];
	return NULL;
}

void store_renderings_release(struct store_renderings *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].format);
		free(r->v[i].text);
	}
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* A memory stream, and what was written to it once closed. */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static int mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	return m->f ? 0 : -ENOMEM;
}

/* Close m; on rc < 0 (the reporter failed) or a failed close, drop it. */
static int mem_close(struct mem *m, int rc)
{
	if (fclose(m->f) != 0 && rc >= 0)
		rc = -ENOMEM;
	if (rc < 0) {
		free(m->buf);
		m->buf = NULL;
	}
	return rc < 0 ? rc : 0;
}

static int render_one(const struct run_result *res, unsigned format, const char *name,
		      const char *head, const struct report_json_extra *extra, const char *tail,
		      bool printed, struct store_renderings *r)
{
	struct mem m;
	int rc = mem_open(&m);
	if (rc < 0)
		return rc;
	if (head)
		fputs(head, m.f);
	rc = report_write_extra(res, format, extra, m.f);
	if (rc >= 0 && tail)
		fputs(tail, m.f);
	if ((rc = mem_close(&m, rc)) < 0)
		return rc;
	store_renderings_add(r, name, m.buf, m.len, printed);
	free(m.buf);
	return 0;
}

int store_render_result(const struct run_result *res, unsigned printed, const char *normal_head,
			struct store_renderings *r)
{
	return store_render_result_extra(res, printed, normal_head, NULL, NULL, r);
}

int store_render_result_extra(const struct run_result *res, unsigned printed,
			      const char *normal_head, const struct report_json_extra *extra,
			      const char *normal_tail, struct store_renderings *r)
{
	/* json and json+ printed together are one document: json+'s */
	bool plus = printed & REPORT_JSONPLUS;
	int rc = 0;
	if (plus)
		rc = render_one(res, REPORT_JSONPLUS, "json+", NULL, extra, NULL, true, r);
	if (!rc)
		rc = render_one(res, REPORT_JSON, "json", NULL, extra, NULL,
				!plus && (printed & REPORT_JSON), r);
	if (!rc)
		rc = render_one(res, REPORT_TERSE, "terse", NULL, NULL, NULL, printed & REPORT_TERSE, r);
	if (!rc)
		rc = render_one(res, REPORT_NORMAL, "normal", normal_head, NULL, normal_tail,
				printed & REPORT_NORMAL, r);
	return rc;
}

int store_render_bonnie(const struct store_bonnie *b, bool json_printed, bool csv_printed,
			struct store_renderings *r)
{
	struct mem m;
	int rc = mem_open(&m);
	if (rc < 0)
		return rc;
	rc = bonnie_report_json(b->spec, b->runs, b->nr, b->env, m.f);
	if ((rc = mem_close(&m, rc)) < 0)
		return rc;
	store_renderings_add(r, "json", m.buf, m.len, json_printed);
	free(m.buf);
	if ((rc = mem_open(&m)) < 0)
		return rc;
	if (b->nr > 1)
		rc = bonnie_report_csv_header(m.f);
	for (size_t i = 0; rc >= 0 && i < b->nr; i++)
		rc = bonnie_report_csv(b->spec, &b->runs[i], m.f);
	if ((rc = mem_close(&m, rc)) < 0)
		return rc;
	store_renderings_add(r, "csv", m.buf, m.len, csv_printed);
	free(m.buf);
	return 0;
}
