/*
 * Parse callbacks of the scheduling and clock options (cpus_allowed,
 * cpumask, nice, prio, prioclass, clocksource,
 * gtod_reduce), and job_spec_cpuset(), which turns a spec's cpus_allowed or
 * cpumask text into the CPU set the runner binds the job to. Only the option
 * table, its validation and the runner include this.
 */
#ifndef IOBENCH_SPEC_OPTIONS_SCHED_H
#define IOBENCH_SPEC_OPTIONS_SCHED_H

#include <sched.h>
#include <stdbool.h>

#include "spec/options.h"

int opt_cb_cpus_allowed(void *target, const char *val, struct opt_ctx *c);
int opt_cb_cpumask(void *target, const char *val, struct opt_ctx *c);
/* log_compression_cpus=LIST, verify_async_cpus=LIST: cpus_allowed's
 * format, for the log writer and the verify_async threads */
int opt_cb_log_compression_cpus(void *target, const char *val, struct opt_ctx *c);
int opt_cb_verify_async_cpus(void *target, const char *val, struct opt_ctx *c);
int opt_cb_nice(void *target, const char *val, struct opt_ctx *c);
int opt_cb_prio(void *target, const char *val, struct opt_ctx *c);
int opt_cb_prioclass(void *target, const char *val, struct opt_ctx *c);
int opt_cb_clocksource(void *target, const char *val, struct opt_ctx *c);
int opt_cb_gtod_reduce(void *target, const char *val, struct opt_ctx *c);

/*
 * The CPUs the spec allows (cpus_allowed, else cpumask). Returns 1 and fills
 * out when one is set, 0 when neither is (no binding), or a negative errno
 * with why filled when the text is bad.
 */
int job_spec_cpuset(const struct job_spec *s, cpu_set_t *out, char *why, size_t whylen);

#endif
