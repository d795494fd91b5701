/*
 * Output formats for a finished run, fio-compatible: normal text, JSON,
 * JSON+ (JSON plus the latency histogram bins) and terse v3. Reporters read
 * only a struct run_result (results/results.h), never runtime state.
 * Several formats may be asked at once ("normal,json"); they are written
 * in fio's order: terse, then JSON, then normal.
 */
#ifndef IOBENCH_REPORT_REPORT_H
#define IOBENCH_REPORT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "spec/jobspec.h"
#include "results/results.h"

enum report_format {
	REPORT_NORMAL = 1,
	REPORT_JSON = 2,
	REPORT_JSONPLUS = 4, /* the JSON layout with "bins" added */
	REPORT_TERSE = 8,
};

/* The fio version iobench follows, as fio names itself ("fio version",
 * the terse reports' second field, the banner) when it runs as `fio`. */
#define REPORT_FIO_VERSION "fio-3.33"

/* Parse "normal", "json", "json+", "terse", comma-combinable, into a mask.
 * Returns 0, or -EINVAL (after printing an error) for an unknown name. */
int report_parse_formats(const char *s, unsigned *formats);
/* The same without a message: on -EINVAL, *bad and *badlen give the name
 * that is not a format (empty for "" or "normal,"). */
int report_formats_parse(const char *s, unsigned *formats, const char **bad, int *badlen);

/* Write each requested format to out. Returns 0 or a negative errno
 * (-EINVAL for an empty mask, -EIO if writing failed). */
int report_write(const struct run_result *r, unsigned formats, FILE *out);

/* The JSON document of a run that failed before it started: fio's head
 * keys, "jobs": [] and "iobench": {"error": msgs[0], "errors": msgs}.
 * Returns 0 or -EIO if writing failed. */
int report_write_json_error(const char *const *msgs, size_t nr, FILE *out);
/* The same naming fio-3.33 as its "fio version" when as_fio (iobench
 * invoked as `fio`), else iobench's version. */
int report_write_json_error_as(const char *const *msgs, size_t nr, bool as_fio, FILE *out);

/* More members of the JSON's "iobench" object (the repetitions of
 * --repeat): write() is called inside it, after iobench's own members. */
struct json_writer;
struct report_json_extra {
	void (*write)(struct json_writer *w, void *arg);
	void *arg;
};
/* report_write with extra members in the JSON formats' "iobench" object
 * (NULL: none; iobench-mpi's per-rank table). */
int report_write_extra(const struct run_result *r, unsigned formats,
		       const struct report_json_extra *extra, FILE *out);
/* report_write_json with extra (NULL: none). */
int report_write_json_extra(const struct run_result *r, bool plus,
			    const struct report_json_extra *extra, FILE *out);
/* The JSON object of r into w, as a value where w expects one (a whole
 * document, an array element, a member's value). */
void report_json_run_object(struct json_writer *w, const struct run_result *r, bool plus,
			    const struct report_json_extra *extra);

/* One format each (report_write calls these). */
int report_write_normal(const struct run_result *r, FILE *out);
int report_write_json(const struct run_result *r, bool plus, FILE *out);
int report_write_terse(const struct run_result *r, FILE *out);

/*
 * fio's job description line, printed before a run starts:
 * "NAME: (g=G): rw=randrw, bs=(R) 4096B-4096B, (W) ..., ioengine=psync,
 * iodepth=1", followed by "..." when the job has clones (nr_clones > 1).
 * report_job_lines() prints the same lines for every entry of a result:
 * one line per job, "..." for clones (jobnum 1) and for merged entries.
 */
void report_job_line(const struct job_spec *s, unsigned groupid, unsigned nr_clones, FILE *out);
void report_job_lines(const struct run_result *r, FILE *out);

#endif
