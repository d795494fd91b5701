/*
 * A sweep's analysis as JSON (sweep_analysis.h), through util/json.h:
 *   { "goal": { "text", "direction", "figure", "higher_is_better" },
 *     "runs", "skipped": { "no_label", "no_figure" }, "factors": [names],
 *     "balanced", "grand_mean", "error_df" (the level intervals' degrees of
 *     freedom: runs - points; 0: from each level's own runs),
 *     "points": [ { "rank", "point", "levels": {F: L, null for a nested
 *                   factor the point has not}, "runs", "median",
 *                   "mean", "interval": { "lo", "hi", "confidence" } | null,
 *                   "values": [], "run_ids": [] } ],          best first
 *     "best": { "point", "levels": {F: L} },
 *     "main_effects": [ { "factor", "label" ("mkfs.xfs (within fs=xfs)"),
 *                         "within" ("fs=xfs" for a nested factor, else
 *                         null), "best", "share", "p" (F test; null
 *                         without repetitions),
 *                         "levels": [ { "level", "runs", "mean",
 *                                       "interval" | null } ] } ],
 *     "importance": { "ranking": [factor names, largest share first],
 *                     "ranking_labels": [the same as labels],
 *                     "factors": {F: share}, "interactions": [ {
 *                     "factors": [A, B], "share", "p", "matters", "incomplete" } ],
 *                     "higher_interactions", "noise" },
 *     "notes": [strings] }
 * Shares are fractions (0.42, not 42%); values are in the goal's unit as
 * stored (bytes/s, ns, KiB/s ...).
 */
#include "sweep/sweep_analysis.h"

#include "util/json.h"

static void interval(struct json_writer *w, const char *key, const struct sweep_interval *ci)
{
	json_key(w, key);
	if (ci->conf <= 0) {
		json_null(w);
		return;
	}
	json_object_begin(w);
	json_kv_double(w, "lo", ci->lo);
	json_kv_double(w, "hi", ci->hi);
	json_kv_double(w, "confidence", ci->conf);
	json_object_end(w);
}

static void levels(struct json_writer *w, const struct sweep_analysis *a,
		   const struct sweep_point *p)
{
	json_kv_object_begin(w, "levels");
	for (size_t f = 0; f < a->nr_factors; f++) {
		json_key(w, a->factors[f].name);
		if (p->levels[f])
			json_string(w, p->levels[f]);
		else
			json_null(w); /* a nested factor this point has not */
	}
	json_object_end(w);
}

int sweep_report_json(const struct sweep_analysis *a, FILE *out)
{
	struct json_writer w;
	json_init(&w, out);
	json_object_begin(&w);
	json_kv_object_begin(&w, "goal");
	json_kv_string(&w, "text", a->goal.text);
	json_kv_string(&w, "direction", a->goal.dir);
	json_kv_string(&w, "figure", a->goal.name);
	json_kv_bool(&w, "higher_is_better", a->goal.higher_is_better);
	json_object_end(&w);
	json_kv_uint(&w, "runs", a->nr_runs);
	json_kv_object_begin(&w, "skipped");
	json_kv_uint(&w, "no_label", a->skipped_no_level);
	json_kv_uint(&w, "no_figure", a->skipped_no_value);
	json_object_end(&w);
	json_kv_array_begin(&w, "factors");
	for (size_t f = 0; f < a->nr_factors; f++)
		json_string(&w, a->factors[f].name);
	json_array_end(&w);
	json_kv_bool(&w, "balanced", a->balanced);
	json_kv_double(&w, "grand_mean", a->grand_mean);
	json_kv_uint(&w, "error_df", a->error_df);

	json_kv_array_begin(&w, "points");
	for (size_t i = 0; i < a->nr_points; i++) {
		const struct sweep_point *p = &a->points[i];
		json_object_begin(&w);
		json_kv_uint(&w, "rank", i + 1);
		json_kv_string(&w, "point", p->name);
		levels(&w, a, p);
		json_kv_uint(&w, "runs", p->n);
		json_kv_double(&w, "median", p->median);
		json_kv_double(&w, "mean", p->mean);
		interval(&w, "interval", &p->ci);
		json_kv_array_begin(&w, "values");
		for (size_t j = 0; j < p->n; j++)
			json_double(&w, p->values[j]);
		json_array_end(&w);
		json_kv_array_begin(&w, "run_ids");
		for (size_t j = 0; j < p->n; j++)
			json_int(&w, p->run_ids[j]);
		json_array_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);
	if (a->nr_points) {
		json_kv_object_begin(&w, "best");
		json_kv_string(&w, "point", a->points[0].name);
		levels(&w, a, &a->points[0]);
		json_object_end(&w);
	}

	json_kv_array_begin(&w, "main_effects");
	for (size_t f = 0; f < a->nr_factors; f++) {
		const struct sweep_factor_effect *fe = &a->factors[f];
		json_object_begin(&w);
		json_kv_string(&w, "factor", fe->name);
		json_kv_string(&w, "label", fe->label);
		json_key(&w, "within");
		if (fe->within)
			json_string(&w, fe->within);
		else
			json_null(&w);
		json_kv_string(&w, "best", fe->levels[fe->best].name);
		json_kv_double(&w, "share", fe->share);
		json_kv_double(&w, "p", fe->p);
		json_kv_array_begin(&w, "levels");
		for (size_t l = 0; l < fe->nr_levels; l++) {
			json_object_begin(&w);
			json_kv_string(&w, "level", fe->levels[l].name);
			json_kv_uint(&w, "runs", fe->levels[l].n);
			json_kv_double(&w, "mean", fe->levels[l].mean);
			interval(&w, "interval", &fe->levels[l].ci);
			json_object_end(&w);
		}
		json_array_end(&w);
		json_object_end(&w);
	}
	json_array_end(&w);

	json_kv_object_begin(&w, "importance");
	json_kv_array_begin(&w, "ranking");
	for (size_t r = 0; r < a->nr_factors; r++)
		json_string(&w, a->factors[a->rank[r]].name);
	json_array_end(&w);
	json_kv_array_begin(&w, "ranking_labels");
	for (size_t r = 0; r < a->nr_factors; r++)
		json_string(&w, a->factors[a->rank[r]].label);
	json_array_end(&w);
	json_kv_object_begin(&w, "factors");
	for (size_t f = 0; f < a->nr_factors; f++)
		json_kv_double(&w, a->factors[f].name, a->factors[f].share);
	json_object_end(&w);
	json_kv_array_begin(&w, "interactions");
	for (size_t p = 0; p < a->nr_pairs; p++) {
		const struct sweep_interaction *in = &a->pairs[p];
		json_object_begin(&w);
		json_kv_array_begin(&w, "factors");
		json_string(&w, a->factors[in->a].name);
		json_string(&w, a->factors[in->b].name);
		json_array_end(&w);
		json_kv_double(&w, "share", in->share);
		json_kv_double(&w, "p", in->p);
		json_kv_bool(&w, "matters", in->matters);
		json_kv_bool(&w, "incomplete", in->incomplete);
		json_object_end(&w);
	}
	json_array_end(&w);
	json_kv_double(&w, "higher_interactions", a->share_higher);
	json_kv_double(&w, "noise", a->share_noise);
	json_object_end(&w);

	json_kv_array_begin(&w, "notes");
	for (size_t i = 0; i < a->nr_notes; i++)
		json_string(&w, a->notes[i]);
	json_array_end(&w);
	json_object_end(&w);
	return json_finish(&w);
}
