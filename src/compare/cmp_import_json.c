/*
 * JSON files into the compare model (cmp_import.h): fio's output, iobench's
 * run/quick output (fio's layout plus "iobench") and iobench's bonnie
 * document; which one a file is, and reading a file whole.
 */
#include "compare/cmp_import.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/error.h"
#include "util/xmalloc.h"

static const char *const dirs[] = { "read", "write", "trim", "sync", "mixed" };

static bool is_dir(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strcmp(key, dirs[i]))
			return true;
	return false;
}

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool is_number(struct json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* every number below v as a figure named by its path; fio's percentile
 * keys "99.900000" become "p99.9" */
static void flat(struct cmp_run *r, const char *job, const char *dir, struct json_object *v,
		 const char *name, bool pct, int depth)
{
	if (is_number(v) || json_object_is_type(v, json_type_boolean)) {
		double x = json_object_is_type(v, json_type_boolean) ?
				   (json_object_get_boolean(v) ? 1.0 : 0.0) : json_object_get_double(v);
		cmp_run_add_fig(r, job, dir, name, x);
		return;
	}
	if (!json_object_is_type(v, json_type_object) || depth > 6)
		return;
	json_object_object_foreach(v, key, m) {
		char sub[256], pk[64];
		const char *k = key;
		if (!strcmp(key, "bins"))
			continue;
		if (!strcmp(key, "percentile") && json_object_is_type(m, json_type_object)) {
			flat(r, job, dir, m, name, true, depth + 1);
			continue;
		}
		if (pct) {
			char *end;
			double p = strtod(key, &end);
			if (end != key && !*end)
				snprintf(pk, sizeof(pk), "p%g", p);
			else
				snprintf(pk, sizeof(pk), "p%s", key);
			k = pk;
		}
		snprintf(sub, sizeof(sub), "%s%s%s", name, *name ? "." : "", k);
		flat(r, job, dir, m, sub, false, depth + 1);
	}
}

static void options(struct cmp_run *r, struct json_object *o, const char *scope)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, v) {
		char k[256];
		snprintf(k, sizeof(k), "option.%s.%s", scope, key);
		if (json_object_is_type(v, json_type_string))
			cmp_kvs_set(&r->context, k, json_object_get_string(v));
		else
			cmp_kvs_set(&r->context, k, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	}
}

void cmp_fio_job_figs(struct cmp_run *r, struct json_object *job)
{
	const char *name = get_str(job, "jobname");
	if (!name)
		name = "";
	json_object_object_foreach(job, key, v) {
		if (!strcmp(key, "groupid") || !strcmp(key, "eta") || !strcmp(key, "job options"))
			continue;
		if (is_dir(key) && json_object_is_type(v, json_type_object))
			flat(r, name, key, v, "", false, 0);
		else
			flat(r, name, "job", v, key, false, 0);
	}
}

/* line and column of byte off in text (1-based) */
static void position(const char *text, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int fio_doc(const char *name, struct json_object *root, struct json_object *jobs,
		   const char *text, size_t len, struct cmp_runs *out)
{
	struct json_object *ib = NULL, *v;
	bool iobench = json_object_object_get_ex(root, "iobench", &ib) &&
		       json_object_is_type(ib, json_type_object);
	const char *version = get_str(root, "fio version");
	size_t n = json_object_array_length(jobs);
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);
		if (!json_object_is_type(j, json_type_object) || !get_str(j, "jobname"))
			return error("%s: entry %zu of \"jobs\" is not a fio job (no \"jobname\")", name,
				     i + 1);
	}
	struct cmp_run *r = cmp_runs_push(out);
	r->source = xstrdup(name);
	r->source_format = xstrdup(iobench ? CMP_FMT_IOBENCH_JSON : CMP_FMT_FIO_JSON);
	if (iobench && get_str(ib, "version"))
		r->tool = xasprintf("iobench-%s", get_str(ib, "version"));
	else
		r->tool = xstrdup(version ? version : "fio");
	/* timestamp_ms is the end of the run (fio's meaning); iobench also
	 * says when it began */
	if (iobench && json_object_object_get_ex(ib, "start_ms", &v) && is_number(v))
		r->start_ms = json_object_get_int64(v);
	else if (json_object_object_get_ex(root, "timestamp_ms", &v) && is_number(v))
		r->start_ms = json_object_get_int64(v);
	r->raw = xstrndup(text, len);
	r->raw_len = len;
	cmp_kvs_set(&r->context, "tool", r->tool);
	options(r, json_object_object_get_ex(root, "global options", &v) ? v : NULL, "global");
	for (size_t i = 0; i < n; i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);
		cmp_fio_job_figs(r, j);
		options(r, json_object_object_get_ex(j, "job options", &v) ? v : NULL,
			get_str(j, "jobname"));
		if (!r->host && get_str(j, "hostname"))
			r->host = xstrdup(get_str(j, "hostname"));
	}
	if (iobench && json_object_object_get_ex(ib, "sysinfo", &v)) {
		struct json_object *h;
		cmp_context_sysinfo(r, v);
		if (!r->host && json_object_object_get_ex(v, "host", &h) && get_str(h, "hostname"))
			r->host = xstrdup(get_str(h, "hostname"));
	}
	if (r->host)
		cmp_kvs_set(&r->context, "host", r->host);
	return 0;
}

