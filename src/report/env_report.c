/*
 * The machine around a run as JSON members and text (env_report.h).
 */
#include "report/env_report.h"

#include <inttypes.h>

#include "report/monitor_report.h"
#include "report/sysinfo_report.h"
#include "util/units.h"

/* What --memory-limit's cgroup did (sys/memcg.h). */
static void json_memcg(struct json_writer *w, const struct memcg_stats *m)
{
	json_key(w, "memory_limit");
	json_object_begin(w);
	json_kv_uint(w, "cgroup_version", m->version);
	json_kv_string(w, "cgroup", m->path);
	json_kv_uint(w, "limit_bytes", m->limit_bytes);
	json_kv_uint(w, "peak_bytes", m->peak_bytes);
	json_kv_uint(w, "limit_hits", m->limit_hits);
	json_kv_uint(w, "oom_kills", m->oom_kills);
	if (m->have_scan)
		json_kv_uint(w, "scan_pages", m->scan_pages);
	json_kv_uint(w, "reclaim_pages", m->reclaim_pages);
	json_kv_uint(w, "refault_anon_pages", m->refault_anon);
	json_kv_uint(w, "refault_file_pages", m->refault_file);
	json_kv_uint(w, "swap_bytes", m->swap_bytes);
	json_object_end(w);
}

static void json_process_io(struct json_writer *w, uint64_t rd, uint64_t wr,
			    const struct procio_entry *others, size_t nr)
{
	json_key(w, "process_io");
	json_object_begin(w);
	json_key(w, "read_bytes");
	json_uint(w, rd);
	json_key(w, "write_bytes");
	json_uint(w, wr);
	json_key(w, "others");
	json_array_begin(w);
	for (size_t i = 0; i < nr; i++) {
		json_object_begin(w);
		json_key(w, "pid");
		json_int(w, others[i].pid);
		json_key(w, "comm");
		json_string(w, others[i].comm);
		json_key(w, "read_bytes");
		json_uint(w, others[i].read_bytes);
		json_key(w, "write_bytes");
		json_uint(w, others[i].write_bytes);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

void env_json_window(struct json_writer *w, const struct run_env *e, const struct run_window *x)
{
	if (x->have_self_io)
		json_process_io(w, x->self_read_bytes, x->self_write_bytes, x->others, x->nr_others);
	if (x->have_samples) {
		json_key(w, "monitor");
		monitor_json_summary(w, &x->summary, e->series.all_disks);
	}
}

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
	if (e->have_self_io)
		json_process_io(w, e->self_read_bytes, e->self_write_bytes, e->others, e->nr_others);
	json_key(w, "unwatched");
	json_array_begin(w);
	for (size_t i = 0; i < e->nr_unwatched; i++) {
		json_object_begin(w);
		json_kv_string(w, "what", e->unwatched[i].what);
		json_kv_string(w, "why", e->unwatched[i].why);
		json_object_end(w);
	}
	json_array_end(w);
	if (e->have_memcg)
		json_memcg(w, &e->memcg);
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
		if (x->scope)
			json_kv_string(w, "scope", x->scope);
		if (x->group_first >= 0) {
			json_kv_array_begin(w, "groups");
			for (int g = x->group_first; g <= x->group_last; g++)
				json_int(w, g);
			json_array_end(w);
		}
		if (x->nr_jobs) {
			json_kv_array_begin(w, "jobs");
			for (size_t k = 0; k < x->nr_jobs; k++)
				json_string(w, x->jobs[k]);
			json_array_end(w);
		}
		json_object_end(w);
	}
	json_array_end(w);
}

void env_text_header(const struct run_env *e, const char *prefix, FILE *out)
{
	if (e && e->have_sysinfo)
		sysinfo_text_short(&e->si, prefix, out);
}

static void text_unwatched(const struct run_env *e, const char *indent, FILE *out)
{
	for (size_t i = 0; i < e->nr_unwatched; i++)
		fprintf(out, "%s%s: %s\n", indent, e->unwatched[i].what, e->unwatched[i].why);
}

/* a message the run raised (id run-message) has no evidence or advice */
static void text_warning(const struct run_warning *x, FILE *out)
{
	fprintf(out, "  %s%s%s%s: %s\n", x->id, x->scope ? " (" : "", x->scope ? x->scope : "",
		x->scope ? ")" : "", x->message);
	if (*x->evidence)
		fprintf(out, "    evidence: %s\n", x->evidence);
	if (*x->advice)
		fprintf(out, "    what to do: %s\n", x->advice);
}

void env_text_warnings(const struct run_env *e, FILE *out)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nr_warnings; i++)
		text_warning(&e->warnings[i], out);
	if (e->nr_unwatched) {
		fputs("  not watched:\n", out);
		text_unwatched(e, "    ", out);
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
	if (e->have_memcg) {
		const struct memcg_stats *m = &e->memcg;
		char a[16], b[16];
		fprintf(out, "\nMemory limit: %s (cgroup v%u %s): peak %s, limit reached %" PRIu64
			" times, %" PRIu64 " pages %s, %" PRIu64 " OOM kills\n",
			fmt_iec(m->limit_bytes, a, sizeof(a)), m->version, m->path,
			fmt_iec(m->peak_bytes, b, sizeof(b)), m->limit_hits,
			m->reclaim_pages,
			m->version == 2 ? "reclaimed" : "uncharged (reclaimed or freed)", m->oom_kills);
	}
	if (e->nr_unwatched) {
		fputs("\nNot watched:\n", out);
		text_unwatched(e, "  ", out);
	}
	if (e->nr_warnings) {
		fputs("\nWarnings:\n", out);
		for (size_t i = 0; i < e->nr_warnings; i++)
			text_warning(&e->warnings[i], out);
	} else {
		fputs("\nWarnings: none\n", out);
	}
}
