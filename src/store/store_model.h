/*
 * Stored runs as the compare model (compare/cmp_model.h): a run's id,
 * host, tool, source, labels, figures (the tall table as it is) and
 * context: "host", "tool", the sysinfo of its machine
 * (compare/cmp_import.h: cmp_context_sysinfo) and its job options as
 * "option.JOB.KEY" ("option.global.KEY" for the run's own; bonnie's
 * per-test seed left out, it changes every time).
 */
#ifndef IOBENCH_STORE_STORE_MODEL_H
#define IOBENCH_STORE_STORE_MODEL_H

#include <stdint.h>

#include "compare/cmp_model.h"
#include "store/store.h"

/* Fill *out (zeroed first) with run id. 0, -ENOENT (no message) when there
 * is no such run, or -errno after printing why. */
int store_model_load(struct store *st, int64_t id, struct cmp_run *out);

#endif
