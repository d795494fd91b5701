/*
 * A run's machine as context keys for `compare` (cmp_import.h:
 * cmp_context_sysinfo): iobench's sysinfo JSON flattened to "a.b[i].c"
 * text values, without the figures that change by the minute.
 */
#include "compare/cmp_import.h"
#include "util/array.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#define KEY_MAX 256

/* Members that are no property of the machine's set-up. */
static bool volatile_key(const char *key)
{
	static const char *const skip[] = { "version", "path", "chain", "swaps", "hostname" };
	for (size_t i = 0; i < ARRAY_SIZE(skip); i++)
		if (!strcmp(key, skip[i]))
			return true;
	return strstr(key, "available") || strstr(key, "free") || strstr(key, "used") ||
	       strstr(key, "_error");
}

static void walk(struct cmp_run *r, struct json_object *v, const char *name, int depth)
{
	char sub[KEY_MAX];
	switch (json_object_get_type(v)) {
	case json_type_object:
		if (depth > 8)
			return;
		json_object_object_foreach(v, key, m) {
			if (volatile_key(key))
				continue;
			snprintf(sub, sizeof(sub), "%s%s%s", name, *name ? "." : "", key);
			walk(r, m, sub, depth + 1);
		}
		break;
	case json_type_array: {
		size_t n = json_object_array_length(v);
		if (depth > 8)
			return;
		for (size_t i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", name, i);
			walk(r, json_object_array_get_idx(v, i), sub, depth + 1);
		}
		break;
	}
	case json_type_null:
		break;
	case json_type_string:
		cmp_kvs_set(&r->context, name, json_object_get_string(v));
		break;
	default:
		cmp_kvs_set(&r->context, name, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
		break;
	}
}

void cmp_context_sysinfo(struct cmp_run *r, struct json_object *sysinfo)
{
	if (sysinfo && json_object_is_type(sysinfo, json_type_object))
		walk(r, sysinfo, "", 0);
}
