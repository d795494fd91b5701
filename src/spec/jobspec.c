/*
 * Life cycle of a job spec and a job list: fio 3.33's defaults, deep copy,
 * release. Parsing lives in options*.c and src/jobfile/; this file only knows
 * which fields own memory (the strings, the engine's options, the option
 * echo and the origin).
 */
#include "spec/jobspec.h"
#include "engines/engine.h"
#include "util/xmalloc.h"

#include <stdlib.h>
#include <string.h>

static const double default_percentiles[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

void job_spec_defaults(struct job_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->nrfiles = 1;
	s->allow_file_create = true;
	s->fallocate = FALLOC_NATIVE;
	s->fadvise_hint = true;
	s->readonly = false; /* writes allowed (the device guard still applies) */
	s->invalidate = true;
	s->unique_filename = true;
	s->fsrv_nr = 1;
	s->create_serialize = true;
	s->create_fsync = true;
	s->lockfile_batch = 1;
	s->rw = RW_READ;
	s->rw_seq_nr = 1;
	s->rwmix[0] = 50;
	s->rwmix[1] = 50;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		s->bs[d] = s->min_bs[d] = s->max_bs[d] = 4096;
	s->randrepeat = true;
	s->random_distribution = DIST_RANDOM;
	s->dist_center = -1;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		s->perc_random[d] = 100;
	s->ioengine = xstrdup("psync");
	s->iodepth = 1;
	s->iodepth_batch = 1;
	s->iodepth_batch_complete_min = 1;
	/* 0 = not set: job_spec_finalize() derives them as fio does */
	s->iodepth_batch_complete_max = 0;
	s->iodepth_low = 0;
	s->loops = 1;
	s->scramble_buffers = true;
	s->buffer_compress_chunk = 512;
	s->rate_cycle = 1000ULL * 1000000ULL; /* 1000 ms, as fio */
	s->thinktime_blocks = 1;
	s->latency_percentile = 100.0;
	s->dedupe_working_set_percentage = 5;
	s->hugepage_size = 2 * 1024 * 1024;
	s->do_verify = true;          /* as fio: verify= alone reads back */
	s->verify_state_save = true;  /* as fio */
	s->trim_verify_zero = true;   /* as fio */
	s->numjobs = 1;
	s->replay_time_scale = 100;
	s->replay_scale = 1;
	memcpy(s->percentile_list, default_percentiles, sizeof(default_percentiles));
	s->nr_percentiles = sizeof(default_percentiles) / sizeof(default_percentiles[0]);
	s->clat_percentiles = true;
	s->bw_avg_time = 500ULL * 1000000ULL;
	s->iops_avg_time = 500ULL * 1000000ULL;
	s->kb_base = 1024;
	s->per_job_logs = true;
	s->disk_util = true;
	s->sig_figs = 4;
	s->ss_slope = true; /* fio's default criterion: iops_slope:0.01% */
	s->ss_pct = true;
	s->ss_limit = 0.01;
	s->stats = true;
	s->log_entries = 1024;
	s->ioprio = -1;       /* not set */
	s->ioprio_class = -1; /* not set */
	s->uid = -1;
	s->gid = -1;
	s->clocksource = CLOCK_SRC_AUTO;
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
