/*
 * The machine around a run as JSON members and text (env_report.h).
 */
#include "report/env_report.h"

#include "report/monitor_report.h"
#include "report/sysinfo_report.h"

void env_json_members(struct json_writer *w, const struct run_env *e)
{
	if (!e)
		return;
	if (e->have_sysinfo) {
		json_key(w, "sysinfo");
		sysinfo_json_write(w, &e->si);
	}
	if (e->have_monitor) {
		json_key(w, "monitor");
		monitor_json_series(w, &e->series);
	}
	if (e->have_self_io) {
		json_key(w, "process_io");
		json_object_begin(w);
		json_key(w, "read_bytes");
		json_uint(w, e->self_read_bytes);
		json_key(w, "write_bytes");
		json_uint(w, e->self_write_bytes);
		json_key(w, "others");
		json_array_begin(w);
		for (size_t i = 0; i < e->nr_others; i++) {
			json_object_begin(w);
			json_key(w, "pid");
			json_int(w, e->others[i].pid);
			json_key(w, "comm");
			json_string(w, e->others[i].comm);
			json_key(w, "read_bytes");
			json_uint(w, e->others[i].read_bytes);
			json_key(w, "write_bytes");
			json_uint(w, e->others[i].write_bytes);
			json_object_end(w);
		}
		json_array_end(w);
		json_object_end(w);
	}
	json_key(w, "warnings");
	json_array_begin(w);
	for (size_t i = 0; i < e->nr_warnings; i++) {
		const struct run_warning *x = &e->warnings[i];
		json_object_begin(w);
		json_key(w, "id");
		json_string(w, x->id);
		json_key(w, "message");
		json_string(w, x->message);
		json_key(w, "evidence");
		json_string(w, x->evidence);
		json_key(w, "advice");
		json_string(w, x->advice);
		json_object_end(w);
	}
	json_array_end(w);
}

void env_text_header(const struct run_env *e, const char *prefix, FILE *out)
{
	if (e && e->have_sysinfo)
		sysinfo_text_short(&e->si, prefix, out);
}

void env_text_warnings(const struct run_env *e, FILE *out)
{
	for (size_t i = 0; e && i < e->nr_warnings; i++) {
		const struct run_warning *x = &e->warnings[i];
		fprintf(out, "  %s: %s\n    evidence: %s\n    what to do: %s\n", x->id, x->message,
			x->evidence, x->advice);
	}
}

void env_text_footer(const struct run_env *e, FILE *out)
{
	if (!e)
		return;
	if (e->have_monitor) {
		fputc('\n', out);
		monitor_text_summary(out, &e->summary, e->series.all_disks);
	}
	if (e->nr_warnings) {
		fputs("\nWarnings:\n", out);
		env_text_warnings(e, out);
	} else {
		fputs("\nWarnings: none\n", out);
	}
}
