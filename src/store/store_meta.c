/*
 * iobench-mpi meta's JSON (dist/dist_meta.c) into the store. Each phase
 * that ran (dir_create, file_create, ..., tree_remove) is a job of that
 * name (its group 0, its nr_jobs the ranks) with the direction "meta" and
 * mdtest's figures over the iterations: rate (the mean of the iterations'
 * aggregate rates, ops/s: what `compare` and `report` take), rate.max,
 * rate.min, rate.mean, rate.stddev, time_s (mean, s) and time_s.max ...
 * time_s.stddev, rank_rate.max/min/mean (the ranks' own rates), items
 * (the rate's items in one iteration: all ranks', one tree's for the tree
 * phases), all_items (every rank's summed) and iterations. The
 * run's options are its "options" object.
 */
#include "store/store_int.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static bool member(struct json_object *o, const char *key, json_type type, struct json_object **v)
{
	return o && json_object_object_get_ex(o, key, v) && json_object_is_type(*v, type);
}

static bool number(struct json_object *o, const char *key, double *out)
{
	struct json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return true;
}

/* items and all_items of a phase, from the last iteration it ran in, and
 * the number of iterations it ran in. */
static void phase_items(struct json_object *iters, const char *phase, double *items,
			double *all, unsigned *n)
{
	*n = 0;
	size_t len = iters ? json_object_array_length(iters) : 0;
	for (size_t i = 0; i < len; i++) {
		struct json_object *it = json_object_array_get_idx(iters, i), *phs, *p;
		if (!member(it, "phases", json_type_object, &phs) ||
		    !member(phs, phase, json_type_object, &p))
			continue;
		(*n)++;
		number(p, "items", items);
		number(p, "all_items", all);
	}
}

int store_ingest_meta_json(struct store_tx *t, struct json_object *root)
{
	struct json_object *meta, *opts, *summary, *iters = NULL, *v;
	if (!member(root, "meta", json_type_object, &meta) ||
	    !member(meta, "summary", json_type_object, &summary))
		return store_tx_fail(t, -EBADMSG);
	if (!member(meta, "iterations", json_type_array, &iters))
		iters = NULL;
	double tasks = 0;
	number(meta, "tasks", &tasks);
	int seq = 0;
	if (member(meta, "options", json_type_object, &opts)) {
		json_object_object_foreach(opts, key, ov) {
			char *text = store_json_text(ov);
			store_tx_option(t, -1, seq++, key, text);
			free(text);
		}
	}
	int idx = 0;
	json_object_object_foreach(summary, phase, p) {
		if (!json_object_is_type(p, json_type_object))
			continue;
		store_tx_job(t, idx, phase, 0, (int64_t)tasks, 0, NULL);
		struct json_object *rate, *time;
		double x;
		if (member(p, "rate", json_type_object, &rate)) {
			if (number(rate, "mean", &x))
				store_tx_figure(t, idx, phase, 0, "meta", "rate", x);
			store_flatten_value(t, rate, "rate", idx, phase, 0, "meta");
		}
		if (member(p, "time_s", json_type_object, &time)) {
			if (number(time, "mean", &x))
				store_tx_figure(t, idx, phase, 0, "meta", "time_s", x);
			store_flatten_value(t, time, "time_s", idx, phase, 0, "meta");
		}
		if (member(p, "rank_rate", json_type_object, &v))
			store_flatten_value(t, v, "rank_rate", idx, phase, 0, "meta");
		double items = 0, all = 0;
		unsigned n;
		phase_items(iters, phase, &items, &all, &n);
		if (n) {
			store_tx_figure(t, idx, phase, 0, "meta", "items", items);
			store_tx_figure(t, idx, phase, 0, "meta", "all_items", all);
		}
		store_tx_figure(t, idx, phase, 0, "meta", "iterations", n);
		idx++;
	}
	return t->err_code;
}
