/*
 * Basic machine facts the job-file parser and the runner need: online CPUs,
 * physical memory, page size. Read from sysconf(3).
 */
#ifndef IOBENCH_SYS_SYSMEM_H
#define IOBENCH_SYS_SYSMEM_H

#include <stdint.h>

unsigned sys_ncpus(void);
uint64_t sys_mem_bytes(void);
unsigned long sys_pagesize(void);

#endif
