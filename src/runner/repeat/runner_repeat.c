/*
 * run's and quick's side of --repeat (runner_repeat.h, repeat.h): each
 * repetition is one runner_run (its own system capture, monitor and
 * warnings, as a run of its own); `run` prints each one's text report as
 * it finishes, headed "repetition K of N", then the summary; the JSON is
 * written once at the end: the last repetition's document, with every
 * repetition's whole document and the summary under "iobench". With a
 * results store each repetition is stored once printed, as a run of its
 * own in one repetition group (runner_store_rep).
 */
#include "runner/repeat/runner_repeat.h"

#include <stdlib.h>

#include "cli/output.h"
#include "cli/storing.h"
#include "cli/teeout.h"
#include "report/env_report.h"
#include "report/repeat_figs.h"
#include "report/report.h"
#include "util/error.h"
#include "util/json.h"
#include "util/xmalloc.h"

struct run_arg {
	const struct job_list *list;
	const struct runner_args *ra;
	void (*show)(void *arg, const struct repetition *rep);
	void (*store)(void *arg, const struct repetition *rep);
	void *show_arg;
};

static int run_one(void *arg, struct repetition *rep)
{
	struct run_arg *a = arg;
	rep->run = xcalloc(1, sizeof(*rep->run));
	int status = runner_run(a->list, a->ra, rep->run);
	rep->interrupted = rep->run->interrupted;
	return status;
}

static void add_figures(void *arg, struct rep_table *t, const struct repetition *rep)
{
	rep_figs_add_run(t, rep->index, rep->run);
}

static void show(void *arg, const struct repetition *rep)
{
	struct run_arg *a = arg;
	if (a->show)
		a->show(a->show_arg, rep);
}

static void store(void *arg, const struct repetition *rep)
{
	struct run_arg *a = arg;
	a->store(a->show_arg, rep);
}

int runner_repeat(const struct job_list *list, const struct runner_args *ra,
		  void (*show_fn)(void *arg, const struct repetition *rep),
		  void (*store_fn)(void *arg, const struct repetition *rep), void *arg,
		  struct repeat_outcome *o)
{
	struct run_arg a = { list, ra, show_fn, store_fn, arg };
	struct repeat_driver d = {
		.opts = ra->repeat,
		.run_one = run_one,
		.add_figures = add_figures,
		.show = show,
		.store = store_fn ? store : NULL,
		.arg = &a,
		.store_arg = &a,
	};
	return repeat_loop(&d, o);
}

void runner_store_rep(struct runner_rep_store *s, const struct repetition *rep, unsigned formats,
		      const char *head, const char *table, size_t table_len)
{
	const struct error_capture *e = s->errs;
	size_t from = e && s->errs_seen <= e->nr ? s->errs_seen : e ? e->nr : 0;
	if (e)
		s->errs_seen = e->nr;
	if (!rep->run->nr_jobs || !cmd_store_wanted(s->ra->store_ctx))
		return;
	struct store_meta m = {
		.rep_group = s->group ? s->group : STORE_NEW_GROUP,
		.rep_index = (int)rep->index,
	};
	int64_t id = 0;
	struct runner_stored rs = {
		.res = rep->run,
		.formats = formats,
		.head = head,
		.table = table,
		.table_len = table_len,
		.start_ms = rep->start_ms,
		.end_ms = rep->end_ms,
		.exit_status = rep->status,
		.interrupted = rep->interrupted,
		.errors = e ? (const char *const *)e->msgs + from : NULL,
		.nr_errors = e ? e->nr - from : 0,
		.meta = &m,
		.id = &id,
	};
	if (runner_store_result(s->ra, &rs) < 0)
		s->failed = true;
	else if (!s->group)
		s->group = id;
}

struct json_arg {
	bool plus;
};

static void rep_json(struct json_writer *w, const struct repetition *rep, void *arg)
{
	struct json_arg *a = arg;
	report_json_run_object(w, rep->run, a->plus, NULL);
}

struct extra_arg {
	const struct repeat_outcome *o;
	struct json_arg ja;
};

static void extra(struct json_writer *w, void *arg)
{
	struct extra_arg *x = arg;
	repeat_write_json(x->o, w, rep_json, &x->ja);
}

int runner_repeat_write_json(const struct repeat_outcome *o, bool plus, FILE *out)
{
	if (!o->nr)
		return 0;
	struct extra_arg x = { .o = o, .ja = { plus } };
	struct report_json_extra e = { extra, &x };
	return report_write_json_extra(o->reps[o->nr - 1].run, plus, &e, out);
}

/* run's text formats, per repetition as it finishes. */
struct show_arg {
	const struct runner_args *ra;
	const struct job_list *list;
	struct runner_rep_store store;
	unsigned formats;
	FILE *out;
	int wrc;             /* the first failed write */
	size_t limit;        /* N, or auto's maximum */
	bool automatic;
	FILE *notes;         /* fio's notes through the tee, or NULL */
	struct teeout *kept; /* what the tee kept */
	size_t notes_seen;   /* its bytes given to earlier repetitions */
};

/* What the normal format prints before a repetition's report. */
static void rep_head(const struct show_arg *s, const struct repetition *rep, FILE *out)
{
	fprintf(out, "\nrepetition %zu %s %zu%s\n", rep->index + 1,
		s->automatic ? "of at most" : "of", s->limit,
		rep->interrupted ? " (interrupted by a signal: not in the summary)" : "");
	if (!s->ra->as_fio) /* as fio, the system is in the JSON only */
		env_text_header(rep->run->env, "", out);
}

