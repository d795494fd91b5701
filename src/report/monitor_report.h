/*
 * Output of the system monitor (sys/monitor/monitor.h, monitor_calc.h): JSON of
 * one interval, of a whole series with its summary, and one interval as a
 * single JSON line (`iobench monitor --json`); text for the live view
 * (a vmstat line and an iostat -x table per interval, like running both side
 * by side) and the short summary under a run's normal output.
 * only_active: list only devices that have done I/O since boot, as iostat
 * does when no device is named.
 */
#ifndef IOBENCH_REPORT_MONITOR_REPORT_H
#define IOBENCH_REPORT_MONITOR_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "sys/monitor/monitor.h"
#include "sys/monitor/monitor_calc.h"
#include "util/json.h"

/* One interval as a JSON object (the value; the caller writes any key). */
void monitor_json_interval(struct json_writer *w, const struct monitor_interval *iv,
			   bool only_active);
/* The summary as a JSON object. */
void monitor_json_summary(struct json_writer *w, const struct monitor_summary *sum,
			  bool only_active);
/* A series: interval_ms, devices, samples, intervals[] and summary. */
void monitor_json_series(struct json_writer *w, const struct monitor_series *s);
/* One interval as one line of compact JSON; 0 or -EIO. */
int monitor_json_line(FILE *out, const struct monitor_interval *iv, bool only_active);

/* The vmstat header, printed once at the top of the live view. */
void monitor_text_header(FILE *out);
/* One interval: the vmstat line, then the device table with its header. */
void monitor_text_interval(FILE *out, const struct monitor_interval *iv, bool only_active);
/* A few lines for a run's normal output: CPU, load, and per device util,
 * aqu-sz, await and rates over the whole run. */
void monitor_text_summary(FILE *out, const struct monitor_summary *sum, bool only_active);

#endif
