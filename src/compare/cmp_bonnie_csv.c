/*
 * bonnie++ CSV lines into the compare model (cmp_import.h): formats 1.96
 * and 1.97 (48 fields) and 1.98 (50: the seeks and seeker processes after
 * the chunk size), several per file, bonnie++'s header line
 * ("format_version,...") skipped. Empty fields are phases or sections not
 * run, "+++++" / "+++" a phase too short to measure (too_short = 1, no
 * rate), latencies "123us", "45ms", "2s" become latency_us.max.
 */
#include "compare/cmp_import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
#include "util/xmalloc.h"

#define FIELDS 50

static const char *const io_names[] = { "putc", "put_block", "rewrite", "getc", "get_block",
					"seeks" };
static const char *const file_names[] = { "seq_create", "seq_stat", "seq_del", "ran_create",
					  "ran_stat", "ran_del" };

/* Split line into fields (1.96/1.97 widened to 1.98's layout). Returns
 * the count as written, or 0 when it is no CSV line of a known format. */
static size_t split(char *line, char *f[FIELDS], const char **why)
{
	char *v[FIELDS + 1];
	size_t n = 0;
	for (char *p = line;; ) {
		char *c = strchr(p, ',');
		if (n == FIELDS + 1) {
			*why = "more than 50 fields";
			return 0;
		}
		v[n++] = p;
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	if (!strcmp(v[0], "1.98")) {
		if (n != 50) {
			*why = "a format 1.98 line has 50 fields";
			return 0;
		}
		memcpy(f, v, sizeof(*f) * FIELDS);
	} else if (!strcmp(v[0], "1.97") || !strcmp(v[0], "1.96")) {
		if (n != 48) {
			*why = "a format 1.96 or 1.97 line has 48 fields";
			return 0;
		}
		static char empty[] = "";
		memcpy(f, v, sizeof(*f) * 7);
		f[7] = f[8] = empty;
		memcpy(f + 9, v + 7, sizeof(*f) * 41);
	} else {
		*why = "neither fio's JSON output nor a bonnie++ CSV line (format 1.96, 1.97 or 1.98)";
		return 0;
	}
	return n;
}

/* A field as a number; "" is none (1), "+++"... too short (2). 0 when a
 * number, -1 when it is not one. */
static int number(const char *s, double *x)
{
	if (!*s)
		return 1;
	if (strspn(s, "+") == strlen(s))
		return 2;
	char *end;
	*x = strtod(s, &end);
	return end != s && !*end && isfinite(*x) ? 0 : -1;
}

/* "123us", "45ms", "2s", "80ns" -> microseconds; 1 for "", -1 if bad */
static int latency(const char *s, double *us)
{
	if (!*s)
		return 1;
	char *end;
	double v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return -1;
	if (!strcmp(end, "us"))
		*us = v;
	else if (!strcmp(end, "ms"))
		*us = v * 1e3;
	else if (!strcmp(end, "s"))
		*us = v * 1e6;
	else if (!strcmp(end, "ns"))
		*us = v / 1e3;
	else
		return -1;
	return 0;
}

static const char *field_name(size_t i)
{
	static const char *const names[FIELDS] = {
		"format_version", "bonnie_version", "name", "concurrency", "seed", "file_size",
		"io_chunk_size", "seeks", "seek_procs", "putc", "putc_cpu", "put_block",
		"put_block_cpu", "rewrite", "rewrite_cpu", "getc", "getc_cpu", "get_block",
		"get_block_cpu", "seeks", "seeks_cpu", "num_files", "max_size", "min_size",
		"num_dirs", "file_chunk_size", "seq_create", "seq_create_cpu", "seq_stat",
		"seq_stat_cpu", "seq_del", "seq_del_cpu", "ran_create", "ran_create_cpu",
		"ran_stat", "ran_stat_cpu", "ran_del", "ran_del_cpu", "putc_latency",
		"put_block_latency", "rewrite_latency", "getc_latency", "get_block_latency",
		"seeks_latency", "seq_create_latency", "seq_stat_latency", "seq_del_latency",
		"ran_create_latency", "ran_stat_latency", "ran_del_latency" };
	return i < FIELDS ? names[i] : "?";
}

static int bad(const char *name, size_t lineno, size_t field, const char *value, const char *what)
{
	return error("%s:%zu: field %zu (%s) '%s' is not %s", name, lineno, field + 1,
		     field_name(field), value, what);
}

/* One phase: rate field at vi (cpu at vi + 1), latency field at li. */
static int phase(const char *name, size_t lineno, char **f, size_t vi, size_t li,
		 const char *ph, struct cmp_run *r, const char *job)
{
	double rate = 0, cpu = 0, lat = 0;
	int rr = number(f[vi], &rate), cr = number(f[vi + 1], &cpu), lr = latency(f[li], &lat);
	if (rr < 0 || (rr == 0 && rate < 0))
		return bad(name, lineno, vi, f[vi], "a rate, '+++++' or empty");
	if (cr < 0)
		return bad(name, lineno, vi + 1, f[vi + 1], "a CPU percentage, '+++' or empty");
	if (lr < 0)
		return bad(name, lineno, li, f[li], "a latency (123us, 45ms, 2s) or empty");
	if (rr == 1 && cr == 1)
		return 0; /* not run */
	cmp_run_add_fig(r, job, ph, "too_short", rr == 2 ? 1 : 0);
	if (rr == 0)
		cmp_run_add_fig(r, job, ph, "rate", rate);
	if (cr == 0)
		cmp_run_add_fig(r, job, ph, "cpu_pct", cpu);
	if (lr == 0)
		cmp_run_add_fig(r, job, ph, "latency_us.max", lat);
	return 0;
}

static int figures(const char *name, size_t lineno, char **f, struct cmp_run *r, const char *job)
{
	for (size_t t = 0; t < 6; t++) {
		if (phase(name, lineno, f, 9 + 2 * t, 38 + t, io_names[t], r, job) < 0)
			return -EINVAL;
		if (phase(name, lineno, f, 26 + 2 * t, 44 + t, file_names[t], r, job) < 0)
			return -EINVAL;
	}
	return 0;
}

int cmp_bonnie_csv_line(const char *name, size_t lineno, const char *line, struct cmp_run *r,
			const char *job)
{
	char *copy = xstrdup(line), *f[FIELDS];
	const char *why = NULL;
	size_t l = strlen(copy);
	while (l && (copy[l - 1] == '\r' || copy[l - 1] == '\n'))
		copy[--l] = '\0';
	int rc = 0;
	if (!split(copy, f, &why))
		rc = error("%s:%zu: %s", name, lineno, why);
	else
		rc = figures(name, lineno, f, r, job);
	free(copy);
	return rc;
}

/* "32M", "1G", "300M:4k", "512" (bytes) -> bytes; 0 if not understood */
static unsigned long long size_bytes(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s)
		return 0;
	switch (*end) {
	case 'k': case 'K': return v << 10;
	case 'm': case 'M': return v << 20;
	case 'g': case 'G': return v << 30;
	case 't': case 'T': return v << 40;
	case '\0': case ':': return v;
	default: return 0;
	}
}

