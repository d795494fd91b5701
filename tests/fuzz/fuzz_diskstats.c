/*
 * Fuzz target: the /proc/diskstats parser (sys/diskstats.h). diskstats_read
 * takes a path, so the input is written to a memfd created once and read
 * back through /proc/self/fd/N. Every pair of consecutive entries also goes
 * through diskstat_delta, whose in_flight must be the later sample's.
 */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sys/diskstats.h"

/* The memfd's path, set once by LLVMFuzzerInitialize. */
static char path[64];
static int memfd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_silence();
	memfd = memfd_create("diskstats", MFD_CLOEXEC);
	if (memfd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (ftruncate(memfd, 0) || (size && pwrite(memfd, data, size, 0) != (ssize_t)size))
		abort();
	struct diskstat *all = NULL;
	size_t n = 0;
	int ret = diskstats_read(path, &all, &n);
	if (ret)
		return 0;
	for (size_t i = 0; i + 1 < n; i++) {
		struct diskstat d;
		diskstat_delta(&all[i], &all[i + 1], &d);
		if (d.in_flight != all[i + 1].in_flight)
			abort();
	}
	free(all);
	return 0;
}
