/*
 * Parse callbacks of the engine-specific options whose values are more than
 * a plain number or flag: io_uring's nonvectored (-1, 0 or 1) and
 * sqthread_poll_cpu (a CPU number that also records that it was given).
 * Only options_table.c includes this.
 */
#ifndef IOBENCH_WORKLOAD_OPTIONS_ENGINE_H
#define IOBENCH_WORKLOAD_OPTIONS_ENGINE_H

#include "spec/options.h"

int opt_cb_nonvectored(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_sqthread_poll_cpu(struct job_spec *s, const char *val, struct opt_ctx *c);

#endif
