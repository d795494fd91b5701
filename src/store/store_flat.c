/*
 * Figures from JSON (store_int.h: store_flatten): every number below an
 * object becomes one row of the figures table, named by its path, so the
 * stored names are the JSON output's own: "bw_bytes", "clat_ns.mean",
 * "iodepth_level.1", fio's percentile maps shortened to "clat_ns.p99.9",
 * bonnie's "latency_us.max", and arrays of named objects by their names
 * ("disks.sda.util_pct"). Booleans are 0 or 1; strings, nulls, "bins"
 * (histograms, stored as such) and other arrays are not figures.
 */
#include "store/store_int.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 512

struct flat {
	struct store_tx *t;
	int job_idx;
	const char *job_name;
	int64_t groupid;
	const char *direction;
};

static void walk(struct flat *f, struct json_object *obj, const char *prefix, bool percentiles);

static void join(char *out, const char *prefix, const char *key)
{
	if (prefix && *prefix)
		snprintf(out, NAME_MAX_LEN, "%s.%s", prefix, key);
	else
		snprintf(out, NAME_MAX_LEN, "%s", key);
}

static void value(struct flat *f, struct json_object *v, const char *name)
{
	switch (json_object_get_type(v)) {
	case json_type_int:
	case json_type_double:
		store_tx_figure(f->t, f->job_idx, f->job_name, f->groupid, f->direction, name,
				json_object_get_double(v));
		break;
	case json_type_boolean:
		store_tx_figure(f->t, f->job_idx, f->job_name, f->groupid, f->direction, name,
				json_object_get_boolean(v) ? 1.0 : 0.0);
		break;
	case json_type_object:
		walk(f, v, name, false);
		break;
	case json_type_array: {
		/* only arrays of objects that carry a "name" */
		size_t n = json_object_array_length(v);
		for (size_t i = 0; i < n; i++) {
			struct json_object *e = json_object_array_get_idx(v, i), *nm;
			if (!json_object_is_type(e, json_type_object) ||
			    !json_object_object_get_ex(e, "name", &nm) ||
			    !json_object_is_type(nm, json_type_string))
				continue;
			char sub[NAME_MAX_LEN];
			join(sub, name, json_object_get_string(nm));
			walk(f, e, sub, false);
		}
		break;
	}
	default:
		break;
	}
}

static void walk(struct flat *f, struct json_object *obj, const char *prefix, bool percentiles)
{
	json_object_object_foreach(obj, key, v) {
		char name[NAME_MAX_LEN];
		if (!strcmp(key, "bins"))
			continue;
		if (percentiles) {
			/* "99.900000" -> p99.9 */
			char *end;
			double p = strtod(key, &end);
			char pk[64];
			if (*end || end == key)
				snprintf(pk, sizeof(pk), "p%s", key);
			else
				snprintf(pk, sizeof(pk), "p%g", p);
			join(name, prefix, pk);
			value(f, v, name);
			continue;
		}
		if (!strcmp(key, "percentile") && json_object_is_type(v, json_type_object)) {
			walk(f, v, prefix, true);
			continue;
		}
		join(name, prefix, key);
		value(f, v, name);
	}
}

int store_flatten_value(struct store_tx *t, struct json_object *v, const char *name, int job_idx,
			const char *job_name, int64_t groupid, const char *direction)
{
	struct flat f = { t, job_idx, job_name, groupid, direction };
	value(&f, v, name);
	return t->err_code;
}

int store_flatten(struct store_tx *t, struct json_object *obj, const char *prefix, int job_idx,
		  const char *job_name, int64_t groupid, const char *direction)
{
	struct flat f = { t, job_idx, job_name, groupid, direction };
	if (json_object_is_type(obj, json_type_object))
		walk(&f, obj, prefix, false);
	return t->err_code;
}
