/*
 * Parse callbacks of the faulty engine's options (options_faulty.c): the
 * wrapped engine, the three I/O selectors, the errno and the direction.
 * Only options_table.c includes this.
 */
#ifndef IOBENCH_WORKLOAD_OPTIONS_FAULTY_H
#define IOBENCH_WORKLOAD_OPTIONS_FAULTY_H

#include "workload/options.h"

int opt_cb_faulty_engine(void *target, const char *val, struct opt_ctx *c);
int opt_cb_faulty_fail(void *target, const char *val, struct opt_ctx *c);
int opt_cb_faulty_corrupt(void *target, const char *val, struct opt_ctx *c);
int opt_cb_faulty_delay_select(void *target, const char *val, struct opt_ctx *c);
int opt_cb_faulty_errno(void *target, const char *val, struct opt_ctx *c);
int opt_cb_faulty_dir(void *target, const char *val, struct opt_ctx *c);

#endif
