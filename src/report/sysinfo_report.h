/*
 * Writers for a system capture (sys/sysinfo/sysinfo.h): a JSON object for a run's
 * JSON output (under a key the caller chooses) and for `iobench sysinfo
 * --json`, the full text form of `iobench sysinfo`, and a short text form of
 * a few lines for the header of run, quick and bonnie output. Facts that
 * were not captured are left out of all three.
 */
#ifndef IOBENCH_REPORT_SYSINFO_REPORT_H
#define IOBENCH_REPORT_SYSINFO_REPORT_H

#include <stdio.h>

#include "sys/sysinfo/sysinfo.h"
#include "util/json.h"

/* Write si as one JSON object value: at the top level, as an array element,
 * or after json_key(w, "sysinfo"). */
void sysinfo_json_write(struct json_writer *w, const struct sysinfo *si);
/* The full text form; returns 0 or -EIO if writing failed. */
int sysinfo_text_write(const struct sysinfo *si, FILE *out);
/* 3 to 6 lines, each starting with prefix (e.g. "" or "# "); returns 0 or
 * -EIO. */
int sysinfo_text_short(const struct sysinfo *si, const char *prefix, FILE *out);

#endif
