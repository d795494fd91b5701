/*
 * The --repeat loop (repeat.h): drop the caches, run, hand on, add the
 * figures, decide; then the summary as text and JSON.
 */
#include "runner/repeat/repeat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sys/signals.h"
#include "stats/repeat_rule.h"
#include "sys/dropcache.h"
#include "util/error.h"
#include "util/json.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

bool repeat_wanted(const struct repeat_opts *o)
{
	return o && (o->count || o->automatic || o->drop_caches);
}

/*
 * HAND-ON POINT: every repetition, finished or interrupted, leaves the loop
 * here exactly once, in order, after it was shown, with its run_result
 * (run, quick) or bonnie_result (bonnie), its wall-clock start_ms/end_ms,
 * its 0-based index and whether a signal cut it short. The results store
 * takes it through d->store (runner_store_rep for run and quick):
 * store_put_run() with rep_group = the first repetition's run id
 * (STORE_NEW_GROUP for index 0) and rep_index = rep->index. Nothing runs
 * meanwhile, so storing cannot slow a measurement. bonnie leaves d->store
 * NULL: its machine capture (monitor, warnings) spans the whole loop and
 * exists only after it, so bonnie.c stores its repetitions from the
 * outcome then, the same way.
 */
static void hand_on(const struct repeat_driver *d, const struct repetition *rep)
{
	if (d->store)
		d->store(d->store_arg, rep);
}

/* The figures as the rule wants them. */
static struct repeat_figure *rule_figures(const struct rep_table *t)
{
	struct repeat_figure *f = xcalloc(t->nfig ? t->nfig : 1, sizeof(*f));
	for (size_t i = 0; i < t->nfig; i++)
		f[i] = (struct repeat_figure){ .name = t->fig[i].name, .x = t->fig[i].x };
	return f;
}

/* auto: judge the finished repetitions; true to stop. */
static bool judge(const struct repeat_rule *rule, struct repeat_outcome *o)
{
	const struct rep_table *t = &o->table;
	if (!t->nfig) {
		if (t->n < rule->min_reps && t->n < rule->max_reps)
			return false;
		snprintf(o->decision, sizeof(o->decision),
			 "stop: the workload gave no headline figure to judge after %zu "
			 "repetitions", t->n);
		o->stopped_by = REPEAT_BY_COUNT;
		return true;
	}
	struct repeat_figure *figs = rule_figures(t);
	struct repeat_decision dec;
	int rc = repeat_rule_judge(rule, figs, t->nfig, t->n, NULL, &dec);
	if (rc < 0) {
		snprintf(o->decision, sizeof(o->decision), "stop: the figures could not be judged: %s",
			 strerror(-rc));
		o->stopped_by = REPEAT_BY_ERROR;
		free(figs);
		return true;
	}
	repeat_decision_describe(rule, figs, &dec, o->decision, sizeof(o->decision));
	free(o->deciding_figure);
	o->deciding_figure = xstrdup(t->fig[dec.widest].name);
	free(figs);
	if (dec.verdict == REPEAT_CONTINUE)
		return false;
	o->stopped_by = dec.verdict == REPEAT_STOP_CONVERGED ? REPEAT_BY_CONVERGED : REPEAT_BY_MAX;
	return true;
}

int repeat_loop(const struct repeat_driver *d, struct repeat_outcome *o)
{
	const struct repeat_opts *opts = d->opts;
	memset(o, 0, sizeof(*o));
	rep_table_init(&o->table);
	o->automatic = opts->automatic;
	o->width = opts->width > 0 ? opts->width : 0.05;
	o->max_reps = opts->max_reps ? opts->max_reps : REPEAT_MAX_DEFAULT;
	o->asked = opts->count ? opts->count : 1;
	o->drop_caches = opts->drop_caches;
	struct repeat_rule rule = REPEAT_RULE_DEFAULT;
	rule.width = o->width;
	rule.min_reps = REPEAT_MIN_AUTO;
	rule.max_reps = o->max_reps;
	rule.small_n = REPEAT_SMALL_N_WAIT;
	size_t limit = o->automatic ? o->max_reps : o->asked;
	o->reps = xcalloc(limit, sizeof(*o->reps));
	int status = 0;
	o->stopped_by = REPEAT_BY_COUNT;
	for (size_t k = 0; k < limit; k++) {
		if (signals_caught()) {
			o->stopped_by = REPEAT_BY_SIGNAL;
			break;
		}
		if (opts->drop_caches) {
			char why[256];
			if (dropcache_all(why, sizeof(why)) < 0) {
				error("%s (before repetition %zu)", why, k + 1);
				o->stopped_by = REPEAT_BY_ERROR;
				status = 1;
				break;
			}
		}
		struct repetition *rep = &o->reps[o->nr++];
		rep->index = k;
		rep->start_ms = wall_time_ms();
		rep->status = d->run_one(d->arg, rep);
		rep->end_ms = wall_time_ms();
		if (signals_caught())
			rep->interrupted = true;
		status = rep->status;
		if (!rep->interrupted && rep->status == 0)
			d->add_figures(d->arg, &o->table, rep);
		if (d->show)
			d->show(d->arg, rep);
		hand_on(d, rep);
		if (rep->interrupted) {
			o->stopped_by = REPEAT_BY_SIGNAL;
			break;
		}
		if (rep->status) {
			o->stopped_by = REPEAT_BY_ERROR;
			break;
		}
		if (o->automatic && judge(&rule, o))
			break;
		if (o->automatic)
			note("repetition %zu: %s", k + 1, o->decision);
	}
	switch (o->stopped_by) {
	case REPEAT_BY_COUNT:
		if (!o->automatic)
			snprintf(o->decision, sizeof(o->decision), "stop: %zu of %zu repetitions done",
				 o->nr, o->asked);
		break;
	case REPEAT_BY_SIGNAL:
		snprintf(o->decision, sizeof(o->decision),
			 "stop: a signal interrupted repetition %zu; the summary covers the %zu "
			 "finished before it", o->nr, o->table.n);
		break;
	case REPEAT_BY_ERROR:
		if (!*o->decision)
			snprintf(o->decision, sizeof(o->decision),
				 "stop: repetition %zu failed; the summary covers the %zu finished", o->nr,
				 o->table.n);
		if (!status)
			status = 1;
		break;
	case REPEAT_BY_CONVERGED:
	case REPEAT_BY_MAX:
		break;
	}
	int sig = signals_caught();
	return sig ? 128 + sig : status;
}

