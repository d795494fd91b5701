/*
 * Steady-state detection of a stonewall batch (steadystate.c): begin before
 * its threads start, tick from the main thread's wait loop, end after they
 * have all finished (the verdicts go into each job's results as res.ss).
 */
#ifndef IOBENCH_WORKLOAD_STEADYSTATE_INT_H
#define IOBENCH_WORKLOAD_STEADYSTATE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/job/job.h"

void ss_batch_begin(struct job *jobs, size_t from, size_t to);
/* Sample what is due at now (CLOCK_MONOTONIC ns); true when some job was
 * just found steady and told to stop (the caller wakes the sleepers). */
bool ss_tick(struct job *jobs, size_t from, size_t to, uint64_t now);
void ss_batch_end(struct job *jobs, size_t from, size_t to);

#endif
