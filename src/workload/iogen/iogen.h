/*
 * What the next I/O is and when (workload/iogen/): offsets, sizes and
 * directions from the generators (or the replay), zonemode, thinktime,
 * rate_process=poisson, rate_min, flow=.
 */
#ifndef IOBENCH_WORKLOAD_IOGEN_IOGEN_H
#define IOBENCH_WORKLOAD_IOGEN_IOGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/job/job.h"

/* iogen.c: what the next I/O is; returns 1 when there is one, 0 when done. */
int job_gens_init(struct job *j);
int job_next_io(struct job *j, struct io_unit *u);
/* The file the next I/O would go to, its turn taken (fsync=N's sync takes
 * one, as fio's): 1 and *f, 0 when none has I/O left, or -errno. */
int job_next_sync_file(struct job *j, struct job_file **f);
void job_gens_new_pass(struct job *j);
/* Free the generators job_gens_init made (j->gens NULL after). */
void job_gens_free(struct job *j);

/* zones.c: zonemode's checks once the files are planned (zbd refused
 * where the files are not zoned devices); 0 or -1. */
int job_zones_check(struct job *j);

/* pacing.c: thinktime=: after each issued I/O, stall when thinktime_blocks
 * I/Os (or thinktime_iotime of I/O) went by since the last stall: drain the
 * queue, spin thinktime_spin, sleep the rest. 0, or -errno of a failed
 * drain; a stop ends the sleep (the caller's limits see it). */
int job_think(struct job *j);
/* rate_process=poisson: when (after rate_start_ns) this I/O of len bytes
 * in direction d is due; exponential gaps whose mean is the rate's. */
uint64_t job_rate_poisson_due(struct job *j, enum ddir d, uint64_t len);
/* rate_min=, rate_iops_min=: start measuring at now (the measured start);
 * the first window opens after fio's 2 s settling time. */
void job_rate_min_arm(struct job *j, uint64_t now);
/* Check a finished window (call when now >= ratemin_next_ns): -EIO, the
 * job's error and message, when a direction fell below its minimum. */
int job_rate_min_check(struct job *j, uint64_t now);
/* flow=: one group per flow_id of the jobs with a weight (NULL when no
 * job has one), free with job_flows_free(). A job's weight counts from the
 * start of its batch (run.c joins them all) until its thread ends.
 * job_flow_admit() holds the job (sleeping flow_sleep, or yielding) while
 * its share of the group's I/Os is above its share of the weights; false
 * when the run stops or the runtime ends first. */
struct job_flow *job_flows_make(struct job *jobs, size_t nr);
void job_flows_free(struct job_flow *flows);
void job_flow_join(struct job *j);
void job_flow_leave(struct job *j);
bool job_flow_admit(struct job *j);
/* flow=: wait until every job of the group in the batch is ready to start
 * its clock, and return the moment they start (now without flow=). */
uint64_t job_flow_gate(struct job *j, uint64_t now);

#endif