static int bonnie_doc(const char *name, struct json_object *root, struct json_object *runs,
		      const char *text, size_t len, struct cmp_runs *out)
{
	struct json_object *v;
	struct cmp_run *r = cmp_runs_push(out);
	r->source = xstrdup(name);
	r->source_format = xstrdup(CMP_FMT_IOBENCH_BONNIE_JSON);
	const char *ver = get_str(root, "iobench version");
	r->tool = ver ? xasprintf("iobench-%s", ver) : xstrdup("iobench");
	r->raw = xstrndup(text, len);
	r->raw_len = len;
	cmp_kvs_set(&r->context, "tool", r->tool);
	options(r, json_object_object_get_ex(root, "options", &v) ? v : NULL, "global");
	size_t n = json_object_array_length(runs);
	for (size_t i = 0; i < n; i++) {
		struct json_object *run = json_object_array_get_idx(runs, i), *agg;
		if (!json_object_object_get_ex(run, "aggregate", &agg) ||
		    !json_object_is_type(agg, json_type_object))
			continue;
		json_object_object_foreach(agg, phase, p) {
			struct json_object *ran;
			if (!json_object_is_type(p, json_type_object) ||
			    !json_object_object_get_ex(p, "ran", &ran) || !json_object_get_boolean(ran))
				continue;
			json_object_object_foreach(p, key, fv) {
				if (strcmp(key, "ran") && strcmp(key, "disks"))
					flat(r, "aggregate", phase, fv, key, false, 0);
			}
		}
	}
	if (json_object_object_get_ex(root, "sysinfo", &v)) {
		struct json_object *h;
		cmp_context_sysinfo(r, v);
		if (json_object_object_get_ex(v, "host", &h) && get_str(h, "hostname"))
			r->host = xstrdup(get_str(h, "hostname"));
	}
	if (r->host)
		cmp_kvs_set(&r->context, "host", r->host);
	return 0;
}

static int json_doc(const char *name, const char *text, size_t len, const char *raw,
		    size_t raw_len, struct cmp_runs *out);

static int json_text(const char *name, const char *text, size_t len, struct cmp_runs *out)
{
	/* fio's nan and inf: parsed as marked strings, said below */
	size_t mlen = 0;
	char *marked = cmp_json_mark_nonfinite(text, len, &mlen);
	int rc = marked ? json_doc(name, marked, mlen, text, len, out)
			: json_doc(name, text, len, text, len, out);
	free(marked);
	return rc;
}

/* text as parsed, raw as read (kept by the runs) */
static int json_doc(const char *name, const char *text, size_t len, const char *raw,
		    size_t raw_len, struct cmp_runs *out)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root = json_tokener_parse_ex(tok, text, (int)len), *jobs, *runs;
	enum json_tokener_error e = json_tokener_get_error(tok);
	size_t line, col;
	int rc;
	if (!root || e != json_tokener_success) {
		position(text, e == json_tokener_continue ? len : (size_t)json_tokener_get_parse_end(tok),
			 &line, &col);
		if (e == json_tokener_continue)
			rc = error("%s:%zu: the JSON document ends before it is complete", name, line);
		else
			rc = error("%s:%zu:%zu: not a JSON document: %s", name, line, col,
				   json_tokener_error_desc(e));
		json_object_put(root);
		json_tokener_free(tok);
		return rc;
	}
	size_t end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	while (end < len && (text[end] == ' ' || text[end] == '\n' || text[end] == '\t' ||
			     text[end] == '\r'))
		end++;
	if (end < len) {
		position(text, end, &line, &col);
		json_object_put(root);
		return error("%s:%zu:%zu: text after the JSON document", name, line, col);
	}
	if (text != raw)
		cmp_json_warn_nonfinite(name, root);
	if (!json_object_is_type(root, json_type_object))
		rc = error("%s:1: a JSON document, but not fio's, iobench's or bonnie's output "
			   "(not an object)", name);
	else if (json_object_object_get_ex(root, "jobs", &jobs) &&
		 json_object_is_type(jobs, json_type_array))
		rc = fio_doc(name, root, jobs, raw, raw_len, out);
	else if (json_object_object_get_ex(root, "runs", &runs) &&
		 json_object_is_type(runs, json_type_array) &&
		 json_object_object_get_ex(root, "bonnie++ semantics", &jobs))
		rc = bonnie_doc(name, root, runs, raw, raw_len, out);
	else
		rc = error("%s:1: a JSON document, but not fio's, iobench's or bonnie's output "
			   "(no \"jobs\" array)", name);
	json_object_put(root);
	return rc;
}

int cmp_import_text(const char *name, const char *text, size_t len, struct cmp_runs *out)
{
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	if (i == len)
		return error("%s: empty: neither fio's JSON output nor bonnie++ CSV lines", name);
	struct cmp_runs got = { 0 };
	int rc;
	if (text[i] == '{')
		rc = json_text(name, text, len, &got);
	else
		rc = cmp_bonnie_csv_text(name, text, len, &got);
	if (rc < 0) {
		cmp_runs_release(&got);
		return -EINVAL;
	}
	cmp_runs_move(out, &got);
	return 0;
}

int cmp_import_file(const char *path, struct cmp_runs *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_errno(-errno, "cannot open '%s'", path);
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error("'%s' is not a regular file", path);
	}
	size_t cap = (size_t)st.st_size + 1, len = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0) {
			int e = -errno;
			close(fd);
			free(buf);
			return error_errno(e, "cannot read '%s'", path);
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return error("%s: a binary file (a NUL byte): neither fio's JSON output nor "
			     "bonnie++ CSV lines", path);
	}
	int rc = cmp_import_text(path, buf, len, out);
	free(buf);
	return rc;
}
