/*
 * What memcg.c and memcg_keeper.c share and nothing else uses: small file
 * reads and writes, the keeper's start, the removal of a cgroup and the
 * sweep of cgroups left by dead runs.
 */
#ifndef IOBENCH_SYS_MEMCG_INT_H
#define IOBENCH_SYS_MEMCG_INT_H

#include <stddef.h>

#include "sys/memcg.h"

/* The whole of a small file into buf (NUL-terminated): 0 or -errno. */
int memcg_read_text(const char *path, char *buf, size_t len);
/* text into an existing (cgroup) file in one write: 0 or -errno. */
int memcg_write_text(const char *path, const char *text);
/* Fork the keeper (m->keeper, m->sock): 0 or -errno. */
int memcg_keeper_start(struct memcg *m);
/* Tell the keeper that memory was enabled in home's subtree_control. */
void memcg_keeper_note_subtree(struct memcg *m);
/* Remove every iobench.PID child of home whose process is gone. */
void memcg_sweep_stale(const char *home, unsigned version);

#endif
