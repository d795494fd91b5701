/*
 * Internal to the option table: the parse callbacks of options that need
 * more than a generic number/size/time/bool/string parse, and the helper that
 * formats their error messages. Only the option callbacks (options_*.c and
 * verify_opts.c) include this.
 */
#ifndef IOBENCH_WORKLOAD_OPTIONS_CB_H
#define IOBENCH_WORKLOAD_OPTIONS_CB_H

#include "workload/options.h"

/* Format "invalid WHAT 'VAL' for option 'KEY'[: REASON]" into c->why; returns err. */
int opt_fail(struct opt_ctx *c, int err, const char *what, const char *val, const char *reason);
/* Format an arbitrary message into c->why; returns err. */
int opt_failf(struct opt_ctx *c, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

int opt_cb_rw(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_rwmixread(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_rwmixwrite(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_bs(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_bsrange(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_bssplit(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_blockalign(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_buffered(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_sync(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_ioengine(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_size(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_offset(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_filesize(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_startdelay(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_random_distribution(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_rate(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_rate_iops(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_rate_min(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_rate_iops_min(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_rate_process(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_max_latency(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_latency_percentile(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_thinktime_blocks(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_thinktime_blocks_type(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_fallocate(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_percentile_list(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_unified_rw_reporting(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_kb_base(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_randseed(struct job_spec *s, const char *val, struct opt_ctx *c);
int opt_cb_name(struct job_spec *s, const char *val, struct opt_ctx *c);

#endif
