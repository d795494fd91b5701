/*
 * Shared run-and-report plumbing for the workload commands (runner.h).
 */
#include "runner/runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "watch/memlimit.h"
#include "cli/output.h"
#include "sys/signals.h"
#include "cli/storing.h"
#include "cli/teeout.h"
#include "report/env_report.h"
#include "report/report.h"
#include "sys/dev/guardopen.h"
#include "util/error.h"
#include "util/strutil.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "watch/anomaly.h"
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

/* --memory-limit: the cgroup, with the page cache of every filename= the
 * jobs name dropped (files named after the job are dropped by the job's own
 * invalidate=1). 0 or -1 after printing why. */
static int limit_begin(const struct job_list *list, const struct runner_args *ra,
		       struct memlimit *ml)
{
	if (!ra->env.memory_limit)
		return memlimit_begin(ml, 0, NULL, 0);
	char **paths = NULL;
	size_t n = 0;
	for (size_t i = 0; i < list->nr; i++) {
		const struct job_spec *s = &list->jobs[i];
		if (!s->filename || !*s->filename)
			continue;
		char **names, **dirs = NULL;
		size_t k = str_split_escaped(s->filename, ':', &names);
		if (s->directory && *s->directory)
			str_split_escaped(s->directory, ':', &dirs);
		paths = xrealloc(paths, (n + k) * sizeof(*paths));
		for (size_t j = 0; j < k; j++)
			paths[n++] = names[j][0] != '/' && dirs ? xasprintf("%s/%s", dirs[0], names[j])
								: xstrdup(names[j]);
		str_list_free(names);
		if (dirs)
			str_list_free(dirs);
	}
	int rc = memlimit_begin(ml, ra->env.memory_limit, (const char *const *)paths, n);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
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

/* --status-interval: where and how the periodic reports are written */
struct status_out {
	unsigned formats;
	unsigned terse_version;
	bool as_fio;
	FILE *out;
};

/* A periodic report of the run so far, in the run's formats, where the
 * final one goes (as fio: stdout or --output); no head, no warnings. */
static void status_print(void *arg, struct run_result *r)
{
	const struct status_out *so = arg;
	r->terse_version = so->terse_version;
	r->as_fio = so->as_fio;
	if (report_write(r, so->formats, so->out) == 0)
		fflush(so->out);
}

static int run_watched(const struct job_list *list, const struct runner_args *ra,
		       struct envwatch *ew, struct memlimit *ml, FILE *notes,
		       struct status_out *so, struct run_result *res)
{
	struct run_config cfg = {
		.show_progress = ra->progress,
		.progress_always = ra->progress_always,
		.bandwidth_log = ra->bandwidth_log && (!ra->dist || ra->dist->root),
		.bandwidth_log_json = so && (so->formats & (REPORT_JSON | REPORT_JSONPLUS)),
		.ctl = ra->ctl,
		.notes = ra->quiet ? NULL : notes,
		.stop = signals_install(),
		.guard = {
			.devices = ra->allow_destroy,
			.nr_devices = ra->nr_allow_destroy,
			.readonly_by = ra->readonly_by ? ra->readonly_by
				     : ra->readonly ? "--readonly" : NULL,
		},
		.batch_edge = batch_edge,
		.batch_edge_arg = ew,
		.status_report = so ? status_print : NULL,
		.status_arg = so,
		.batch_sync = ra->dist ? ra->dist->batch_sync : NULL,
		.batch_sync_arg = ra->dist ? ra->dist->arg : NULL,
		.wearout = ra->dist ? ra->dist->wearout : NULL,
		.wearout_arg = ra->dist ? ra->dist->arg : NULL,
	};
	int rc = workload_run(list, &cfg, res);
	res->terse_version = ra->terse_version;
	res->as_fio = ra->as_fio;
	res->env = envwatch_end(ew);
	if (res->env) { /* the jobs over time go with the machine's series */
		res->env->timelines = res->timelines;
		res->env->nr_timelines = res->nr_timelines;
		res->timelines = NULL;
		res->nr_timelines = 0;
	}
	memlimit_end(ml, res->env);
	struct anomaly_input *in;
	size_t n = anomaly_inputs_from_run(res, ra->words, &in);
	for (size_t i = 0; i < n; i++)
		anomaly_check(&in[i], res->env);
	free(in);
	anomaly_check_memory_limit(res->env);
	return exit_status(rc);
}

int runner_run(const struct job_list *list, const struct runner_args *ra, struct run_result *res)
{
	char *tmp;
	struct envwatch ew;
	struct memlimit ml;
	if (limit_begin(list, ra, &ml) < 0) {
		memset(res, 0, sizeof(*res));
		return 1;
	}
	envwatch_begin(&ew, runner_env_path(list, ra, &tmp), &ra->env);
	free(tmp);
	return run_watched(list, ra, &ew, &ml, ra->notes, NULL, res);
}

/* The warnings the run raised (warning(): a preallocation that failed, the
 * monitor that could not start, an error continue_on_error let pass, ...)
 * become warnings of the report; a run that failed (status) prints them on
 * stderr too, next to its errors, if they were not echoed already. */
static void keep_warnings(const struct error_capture *errs, struct run_env *env, int status)
{
	for (size_t i = 0; i < errs->nr_warnings; i++) {
		if (env)
			run_env_warn(env, "run-message", xstrdup(errs->warnings[i]), xstrdup(""),
				     xstrdup(""));
		if (status && !errs->echo_warnings)
			fprintf(stderr, "iobench: warning: %s\n", errs->warnings[i]);
	}
}

/* fio's start-of-run lines: one per job definition, then the version and
 * the count of what starts. */
void runner_print_job_lines(const struct job_list *list, bool as_fio, FILE *out)
{
	struct job_list x;
	workload_expand(list, &x);
	size_t threads = 0;
	for (size_t i = 0; i < x.nr; i++) {
		if (x.jobs[i].jobnum == 0)
			report_job_line(&x.jobs[i], x.jobs[i].groupid,
					x.jobs[i].numjobs ? x.jobs[i].numjobs : 1, out);
		threads += x.jobs[i].thread;
	}
	if (!as_fio) {
		fprintf(out, "iobench-%s\nStarting %zu thread%s\n", IOBENCH_VERSION, x.nr,
			x.nr == 1 ? "" : "s");
	} else {
		/* fio 3.33's wording: the threads (thread=1), then the processes */
		size_t procs = x.nr - threads;
		fputs(REPORT_FIO_VERSION "\nStarting ", out);
		if (threads)
			fprintf(out, "%zu thread%s", threads, threads > 1 ? "s" : "");
		if (procs)
			fprintf(out, "%s%zu process%s", threads ? " and " : "", procs,
				procs > 1 ? "es" : "");
		fputc('\n', out);
	}
	job_list_release(&x); /* the caller flushes and checks */
}

FILE *runner_open_output(const struct runner_args *ra)
{
	if (!ra->output_path)
		return stdout;
	/* the guarded open: never a block device, --readonly or not */
	struct devguard_allow ro = { .readonly_by = ra->readonly ? "--readonly" : NULL };
	char why[2560];
	FILE *out;
	if (devguard_fopen(ra->output_path, false, &ro, &out, why, sizeof(why)) < 0) {
		error("cannot write the report (--output) to '%s': %s", ra->output_path, why);
		return NULL;
	}
	return out;
}

/* Check and close out; status stays what it was unless it was 0. */
int runner_close_output(const struct runner_args *ra, FILE *out, int status)
{
	if (output_check(out, "the report", ra->output_path) < 0 && status == 0)
		status = 1;
	if (out != stdout && fclose(out) != 0 && status == 0) {
		error_errno(-errno, "cannot write '%s'", ra->output_path);
		status = 1;
	}
	return status;
}

static bool wants_json(unsigned formats)
{
	return formats & (REPORT_JSON | REPORT_JSONPLUS);
}

static void write_error_json(const struct error_capture *errs, bool as_fio, FILE *out)
{
	char *why = NULL;
	int sig = signals_caught();
	if (!errs->nr && sig)
		why = xasprintf("stopped by signal %d (%s) before the run started", sig,
				strsignal(sig));
	const char *one = why;
	if (why)
		report_write_json_error_as(&one, 1, as_fio, out);
	else
		report_write_json_error_as((const char *const *)errs->msgs, errs->nr, as_fio, out);
	free(why);
}

int runner_report_failure(const struct runner_args *ra, const struct error_capture *errs)
{
	unsigned formats = REPORT_NORMAL;
	if (ra->formats_text && report_parse_formats(ra->formats_text, &formats) < 0)
		return 1;
	if (!wants_json(formats))
		return 1;
	FILE *out = runner_open_output(ra);
	if (!out)
		return 1;
	write_error_json(errs, ra->as_fio, out);
	runner_close_output(ra, out, 1);
	return 1;
}

/* The normal format's head (the system header and fio's job lines), as
 * text: printed before the run, kept for the store. NULL when out of memory. */
static char *normal_head(const struct run_env *env, const struct job_list *list, bool as_fio)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (!as_fio) /* as fio, the system is in the JSON's "iobench" only */
		env_text_header(env, "", f);
	runner_print_job_lines(list, as_fio, f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static bool storing(const struct runner_args *ra)
{
	return cmd_store_wanted(ra->store_ctx);
}

FILE *runner_notes_tee(FILE *out, struct teeout **t)
{
	FILE *f = teeout_open(out, t);
	if (!f)
		return out;
	setvbuf(f, NULL, _IONBF, 0);
	return f;
}

/* The head with the notes the tee kept after it (the tee closed); head
 * is freed. NULL when head is. */
static char *head_with_notes(char *head, FILE *notes, struct teeout *t)
{
	fclose(notes);
	size_t len;
	char *kept = teeout_take(t, &len);
	char *h = head ? xasprintf("%s%s", head, kept) : NULL;
	free(kept);
	free(head);
	return h;
}

int runner_store_result(const struct runner_args *ra, const struct runner_stored *s)
{
	if (s->id)
		*s->id = 0;
	struct store_renderings rend = { 0 };
	int rc = store_render_result_extra(s->res, s->formats, s->head, s->json_extra,
					   s->normal_tail, &rend);
	if (rc < 0) {
		error_errno(rc, "cannot render the results to store them");
	} else {
		if (s->table)
			store_renderings_add(&rend, "table", s->table, s->table_len, true);
		struct store_run r = {
			.kind = ra->store_kind,
			.start_ms = s->res->start_ms ? s->res->start_ms : s->start_ms,
			.end_ms = s->end_ms,
			.result = s->res,
			.job_files = ra->job_files,
			.nr_job_files = ra->nr_job_files,
			.renderings = &rend,
			.exit_status = s->exit_status,
			.interrupted = s->interrupted || s->res->interrupted,
			.errors = s->errors,
			.nr_errors = s->nr_errors,
		};
		rc = cmd_store_put(ra->store_ctx, &r, s->meta, s->id);
	}
	store_renderings_release(&rend);
	return rc < 0 ? -1 : 0;
}

/* Store a printed result (cli/storing.h); the new status. */
static int store_result(const struct runner_args *ra, const struct run_result *res,
			unsigned formats, const char *head, uint64_t start_ms,
			const struct error_capture *errs, int status,
			const struct report_json_extra *json_extra)
{
	char *tail = NULL;
	size_t tail_len = 0;
	FILE *tf = ra->dist ? open_memstream(&tail, &tail_len) : NULL;
	if (tf) {
		ra->dist->text(ra->dist->arg, tf);
		fclose(tf);
	}
	struct runner_stored s = {
		.json_extra = json_extra,
		.normal_tail = tail,
		.res = res,
		.formats = formats,
		.head = head,
		.start_ms = start_ms,
		.end_ms = wall_time_ms(),
		.exit_status = status,
		.interrupted = signals_caught() != 0,
		.errors = (const char *const *)errs->msgs,
		.nr_errors = errs->nr,
	};
	int rc = runner_store_result(ra, &s) < 0 && status == 0 ? 1 : status;
	free(tail);
	return rc;
}

/* iobench-mpi's ranks other than the root write their report nowhere: the
 * root writes the cluster's. */
static FILE *dist_sink(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		error_errno(-errno, "cannot make the discarded report's stream");
	return f;
}

static void dist_json(struct json_writer *w, void *arg)
{
	const struct dist_hooks *d = arg;
	d->json(w, d->arg);
}

int runner_run_and_report(const struct job_list *list, const struct runner_args *ra)
{
	uint64_t start_ms = wall_time_ms();
	char *head = NULL;
	unsigned formats = REPORT_NORMAL;
	if (ra->formats_text && report_parse_formats(ra->formats_text, &formats) < 0)
		return 1;
	char *sink_buf = NULL;
	size_t sink_len = 0;
	bool sink = ra->dist && !ra->dist->root;
	FILE *out = sink ? dist_sink(&sink_buf, &sink_len) : runner_open_output(ra);
	if (!out)
		return 1;
	/* a run that fails before it starts still gives a JSON document, and
	 * it says why: keep the messages; the warnings of the run go into the
	 * report, and to stderr only when it is a terminal */
	struct error_capture errs = { .keep_warnings = true,
				      .echo_warnings = !ra->as_fio && isatty(STDERR_FILENO) };
	error_capture_begin(&errs);
	char *tmp;
	struct envwatch ew;
	struct memlimit ml;
	if (limit_begin(list, ra, &ml) < 0) {
		error_capture_end();
		if (wants_json(formats))
			write_error_json(&errs, ra->as_fio, out);
		error_capture_release(&errs);
		return runner_close_output(ra, out, 1);
	}
	envwatch_begin(&ew, runner_env_path(list, ra, &tmp), &ra->env);
	free(tmp);
	/* the head, as normal prints it: also kept for `results show` */
	if ((formats & REPORT_NORMAL) || storing(ra))
		head = normal_head(ew.env, list, ra->as_fio);
	if (formats & REPORT_NORMAL) {
		if (head)
			fputs(head, out);
		else
			error_errno(-ENOMEM, "cannot write the report's head");
		/* where the start of the report cannot go, the rest cannot
		 * either: refuse to run rather than measure for nothing */
		if (output_check(out, "the report", ra->output_path) < 0) {
			error_capture_end();
			error_capture_release(&errs);
			struct run_env *env = envwatch_end(&ew);
			memlimit_end(&ml, env);
			run_env_free(env);
			runner_close_output(ra, out, 1);
			free(head);
			return 1;
		}
	}
	struct run_result res;
	/* fio's notes ("Laying out IO file") are part of its normal report:
	 * printed in their place and, for the store, kept after the head */
	FILE *notes = formats & REPORT_NORMAL ? out : NULL;
	struct teeout *kept = NULL;
	if (notes && storing(ra))
		notes = runner_notes_tee(out, &kept);
	struct status_out so = { .formats = formats, .terse_version = ra->terse_version,
				 .as_fio = ra->as_fio, .out = out };
	int status = run_watched(list, ra, &ew, &ml, notes, &so, &res);
	if (kept)
		head = head_with_notes(head, notes, kept);
	error_capture_end();
	keep_warnings(&errs, res.env, status);
	if (ra->dist)
		status = ra->dist->reduce(ra->dist->arg, &res, status, errs.nr ? errs.msgs[0] : NULL);
	struct report_json_extra dx = { .write = dist_json, .arg = (void *)ra->dist };
	int wrc;
	/* a run whose every job has stats=0 ran and reports no job, as fio */
	if (res.nr_jobs || (status == 0 && res.nr_batches)) {
		if ((wrc = report_write_extra(&res, formats, ra->dist ? &dx : NULL, out)) < 0) {
			output_failed(out, wrc, "the report", ra->output_path);
			if (status == 0)
				status = 1;
		}
	} else if (wants_json(formats) && status) {
		write_error_json(&errs, ra->as_fio, out);
	}
	/* warnings about the measurement of a run that never measured are
	 * noise; the others are in the report, and echoed on a terminal */
	if (res.nr_jobs && !(formats & REPORT_NORMAL) && res.env && res.env->nr_warnings &&
	    !ra->as_fio && isatty(STDERR_FILENO)) {
		fputs("iobench: the run raised warnings (also in the report):\n", stderr);
		env_text_warnings(res.env, stderr);
	}
	if (ra->dist && (formats & REPORT_NORMAL))
		ra->dist->text(ra->dist->arg, out);
	if (res.interrupted)
		warning("stopped by a signal: the results above cover the time until then");
	if (sink) {
		fclose(out);
		free(sink_buf);
	} else {
		status = runner_close_output(ra, out, status);
	}
	/* what was measured is printed: only now is it stored */
	if (res.nr_jobs && storing(ra))
		status = store_result(ra, &res, formats, head, start_ms, &errs, status,
				      ra->dist ? &dx : NULL);
	error_capture_release(&errs);
	free(head);
	run_result_release(&res);
	return status;
}
