/*
 * The system capture's entry points (sysinfo.h): host facts plus the device
 * chain under a path, and the release of it all.
 */
#include "sys/sysinfo/sysinfo.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

int sysinfo_capture(struct sysinfo *si, const char *path)
{
	memset(si, 0, sizeof(*si));
	si->version = SYSINFO_VERSION;
	si->path = xstrdup(path);
	sysinfo_host_capture(&si->host);
	return sysinfo_chain_capture(si, path);
}

void sysinfo_release(struct sysinfo *si)
{
	sysinfo_host_release(&si->host);
	for (size_t i = 0; i < si->nr_nodes; i++)
		free(si->nodes[i].path);
	for (size_t i = 0; i < si->nr_fs; i++)
		sysinfo_fs_release(&si->fs[i]);
	for (size_t i = 0; i < si->nr_bdevs; i++)
		sysinfo_bdev_release(&si->bdevs[i]);
	free(si->nodes);
	free(si->fs);
	free(si->bdevs);
	free(si->path);
	memset(si, 0, sizeof(*si));
}
