/*
 * Internal to the option table: the parse callbacks of options that need
 * more than a generic number/size/time/bool/string parse, and the helper that
 * formats their error messages. Only the option callbacks (options_*.c and
 * verify_opts.c) include this.
 */
#ifndef IOBENCH_SPEC_OPTIONS_CB_INT_H
#define IOBENCH_SPEC_OPTIONS_CB_INT_H

#include "spec/options.h"

int opt_cb_rw(void *target, const char *val, struct opt_ctx *c);
int opt_cb_rwmixread(void *target, const char *val, struct opt_ctx *c);
int opt_cb_rwmixwrite(void *target, const char *val, struct opt_ctx *c);
int opt_cb_bs(void *target, const char *val, struct opt_ctx *c);
int opt_cb_bsrange(void *target, const char *val, struct opt_ctx *c);
int opt_cb_bssplit(void *target, const char *val, struct opt_ctx *c);
int opt_cb_blockalign(void *target, const char *val, struct opt_ctx *c);
int opt_cb_buffered(void *target, const char *val, struct opt_ctx *c);
int opt_cb_sync(void *target, const char *val, struct opt_ctx *c);
/* A bool option that takes its row's words (value 0 or 1; -1: fio's word,
 * refused as not implemented) or any boolean spelling; a bare key is true.
 * 0, or -EINVAL / -ENOTSUP with c->why set. */
int opt_word_bool(const char *val, bool *b, struct opt_ctx *c);
int opt_cb_ioengine(void *target, const char *val, struct opt_ctx *c);
int opt_cb_size(void *target, const char *val, struct opt_ctx *c);
int opt_cb_offset(void *target, const char *val, struct opt_ctx *c);
int opt_cb_filesize(void *target, const char *val, struct opt_ctx *c);
int opt_cb_startdelay(void *target, const char *val, struct opt_ctx *c);
int opt_cb_random_distribution(void *target, const char *val, struct opt_ctx *c);
int opt_cb_mem(void *target, const char *val, struct opt_ctx *c);
int opt_cb_percentage_random(void *target, const char *val, struct opt_ctx *c);
int opt_cb_rate(void *target, const char *val, struct opt_ctx *c);
int opt_cb_rate_iops(void *target, const char *val, struct opt_ctx *c);
int opt_cb_rate_min(void *target, const char *val, struct opt_ctx *c);
int opt_cb_rate_iops_min(void *target, const char *val, struct opt_ctx *c);
int opt_cb_unit_base(void *target, const char *val, struct opt_ctx *c);
int opt_cb_steadystate(void *target, const char *val, struct opt_ctx *c);
int opt_cb_ss_dur(void *target, const char *val, struct opt_ctx *c);
int opt_cb_profile_int(void *target, const char *val, struct opt_ctx *c);
int opt_cb_profile_size(void *target, const char *val, struct opt_ctx *c);
int opt_cb_profile_str(void *target, const char *val, struct opt_ctx *c);
int opt_cb_max_latency(void *target, const char *val, struct opt_ctx *c);
int opt_cb_latency_percentile(void *target, const char *val, struct opt_ctx *c);
int opt_cb_thinktime_blocks(void *target, const char *val, struct opt_ctx *c);
int opt_cb_file_service_type(void *target, const char *val, struct opt_ctx *c);
int opt_cb_lockfile(void *target, const char *val, struct opt_ctx *c);
int opt_cb_percentile_list(void *target, const char *val, struct opt_ctx *c);
int opt_cb_unified_rw_reporting(void *target, const char *val, struct opt_ctx *c);
int opt_cb_kb_base(void *target, const char *val, struct opt_ctx *c);
int opt_cb_randseed(void *target, const char *val, struct opt_ctx *c);
int opt_cb_name(void *target, const char *val, struct opt_ctx *c);
int opt_cb_avgtime(void *target, const char *val, struct opt_ctx *c);
int opt_cb_replay_skip(void *target, const char *val, struct opt_ctx *c);
int opt_cb_replay_align(void *target, const char *val, struct opt_ctx *c);
int opt_cb_merge_list(void *target, const char *val, struct opt_ctx *c);
/* options_sync.c */
int opt_cb_sync_file_range(void *target, const char *val, struct opt_ctx *c);
int opt_cb_atomic(void *target, const char *val, struct opt_ctx *c);
int opt_cb_zoneskip(void *target, const char *val, struct opt_ctx *c);
int opt_cb_zone_fraction(void *target, const char *val, struct opt_ctx *c);
/* What a log asks of the job options once all are in (job_spec_finalize):
 * with write_bw_log (write_iops_log) and no bwavgtime (iopsavgtime) of its
 * own, the JSON's bw (iops) samples follow log_avg_msec, as in fio. */
void spec_logs_finalize(struct job_spec *s);

#endif
