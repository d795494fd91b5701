/*
 * A fio JSON document into the store (fio 3.x's --output-format=json or
 * json+, and iobench's own, which has fio's layout plus an "iobench"
 * member): one jobs row per entry of "jobs", every figure of each
 * direction (read, write, trim, sync, mixed) and of the job itself
 * (direction "job": usr_cpu, ctx, iodepth_level.1, latency_ms.>=2000, ...;
 * iobench's per-job figures as "iobench.runtime_ns", ...), the devices of
 * "disk_util" (job -1, direction = the device), and for imports the option
 * echo and the json+ bins.
 */
#include "store/store_int.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_hist.h"
#include "util/array.h"
#include "util/xmalloc.h"

static const char *const dir_keys[] = { "read", "write", "trim", "sync", "mixed" };

static bool is_dir(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(dir_keys); i++)
		if (!strcmp(key, dir_keys[i]))
			return true;
	return false;
}

/* Members of a job that are its identity, not figures. */
static bool not_figure(const char *key)
{
	static const char *const skip[] = { "jobname", "groupid", "job options", "eta", "hostname",
					    "port", "desc", "jobs" };
	for (size_t i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strcmp(key, skip[i]))
			return true;
	return false;
}

char *store_json_text(struct json_object *v)
{
	if (!v || json_object_is_type(v, json_type_null))
		return NULL;
	if (json_object_is_type(v, json_type_string))
		return xstrdup(json_object_get_string(v));
	return xstrdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
}

static void options(struct store_tx *t, struct json_object *obj, int job_idx)
{
	int seq = 0;
	if (!obj || !json_object_is_type(obj, json_type_object))
		return;
	json_object_object_foreach(obj, key, v) {
		char *text = store_json_text(v);
		store_tx_option(t, job_idx, seq++, key, text);
		free(text);
	}
}

static int64_t get_int(struct json_object *o, const char *key, int64_t dflt)
{
	struct json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return dflt;
	return json_object_get_int64(v);
}

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* json+ "bins" of one latency object ("clat_ns": {..., "bins": {...}}). */
static void bins(struct store_tx *t, int idx, const char *dir, const char *name,
		 struct json_object *lat)
{
	struct json_object *b;
	if (!json_object_object_get_ex(lat, "bins", &b) || !json_object_is_type(b, json_type_object))
		return;
	size_t n = (size_t)json_object_object_length(b), k = 0;
	uint64_t *vals = xcalloc(n ? n : 1, sizeof(*vals)), *cnts = xcalloc(n ? n : 1, sizeof(*cnts));
	uint64_t total = 0;
	json_object_object_foreach(b, key, v) {
		char *end;
		uint64_t val = strtoull(key, &end, 10);
		int64_t c = json_object_get_int64(v);
		if (*end || end == key || c <= 0)
			continue;
		vals[k] = val;
		cnts[k++] = (uint64_t)c;
		total += (uint64_t)c;
	}
	if (k) {
		size_t len;
		void *blob = store_hist_encode_bins(vals, cnts, k, &len);
		store_tx_hist(t, idx, dir, name, STORE_HIST_FIO_BINS, blob, len, total,
			      (uint64_t)get_int(lat, "min", 0), (uint64_t)get_int(lat, "max", 0));
		free(blob);
	}
	free(vals);
	free(cnts);
}

static void direction(struct store_tx *t, int idx, const char *job, int64_t group,
		      const char *dir, struct json_object *obj, unsigned what)
{
	static const char *const lats[][2] = { { "slat_ns", "slat" }, { "clat_ns", "clat" },
					       { "lat_ns", "lat" } };
	store_flatten(t, obj, "", idx, job, group, dir);
	if (!(what & STORE_INGEST_BINS))
		return;
	for (size_t i = 0; i < 3; i++) {
		struct json_object *lat;
		if (json_object_object_get_ex(obj, lats[i][0], &lat))
			bins(t, idx, dir, lats[i][1], lat);
	}
}

static void job(struct store_tx *t, int idx, struct json_object *j, struct json_object *ib,
		unsigned what)
{
	const char *name = get_str(j, "jobname");
	int64_t group = get_int(j, "groupid", 0);
	store_tx_job(t, idx, name, group, get_int(ib, "jobs", 0), (int)get_int(j, "error", 0),
		     get_str(ib, "error_msg"));
	if (what & STORE_INGEST_OPTIONS) {
		struct json_object *o;
		if (json_object_object_get_ex(j, "job options", &o))
			options(t, o, idx);
	}
	json_object_object_foreach(j, key, v) {
		if (not_figure(key))
			continue;
		if (is_dir(key) && json_object_is_type(v, json_type_object))
			direction(t, idx, name, group, key, v, what);
		else
			store_flatten_value(t, v, key, idx, name, group, "job");
	}
	if (ib) {
		json_object_object_foreach(ib, ikey, iv) {
			char full[96];
			if (not_figure(ikey))
				continue;
			snprintf(full, sizeof(full), "iobench.%s", ikey);
			store_flatten_value(t, iv, full, idx, name, group, "job");
		}
	}
}

int store_ingest_fio_json(struct store_tx *t, struct json_object *root, unsigned what)
{
	struct json_object *jobs, *g, *ib, *ibjobs = NULL, *disks;
	if (!json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array))
		return store_tx_fail(t, -EBADMSG);
	if ((what & STORE_INGEST_OPTIONS) && json_object_object_get_ex(root, "global options", &g))
		options(t, g, -1);
	if (json_object_object_get_ex(root, "iobench", &ib) &&
	    !json_object_object_get_ex(ib, "jobs", &ibjobs))
		ibjobs = NULL;
	size_t n = json_object_array_length(jobs);
	size_t nib = ibjobs && json_object_is_type(ibjobs, json_type_array) ?
			     json_object_array_length(ibjobs) : 0;
	for (size_t i = 0; i < n && !t->err_code; i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);
		if (!json_object_is_type(j, json_type_object))
			return store_tx_fail(t, -EBADMSG);
		job(t, (int)i, j, i < nib ? json_object_array_get_idx(ibjobs, i) : NULL, what);
	}
	if (json_object_object_get_ex(root, "disk_util", &disks) &&
	    json_object_is_type(disks, json_type_array)) {
		size_t nd = json_object_array_length(disks);
		for (size_t i = 0; i < nd; i++) {
			struct json_object *d = json_object_array_get_idx(disks, i);
			const char *dn = get_str(d, "name");
			if (dn)
				store_flatten(t, d, "", -1, "disk_util", -1, dn);
		}
	}
	return t->err_code;
}
