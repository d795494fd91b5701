/*
 * cachestat(2) for cachestat.h. glibc 2.36 has no wrapper and Debian 12's
 * kernel headers no struct, so both are spelled out here (the syscall
 * number is the same on every architecture).
 */
#include "sys/cachestat.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif

struct cachestat_range {
	uint64_t off, len; /* len 0: to the end of the file */
};

struct cachestat_out {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

int cachestat_unwritten(const char *path, uint64_t *bytes)
{
	*bytes = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	struct cachestat_range r = { 0, 0 };
	struct cachestat_out cs;
	long rc = syscall(__NR_cachestat, fd, &r, &cs, 0);
	int err = rc < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	*bytes = (cs.nr_dirty + cs.nr_writeback) * (uint64_t)sysconf(_SC_PAGESIZE);
	return 0;
}
