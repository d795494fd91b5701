/*
 * The report's text blocks (rp_int.h): escaping, paragraphs, headings and
 * tables, each written in the document's format: HTML elements, Markdown
 * (python-markdown's tables extension reads them) or aligned text.
 */
#include "html/rp_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

size_t rp_utf8_len(const unsigned char *s)
{
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f))
			return 0;
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
			return 0;
		return 4;
	}
	return 0;
}

/* Control bytes other than tab and line feed become spaces and a byte
 * that is not part of valid UTF-8 becomes U+FFFD: the page stays valid
 * HTML whatever a job, label, file or host name holds. */
void rp_esc(FILE *out, const char *s)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	while (*u) {
		switch (*u) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		case '\t':
		case '\n': fputc(*u, out); break;
		default:
			if (*u < 0x20 || *u == 0x7f) {
				fputc(' ', out);
			} else if (*u >= 0x80) {
				size_t n = rp_utf8_len(u);
				if (!n) {
					fputs("\xef\xbf\xbd", out);
				} else {
					fwrite(u, 1, n, out);
					u += n - 1;
				}
			} else {
				fputc(*u, out);
			}
		}
		u++;
	}
}

/* Markdown: a cell's text with | escaped and line breaks as spaces. */
static void md_esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
}

void rp_para(struct rp_doc *d, const char *cls, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	if (d->fmt == PAGE_HTML) {
		fputs(cls ? "<p class=\"" : "<p", d->out);
		if (cls) {
			rp_esc(d->out, cls);
			fputc('"', d->out);
		}
		fputc('>', d->out);
		rp_esc(d->out, s);
		fputs("</p>\n", d->out);
	} else if (d->fmt == PAGE_MD) {
		md_esc(d->out, s);
		fputs("\n\n", d->out);
	} else {
		fprintf(d->out, "%s\n\n", s);
	}
	free(s);
}

void rp_heading(struct rp_doc *d, int level, const char *id, const char *text)
{
	if (d->fmt == PAGE_HTML) {
		fprintf(d->out, "<h%d", level);
		if (id) {
			fputs(" id=\"", d->out);
			rp_esc(d->out, id);
			fputc('"', d->out);
		}
		fputc('>', d->out);
		rp_esc(d->out, text);
		fprintf(d->out, "</h%d>\n", level);
	} else if (d->fmt == PAGE_MD) {
		fprintf(d->out, "%s %s\n\n", level <= 2 ? "##" : "###", text);
	} else {
		size_t n = 0;
		for (const char *p = text; *p; p++)
			n += ((unsigned char)*p & 0xc0) != 0x80;
		fprintf(d->out, "%s\n", text);
		for (size_t i = 0; i < n; i++)
			fputc(level <= 2 ? '=' : '-', d->out);
		fputs("\n\n", d->out);
	}
}

void rp_table_init(struct rp_table *t, size_t ncol, ...)
{
	memset(t, 0, sizeof(*t));
	t->ncol = ncol;
	t->head = xcalloc(ncol, sizeof(*t->head));
	t->head_flags = xcalloc(ncol, sizeof(*t->head_flags));
	va_list ap;
	va_start(ap, ncol);
	for (size_t i = 0; i < ncol; i++)
		t->head[i] = xstrdup(va_arg(ap, const char *));
	va_end(ap);
	t->col = ncol;
}

void rp_table_init_n(struct rp_table *t, size_t ncol)
{
	memset(t, 0, sizeof(*t));
	t->ncol = ncol;
	t->head = xcalloc(ncol, sizeof(*t->head));
	t->head_flags = xcalloc(ncol, sizeof(*t->head_flags));
	for (size_t i = 0; i < ncol; i++)
		t->head[i] = xstrdup("");
	t->col = ncol;
}

void rp_table_head(struct rp_table *t, size_t c, const char *text)
{
	if (c >= t->ncol)
		return;
	free(t->head[c]);
	t->head[c] = xstrdup(text);
}

void rp_table_row(struct rp_table *t)
{
	/* the row before is completed with empty cells */
	while (t->nrow && t->col < t->ncol)
		rp_table_cell(t, RP_DIM, "%s", "");
	t->cells = xgrow(t->cells, &t->alloc, (t->nrow + 1) * t->ncol, sizeof(*t->cells));
	memset(&t->cells[t->nrow * t->ncol], 0, t->ncol * sizeof(*t->cells));
	t->nrow++;
	t->col = 0;
}

void rp_table_cell(struct rp_table *t, unsigned flags, const char *fmt, ...)
{
	if (!t->nrow || t->col >= t->ncol)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		s = xstrdup("");
	va_end(ap);
	struct rp_cell *c = &t->cells[(t->nrow - 1) * t->ncol + t->col++];
	c->text = s;
	c->flags = flags;
}

void rp_table_align(struct rp_table *t, size_t c, unsigned flags)
{
	if (c >= t->ncol)
		return;
	t->head_flags[c] |= flags;
	for (size_t r = 0; r < t->nrow; r++)
		t->cells[r * t->ncol + c].flags |= flags;
}

static const char *cell_text(const struct rp_table *t, size_t r, size_t c)
{
	const char *s = t->cells[r * t->ncol + c].text;
	return s ? s : "";
}

