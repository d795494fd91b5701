/*
 * Parse callbacks of the options that place and identify a job's thread:
 * uid, gid (fio's: switch to them before any I/O), numa_cpu_nodes and
 * numa_mem_policy (node lists as fio's libnuma takes them). The cgroup
 * options are plain rows of the table. Only the option table includes this.
 */
#ifndef IOBENCH_SPEC_OPTIONS_SYS_INT_H
#define IOBENCH_SPEC_OPTIONS_SYS_INT_H

#include "spec/options.h"

int opt_cb_uid(void *target, const char *val, struct opt_ctx *c);
int opt_cb_gid(void *target, const char *val, struct opt_ctx *c);
int opt_cb_numa_cpu_nodes(void *target, const char *val, struct opt_ctx *c);
int opt_cb_numa_mem_policy(void *target, const char *val, struct opt_ctx *c);

#endif
