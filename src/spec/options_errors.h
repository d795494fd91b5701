/*
 * Parse callbacks of the error-policy options continue_on_error and
 * ignore_error (options_errors.c). Only options_table.c includes this.
 */
#ifndef IOBENCH_SPEC_OPTIONS_ERRORS_H
#define IOBENCH_SPEC_OPTIONS_ERRORS_H

#include "spec/options.h"

int opt_cb_continue_on_error(void *target, const char *val, struct opt_ctx *c);
int opt_cb_ignore_error(void *target, const char *val, struct opt_ctx *c);

#endif
