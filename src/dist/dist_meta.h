/*
 * `iobench-mpi meta`: mdtest's metadata phases (meta/meta.h) on every
 * rank at once, with mdtest's options (-d -n -I -z -b -u -L -F -D -C -T -E
 * -r -w -e -y -i) and figures: the hook between phases is dist_sync (a
 * barrier that also agrees on failure), every rank's per-phase result goes
 * to rank 0 after each iteration, and rank 0 prints mdtest's SUMMARY table
 * (or the JSON) with the aggregate rate = all items / the slowest rank's
 * phase time.
 */
#ifndef IOBENCH_DIST_DIST_META_H
#define IOBENCH_DIST_DIST_META_H

#include "dist/dist_comm.h"

/* argv[0] is "meta". Returns the exit status (the same on every rank). */
int dist_meta_main(struct dist_comm *c, int argc, char **argv);

#endif
