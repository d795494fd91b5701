/*
 * `iobench-mpi bonnie`: bonnie++'s file tests (-n) on every rank at once,
 * through iobench's own bonnie command with the bonnie hooks of
 * dist/dist.h: each rank works in its own directory under -d
 * (iobench-mpi.rank<R>), every phase starts after a barrier of all ranks
 * (which also agrees on failure), and after each test every rank's figures
 * go to rank 0, whose result then has one "copy" per rank (the JSON's
 * per-copy figures are the ranks') and the aggregate as bonnie's -c adds
 * copies up: the work summed, the time of the longest rank, the rate the
 * sum of the ranks' rates, the latency histograms merged. Rank 0 alone
 * prints the report and stores the run.
 */
#ifndef IOBENCH_DIST_DIST_BONNIE_H
#define IOBENCH_DIST_DIST_BONNIE_H

#include "dist/dist.h"
#include "dist/dist_comm.h"

struct dist_bonnie;

struct dist_bonnie *dist_bonnie_new(struct dist_comm *c);
/* The hooks of b for the bonnie command (h->arg is b). */
void dist_bonnie_hooks(struct dist_bonnie *b, struct dist_hooks *h);
/* After the command: the rank's directory removed. Returns status, or 1
 * when a rank failed. */
int dist_bonnie_finish(struct dist_bonnie *b, int status);
void dist_bonnie_free(struct dist_bonnie *b);

#endif
