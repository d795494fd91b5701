/*
 * The headline figures of one repetition into a rep_table
 * (repeat_table.h): for run and quick, per job entry and direction that
 * did I/O or that its rw= names, bw (KiB/s, io_bytes over the direction's
 * runtime, as fio's "bw"), iops and the completion latency's p50 and p99
 * (ns, from its histogram); for bonnie, every phase that ran: its
 * aggregate rate (K/sec, /sec or files/s, bonnie++'s units).
 */
#ifndef IOBENCH_REPORT_REPEAT_FIGS_H
#define IOBENCH_REPORT_REPEAT_FIGS_H

#include <stddef.h>

#include "report/repeat_table.h"
#include "bonnie/bonnie.h"
#include "results/results.h"

void rep_figs_add_run(struct rep_table *t, size_t rep, const struct run_result *r);
/* The same figures of r's jobs into the row being added (between
 * rep_table_begin_row and rep_table_end_row), each job named
 * "PREFIX:job" when prefix is not NULL (quick's devices). */
void rep_figs_add_jobs(struct rep_table *t, const char *prefix, const struct run_result *r);
void rep_figs_add_bonnie(struct rep_table *t, size_t rep, const struct bonnie_result *r);

#endif
