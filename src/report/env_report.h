/*
 * Output of the machine around a run (results/runenv.h): the system
 * capture, the monitor series and the warnings as members of iobench's own
 * JSON object, and as text: a short system header before the results and a
 * monitor summary and the warnings after them.
 */
#ifndef IOBENCH_REPORT_ENV_REPORT_H
#define IOBENCH_REPORT_ENV_REPORT_H

#include <stdio.h>

#include "util/json.h"
#include "results/runenv.h"

/* "sysinfo", "monitor", "process_io", "unwatched" and "warnings" members
 * into the open object. */
void env_json_members(struct json_writer *w, const struct run_env *e);
/* A window's "process_io" and "monitor" (its summary) members into the
 * open object. */
void env_json_window(struct json_writer *w, const struct run_env *e, const struct run_window *x);
/* The short system header (prefix before each line). */
void env_text_header(const struct run_env *e, const char *prefix, FILE *out);
/* "System while running:" monitor summary, then "Not watched:" and
 * "Warnings:". */
void env_text_footer(const struct run_env *e, FILE *out);
/* The warnings alone, each as one "ID (scope): message" line plus its
 * evidence and advice, for stderr when the chosen format has no text;
 * then what was not watched. */
void env_text_warnings(const struct run_env *e, FILE *out);

#endif
