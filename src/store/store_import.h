/*
 * Storing runs read from files (`iobench results import`): each run the
 * compare layer's readers made (compare/cmp_import.h: fio JSON/JSON+,
 * iobench's JSON, bonnie++ CSV lines) becomes one run of kind "import"
 * with its tool, source file and format, host, labels and start time, in
 * one transaction of its own. Figures are named as for iobench's own runs:
 * fio and iobench documents go through the same reader as native runs
 * (store_ingest_fio_json, with the job options and the json+ bins as
 * histograms), bonnie++ CSV lines become one job "aggregate" per line
 * (group = the line's place in the run) with the phases' rate, cpu_pct,
 * too_short and latency_us.max. The text read is kept as the run's
 * rendering ("json", "json+" or "csv"), so `results show` prints it again.
 */
#ifndef IOBENCH_STORE_STORE_IMPORT_H
#define IOBENCH_STORE_STORE_IMPORT_H

#include <stdint.h>

#include "compare/cmp_model.h"
#include "store/store.h"

/* Store r (read by cmp_import_file, so r->raw and r->source_format are
 * set); m gives the labels and, when r has no host, the host (else
 * "unknown": a file does not say where it ran). *id gets its id. */
int store_import_run(struct store *st, const struct cmp_run *r, const struct store_meta *m,
		     int64_t *id);

#endif