void repeat_outcome_release(struct repeat_outcome *o)
{
	for (size_t i = 0; i < o->nr; i++)
		if (o->reps[i].run) {
			run_result_release(o->reps[i].run);
			free(o->reps[i].run);
		}
	free(o->reps);
	free(o->deciding_figure);
	rep_table_release(&o->table);
	memset(o, 0, sizeof(*o));
}

static const char *stop_name(enum repeat_stop s)
{
	switch (s) {
	case REPEAT_BY_COUNT: return "count";
	case REPEAT_BY_CONVERGED: return "converged";
	case REPEAT_BY_MAX: return "max";
	case REPEAT_BY_SIGNAL: return "signal";
	case REPEAT_BY_ERROR: return "error";
	}
	return "?";
}

void repeat_write_text(const struct repeat_outcome *o, FILE *out)
{
	fputc('\n', out);
	if (o->table.n)
		rep_table_write_text(&o->table, out);
	for (size_t i = 0; i < o->nr; i++)
		if (o->reps[i].interrupted)
			fprintf(out, "  repetition %zu was interrupted by a signal: shown above, left "
				"out of the summary\n", i + 1);
	if (o->automatic)
		fprintf(out, "Repetitions: %zu (--repeat auto:%g%%, at most %zu%s): %s\n", o->nr,
			100 * o->width, o->max_reps, o->drop_caches ? ", caches dropped before each" : "",
			o->decision);
	else
		fprintf(out, "Repetitions: %zu of %zu%s: %s\n", o->nr, o->asked,
			o->drop_caches ? ", caches dropped before each" : "", o->decision);
}

void repeat_write_json(const struct repeat_outcome *o, struct json_writer *w,
		       void (*each)(struct json_writer *w, const struct repetition *rep, void *arg),
		       void *arg)
{
	json_kv_array_begin(w, "repetitions");
	for (size_t i = 0; i < o->nr; i++) {
		const struct repetition *rep = &o->reps[i];
		json_object_begin(w);
		json_kv_uint(w, "repetition", rep->index + 1);
		json_kv_uint(w, "start_ms", rep->start_ms);
		json_kv_uint(w, "end_ms", rep->end_ms);
		json_kv_int(w, "status", rep->status);
		json_kv_bool(w, "interrupted", rep->interrupted);
		json_kv_bool(w, "in_summary", !rep->interrupted && rep->status == 0);
		json_key(w, "result");
		each(w, rep, arg);
		json_object_end(w);
	}
	json_array_end(w);
	json_kv_object_begin(w, "repeat_summary");
	json_kv_string(w, "mode", o->automatic ? "auto" : "count");
	json_key(w, "requested");
	if (o->automatic)
		json_null(w);
	else
		json_uint(w, o->asked);
	json_key(w, "width_pct");
	if (o->automatic)
		json_double(w, 100 * o->width);
	else
		json_null(w);
	json_key(w, "max_repeat");
	if (o->automatic)
		json_uint(w, o->max_reps);
	else
		json_null(w);
	json_kv_double(w, "confidence", 0.95);
	json_kv_bool(w, "drop_caches", o->drop_caches);
	json_kv_uint(w, "repetitions", o->nr);
	json_kv_uint(w, "finished", o->table.n);
	json_kv_bool(w, "interrupted", o->stopped_by == REPEAT_BY_SIGNAL);
	json_kv_string(w, "stopped_by", stop_name(o->stopped_by));
	json_kv_string(w, "deciding_figure", o->deciding_figure);
	json_kv_string(w, "decision", o->decision);
	rep_table_write_json(&o->table, w);
	json_object_end(w);
}
