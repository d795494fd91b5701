/*
 * The in-memory model `iobench compare` works on, filled from the results
 * store (store/store_model.h), from iobench's or fio's JSON output or from
 * bonnie++ CSV lines (compare/cmp_import.h): a run is its id, host, tool,
 * labels, context (key/value text: "host", "tool", the machine's sysinfo
 * flattened to "host.kernel_release", "devices[0].queue.scheduler", ...,
 * and the job options as "option.JOB.KEY") and its figures, one per (job,
 * direction, figure) named as the JSON output and the store name them
 * ("write" "bw_bytes", "job" "usr_cpu", "put_block" "rate"). A run may
 * hold several jobs of one name (bonnie's tests of -x, fio's clones): each
 * is one more value of its figures. A selection is a named set of runs;
 * the repetitions of one configuration are its runs.
 */
#ifndef IOBENCH_COMPARE_CMP_MODEL_H
#define IOBENCH_COMPARE_CMP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cmp_kv {
	char *key;
	char *value;
};

struct cmp_kvs {
	struct cmp_kv *v;
	size_t n, alloc;
	/* a hash index of v by key (an entry's index + 1, 0: free), so a set
	 * or get costs the same however many keys a file has */
	size_t *slots, nslots;
};

struct cmp_fig {
	char *job;
	char *dir;
	char *name;
	double value;
};

struct cmp_run {
	int64_t id;          /* the store's id; 0 for a run read from a file */
	char *host;          /* NULL: unknown */
	char *tool;          /* "iobench-0.1.0", "fio-3.33", "bonnie++-2.00a" */
	char *source;        /* the file it came from, or NULL */
	char *source_format; /* "iobench-json", "fio-json", "bonnie-csv", ... */
	int64_t start_ms;    /* 0: unknown */
	char *raw;           /* read from a file: the text it came from (the JSON
				document, its CSV lines), for the store; else NULL */
	size_t raw_len;
	struct cmp_kvs labels;
	struct cmp_kvs context;
	struct cmp_fig *figs;
	size_t nr_figs, alloc_figs;
};

struct cmp_runs {
	struct cmp_run *v;
	size_t n, alloc;
};

struct cmp_sel {
	char *name;   /* as given: "fs=xfs", "12,13", "A.json" */
	char *label;  /* short, for verdicts: "xfs", "runs 12,13", "A.json" */
	struct cmp_runs runs;
};

/* key/value lists: add copies (a key added again is kept twice: callers
 * that want one value use cmp_kvs_set) */
void cmp_kvs_add(struct cmp_kvs *l, const char *key, const char *value);
void cmp_kvs_set(struct cmp_kvs *l, const char *key, const char *value);
const char *cmp_kvs_get(const struct cmp_kvs *l, const char *key);
void cmp_kvs_release(struct cmp_kvs *l);

/* A new zeroed run at the end of l, owned by it. */
struct cmp_run *cmp_runs_push(struct cmp_runs *l);
/* Move every run of src to the end of dst (src becomes empty). */
void cmp_runs_move(struct cmp_runs *dst, struct cmp_runs *src);
void cmp_runs_release(struct cmp_runs *l);

void cmp_run_add_fig(struct cmp_run *r, const char *job, const char *dir, const char *name,
		     double value);
/* The first figure of (job, dir, name), or NULL. */
const struct cmp_fig *cmp_run_fig(const struct cmp_run *r, const char *job, const char *dir,
				  const char *name);
void cmp_run_release(struct cmp_run *r);

void cmp_sel_init(struct cmp_sel *s, const char *name, const char *label);
void cmp_sel_release(struct cmp_sel *s);
/* Verdicts and legends name selections by label: when two of them share
 * one, every selection is named by its letter instead (A, B, ..., the
 * 26th and later Z). */
void cmp_sels_unique_labels(struct cmp_sel *sels, size_t nsel);

#endif
