/*
 * XFS geometry for the system capture (sysinfo.h) through the
 * XFS_IOC_FSGEOMETRY ioctl (xfslibs-dev's <xfs/xfs.h>), falling back to the
 * v4 layout for kernels older than 5.1. It works for any user on any file of
 * the filesystem, so xfs_info is never needed; the numbers are in the units
 * xfs_info prints (sunit, swidth and the log's sunit in filesystem blocks).
 */
#include "sys/sysinfo/sysinfo.h"

#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xfs/xfs.h>

#include "util/array.h"
#include "util/xmalloc.h"

static char *feature_list(uint32_t flags)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ XFS_FSOP_GEOM_FLAGS_V5SB, "crc" },
		{ XFS_FSOP_GEOM_FLAGS_FINOBT, "finobt" },
		{ XFS_FSOP_GEOM_FLAGS_SPINODES, "sparse" },
		{ XFS_FSOP_GEOM_FLAGS_RMAPBT, "rmapbt" },
		{ XFS_FSOP_GEOM_FLAGS_REFLINK, "reflink" },
		{ XFS_FSOP_GEOM_FLAGS_BIGTIME, "bigtime" },
		{ XFS_FSOP_GEOM_FLAGS_INOBTCNT, "inobtcount" },
		{ XFS_FSOP_GEOM_FLAGS_NREXT64, "nrext64" },
		{ XFS_FSOP_GEOM_FLAGS_FTYPE, "ftype" },
		{ XFS_FSOP_GEOM_FLAGS_ATTR2, "attr2" },
		{ XFS_FSOP_GEOM_FLAGS_PROJID32, "projid32bit" },
		{ XFS_FSOP_GEOM_FLAGS_LAZYSB, "lazy-count" },
		{ XFS_FSOP_GEOM_FLAGS_DIRV2CI, "ascii-ci" },
	};
	char buf[256] = "";
	size_t len = 0;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & names[i].bit)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? " " : "", names[i].name);
	return xstrdup(buf);
}

void sysinfo_xfs_capture(struct sysinfo_fs *fs)
{
	struct xfs_fsop_geom g;
	int fd = open(fs->mountpoint, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	memset(&g, 0, sizeof(g));
	int ret = ioctl(fd, XFS_IOC_FSGEOMETRY, &g);
	if (ret)
		ret = ioctl(fd, XFS_IOC_FSGEOMETRY_V4, &g); /* the v5 fields stay 0 */
	close(fd);
	if (ret || !g.blocksize)
		return;

	struct sysinfo_xfs *x = xcalloc(1, sizeof(*x));
	x->blocksize = g.blocksize;
	x->sectsize = g.sectsize;
	x->agcount = g.agcount;
	x->agblocks = g.agblocks;
	x->datablocks = (int64_t)g.datablocks;
	x->imaxpct = g.imaxpct;
	x->inodesize = g.inodesize;
	x->sunit = g.sunit;
	x->swidth = g.swidth;
	x->dirblocksize = g.dirblocksize;
	x->naming_version = (g.flags & XFS_FSOP_GEOM_FLAGS_DIRV2) ? 2 : 1;
	x->log_internal = g.logstart != 0;
	x->logblocks = g.logblocks;
	x->log_version = (g.flags & XFS_FSOP_GEOM_FLAGS_LOGV2) ? 2 : 1;
	x->logsectsize = g.logsectsize ? g.logsectsize : 512;
	x->logsunit = g.logsunit / g.blocksize;
	x->rtblocks = (int64_t)g.rtblocks;
	x->rtextents = (int64_t)g.rtextents;
	x->rtextsize = (int64_t)g.rtextsize * g.blocksize;
	x->features = feature_list(g.flags);
	fs->xfs = x;
}
