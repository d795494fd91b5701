/*
 * What the system says about a block device, for the device guard
 * (devguard_int.h): its device number in sysfs, its relatives (its
 * partitions, or the whole disk of a partition), where it is mounted (the
 * mount table, by device number or by source for btrfs's anonymous
 * numbers), whether it is swap, and what holds it (device-mapper, md),
 * followed up the chain of holders to where the stack is used.
 */
#include "sys/dev/devguard_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/dev/devres.h"

/* The device number in a sysfs "dev" file ("MAJ:MIN"). */
int dg_sysfs_dev(const char *dir, dev_t *dev)
{
	char file[PATH_MAX], line[32];
	unsigned maj, min;

	if (snprintf(file, sizeof(file), "%s/dev", dir) >= (int)sizeof(file) ||
	    devres_read_line(file, line, sizeof(line)) || sscanf(line, "%u:%u", &maj, &min) != 2)
		return -ENOENT;
	*dev = makedev(maj, min);
	return 0;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static void member_add(struct member *m, size_t *n, dev_t dev, const char *name, const char *role)
{
	if (*n == MAX_MEMBERS)
		return;
	size_t len = strnlen(name, sizeof(m[*n].name) - 1);

	m[*n].dev = dev;
	memcpy(m[*n].name, name, len);
	m[*n].name[len] = '\0';
	m[*n].role = role;
	(*n)++;
}

static bool is_partition_dir(const char *dir)
{
	char file[PATH_MAX];

	return snprintf(file, sizeof(file), "%s/partition", dir) < (int)sizeof(file) &&
	       access(file, F_OK) == 0;
}

/* The device (sysfs directory sysdir) first, then its partitions, or the
 * disk it is a partition of. */
int dg_collect_members(const char *sysdir, dev_t dev, struct member *m, size_t *n)
{
	*n = 0;
	member_add(m, n, dev, base_name(sysdir), "");
	if (is_partition_dir(sysdir)) {
		char disk[PATH_MAX];
		dev_t ddev;
		snprintf(disk, sizeof(disk), "%s", sysdir);
		*strrchr(disk, '/') = '\0';
		if (!dg_sysfs_dev(disk, &ddev))
			member_add(m, n, ddev, base_name(disk), "whole disk ");
		return 0;
	}
	DIR *d = opendir(sysdir);
	if (!d)
		return -errno;
	struct dirent *e;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		dev_t pdev;
		if (e->d_name[0] == '.' ||
		    snprintf(sub, sizeof(sub), "%s/%s", sysdir, e->d_name) >= (int)sizeof(sub))
			continue;
		if (is_partition_dir(sub) && !dg_sysfs_dev(sub, &pdev))
			member_add(m, n, pdev, e->d_name, "partition ");
	}
	closedir(d);
	return 0;
}

/* Block device number behind a mount source or swap path, or 0. */
dev_t dg_bdev_of_path(const char *p)
{
	struct stat st;

	if (strncmp(p, "/dev/", 5) || stat(p, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

/* Where dev is mounted (the first mount of it): 1 found, 0 not, -errno.
 * Matched by the mount's device number, or by its source device for
 * filesystems with anonymous device numbers (btrfs). */
int dg_mount_of(dev_t dev, char *mnt, size_t len)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!fp)
		return -errno;
	while (!found && getline(&line, &cap, fp) > 0) {
		struct devres_mount m;
		if (devres_parse_mountinfo(line, &m))
			continue;
		if (m.dev == dev || (major(m.dev) == 0 && dg_bdev_of_path(m.source) == dev)) {
			snprintf(mnt, len, "%s", m.mountpoint);
			found = 1;
		}
	}
	free(line);
	fclose(fp);
	return found;
}

/* Is dev an active swap area? 1, 0 or -errno. */
int dg_swap_of(dev_t dev)
{
	FILE *fp = fopen("/proc/swaps", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!fp)
		return errno == ENOENT ? 0 : -errno; /* no swap support at all */
	while (!found && getline(&line, &cap, fp) > 0) {
		char *sp = strpbrk(line, " \t");
		if (line[0] != '/' || !sp)
			continue; /* the header */
		*sp = '\0';
		devres_unescape(line);
		found = dg_bdev_of_path(line) == dev;
	}
	free(line);
	fclose(fp);
	return found;
}

/* " (vg-data)" for a device-mapper device, "" otherwise. */
void dg_dm_name(const char *name, char *out, size_t len)
{
	char file[PATH_MAX], dm[128];

	out[0] = '\0';
	snprintf(file, sizeof(file), "/sys/class/block/%s/dm/name", name);
	if (!devres_read_line(file, dm, sizeof(dm)) && dm[0])
		snprintf(out, len, " (%s)", dm);
}

/* Append how device `name` (number dev) is used, as ", which is mounted at
 * X", ", which is used as swap" or ", which is held by Y...", to f. */
void dg_describe_holder_use(struct findings *f, const char *name, dev_t dev, int depth)
{
	char mnt[PATH_MAX], dir[PATH_MAX];

	if (dg_mount_of(dev, mnt, sizeof(mnt)) == 1)
		dg_cont(f, ", which is mounted at %s", mnt);
	else if (dg_swap_of(dev) == 1)
		dg_cont(f, ", which is used as swap");
	if (depth >= MAX_HOLDER_DEPTH)
		return;
	snprintf(dir, sizeof(dir), "/sys/class/block/%s/holders", name);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char sub[PATH_MAX], nice[140];
		dev_t hdev;
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "/sys/class/block/%s", e->d_name);
		dg_dm_name(e->d_name, nice, sizeof(nice));
		dg_cont(f, ", which is held by %s%s", e->d_name, nice);
		if (!dg_sysfs_dev(sub, &hdev))
			dg_describe_holder_use(f, e->d_name, hdev, depth + 1);
		break; /* one chain is enough to explain */
	}
	closedir(d);
}
