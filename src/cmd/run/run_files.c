/*
 * run's job files as fio takes them: a path, or '-' for a job file read
 * from standard input; --section's choice of the jobs to keep; --showcmd's
 * one command line per job file; --bandwidth-log's job option.
 */
#include "cmd/run/run_files_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/xmalloc.h"
#include "spec/options.h"

/* standard input, all of it, into *text */
static int read_stdin(char **text, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
		ssize_t r = read(STDIN_FILENO, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;
			free(buf);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*text = buf;
	*len = n;
	return 0;
}

int run_parse_file(const char *path, unsigned index, struct job_list *list,
		   const struct jobfile_ctx *ctx)
{
	if (strcmp(path, "-"))
		return jobfile_parse_file(path, index, list, ctx);
	char *text = NULL;
	size_t len = 0;
	int rc = read_stdin(&text, &len);
	if (rc < 0)
		return error_errno(rc, "cannot read the job file from standard input ('-')");
	rc = jobfile_parse_buffer("<stdin>", text, len, index, list, ctx);
	free(text);
	return rc;
}

static bool listed(const struct cmdopt_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (name && !strcmp(l->v[i], name))
			return true;
	return false;
}

void run_keep_sections(struct job_list *list, const struct cmdopt_list *sections)
{
	if (!sections->n)
		return;
	size_t k = 0;
	for (size_t i = 0; i < list->nr; i++) {
		struct job_spec *s = &list->jobs[i];
		if (listed(sections, s->section ? s->section : s->name))
			list->jobs[k++] = *s;
		else
			job_spec_release(s);
	}
	list->nr = k;
}

/* " --key=value" words; a value with a space is quoted as a shell would */
static void print_kv(const struct job_kv *kv, FILE *out)
{
	if (!kv->value)
		fprintf(out, "--%s ", kv->key);
	else if (strpbrk(kv->value, " \t'\"$\\"))
		fprintf(out, "--%s='%s' ", kv->key, kv->value);
	else
		fprintf(out, "--%s=%s ", kv->key, kv->value);
}

static bool same_kv(const struct job_kv *a, const struct job_kv *b)
{
	return !strcmp(a->key, b->key) &&
	       (a->value && b->value ? !strcmp(a->value, b->value) : a->value == b->value);
}

int run_showcmd(const char *const *files, size_t nf, const struct jobfile_ctx *ctx)
{
	int rc = 0;
	for (size_t f = 0; f < nf; f++) {
		struct job_list l = { 0 };
		if (run_parse_file(files[f], 0, &l, ctx) < 0) {
			job_list_release(&l); /* the jobs parsed before the error */
			rc = -EINVAL;
			continue;
		}
		fputs("fio ", stdout);
		for (size_t i = 0; i < l.nr_global_opts; i++)
			print_kv(&l.global_opts[i], stdout);
		for (size_t j = 0; j < l.nr; j++) {
			const struct job_spec *s = &l.jobs[j];
			size_t skip = 0;
			while (skip < s->nr_opts && skip < l.nr_global_opts &&
			       same_kv(&s->opts[skip], &l.global_opts[skip]))
				skip++;
			fprintf(stdout, "--name=%s ", s->section ? s->section : s->name);
			for (size_t i = skip; i < s->nr_opts; i++)
				if (strcmp(s->opts[i].key, "name"))
					print_kv(&s->opts[i], stdout);
		}
		fputc('\n', stdout);
		job_list_release(&l);
	}
	return rc;
}
