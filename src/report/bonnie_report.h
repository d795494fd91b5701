/*
 * Reporters for the bonnie++ suite (bonnie/bonnie.h): bonnie++ 2.00a's
 * 80-column text table with its Latency lines, its CSV line (format 1.98,
 * 50 fields, read by bon_csv2html and bon_csv2txt), and iobench's own JSON
 * with every figure, its unit, latency percentiles, device statistics and
 * the per-copy figures of -c. They read only the spec and the results.
 *
 * Where bonnie++ 2.00a is wrong we print what it meant: file-test rates
 * (not counts) in the text, io_chunk_size in CSV field 6, the number of
 * directories in field 24 (num_dirs; bonnie++ writes it into field 25) and
 * a non-default file chunk size in field 25 (bonnie++ loses it).
 */
#ifndef IOBENCH_REPORT_BONNIE_REPORT_H
#define IOBENCH_REPORT_BONNIE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bonnie/bonnie.h"
#include "results/runenv.h"

#define BONNIE_CSV_FIELDS 50
#define BONNIE_DEFAULT_CHUNK 8192u
#define BONNIE_DEFAULT_SEEKS 8192u
#define BONNIE_DEFAULT_SEEKERS 5u

/* bonnie++'s text table of one test (the aggregate of the copies). With
 * devices, a per-phase device-statistics table follows; a line always says
 * whether --precise repeated short phases or "+++++" marks them.
 * Returns 0 or -EIO. */
int bonnie_report_text(const struct bonnie_spec *s, const struct bonnie_result *r,
		       bool devices, FILE *out);

/* The CSV header line bonnie++ prints before the lines of -x N (with the
 * seeks and seek_procs names it forgets, so the names match the fields). */
int bonnie_report_csv_header(FILE *out);
/* One CSV line (50 fields) of one test. Returns 0 or -EIO. */
int bonnie_report_csv(const struct bonnie_spec *s, const struct bonnie_result *r, FILE *out);

/* One JSON document for all tests of -x (runs[nr]) and the machine around
 * them (env, may be NULL: "sysinfo", "monitor", "process_io", "warnings");
 * layout in `iobench help bonnie`. Returns 0 or -EIO/-EINVAL. */
int bonnie_report_json(const struct bonnie_spec *s, const struct bonnie_result *runs,
		       size_t nr, const struct run_env *env, FILE *out);
/* The same with extra members in an "iobench" object at the end (--repeat's
 * repetitions and summary; NULL: no such object). */
struct report_json_extra;
int bonnie_report_json_extra(const struct bonnie_spec *s, const struct bonnie_result *runs,
			     size_t nr, const struct run_env *env,
			     const struct report_json_extra *extra, FILE *out);

/* The per-phase device table printed after the text table (one line per
 * phase and device: r/s w/s rMiB/s wMiB/s r_await w_await aqu-sz %util,
 * iostat -x's formulas); nothing when no phase has device figures. */
void bonnie_devtext(const struct bonnie_spec *s, const struct bonnie_figures *f, FILE *out);

/* ---- shared formatting (bonnie_fmt.c), exposed for the unit tests ---- */

/* bonnie++'s print_size(): n, divided by 1024 while it divides evenly and
 * a next unit exists, followed by the unit letter (' ' = none): (64, "MG")
 * "64M", (2048, "MG") "2G", (8192, " km") "8k", (512, " km") "512". */
void bonnie_fmt_size(char *buf, size_t len, uint64_t n, const char *units);
/* bonnie++'s latency: "" for 0, else "NNNus" below 100 ms, "NNNms" below
 * 100 s, "NNNs" above (truncated). */
void bonnie_fmt_latency(char *buf, size_t len, uint64_t ns);
/* The "64M:4k:2:1000:3" size field (empty parts for defaults, trailing
 * colons cut) and the 19-column "machine         64M" cell built from it. */
void bonnie_fmt_io_size(char *buf, size_t len, const struct bonnie_spec *s);
void bonnie_fmt_name_cell(char *buf, size_t len, const char *machine, const char *size);
/* "1", "1:link", "1:symlink", "20:10:1" and "/dirs" for the file tests. */
void bonnie_fmt_file_size(char *buf, size_t len, const struct bonnie_spec *s);

/* CSV/JSON names ("putc", "seq_create"), text labels ("Block out"). */
const char *bonnie_io_name(enum bonnie_io_test t);
const char *bonnie_file_name(enum bonnie_file_test t);
const char *bonnie_io_label(enum bonnie_io_test t);
const char *bonnie_file_label(enum bonnie_file_test t);
/* The machine name to print: -m, or "localhost" when unset. */
const char *bonnie_machine(const struct bonnie_spec *s);
/* Figure of a phase in bonnie++'s unit: KiB/s for I/O tests, seeks/s,
 * files/s. */
double bonnie_io_figure(enum bonnie_io_test t, const struct bonnie_phase *p);

#endif
