/*
 * The machine around a run as JSON members and text (env_report.h).
 */
#include "report/env_report.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

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

/* The clock the time series share: seconds after the monitor's first
 * sample (its intervals' "time"), or after the first thing noted. */
static uint64_t series_base(const struct run_env *e)
{
	if (e->have_monitor && e->series.n)
		return e->series.samples[0].t_ns;
	uint64_t b = UINT64_MAX;
	for (size_t i = 0; i < e->nr_timelines; i++)
		if (e->timelines[i].n && e->timelines[i].ticks[0].t_ns < b)
			b = e->timelines[i].ticks[0].t_ns;
	for (size_t i = 0; i < e->nr_phases; i++)
		if (e->phases[i].start_ns < b)
			b = e->phases[i].start_ns;
	return b == UINT64_MAX ? 0 : b;
}

static double secs(uint64_t t, uint64_t base)
{
	return t >= base ? (double)(t - base) / 1e9 : -(double)(base - t) / 1e9;
}

/* "jobs_timeline": per job its start and end and, per interval between
 * two readings of its counters, bw (bytes/s) and iops of each direction
 * that did I/O ("t0" the first reading, "t" each interval's end);
 * "phases": bonnie's tests. */
static void json_timelines(struct json_writer *w, const struct run_env *e)
{
	static const char *const dname[DDIR_RWDIR_CNT] = { "read", "write", "trim" };
	uint64_t base = series_base(e);
	if (e->nr_timelines) {
		json_kv_array_begin(w, "jobs_timeline");
		for (size_t i = 0; i < e->nr_timelines; i++) {
			const struct run_job_timeline *t = &e->timelines[i];
			json_object_begin(w);
			json_kv_string(w, "job", t->name);
			if (t->end_ns) {
				json_kv_double(w, "start", secs(t->start_ns, base));
				json_kv_double(w, "end", secs(t->end_ns, base));
			}
			if (t->n)
				json_kv_double(w, "t0", secs(t->ticks[0].t_ns, base));
			json_kv_array_begin(w, "t");
			for (size_t k = 1; k < t->n; k++)
				json_double(w, secs(t->ticks[k].t_ns, base));
			json_array_end(w);
			for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
				if (!t->n || !t->ticks[t->n - 1].ios[d])
					continue;
				char key[32];
				for (int f = 0; f < 2; f++) {
					snprintf(key, sizeof(key), "%s_%s", dname[d], f ? "iops" : "bw");
					json_kv_array_begin(w, key);
					for (size_t k = 1; k < t->n; k++) {
						const struct run_job_tick *a = &t->ticks[k - 1], *b = &t->ticks[k];
						double dt = (double)(b->t_ns - a->t_ns) / 1e9;
						uint64_t v = f ? b->ios[d] - a->ios[d] : b->bytes[d] - a->bytes[d];
						json_double(w, dt > 0 ? (double)v / dt : 0);
					}
					json_array_end(w);
				}
			}
			json_object_end(w);
		}
		json_array_end(w);
	}
	if (e->nr_phases) {
		json_kv_array_begin(w, "phases");
		for (size_t i = 0; i < e->nr_phases; i++) {
			json_object_begin(w);
			json_kv_string(w, "name", e->phases[i].name);
			json_kv_double(w, "start", secs(e->phases[i].start_ns, base));
			if (e->phases[i].end_ns)
				json_kv_double(w, "end", secs(e->phases[i].end_ns, base));
			json_object_end(w);
		}
		json_array_end(w);
	}
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
	json_timelines(w, e);
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
