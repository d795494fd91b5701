/*
 * Reading results from files into the compare model (cmp_model.h): fio
 * 3.x's JSON output (--output-format=json or json+), iobench's own JSON
 * (run and quick: fio's layout plus an "iobench" member with the sysinfo;
 * bonnie: iobench's bonnie document), and bonnie++ CSV lines (formats
 * 1.96 and 1.97, 48 fields, and 1.98, 50 fields, as bonnie++ 2.00a writes
 * them; several per file, bonnie++'s header line allowed). Figures get the
 * names iobench's JSON and the store give them: per direction "bw_bytes",
 * "iops", "clat_ns.p99.9" (fio's percentile keys shortened), "io_bytes",
 * ...; per job (direction "job") "usr_cpu", "sys_cpu", ...; per bonnie
 * phase "rate" (KiB/s for the I/O tests, seeks/s, files/s), "cpu_pct",
 * "too_short" (bonnie++'s "+++++"), "latency_us.max".
 *
 * A fio or iobench document is one run. Consecutive CSV lines of one
 * machine and configuration (every field but the seed and the results)
 * are one run whose lines are its tests (bonnie++ -x: the job "aggregate"
 * once per line, its repetitions); a line of another configuration starts
 * the next run. A file that is none of these, or has one bad line, is
 * refused as a whole with "FILE:LINE: what is wrong" and gives no run.
 */
#ifndef IOBENCH_COMPARE_CMP_IMPORT_H
#define IOBENCH_COMPARE_CMP_IMPORT_H

#include <stddef.h>

#include "compare/cmp_model.h"

struct json_object;

/* source_format of the runs: */
#define CMP_FMT_FIO_JSON "fio-json"
#define CMP_FMT_IOBENCH_JSON "iobench-json"
#define CMP_FMT_IOBENCH_BONNIE_JSON "iobench-bonnie-json"
#define CMP_FMT_BONNIE_CSV "bonnie-csv"

/*
 * Parse text (len bytes, named name in messages and kept as each run's
 * source) and append its runs to out, each with raw = its text. 0, or
 * -EINVAL after printing "NAME:LINE[:COL]: ..." (out is then as before).
 */
int cmp_import_text(const char *name, const char *text, size_t len, struct cmp_runs *out);
/* The same for the file at path (read whole). -errno when it cannot be read. */
int cmp_import_file(const char *path, struct cmp_runs *out);

/* cmp_nonfinite.c: a copy of JSON text in which each bare non-finite
 * number (fio's nan, -nan, inf, -inf; NaN, Infinity) is a marked string,
 * so that it parses and is no figure; NULL when the text has none. */
char *cmp_json_mark_nonfinite(const char *text, size_t len, size_t *out_len);
/* Warn of each marked value under root: "FILE: jobs[0].read.lat_ns.mean
 * is nan, not a finite number: the figure is left out"; returns how many. */
int cmp_json_warn_nonfinite(const char *file, struct json_object *root);

/* The bonnie++ CSV part of cmp_import_text (text is not JSON). */
int cmp_bonnie_csv_text(const char *name, const char *text, size_t len, struct cmp_runs *out);

/*
 * The figures of one bonnie++ CSV line under job (lineno for messages): 0,
 * or -EINVAL after printing why. Used by the store's importer, which
 * stores each line of a run as one job.
 */
int cmp_bonnie_csv_line(const char *name, size_t lineno, const char *line, struct cmp_run *r,
			const char *job);

/*
 * The machine of a sysinfo JSON object (iobench's "sysinfo": host, device
 * chain, filesystems, devices) as context keys "host.kernel_release",
 * "filesystems[0].type", "devices[0].queue.scheduler", ..., leaving out
 * what changes from one minute to the next (free and available memory,
 * swap in use) and the path's own chain.
 */
void cmp_context_sysinfo(struct cmp_run *r, struct json_object *sysinfo);

/* Figures of one fio-layout job object (an entry of "jobs") under its
 * jobname: every number of each direction, percentile maps as "pN",
 * "bins" left out; the job's own numbers under direction "job". */
void cmp_fio_job_figs(struct cmp_run *r, struct json_object *job);

#endif
