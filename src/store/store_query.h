/*
 * Reading the store back (`iobench results`): which runs a
 * selection names (ids, labels, a start time, a host), a run's summary,
 * its stored renderings, its figures as the tall table, and the two
 * changes made afterwards: deleting runs and setting labels. Compare
 * reads figures and histograms through these too.
 */
#ifndef IOBENCH_STORE_STORE_QUERY_H
#define IOBENCH_STORE_STORE_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* Which runs: every condition given must hold (no condition: all runs). */
struct store_filter {
	const int64_t *ids;                /* one of these ids */
	size_t nr_ids;
	const struct store_label *labels;  /* every one of these labels */
	size_t nr_labels;
	int64_t since_ms;                  /* started at or after; < 0: any time */
	const char *host;                  /* run on this host; NULL any */
	int64_t sweep_id;                  /* a point of this sweep (store_sweep.h); 0 any */
};

/* The ids of the runs f selects, ascending, in *ids (xmalloc'ed). 0 or -errno. */
int store_select(struct store *st, const struct store_filter *f, int64_t **ids, size_t *n);

/* A run's summary. */
struct store_run_info {
	int64_t id;
	char *kind, *tool, *source, *source_format, *host;
	int64_t start_ms, end_ms;          /* end_ms < 0: unknown */
	bool have_exit_status;
	int exit_status;
	bool interrupted;
	int64_t rep_group;                 /* 0: none */
	int rep_index;                     /* -1: none */
	char *argv_json;                   /* the command line as a JSON array, or NULL */
	int64_t sweep_id;                  /* the sweep it is a point of; 0: none */
	char *sweep_point;                 /* that point's labels ("fs=xfs ra=128"), or NULL */
	struct store_label *labels;        /* by key */
	size_t nr_labels;
	char **jobs;                       /* the jobs' names, in order */
	size_t nr_jobs;
	char **formats;                    /* the stored renderings, printed ones first
					      (normal, table, json+, json, terse, others) */
	bool *printed;
	size_t nr_formats;
};
/* 0, -ENOENT (no message) when there is no run id, or -errno. */
int store_run_info_get(struct store *st, int64_t id, struct store_run_info *out);
void store_run_info_release(struct store_run_info *i);

/* The rendering of run id in format, as printed (*text xmalloc'ed and
 * NUL-terminated, *len bytes). 0, -ENOENT (no message) when the run or
 * that rendering does not exist, or -errno. */
int store_rendering_get(struct store *st, int64_t id, const char *format, char **text,
			size_t *len);

/* Every figure of run id, in job, direction and name order. */
struct store_figure {
	int job_idx;
	const char *job_name;
	int64_t groupid;                   /* < 0: none */
	const char *direction, *name;
	double value;
};
int store_figures_each(struct store *st, int64_t id,
		       int (*fn)(void *arg, const struct store_figure *f), void *arg);

/* Delete run id and all it owns. 0, or -ENOENT (no message) when there is none. */
int store_delete_run(struct store *st, int64_t id);
/* Add label l to run id, or change its value. 0, or -ENOENT (no message). */
int store_set_label(struct store *st, int64_t id, const struct store_label *l);

#endif
