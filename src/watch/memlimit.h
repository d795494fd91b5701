/*
 * --memory-limit for the commands that run a workload (run, quick, bonnie):
 * before the workload, make its memory cgroup (sys/memcg.h), move the
 * process in and drop the page cache of the files and devices it names, so
 * that pages cached before the run (and charged elsewhere) cannot serve its
 * reads; after it, put what the limit did into the run's environment for
 * the reports and the reclaim warning, move out and remove the cgroup.
 */
#ifndef IOBENCH_WATCH_MEMLIMIT_H
#define IOBENCH_WATCH_MEMLIMIT_H

#include <stddef.h>
#include <stdint.h>

#include "sys/memcg.h"
#include "results/runenv.h"

struct memlimit {
	struct memcg cg;
	bool on;
};

/* limit 0: nothing (0). Else make the cgroup and enter it, before threads
 * start and before privileges are dropped, and drop the page cache of
 * paths[0..n) (those that exist). 0, or -1 after printing why; nothing is
 * left behind on failure. */
int memlimit_begin(struct memlimit *ml, uint64_t limit, const char *const *paths, size_t n);
/* Record the counters in env (when env is not NULL), leave and remove the
 * cgroup. Safe on a memlimit that never began; a second call does nothing. */
void memlimit_end(struct memlimit *ml, struct run_env *env);

#endif
