/*
 * NUMA nodes through libnuma: node lists as fio and numactl write them
 * ("0", "0-1", "0,2-3", "all"), the check that every node of a list exists
 * on this machine, and the calling thread's CPU binding and memory policy
 * (fio's numa_cpu_nodes and numa_mem_policy), plus the policy of a mapping
 * that was allocated before the thread set its own.
 */
#ifndef IOBENCH_SYS_NUMANODE_H
#define IOBENCH_SYS_NUMANODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NODESET_MAX 1024 /* nodes a list may name (libnuma's default nodemask) */

struct nodeset {
	uint64_t bits[NODESET_MAX / 64];
};

/* Parse a node list; 0, or -EINVAL with why saying what is wrong. "all"
 * is every node of this machine, so it is resolved here. Syntax only
 * otherwise: nodeset_check() says whether the nodes exist. */
int nodeset_parse(const char *list, struct nodeset *out, char *why, size_t whylen);
bool nodeset_has(const struct nodeset *s, unsigned node);
unsigned nodeset_count(const struct nodeset *s);
/* The nodes this machine has, "0" or "0-1,3" into buf. */
void nodeset_machine(char *buf, size_t len);
/* 0 if NUMA is usable and every node of s exists (and has CPUs when
 * need_cpus, memory when need_mem); else -ENODEV / -ENOTSUP with why
 * naming the node and the nodes there are. */
int nodeset_check(const struct nodeset *s, bool need_cpus, bool need_mem, char *why, size_t whylen);

/* What the calling thread's memory policy becomes: as numa_mem_policy. */
enum nodeset_mpol { NODESET_MPOL_DEFAULT, NODESET_MPOL_PREFER, NODESET_MPOL_BIND,
		    NODESET_MPOL_INTERLEAVE, NODESET_MPOL_LOCAL };

/* Run the calling thread on the CPUs of the nodes of s; 0 or -errno. */
int nodeset_run_on(const struct nodeset *s);
/* Set the calling thread's memory policy; 0 or -errno. */
int nodeset_mem_policy(enum nodeset_mpol mode, const struct nodeset *s);
/* Give the mapping [addr, addr+len) (page aligned) the same policy and
 * move its pages there (MPOL_MF_MOVE); 0 or -errno. */
int nodeset_mbind(void *addr, size_t len, enum nodeset_mpol mode, const struct nodeset *s);

#endif
