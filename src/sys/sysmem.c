/*
 * sysconf-based machine facts for sysmem.h.
 */
#include "sys/sysmem.h"

#include <unistd.h>

unsigned sys_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

uint64_t sys_mem_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psz = sysconf(_SC_PAGESIZE);
	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}

unsigned long sys_pagesize(void)
{
	long psz = sysconf(_SC_PAGESIZE);
	return psz > 0 ? (unsigned long)psz : 4096;
}
