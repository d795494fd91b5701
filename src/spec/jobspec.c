/*
 * Life cycle of a job spec and a job list: fio 3.33's defaults (the option
 * table's, stored by its rows), deep copy, release. Parsing lives in options*.c and src/jobfile/; this file only knows
 * which fields own memory (the strings, the engine's options, the option
 * echo and the origin).
 */
#include "spec/jobspec.h"
#include "engines/engine.h"
#include "spec/options.h"
#include "util/error.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

void job_spec_defaults(struct job_spec *s)
{
	char why[256];
	memset(s, 0, sizeof(*s));
	s->kb_base = 1024;
	/* fio 3.33's defaults are the option table's (spec/options_table.c) */
	int rc = optdef_defaults(option_table, option_table_len, s, s->kb_base, why, sizeof(why));
	if (rc < 0) { /* the table is wrong: test_jobfile fails on it first */
		error("the option table's defaults: %s", why);
		abort();
	}
	/* a default is not the user's: what the callbacks note as given is not */
	s->thinktime_blocks_set = false;
	s->bw_avg_time_set = false;
	s->iops_avg_time_set = false;
	/* not set (no option row's default: the option's own value is never -1) */
	s->ioprio = -1;
	s->ioprio_class = -1;
	s->uid = -1;
	s->gid = -1;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct job_kv *job_kv_copy(const struct job_kv *src, size_t n)
{
	if (!n)
		return NULL;
	struct job_kv *kv = xcalloc(n, sizeof(*kv));
	for (size_t i = 0; i < n; i++) {
		kv[i].key = xstrdup(src[i].key);
		kv[i].value = dup_or_null(src[i].value);
	}
	return kv;
}

void job_kv_free(struct job_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void job_spec_copy(struct job_spec *dst, const struct job_spec *src)
{
	*dst = *src;
	dst->name = dup_or_null(src->name);
	dst->section = dup_or_null(src->section);
	dst->description = dup_or_null(src->description);
	dst->filename = dup_or_null(src->filename);
	dst->directory = dup_or_null(src->directory);
	dst->filename_format = dup_or_null(src->filename_format);
	dst->opendir = dup_or_null(src->opendir);
	dst->ioengine = dup_or_null(src->ioengine);
	dst->wait_for = dup_or_null(src->wait_for);
	dst->exec_prerun = dup_or_null(src->exec_prerun);
	dst->ioscheduler = dup_or_null(src->ioscheduler);
	dst->exec_postrun = dup_or_null(src->exec_postrun);
	dst->origin = dup_or_null(src->origin);
	dst->cpus_allowed = dup_or_null(src->cpus_allowed);
	dst->log_compression_cpus = dup_or_null(src->log_compression_cpus);
	dst->verify_async_cpus = dup_or_null(src->verify_async_cpus);
	dst->cgroup = dup_or_null(src->cgroup);
	dst->numa_cpu_nodes = dup_or_null(src->numa_cpu_nodes);
	dst->numa_mem_nodes = dup_or_null(src->numa_mem_nodes);
	dst->cpumask = dup_or_null(src->cpumask);
	dst->verify_pattern = dup_or_null(src->verify_pattern);
	dst->buffer_pattern = dup_or_null(src->buffer_pattern);
	dst->mem_file = dup_or_null(src->mem_file);
	dst->bw_log = dup_or_null(src->bw_log);
	dst->iops_log = dup_or_null(src->iops_log);
	dst->lat_log = dup_or_null(src->lat_log);
	dst->hist_log = dup_or_null(src->hist_log);
	dst->write_iolog = dup_or_null(src->write_iolog);
	dst->read_iolog = dup_or_null(src->read_iolog);
	dst->replay_redirect = dup_or_null(src->replay_redirect);
	dst->merge_blktrace_file = dup_or_null(src->merge_blktrace_file);
	dst->opts = job_kv_copy(src->opts, src->nr_opts);
	if (src->engine_opts) { /* plain values only (engine.h), so a byte copy is deep */
		dst->engine_opts = xmalloc(src->engine_opts_of->options_size);
		memcpy(dst->engine_opts, src->engine_opts, src->engine_opts_of->options_size);
	}
	if (src->bssplit) {
		dst->bssplit = xcalloc(DDIR_RWDIR_CNT, sizeof(*dst->bssplit));
		memcpy(dst->bssplit, src->bssplit, DDIR_RWDIR_CNT * sizeof(*dst->bssplit));
	}
}

void job_spec_release(struct job_spec *s)
{
	if (!s)
		return;
	free(s->bssplit);
	s->bssplit = NULL;
	free(s->name);
	free(s->section);
	free(s->description);
	free(s->filename);
	free(s->directory);
	free(s->filename_format);
	free(s->opendir);
	free(s->ioengine);
	free(s->wait_for);
	free(s->exec_prerun);
	free(s->ioscheduler);
	free(s->exec_postrun);
	free(s->origin);
	free(s->cpus_allowed);
	free(s->log_compression_cpus);
	free(s->verify_async_cpus);
	free(s->cgroup);
	free(s->numa_cpu_nodes);
	free(s->numa_mem_nodes);
	free(s->cpumask);
	free(s->verify_pattern);
	free(s->buffer_pattern);
	free(s->mem_file);
	free(s->bw_log);
	free(s->iops_log);
	free(s->lat_log);
	free(s->hist_log);
	free(s->write_iolog);
	free(s->read_iolog);
	free(s->replay_redirect);
	free(s->merge_blktrace_file);
	free(s->engine_opts);
	job_kv_free(s->opts, s->nr_opts);
	memset(s, 0, sizeof(*s));
}

struct job_spec *job_list_add(struct job_list *l)
{
	l->jobs = xgrow(l->jobs, &l->alloc, l->nr, sizeof(*l->jobs));
	struct job_spec *s = &l->jobs[l->nr++];
	job_spec_defaults(s);
	return s;
}

void job_list_release(struct job_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nr; i++)
		job_spec_release(&l->jobs[i]);
	free(l->jobs);
	job_kv_free(l->global_opts, l->nr_global_opts);
	memset(l, 0, sizeof(*l));
}
