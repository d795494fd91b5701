/*
 * Parse callbacks of the faulty engine's options (options_faulty.c): the
 * wrapped engine, the three I/O selectors, the errno and the direction.
 * Only options_table.c includes this.
 */
#ifndef IOBENCH_WORKLOAD_OPTIONS_FAULTY_H
#define IOBENCH_WORKLOAD_OPTIONS_FAULTY_H

#include "spec/options.h"

int opt_cb_faulty_engine(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_faulty_fail(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_faulty_corrupt(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_faulty_delay_select(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_faulty_errno(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_faulty_dir(struct job_spec *s, const char *val, struct opt_ctx *c);

#endif
