/*
 * iobench's bonnie JSON (report/bonnie_report.h) into the store. Each test
 * of -x gives a job "aggregate" and one "copy N" per -c copy, with the
 * test's number (0-based) as their group, and each phase that ran is a
 * direction (putc, put_block, ..., ran_del) with the phase's figures:
 * rate (KiB/s, seeks/s or files/s), cpu_pct, too_short, latency_us.p50,
 * latency_us.p99, latency_us.max, elapsed_s, ... The options are the run's
 * global options, the seed an option of each test's aggregate. bonnie++
 * CSV lines (store_csv.c) give the same names for what they carry.
 */
#include "store/store_int.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void phases(struct store_tx *t, struct json_object *obj, int idx, const char *job,
		   int64_t group)
{
	if (!obj || !json_object_is_type(obj, json_type_object))
		return;
	json_object_object_foreach(obj, phase, p) {
		struct json_object *ran;
		if (!json_object_is_type(p, json_type_object) ||
		    !json_object_object_get_ex(p, "ran", &ran) || !json_object_get_boolean(ran))
			continue;
		json_object_object_foreach(p, key, v) {
			if (strcmp(key, "ran"))
				store_flatten_value(t, v, key, idx, job, group, phase);
		}
	}
}

int store_ingest_bonnie_json(struct store_tx *t, struct json_object *root)
{
	struct json_object *opts, *runs;
	int idx = 0, seq = 0;

	if (json_object_object_get_ex(root, "options", &opts) &&
	    json_object_is_type(opts, json_type_object)) {
		json_object_object_foreach(opts, key, v) {
			char *text = store_json_text(v);
			store_tx_option(t, -1, seq++, key, text);
			free(text);
		}
	}
	if (!json_object_object_get_ex(root, "runs", &runs) ||
	    !json_object_is_type(runs, json_type_array))
		return store_tx_fail(t, -EBADMSG);
	size_t n = json_object_array_length(runs);
	for (size_t i = 0; i < n && !t->err_code; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i), *v, *copies;
		const char *err = NULL;
		if (json_object_object_get_ex(r, "error", &v) && json_object_is_type(v, json_type_string))
			err = json_object_get_string(v);
		store_tx_job(t, idx, "aggregate", (int64_t)i, 0, err ? 1 : 0, err);
		if (json_object_object_get_ex(r, "seed", &v)) {
			char *text = store_json_text(v);
			store_tx_option(t, idx, 0, "seed", text);
			free(text);
		}
		if (json_object_object_get_ex(r, "aggregate", &v))
			phases(t, v, idx, "aggregate", (int64_t)i);
		idx++;
		if (!json_object_object_get_ex(r, "copies", &copies) ||
		    !json_object_is_type(copies, json_type_array))
			continue;
		size_t nc = json_object_array_length(copies);
		for (size_t c = 0; c < nc; c++) {
			struct json_object *cp = json_object_array_get_idx(copies, c), *ph;
			char name[32];
			snprintf(name, sizeof(name), "copy %zu", c);
			store_tx_job(t, idx, name, (int64_t)i, 0, 0, NULL);
			if (json_object_object_get_ex(cp, "phases", &ph))
				phases(t, ph, idx, name, (int64_t)i);
			idx++;
		}
	}
	return t->err_code;
}
