/*
 * Filesystem geometry for the system capture (sysinfo.h): pick the reader
 * for the mount's type (XFS, ext2/3/4, btrfs) and free what they filled in.
 * The readers use ioctls on the mount point or libext2fs on the source
 * device, read-only; a filesystem they do not know keeps no geometry.
 */
#include "sys/sysinfo/sysinfo.h"

#include <stdlib.h>
#include <string.h>

void sysinfo_fs_geometry(struct sysinfo_fs *fs)
{
	if (!fs->type)
		return;
	if (!strcmp(fs->type, "xfs"))
		sysinfo_xfs_capture(fs);
	else if (!strcmp(fs->type, "ext2") || !strcmp(fs->type, "ext3") || !strcmp(fs->type, "ext4"))
		sysinfo_ext_capture(fs);
	else if (!strcmp(fs->type, "btrfs"))
		sysinfo_btrfs_capture(fs);
}

static void release_ext(struct sysinfo_ext *e)
{
	free(e->uuid);
	free(e->label);
	free(e->features);
	free(e->state);
	free(e->journal_device);
	free(e->journal_features);
	free(e);
}

static void release_btrfs(struct sysinfo_btrfs *b)
{
	for (size_t i = 0; i < b->nr_devs; i++)
		free(b->devs[i].path);
	for (size_t i = 0; i < b->nr_spaces; i++) {
		free(b->spaces[i].type);
		free(b->spaces[i].profile);
	}
	free(b->devs);
	free(b->spaces);
	free(b->uuid);
	free(b->label);
	free(b);
}

void sysinfo_fs_release(struct sysinfo_fs *fs)
{
	free(fs->mountpoint);
	free(fs->type);
	free(fs->source);
	free(fs->options);
	free(fs->super_options);
	free(fs->devno);
	free(fs->geometry_error);
	if (fs->xfs) {
		free(fs->xfs->features);
		free(fs->xfs);
	}
	if (fs->ext)
		release_ext(fs->ext);
	if (fs->btrfs)
		release_btrfs(fs->btrfs);
	memset(fs, 0, sizeof(*fs));
}
