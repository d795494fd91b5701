/*
 * Running the race design (sweep_race_int.h decides, this file runs): every
 * round, each point the race names is set up, run once (one run of the
 * workload: no --repeat) and torn down, and the goal figure of the run it
 * stored is given to the race, until the race is over. A point dropped by
 * the race is stored done with the round it was dropped at; a point that
 * never gave a value is stored failed.
 */
#include "sweep/sweep_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp_model.h"
#include "store/store_model.h"
#include "store/store_query.h"
#include "store/store_sweep.h"
#include "sweep/sweep_goal.h"
#include "sweep/sweep_race_int.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

/* The sweep's runs: ids ascending into *ids. */
static size_t sweep_runs(struct sweep_ctx *c, int64_t **ids)
{
	struct store_filter f = { .since_ms = -1, .sweep_id = c->sweep_id };
	size_t n = 0;
	if (store_select(c->o->store, &f, ids, &n) < 0)
		n = 0;
	return n;
}

/* The goal's value of the first run after `after` that has it: 0 or -1. */
static int goal_value(struct sweep_ctx *c, const struct sweep_goal *g, int64_t after, double *v,
		      int64_t *last)
{
	int64_t *ids;
	size_t n = sweep_runs(c, &ids);
	int rc = -1;
	for (size_t i = 0; i < n; i++) {
		if (ids[i] <= after)
			continue;
		*last = ids[i];
		struct cmp_run run;
		if (rc < 0 && store_model_load(c->o->store, ids[i], &run) == 0) {
			if (sweep_goal_value_quiet(g, &run, v) == 0)
				rc = 0;
			cmp_run_release(&run);
		}
	}
	free(ids);
	return rc;
}

int sweep_race_run(struct sweep_ctx *c, size_t *done, size_t *failed)
{
	const struct sweep_plan *p = c->p;
	size_t n = c->pts->n;
	struct sweep_goal g;
	char why[2048];
	if (sweep_goal_parse(p->goal, &g, why, sizeof(why)) < 0)
		return error("%s", why);
	struct sweep_race *r = sweep_race_new(n, p->race_min, p->race_max, g.higher_is_better);
	size_t *next = xcalloc(n ? n : 1, sizeof(*next));
	unsigned round = 0;
	size_t k, runs = 0;
	int64_t last = 0;
	int64_t *ids;
	size_t nid = sweep_runs(c, &ids);
	if (nid)
		last = ids[nid - 1];
	free(ids);
	fprintf(stderr, "sweep %" PRId64 ": race on '%s' over %zu points, %u to %u runs each\n",
		c->sweep_id, g.text, n, p->race_min, p->race_max);
	while (!*c->stop && (k = sweep_race_next(r, next)) > 0) {
		round++;
		for (size_t j = 0; j < k && !*c->stop; j++) {
			size_t i = next[j];
			char *text = sweep_point_text(p, c->pts, i);
			fprintf(stderr, "sweep %" PRId64 ": race round %u, point %zu of %zu: %s\n",
				c->sweep_id, round, j + 1, k, text);
			free(text);
			store_sweep_point_set(c->o->store, c->sweep_id, i, STORE_POINT_RUNNING, NULL,
					      (int64_t)wall_time_ms(), -1);
			runs++;
			double v;
			if (sweep_point_run(c, i, why, sizeof(why)) < 0) {
				if (!*c->stop)
					fprintf(stderr, "sweep %" PRId64 ": point failed: %s\n", c->sweep_id, why);
				continue;
			}
			if (goal_value(c, &g, last, &v, &last) == 0)
				sweep_race_add(r, i, v);
			else
				fprintf(stderr, "sweep %" PRId64 ": the point's run has no figure for goal "
					"'%s'\n", c->sweep_id, g.text);
		}
	}
	size_t best = sweep_race_best(r);
	for (size_t i = 0; i < n && !*c->stop; i++) {
		size_t nv = sweep_race_values(r, i);
		unsigned at = sweep_race_dropped_at(r, i);
		char msg[128];
		if (at)
			snprintf(msg, sizeof(msg), "dropped by the race after %u runs", at);
		store_sweep_point_set(c->o->store, c->sweep_id, i,
				      nv ? STORE_POINT_DONE : STORE_POINT_FAILED,
				      at ? msg : nv ? NULL : "no run gave the goal's figure", -1, (int64_t)wall_time_ms());
		if (nv)
			(*done)++;
		else
			(*failed)++;
	}
	if (!*c->stop && best < n) {
		char *text = sweep_point_text(p, c->pts, best);
		fprintf(stderr, "sweep %" PRId64 ": race over after %u rounds: %zu runs (the full "
			"design at max_repeat = %u would be %zu); best point: %s\n", c->sweep_id, round,
			runs, p->race_max, n * p->race_max, text);
		free(text);
	}
	free(next);
	sweep_race_free(r);
	return *c->stop ? -1 : 0;
}
