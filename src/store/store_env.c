/*
 * The machine around a run as JSON (sysinfo, monitor, warnings, ...),
 * written by the existing reporter (report/env_report.h) into memory for
 * the run_env table. Apart from store_json.c: util/json.h and json-c both
 * declare a json_bool.
 */
#include "store/store_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/env_report.h"
#include "util/json.h"

char *store_env_json(const struct run_env *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	struct json_writer w;
	json_init(&w, f);
	json_object_begin(&w);
	env_json_members(&w, e);
	json_object_end(&w);
	int rc = json_finish(&w);
	if (fclose(f) != 0 || rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