static void show_run(void *arg, const struct repetition *rep)
{
	struct show_arg *s = arg;
	unsigned text = s->formats & (REPORT_NORMAL | REPORT_TERSE);
	const struct run_result *r = rep->run;
	if (!text || !r->nr_jobs || s->wrc)
		return;
	if (s->formats & REPORT_NORMAL)
		rep_head(s, rep, s->out);
	int rc = report_write(r, text, s->out);
	if (rc < 0)
		s->wrc = rc;
	fflush(s->out);
}

/* A repetition printed: stored as a run of its own, its normal rendering
 * headed by fio's job lines (printed once, before the first), the notes
 * its run printed, its own heading and system header, as printed; the
 * JSON is its own document. */
static void store_run_rep(void *arg, const struct repetition *rep)
{
	struct show_arg *s = arg;
	unsigned printed = s->wrc ? 0 : s->formats & (REPORT_NORMAL | REPORT_TERSE);
	/* fio's notes printed during this repetition (before its heading) */
	const char *notes = "";
	size_t nlen = 0;
	if (s->kept) {
		fflush(s->notes);
		size_t all;
		const char *kept = teeout_peek(s->kept, &all);
		if (s->notes_seen <= all) {
			notes = kept + s->notes_seen;
			nlen = all - s->notes_seen;
		}
		s->notes_seen = all;
	}
	char *head = NULL;
	size_t len = 0;
	FILE *f = rep->run->nr_jobs && (s->formats & REPORT_NORMAL) ? open_memstream(&head, &len)
								     : NULL;
	if (f) {
		runner_print_job_lines(s->list, s->ra->as_fio, f);
		fwrite(notes, 1, nlen, f);
		rep_head(s, rep, f);
		if (fclose(f) != 0) {
			free(head);
			head = NULL;
		}
	}
	runner_store_rep(&s->store, rep, printed, head, NULL, 0);
	free(head);
}

int runner_repeat_and_report(const struct job_list *list, const struct runner_args *ra)
{
	if (ra->dist) {
		error("iobench-mpi: --repeat is not implemented yet");
		return 1;
	}
	unsigned formats = REPORT_NORMAL;
	if (ra->formats_text && report_parse_formats(ra->formats_text, &formats) < 0)
		return 1;
	FILE *out = runner_open_output(ra);
	if (!out)
		return 1;
	bool json = formats & (REPORT_JSON | REPORT_JSONPLUS);
	if (formats & REPORT_NORMAL) {
		runner_print_job_lines(list, ra->as_fio, out);
		if (output_check(out, "the report", ra->output_path) < 0)
			return runner_close_output(ra, out, 1);
	}
	struct show_arg sa = {
		.ra = ra,
		.list = list,
		.formats = formats,
		.out = out,
		.automatic = ra->repeat->automatic,
		.limit = ra->repeat->automatic ? (ra->repeat->max_reps ? ra->repeat->max_reps
								: REPEAT_MAX_DEFAULT)
					       : (ra->repeat->count ? ra->repeat->count : 1),
	};
	/* the errors, for the JSON and for each stored repetition */
	bool storing = cmd_store_wanted(ra->store_ctx);
	struct error_capture errs = { 0 };
	if (json || storing)
		error_capture_begin(&errs);
	sa.store = (struct runner_rep_store){ .ra = ra, .errs = &errs };
	/* fio's notes are part of the normal report, as for one run: printed
	 * in their place and kept for each stored repetition's rendering */
	struct runner_args rra = *ra;
	rra.notes = formats & REPORT_NORMAL ? out : NULL;
	if (rra.notes && storing) {
		rra.notes = runner_notes_tee(out, &sa.kept);
		sa.notes = sa.kept ? rra.notes : NULL;
	}
	struct repeat_outcome o;
	int status = runner_repeat(list, &rra, show_run, storing ? store_run_rep : NULL, &sa, &o);
	if (sa.kept) {
		fclose(sa.notes);
		size_t len;
		free(teeout_take(sa.kept, &len));
	}
	error_capture_end();
	if (sa.store.failed && status == 0)
		status = 1;
	bool measured = o.nr && o.reps[o.nr - 1].run->nr_jobs;
	int wrc = sa.wrc;
	if (json && measured && !wrc)
		wrc = runner_repeat_write_json(&o, formats & REPORT_JSONPLUS, out);
	else if (json && !measured && status) {
		const char *const *m = (const char *const *)errs.msgs;
		report_write_json_error_as(m, errs.nr, ra->as_fio, out);
	}
	error_capture_release(&errs);
	if ((formats & REPORT_NORMAL) && o.nr && !wrc)
		repeat_write_text(&o, out);
	else if (!(formats & REPORT_NORMAL) && o.nr)
		repeat_write_text(&o, stderr); /* the summary on the terminal too */
	if (wrc < 0) {
		output_failed(out, wrc, "the report", ra->output_path);
		if (status == 0)
			status = 1;
	}
	if (o.stopped_by == REPEAT_BY_SIGNAL)
		warning("stopped by a signal during repetition %zu: the results above cover the "
			"time until then", o.nr);
	status = runner_close_output(ra, out, status);
	repeat_outcome_release(&o);
	return status;
}
