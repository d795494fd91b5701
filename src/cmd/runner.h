/*
 * What `run` and `quick` share: run a parsed job list with signal handling
 * and a progress line, write the report in the requested formats to stdout
 * or a file, and turn the outcome into an exit status.
 */
#ifndef IOBENCH_CMD_RUNNER_H
#define IOBENCH_CMD_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/command.h"

#include "cmd/envwatch.h"
#include "store/store.h"
#include "workload/anomaly.h"
#include "workload/jobspec.h"
#include "workload/results.h"

struct runner_args {
	const char *formats_text; /* --output-format, NULL = normal */
	const char *output_path;  /* --output, NULL = stdout */
	bool progress;            /* allow the progress line (still only on a tty) */
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
	/* runner_run_and_report stores the result there once it is printed
	 * (cmd/storing.h); NULL or a context without a store: not stored */
	const struct cmd_ctx *store_ctx;
	enum store_kind store_kind;
	const struct store_text *job_files; /* the job files' text, as read */
	size_t nr_job_files;
};

void runner_args_init(struct runner_args *ra);
/* The run failed before a runner_run_and_report (bad job files): under a
 * JSON format, write the JSON error document of the messages in errs to
 * stdout or --output. Returns the exit status, 1. */
struct error_capture;
int runner_report_failure(const struct runner_args *ra, const struct error_capture *errs);
/* Run and report; returns the exit status (0, 1, or 128+signal). */
int runner_run_and_report(const struct job_list *list, const struct runner_args *ra);
/* Run only; fills *res, with res->env: the system captured at the start,
 * the monitor series and the anomaly warnings. Returns the exit status as
 * above. */
int runner_run(const struct job_list *list, const struct runner_args *ra, struct run_result *res);
/* The path whose system the run captures (see env_path); the returned string
 * is owned by the list or static. For the first job's ':'-separated
 * directory list only the first entry counts; *tmp gets any allocation. */
const char *runner_env_path(const struct job_list *list, const struct runner_args *ra, char **tmp);

#endif
