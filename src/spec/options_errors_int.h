/*
 * The parse callback of the error-policy option ignore_error
 * (options_errors.c; continue_on_error's words are its table row's). Only options_table.c includes this.
 */
#ifndef IOBENCH_SPEC_OPTIONS_ERRORS_INT_H
#define IOBENCH_SPEC_OPTIONS_ERRORS_INT_H

#include "spec/options.h"

int opt_cb_ignore_error(void *target, const char *val, struct opt_ctx *c);

#endif
