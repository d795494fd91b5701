/*
 * What `run` and `quick` share: run a parsed job list with signal handling
 * and a progress line, write the report in the requested formats to stdout
 * or a file, and turn the outcome into an exit status.
 */
#ifndef IOBENCH_CMD_RUNNER_H
#define IOBENCH_CMD_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

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
};

void runner_args_init(struct runner_args *ra);
/* Run and report; returns the exit status (0, 1, or 128+signal). */
int runner_run_and_report(const struct job_list *list, const struct runner_args *ra);
/* Run only; fills *res. Returns the exit status as above. */
int runner_run(const struct job_list *list, const struct runner_args *ra, struct run_result *res);

#endif
