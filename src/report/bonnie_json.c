/*
 * iobench's JSON for the bonnie++ suite: one document for all tests of -x,
 *   { "iobench version", "bonnie++ semantics", "machine", "directory",
 *     "options": { ...every setting, units in the key names... },
 *     "runs": [ { "run", "seed", "interrupted", "error",
 *                 "aggregate": { PHASE: {...}, ... },
 *                 "copies": [ { "copy", "phases": { PHASE: {...} } } ] } ],
 *     "sysinfo", "monitor", "process_io", "unwatched", "warnings"
 *     (report/env_report.h), and with --repeat "iobench": { "repetitions",
 *     "repeat_summary" } (runner/repeat/repeat.h) }
 * where PHASE is a CSV name (putc ... ran_del) and a phase that ran is
 *   { "ran": true, "too_short", "rate", "rate_unit", "work", "work_unit",
 *     "elapsed_s", "cpu_pct", "sched_busy_pct", "repeats",
 *     "latency_us": { "p50", "p99", "max" }, "disks": [ {...} ] }
 * and one that did not is { "ran": false }.
 */
#include "report/bonnie_report.h"

#include <errno.h>

#include "report/env_report.h"
#include "report/report_int.h"
#include "report/report.h"
#include "util/json.h"

#define MIB (1024ull * 1024)

static void disk(struct json_writer *w, const struct disk_result *d)
{
	json_object_begin(w);
	json_kv_string(w, "name", d->name);
	json_kv_uint(w, "read_ios", d->read_ios);
	json_kv_uint(w, "write_ios", d->write_ios);
	json_kv_uint(w, "read_merges", d->read_merges);
	json_kv_uint(w, "write_merges", d->write_merges);
	json_kv_uint(w, "read_bytes", d->read_sectors * 512);
	json_kv_uint(w, "write_bytes", d->write_sectors * 512);
	json_kv_uint(w, "read_ticks_ms", d->read_ticks);
	json_kv_uint(w, "write_ticks_ms", d->write_ticks);
	json_kv_uint(w, "in_queue_ms", d->in_queue);
	json_kv_uint(w, "io_ticks_ms", d->io_ticks);
	json_kv_uint(w, "elapsed_ms", d->elapsed_ms);
	json_kv_double(w, "util_pct", disk_util_pct(d));
	json_object_end(w);
}

static void phase(struct json_writer *w, const char *name, const struct bonnie_phase *p,
		  const char *work_unit, const char *rate_unit, double rate)
{
	json_kv_object_begin(w, name);
	json_kv_bool(w, "ran", p->ran);
	if (p->ran) {
		json_kv_bool(w, "too_short", bonnie_phase_too_short(p));
		json_kv_double(w, "rate", rate);
		json_kv_string(w, "rate_unit", rate_unit);
		json_kv_uint(w, "work", p->work);
		json_kv_string(w, "work_unit", work_unit);
		json_kv_double(w, "elapsed_s", (double)p->elapsed_ns / 1e9);
		json_kv_double(w, "cpu_pct", bonnie_phase_cpu_pct(p));
		json_kv_double(w, "sched_busy_pct", bonnie_phase_busy_pct(p));
		json_kv_uint(w, "repeats", p->repeats);
		json_kv_object_begin(w, "latency_us");
		json_kv_double(w, "p50", (double)hist_percentile(&p->lat, 50.0) / 1e3);
		json_kv_double(w, "p99", (double)hist_percentile(&p->lat, 99.0) / 1e3);
		json_kv_double(w, "max", (double)p->max_lat_ns / 1e3);
		json_object_end(w);
		json_kv_array_begin(w, "disks");
		for (size_t i = 0; i < p->nr_disks; i++)
			disk(w, &p->disks[i]);
		json_array_end(w);
	}
	json_object_end(w);
}

static void figures(struct json_writer *w, const struct bonnie_figures *f)
{
	for (int t = 0; t < BON_IO_TESTS; t++) {
		bool seeks = t == BON_SEEKS;
		phase(w, bonnie_io_name((enum bonnie_io_test)t), &f->io[t], seeks ? "seeks" : "bytes",
		      seeks ? "seeks/s" : "KiB/s", bonnie_io_figure((enum bonnie_io_test)t, &f->io[t]));
	}
	for (int t = 0; t < BON_FILE_TESTS; t++)
		phase(w, bonnie_file_name((enum bonnie_file_test)t), &f->file[t], "files", "files/s",
		      f->file[t].rate);
}

