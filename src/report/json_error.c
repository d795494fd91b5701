/*
 * The JSON document of a run that failed before it started (a bad job
 * file, a refused device, a layout that hit ENOSPC): with
 * --output-format=json stdout must still hold one valid JSON object, and it
 * says why. It has the head of fio's layout ("fio version", timestamps,
 * time), an empty "jobs" array so a reader of fio's JSON sees a run with no
 * results, and under "iobench" the error: "error" is the first message,
 * "errors" all of them in order (as printed on stderr, without the
 * "iobench: error: " prefix). Invoked as `fio`, "fio version" is fio's.
 */
#include "report/report_int.h"
#include "report/report.h"

#include <time.h>

#include "util/json.h"
#include "util/timeutil.h"

int report_write_json_error(const char *const *msgs, size_t nr, FILE *out)
{
	return report_write_json_error_as(msgs, nr, false, out);
}

int report_write_json_error_as(const char *const *msgs, size_t nr, bool as_fio, FILE *out)
{
	struct json_writer w;
	uint64_t ms = wall_time_ms();
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char when[64];
	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);

	json_init(&w, out);
	json_object_begin(&w);
	json_kv_string(&w, "fio version", as_fio ? REPORT_FIO_VERSION : REPORT_VERSION_STRING);
	json_kv_uint(&w, "timestamp", ms / 1000);
	json_kv_uint(&w, "timestamp_ms", ms);
	json_kv_string(&w, "time", when);
	json_kv_array_begin(&w, "jobs");
	json_array_end(&w);
	json_kv_object_begin(&w, "iobench");
	json_kv_string(&w, "error", nr ? msgs[0] : "the run failed before it started");
	json_kv_array_begin(&w, "errors");
	for (size_t i = 0; i < nr; i++)
		json_string(&w, msgs[i]);
	json_array_end(&w);
	json_object_end(&w);
	json_object_end(&w);
	return json_finish(&w);
}
