/*
 * What `run` and `quick` share: run a parsed job list once with signal
 * handling and a progress line, write the report in the requested formats
 * to stdout or a file, store it, and turn the outcome into an exit status.
 * Repeating it (--repeat) is runner/repeat/runner_repeat.h's, above this.
 */
#ifndef IOBENCH_RUNNER_RUNNER_H
#define IOBENCH_RUNNER_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/command.h"
#include "cli/common_opts.h"
#include "watch/envwatch.h"
#include "watch/anomaly.h"
#include "spec/jobspec.h"
#include "results/results.h"
#include "store/store.h"
#include "workload/run.h"
#include "dist/dist.h"

struct runner_args {
	const char *formats_text; /* --output-format, NULL = normal */
	const char *output_path;  /* --output, NULL = stdout */
	bool progress;            /* allow the progress line (still only on a tty) */
	bool progress_always;     /* ... even when stderr is no terminal (--eta=always) */
	bool bandwidth_log;       /* fio's --bandwidth-log: agg-{read,write,trim}_bw.log */
	struct run_control ctl;   /* fio's --eta-interval, --aux-path, --trigger*, ... */
	unsigned terse_version;   /* --terse-version: 2, 3 (0: 3), 4 or 5 */
	bool as_fio;              /* invoked as `fio` (cmd_ctx.as_fio): the reports are
				     fio's (run_result.as_fio), with fio's head and no
				     system header */
	bool quiet;               /* no "Laying out" notes */
	const char *const *allow_destroy; /* --allow-destroy=DEVICE values */
	size_t nr_allow_destroy;
	bool readonly;            /* --readonly: refuse every write and trim */
	const char *readonly_by;  /* read-only mode set by something else (named in
				     the refusal), or NULL */
	struct envwatch_opts env; /* --monitor-interval, --no-monitor, --warn-slab */
	const char *env_path;     /* where to capture the system; NULL = the first
				     job's directory or file */
	const struct anomaly_words *words; /* how the warnings' advice names options;
					      NULL = fio's job options */
	const struct repeat_opts *repeat;  /* --repeat, --drop-caches; NULL = run once */
	FILE *notes;              /* runner_run: where fio's notes go ("Laying out IO
				     file"), NULL = nowhere */
	/* runner_run_and_report stores the result there once it is printed
	 * (cli/storing.h); NULL or a context without a store: not stored */
	struct cmd_ctx *store_ctx;
	enum store_kind store_kind;
	const struct store_text *job_files; /* the job files' text, as read */
	size_t nr_job_files;
	/* iobench-mpi (dist/dist.h): barriers around the batches, the ranks'
	 * results reduced into the root's, output on the root only; NULL = a
	 * run of one process */
	const struct dist_hooks *dist;
};

void runner_args_init(struct runner_args *ra);
/* The run failed before a runner_run_and_report (bad job files): under a
 * JSON format, write the JSON error document of the messages in errs to
 * stdout or --output. Returns the exit status, 1. */
struct error_capture;
int runner_report_failure(const struct runner_args *ra, const struct error_capture *errs);
/* Run once and report; returns the exit status (0, 1, or 128+signal).
 * --repeat is the layer above (runner/repeat/runner_repeat.h), which runs
 * runner_run once per repetition. */
int runner_run_and_report(const struct job_list *list, const struct runner_args *ra);
/* A printed run or quick result to store (cli/storing.h), with ra's kind,
 * job files and command line. */
struct runner_stored {
	const struct run_result *res;
	unsigned formats;           /* the REPORT_* formats printed: rendered, marked printed */
	const char *head;           /* put before the normal rendering (report.h), or NULL */
	const char *table;          /* quick's table as printed ("table"), or NULL */
	size_t table_len;
	uint64_t start_ms, end_ms;  /* start_ms when res has no timestamp */
	int exit_status;
	bool interrupted;
	const char *const *errors;  /* its error messages */
	size_t nr_errors;
	const struct store_meta *meta; /* rep_group/rep_index, or NULL */
	int64_t *id;                /* gets the run's id (0: not stored), or NULL */
	/* iobench-mpi's additions to the JSON and normal renderings, or NULL */
	const struct report_json_extra *json_extra;
	const char *normal_tail;
};
/* Render and store it; 0, or -1 after saying the results were not stored. */
int runner_store_result(const struct runner_args *ra, const struct runner_stored *s);
/* A stream for fio's notes that prints them to out as they come
 * (unbuffered: they keep their place among out's lines) and keeps them in
 * *t (cli/teeout.h), so the stored normal rendering holds them; out
 * itself (*t NULL) when that cannot be made. */
struct teeout;
FILE *runner_notes_tee(FILE *out, struct teeout **t);
/* fio's start-of-run lines (job lines, the version, "Starting N threads");
 * as_fio: fio's version and fio's count ("Starting 1 thread and 2
 * processes": thread=1 jobs are threads, the others processes to fio),
 * else iobench's version and every job a thread, as iobench runs them. */
void runner_print_job_lines(const struct job_list *list, bool as_fio, FILE *out);
/* --output (stdout when not given) opened through the device guard, or
 * NULL after printing why; closed and checked, the status kept unless 0. */
FILE *runner_open_output(const struct runner_args *ra);
int runner_close_output(const struct runner_args *ra, FILE *out, int status);
/* Run only; fills *res, with res->env: the system captured at the start,
 * the monitor series and the anomaly warnings. Returns the exit status as
 * above. */
int runner_run(const struct job_list *list, const struct runner_args *ra, struct run_result *res);
/* The path whose system the run captures (see env_path); the returned string
 * is owned by the list or static. For the first job's ':'-separated
 * directory list only the first entry counts; *tmp gets any allocation. */
const char *runner_env_path(const struct job_list *list, const struct runner_args *ra, char **tmp);

#endif