/* The fields that make a configuration: all but the seed and the results. */
static char *config_key(char **f)
{
	static const size_t keys[] = { 0, 1, 2, 3, 5, 6, 7, 8, 21, 22, 23, 24, 25 };
	char *k = xstrdup("");
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *n = xasprintf("%s%s,", k, f[keys[i]]);
		free(k);
		k = n;
	}
	return k;
}

static void context(struct cmp_run *r, char **f)
{
	static const struct { size_t field; const char *key; } opts[] = {
		{ 3, "concurrency" }, { 7, "seeks" }, { 8, "seekers" }, { 24, "num_dirs" },
	};
	char buf[64];
	r->host = xstrdup(f[2]);
	r->tool = xasprintf("bonnie++-%s", f[1]);
	cmp_kvs_set(&r->context, "host", r->host);
	cmp_kvs_set(&r->context, "tool", r->tool);
	cmp_kvs_set(&r->context, "bonnie_csv_format", f[0]);
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		char k[64];
		snprintf(k, sizeof(k), "option.global.%s", opts[i].key);
		if (*f[opts[i].field])
			cmp_kvs_set(&r->context, k, f[opts[i].field]);
	}
	if (size_bytes(f[5])) {
		snprintf(buf, sizeof(buf), "%llu", size_bytes(f[5]));
		cmp_kvs_set(&r->context, "option.global.file_size_bytes", buf);
	}
	if (*f[21]) {
		snprintf(buf, sizeof(buf), "%llu", strtoull(f[21], NULL, 10) * 1024);
		cmp_kvs_set(&r->context, "option.global.num_files", buf);
	}
}

int cmp_bonnie_csv_text(const char *name, const char *text, size_t len, struct cmp_runs *out)
{
	char *copy = xstrndup(text, len), *key = NULL;
	struct cmp_run *r = NULL;
	size_t lineno = 0, lines = 0;
	int rc = 0;
	for (char *p = copy; p && *p && !rc; ) {
		char *nl = strchr(p, '\n');
		lineno++;
		if (nl)
			*nl = '\0';
		char *line = p;
		p = nl ? nl + 1 : NULL;
		size_t l = strlen(line);
		while (l && line[l - 1] == '\r')
			line[--l] = '\0';
		if (!l || !strncmp(line, "format_version,", 15))
			continue;
		char *raw = xstrdup(line), *f[FIELDS];
		const char *why = NULL;
		if (!split(line, f, &why)) {
			rc = error("%s:%zu: %s", name, lineno, why);
			free(raw);
			break;
		}
		char *k = config_key(f);
		if (!r || strcmp(k, key)) {
			r = cmp_runs_push(out);
			r->source = xstrdup(name);
			r->source_format = xstrdup(CMP_FMT_BONNIE_CSV);
			context(r, f);
			free(key);
			key = k;
		} else {
			free(k);
		}
		rc = figures(name, lineno, f, r, "aggregate");
		char *joined = r->raw ? xasprintf("%s%s\n", r->raw, raw) : xasprintf("%s\n", raw);
		free(r->raw);
		r->raw = joined;
		r->raw_len = strlen(joined);
		free(raw);
		lines++;
	}
	free(key);
	free(copy);
	if (!rc && !lines)
		rc = error("%s: no bonnie++ CSV line in it", name);
	return rc < 0 ? -EINVAL : 0;
}