static size_t width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void write_html(struct rp_doc *d, const struct rp_table *t, const char *caption)
{
	FILE *o = d->out;
	fputs("<div class=\"tw\"><table>\n", o);
	if (caption) {
		fputs("<caption>", o);
		rp_esc(o, caption);
		fputs("</caption>\n", o);
	}
	fputs("<thead><tr>", o);
	for (size_t c = 0; c < t->ncol; c++) {
		fputs(t->head_flags[c] & RP_NUM ? "<th class=\"n\">" : "<th>", o);
		rp_esc(o, t->head[c]);
		fputs("</th>", o);
	}
	fputs("</tr></thead>\n<tbody>\n", o);
	for (size_t r = 0; r < t->nrow; r++) {
		fputs("<tr>", o);
		for (size_t c = 0; c < t->ncol; c++) {
			unsigned f = t->cells[r * t->ncol + c].flags;
			const char *cls[5];
			size_t n = 0;
			if (f & RP_NUM) cls[n++] = "n";
			if (f & RP_DIFF) cls[n++] = "diff";
			if (f & RP_GOOD) cls[n++] = "good";
			if (f & RP_BAD) cls[n++] = "bad";
			if (f & RP_DIM) cls[n++] = "dim";
			fputs(c ? "<td" : "<th scope=\"row\"", o);
			for (size_t i = 0; i < n; i++)
				fprintf(o, "%s%s", i ? " " : " class=\"", cls[i]);
			fputs(n ? "\">" : ">", o);
			rp_esc(o, cell_text(t, r, c));
			fputs(c ? "</td>" : "</th>", o);
		}
		fputs("</tr>\n", o);
	}
	fputs("</tbody></table></div>\n", o);
}

static void write_md(struct rp_doc *d, const struct rp_table *t, const char *caption)
{
	FILE *o = d->out;
	if (caption) {
		fputs("**", o);
		md_esc(o, caption);
		fputs("**\n\n", o);
	}
	fputc('|', o);
	for (size_t c = 0; c < t->ncol; c++) {
		fputc(' ', o);
		md_esc(o, t->head[c]);
		fputs(" |", o);
	}
	fputs("\n|", o);
	for (size_t c = 0; c < t->ncol; c++)
		fputs(t->head_flags[c] & RP_NUM ? " ---: |" : " --- |", o);
	fputc('\n', o);
	for (size_t r = 0; r < t->nrow; r++) {
		fputc('|', o);
		for (size_t c = 0; c < t->ncol; c++) {
			const char *s = cell_text(t, r, c);
			unsigned f = t->cells[r * t->ncol + c].flags;
			fputc(' ', o);
			if (f & RP_DIFF && *s)
				fputs("**", o);
			md_esc(o, *s ? s : "-");
			if (f & RP_DIFF && *s)
				fputs("**", o);
			fputs(" |", o);
		}
		fputc('\n', o);
	}
	fputc('\n', o);
}

static void write_txt(struct rp_doc *d, const struct rp_table *t, const char *caption)
{
	FILE *o = d->out;
	size_t *w = xcalloc(t->ncol, sizeof(*w));
	for (size_t c = 0; c < t->ncol; c++) {
		w[c] = width(t->head[c]);
		for (size_t r = 0; r < t->nrow; r++) {
			size_t x = width(cell_text(t, r, c)) + (t->cells[r * t->ncol + c].flags & RP_DIFF ? 1 : 0);
			if (x > w[c])
				w[c] = x;
		}
	}
	if (caption)
		fprintf(o, "%s\n", caption);
	for (int line = -1; line < (int)t->nrow; line++) {
		for (size_t c = 0; c < t->ncol; c++) {
			const char *s = line < 0 ? t->head[c] : cell_text(t, (size_t)line, c);
			unsigned f = line < 0 ? t->head_flags[c] : t->cells[(size_t)line * t->ncol + c].flags;
			bool mark = line >= 0 && (f & RP_DIFF) && *s;
			size_t pad = w[c] - width(s) - mark;
			bool last = c + 1 == t->ncol;
			if (f & RP_NUM)
				fprintf(o, "%*s", (int)pad, "");
			fprintf(o, "%s%s", s, mark ? "*" : "");
			if (!(f & RP_NUM) && !last)
				fprintf(o, "%*s", (int)pad, "");
			if (!last)
				fputs("  ", o);
		}
		fputc('\n', o);
		if (line < 0) {
			for (size_t c = 0; c < t->ncol; c++) {
				for (size_t i = 0; i < w[c]; i++)
					fputc('-', o);
				if (c + 1 < t->ncol)
					fputs("  ", o);
			}
			fputc('\n', o);
		}
	}
	fputc('\n', o);
	free(w);
}

void rp_table_write(struct rp_doc *d, struct rp_table *t, const char *caption)
{
	while (t->nrow && t->col < t->ncol)
		rp_table_cell(t, RP_DIM, "%s", "");
	if (d->fmt == PAGE_HTML)
		write_html(d, t, caption);
	else if (d->fmt == PAGE_MD)
		write_md(d, t, caption);
	else
		write_txt(d, t, caption);
}

void rp_table_release(struct rp_table *t)
{
	for (size_t i = 0; i < t->ncol; i++)
		free(t->head[i]);
	for (size_t i = 0; i < t->nrow * t->ncol; i++)
		free(t->cells[i].text);
	free(t->head);
	free(t->head_flags);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
