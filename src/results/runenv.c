/*
 * The machine-around-a-run record (runenv.h): adding warnings and what
 * could not be watched, finding a device's statistics, and the release.
 */
#include "results/runenv.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

struct run_warning *run_env_warn(struct run_env *e, const char *id, char *message, char *evidence,
				 char *advice)
{
	e->warnings = xrealloc(e->warnings, (e->nr_warnings + 1) * sizeof(*e->warnings));
	e->warnings[e->nr_warnings] = (struct run_warning){
		.id = id, .message = message, .evidence = evidence, .advice = advice,
		.group_first = -1, .group_last = -1,
	};
	return &e->warnings[e->nr_warnings++];
}

void run_env_unwatched(struct run_env *e, const char *what, char *why)
{
	e->unwatched = xrealloc(e->unwatched, (e->nr_unwatched + 1) * sizeof(*e->unwatched));
	e->unwatched[e->nr_unwatched++] = (struct run_unwatched){ .what = what, .why = why };
}

const struct monitor_dev_summary *run_env_device(const struct run_env *e, const char *name)
{
	if (!e->have_monitor)
		return NULL;
	for (unsigned i = 0; i < e->summary.ndev; i++)
		if (!strcmp(e->summary.devs[i].name, name))
			return &e->summary.devs[i];
	return NULL;
}

void run_env_release(struct run_env *e)
{
	if (e->have_sysinfo)
		sysinfo_release(&e->si);
	if (e->have_monitor) {
		monitor_summary_release(&e->summary);
		monitor_series_release(&e->series);
	}
	free(e->others);
	for (size_t i = 0; i < e->nr_windows; i++) {
		if (e->windows[i].have_samples)
			monitor_summary_release(&e->windows[i].summary);
		free(e->windows[i].others);
	}
	free(e->windows);
	for (size_t i = 0; i < e->nr_unwatched; i++)
		free(e->unwatched[i].why);
	free(e->unwatched);
	for (size_t i = 0; i < e->nr_warnings; i++) {
		struct run_warning *w = &e->warnings[i];
		free(w->message);
		free(w->evidence);
		free(w->advice);
		free(w->scope);
		for (size_t k = 0; k < w->nr_jobs; k++)
			free(w->jobs[k]);
		free(w->jobs);
	}
	free(e->warnings);
	run_job_timelines_free(e->timelines, e->nr_timelines);
	for (size_t i = 0; i < e->nr_phases; i++)
		free(e->phases[i].name);
	free(e->phases);
	memset(e, 0, sizeof(*e));
}

void run_job_timeline_tick(struct run_job_timeline *t, uint64_t now_ns,
			   const uint64_t *bytes, const uint64_t *ios)
{
	if (t->n && t->ticks[t->n - 1].t_ns == now_ns)
		return;
	/* a reading soon after the last one (the job ended) extends the last
	 * interval rather than adding a short, noisy one */
	struct run_job_tick *k;
	if (t->n >= 2 && now_ns - t->ticks[t->n - 1].t_ns < RUN_JOB_TICK_MIN_NS) {
		k = &t->ticks[t->n - 1];
	} else {
		t->ticks = xgrow(t->ticks, &t->alloc, t->n, sizeof(*t->ticks));
		k = &t->ticks[t->n++];
	}
	k->t_ns = now_ns;
	memcpy(k->bytes, bytes, sizeof(k->bytes));
	memcpy(k->ios, ios, sizeof(k->ios));
}

void run_job_timelines_free(struct run_job_timeline *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(t[i].name);
		free(t[i].ticks);
	}
	free(t);
}

void run_env_phase(struct run_env *e, const char *name, bool end, uint64_t now_ns)
{
	if (end) {
		for (size_t i = e->nr_phases; i-- > 0;)
			if (!e->phases[i].end_ns && !strcmp(e->phases[i].name, name)) {
				e->phases[i].end_ns = now_ns;
				return;
			}
		return;
	}
	e->phases = xgrow(e->phases, &e->alloc_phases, e->nr_phases, sizeof(*e->phases));
	e->phases[e->nr_phases++] = (struct run_phase){ .name = xstrdup(name), .start_ns = now_ns };
}

void run_env_free(struct run_env *e)
{
	if (!e)
		return;
	run_env_release(e);
	free(e);
}
