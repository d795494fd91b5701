/*
 * The system section: the machines side by side, one column per
 * selection (per run when there is one selection of several runs), from
 * the runs' context as compare reads it (host, tool, the sysinfo
 * flattened: kernel, CPU, memory, VM tunables, filesystem, device and its
 * queue; the job options). Keys whose values differ between the columns,
 * or within one (shown "a | b"), come first and are highlighted; the
 * job options only when they differ; the rest follows (folded in HTML), a
 * key some column does not know (a fio file has no sysinfo) shown there
 * as unknown.
 */
#include "html/rp_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

struct col {
	char label[200];
	const struct cmp_run **runs;
	size_t n;
};

static size_t columns(const struct rp_doc *d, struct col **out)
{
	const struct page_in *in = d->in;
	bool per_run = in->nsel == 1 && in->nr_runs > 1;
	size_t n = per_run ? in->nr_runs : in->nsel;
	struct col *c = xcalloc(n ? n : 1, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		if (per_run) {
			rp_run_name(d, &in->runs[i], c[i].label, sizeof(c[i].label));
			c[i].runs = xcalloc(1, sizeof(*c[i].runs));
			c[i].runs[c[i].n++] = in->runs[i].run;
		} else {
			const struct cmp_sel *s = &in->sels[i];
			snprintf(c[i].label, sizeof(c[i].label), "%s", s->label);
			c[i].runs = xcalloc(s->runs.n ? s->runs.n : 1, sizeof(*c[i].runs));
			for (size_t k = 0; k < s->runs.n; k++)
				c[i].runs[c[i].n++] = &s->runs.v[k];
		}
	}
	*out = c;
	return n;
}

/* The values of key in a column: distinct, "a | b"; NULL when no run has it. */
static char *values(const struct col *c, const char *key)
{
	char *acc = NULL;
	for (size_t i = 0; i < c->n; i++) {
		const char *v = cmp_kvs_get(&c->runs[i]->context, key);
		if (!v)
			continue;
		if (!acc) {
			acc = xstrdup(v);
			continue;
		}
		/* already there as one of the " | "-separated values? */
		bool seen = false;
		size_t lv = strlen(v);
		for (const char *p = acc; p && !seen;) {
			seen = !strncmp(p, v, lv) && (!p[lv] || !strncmp(p + lv, " | ", 3));
			p = strstr(p, " | ");
			if (p)
				p += 3;
		}
		if (!seen) {
			char *x = xasprintf("%s | %s", acc, v);
			free(acc);
			acc = x;
		}
	}
	return acc;
}

struct keyset {
	const char **v;
	size_t n, alloc;
};

static void keys_of(const struct col *c, size_t nc, struct keyset *k)
{
	for (size_t i = 0; i < nc; i++)
		for (size_t r = 0; r < c[i].n; r++) {
			const struct cmp_kvs *kv = &c[i].runs[r]->context;
			for (size_t j = 0; j < kv->n; j++) {
				bool seen = false;
				for (size_t q = 0; q < k->n && !seen; q++)
					seen = !strcmp(k->v[q], kv->v[j].key);
				if (!seen) {
					k->v = xgrow(k->v, &k->alloc, k->n, sizeof(*k->v));
					k->v[k->n++] = kv->v[j].key;
				}
			}
		}
}

static bool present(const struct rp_doc *d)
{
	for (size_t i = 0; i < d->in->nr_runs; i++)
		if (cmp_kvs_get(&d->in->runs[i].run->context, "host.kernel_release"))
			return true;
	return false;
}

static int write(struct rp_doc *d)
{
	struct col *c;
	size_t nc = columns(d, &c);
	struct keyset k = { 0 };
	keys_of(c, nc, &k);
	struct rp_table diff, same;
	rp_table_init_n(&diff, 1 + nc);
	rp_table_init_n(&same, 1 + nc);
	rp_table_head(&diff, 0, "key");
	rp_table_head(&same, 0, "key");
	for (size_t i = 0; i < nc; i++) {
		rp_table_head(&diff, 1 + i, c[i].label);
		rp_table_head(&same, 1 + i, c[i].label);
	}
	char **vals = xcalloc(nc ? nc : 1, sizeof(*vals));
	for (size_t q = 0; q < k.n; q++) {
		const char *key = k.v[q];
		/* a difference is two values that differ (or two in one column):
		 * a column that does not know the key (no sysinfo in a fio file,
		 * no such job) is no difference, as in compare */
		bool differs = false;
		const char *known = NULL;
		for (size_t i = 0; i < nc; i++) {
			vals[i] = values(&c[i], key);
			if (!vals[i])
				continue;
			if (strstr(vals[i], " | ") || (known && strcmp(known, vals[i])))
				differs = true;
			if (!known)
				known = vals[i];
		}
		bool option = !strncmp(key, "option.", 7);
		/* the options of a job only some columns ran are theirs alone:
		 * listed when they differ; the machine's keys always are */
		if (differs || !option) {
			struct rp_table *t = differs ? &diff : &same;
			rp_table_row(t);
			rp_table_cell(t, differs ? RP_DIFF : 0, "%s", key);
			for (size_t i = 0; i < nc; i++) {
				/* the values unlike the first known one (or several in
				 * one column) are highlighted */
				bool mark = differs && vals[i] &&
					    (strcmp(vals[i], known) || strstr(vals[i], " | "));
				rp_table_cell(t, mark ? RP_DIFF : (vals[i] ? 0 : RP_DIM), "%s",
					      vals[i] ? vals[i] : "(unknown)");
			}
		}
		for (size_t i = 0; i < nc; i++)
			free(vals[i]);
	}
	free(vals);
	if (diff.nrow) {
		rp_para(d, NULL, "%zu setting%s differ%s between the columns (or between the runs "
			"of one, shown a | b); the values unlike the first column's are highlighted.",
			diff.nrow, diff.nrow == 1 ? "" : "s", diff.nrow == 1 ? "s" : "");
		rp_table_write(d, &diff, "Differences");
	} else {
		rp_para(d, NULL, "The machines and settings are the same in every column.");
	}
	if (same.nrow) {
		if (d->fmt == PAGE_HTML)
			fprintf(d->out, "<details><summary>%zu other settings, alike everywhere "
				"they are known</summary>\n", same.nrow);
		rp_table_write(d, &same, "Alike where known");
		if (d->fmt == PAGE_HTML)
			fputs("</details>\n", d->out);
	}
	rp_table_release(&diff);
	rp_table_release(&same);
	for (size_t i = 0; i < nc; i++)
		free(c[i].runs);
	free(c);
	free(k.v);
	return 0;
}

const struct rp_section rp_sec_system = { "system", "System", present, write };