static void options(struct json_writer *w, const struct bonnie_spec *s)
{
	json_kv_object_begin(w, "options");
	json_kv_uint(w, "file_size_bytes", s->file_size);
	json_kv_uint(w, "chunk_size_bytes", s->chunk_size);
	json_kv_uint(w, "seeks", s->seeks);
	json_kv_uint(w, "seekers", s->seekers);
	json_kv_uint(w, "putc_size_bytes", s->skip_putc ? 0 : s->putc_size);
	json_kv_uint(w, "num_files", (uint64_t)s->num_files * 1024);
	if (s->max_size == BONNIE_HARD_LINKS || s->max_size == BONNIE_SOFT_LINKS) {
		json_kv_string(w, "file_kind", s->max_size == BONNIE_HARD_LINKS ? "hard links" : "symlinks");
	} else {
		json_kv_string(w, "file_kind", "files");
		json_kv_int(w, "max_size_bytes", s->max_size);
		json_kv_int(w, "min_size_bytes", s->min_size);
	}
	json_kv_uint(w, "num_dirs", s->num_dirs);
	json_kv_uint(w, "file_chunk_size_bytes", s->file_chunk_size);
	json_kv_uint(w, "concurrency", s->concurrency);
	json_kv_uint(w, "ram_mib", s->ram_mb);
	json_kv_uint(w, "tests", s->repeats);
	json_kv_bool(w, "sync_writes", s->sync_writes);
	json_kv_bool(w, "direct", s->direct);
	json_kv_bool(w, "precise", s->precise);
	json_kv_bool(w, "random_data", s->random_data);
	json_object_end(w);
}

static void run(struct json_writer *w, const struct bonnie_result *r, size_t i)
{
	json_object_begin(w);
	json_kv_uint(w, "run", i + 1);
	json_kv_uint(w, "seed", r->seed);
	json_kv_bool(w, "interrupted", r->interrupted);
	if (r->error)
		json_kv_string(w, "error", r->error_msg ? r->error_msg : "error");
	else
		json_kv_string(w, "error", NULL);
	json_kv_object_begin(w, "aggregate");
	figures(w, &r->total);
	json_object_end(w);
	json_kv_array_begin(w, "copies");
	for (unsigned c = 0; c < r->nr_copies; c++) {
		json_object_begin(w);
		json_kv_uint(w, "copy", c);
		json_kv_object_begin(w, "phases");
		figures(w, &r->copies[c]);
		json_object_end(w);
		json_object_end(w);
	}
	json_array_end(w);
	json_object_end(w);
}

int bonnie_report_json(const struct bonnie_spec *s, const struct bonnie_result *runs,
		       size_t nr, const struct run_env *env, FILE *out)
{
	return bonnie_report_json_extra(s, runs, nr, env, NULL, out);
}

int bonnie_report_json_extra(const struct bonnie_spec *s, const struct bonnie_result *runs,
			     size_t nr, const struct run_env *env,
			     const struct report_json_extra *extra, FILE *out)
{
	struct json_writer w;
	json_init(&w, out);
	json_object_begin(&w);
	json_kv_string(&w, "iobench version", IOBENCH_VERSION);
	json_kv_string(&w, "bonnie++ semantics", BONNIE_VERSION);
	json_kv_string(&w, "machine", bonnie_machine(s));
	json_kv_string(&w, "directory", s->dir);
	options(&w, s);
	json_kv_array_begin(&w, "runs");
	for (size_t i = 0; i < nr; i++)
		run(&w, &runs[i], i);
	json_array_end(&w);
	env_json_members(&w, env);
	if (extra) {
		json_kv_object_begin(&w, "iobench");
		extra->write(&w, extra->arg);
		json_object_end(&w);
	}
	json_object_end(&w);
	int rc = json_finish(&w);
	errno = 0;
	if (fflush(out) != 0)
		return errno ? -errno : -EIO; /* ENOSPC, EPIPE: the reason, for the message */
	return rc;
}
