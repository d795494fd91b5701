/*
 * Shared run-and-report plumbing for the workload commands (runner.h).
 */
#include "cmd/runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/signals.h"
#include "report/env_report.h"
#include "report/report.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/anomaly.h"
#include "workload/run.h"

void runner_args_init(struct runner_args *ra)
{
	memset(ra, 0, sizeof(*ra));
	ra->progress = true;
	envwatch_opts_init(&ra->env);
}

const char *runner_env_path(const struct job_list *list, const struct runner_args *ra, char **tmp)
{
	*tmp = NULL;
	if (ra->env_path)
		return ra->env_path;
	if (!list->nr)
		return ".";
	const struct job_spec *s = &list->jobs[0];
	const char *v = s->directory && *s->directory ? s->directory : s->filename;
	if (!v || !*v)
		return ".";
	size_t n = strcspn(v, ":");
	if (!v[n])
		return v;
	*tmp = xstrndup(v, n);
	return *tmp;
}

static int exit_status(int rc)
{
	int sig = signals_caught();
	if (sig)
		return 128 + sig;
	return rc < 0 ? 1 : 0;
}

/* workload_run's batch edges: each batch is a window of its own. */
static void batch_edge(void *arg, unsigned g0, unsigned g1, bool end)
{
	struct envwatch *ew = arg;
	if (end)
		envwatch_window_end(ew);
	else
		envwatch_window_begin(ew, g0, g1);
}

static int run_watched(const struct job_list *list, const struct runner_args *ra,
		       struct envwatch *ew, struct run_result *res)
{
	struct run_config cfg = {
		.show_progress = ra->progress,
		.quiet = ra->quiet,
		.stop = signals_install(),
		.guard = {
			.devices = ra->allow_destroy,
			.nr_devices = ra->nr_allow_destroy,
			.readonly_by = ra->readonly ? "--readonly" : NULL,
		},
		.batch_edge = batch_edge,
		.batch_edge_arg = ew,
	};
	int rc = workload_run(list, &cfg, res);
	res->env = envwatch_end(ew);
	struct anomaly_input *in;
	size_t n = anomaly_inputs_from_run(res, ra->words, &in);
	for (size_t i = 0; i < n; i++)
		anomaly_check(&in[i], res->env);
	free(in);
	return exit_status(rc);
}

int runner_run(const struct job_list *list, const struct runner_args *ra, struct run_result *res)
{
	char *tmp;
	struct envwatch ew;
	envwatch_begin(&ew, runner_env_path(list, ra, &tmp), &ra->env);
	free(tmp);
	return run_watched(list, ra, &ew, res);
}

/* fio's start-of-run lines: one per job definition, then the thread count. */
static void print_job_lines(const struct job_list *list, FILE *out)
{
	struct job_list x;
	workload_expand((struct job_list *)list, &x);
	for (size_t i = 0; i < x.nr; i++)
		if (x.jobs[i].jobnum == 0)
			report_job_line(&x.jobs[i], x.jobs[i].groupid,
					x.jobs[i].numjobs ? x.jobs[i].numjobs : 1, out);
	fprintf(out, "iobench-%s\nStarting %zu thread%s\n", IOBENCH_VERSION, x.nr,
		x.nr == 1 ? "" : "s");
	fflush(out);
	x.global_opts = NULL;
	x.nr_global_opts = 0;
	job_list_release(&x);
}

int runner_run_and_report(const struct job_list *list, const struct runner_args *ra)
{
	unsigned formats = REPORT_NORMAL;
	if (ra->formats_text && report_parse_formats(ra->formats_text, &formats) < 0) {
		error("unknown --output-format '%s': use normal, json, json+ or terse, "
		      "comma-separated", ra->formats_text);
		return 1;
	}
	FILE *out = stdout;
	if (ra->output_path) {
		out = fopen(ra->output_path, "w");
		if (!out) {
			error_errno(-errno, "cannot open --output file '%s'", ra->output_path);
			return 1;
		}
	}
	char *tmp;
	struct envwatch ew;
	envwatch_begin(&ew, runner_env_path(list, ra, &tmp), &ra->env);
	free(tmp);
	if (formats & REPORT_NORMAL) {
		env_text_header(ew.env, "", out);
		print_job_lines(list, out);
	}
	struct run_result res;
	int status = run_watched(list, ra, &ew, &res);
	if (res.nr_jobs) {
		if (report_write(&res, formats, out) < 0 && status == 0)
			status = 1;
	}
	if (!(formats & REPORT_NORMAL) && res.env && res.env->nr_warnings) {
		fputs("iobench: the run raised warnings (also in the report):\n", stderr);
		env_text_warnings(res.env, stderr);
	}
	if (res.interrupted)
		warning("stopped by a signal: the results above cover the time until then");
	if (out != stdout && fclose(out) != 0 && status == 0) {
		error_errno(-errno, "cannot write '%s'", ra->output_path);
		status = 1;
	}
	fflush(stdout);
	run_result_release(&res);
	return status;
}
