/*
 * The device chain of the system capture (sysinfo.h): from a path down to
 * the disks, as a tree flattened parent-first into si->nodes. A file sits on
 * the filesystem of the mount that covers it (devres_find_mount); the
 * filesystem on its source device, or for btrfs on every member
 * (devres_btrfs_members); a partition on its disk; a loop device on its
 * backing file, which starts the walk again; md and dm devices on their
 * slaves (/sys/block/X/slaves; untested, no md/dm on the test machines).
 * Filesystems and block devices are kept once each in si->fs and
 * si->bdevs; a node that meets one again is marked repeated and not
 * expanded twice. The walk is depth-limited like devres's.
 */
#include "sys/sysinfo/sysinfo.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sys/dev/devres.h"
#include "util/xmalloc.h"

#define CHAIN_MAX_DEPTH 8
#define CHAIN_MAX_NODES 256

struct chain {
	struct sysinfo *si;
	size_t nodes_alloc, fs_alloc, bdevs_alloc;
};

static void expand_file(struct chain *c, int parent, const char *path, int depth);

static int add_node(struct chain *c, enum sysinfo_node_kind kind, int parent, const char *relation)
{
	struct sysinfo *si = c->si;

	if (si->nr_nodes >= CHAIN_MAX_NODES)
		return -1;
	si->nodes = xgrow(si->nodes, &c->nodes_alloc, si->nr_nodes, sizeof(*si->nodes));
	struct sysinfo_node *n = &si->nodes[si->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->parent = parent;
	n->relation = relation;
	return (int)si->nr_nodes++;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* Expand block device `name` (as in /sys/class/block) under node parent. */
static void expand_bdev(struct chain *c, int parent, const char *relation, const char *name, int depth)
{
	struct sysinfo *si = c->si;
	size_t i;
	int node;

	if (depth > CHAIN_MAX_DEPTH)
		return;
	node = add_node(c, SYSINFO_NODE_BDEV, parent, relation);
	if (node < 0)
		return;
	for (i = 0; i < si->nr_bdevs; i++)
		if (!strcmp(si->bdevs[i].name, name))
			break;
	si->nodes[node].index = i;
	if (i < si->nr_bdevs) {
		si->nodes[node].repeated = true;
		return;
	}
	si->bdevs = xgrow(si->bdevs, &c->bdevs_alloc, si->nr_bdevs, sizeof(*si->bdevs));
	sysinfo_bdev_capture(&si->bdevs[si->nr_bdevs++], name);
	/* captures below may move the array: copy what is needed */
	const struct sysinfo_bdev *b = &si->bdevs[i];
	bool partition = b->partition, md = b->md_level != NULL;
	char *backing = b->loop_backing_file ? xstrdup(b->loop_backing_file) : NULL;

	if (partition) {
		char link[PATH_MAX], real[PATH_MAX];
		snprintf(link, sizeof(link), "/sys/class/block/%s", name);
		if (realpath(link, real)) {
			*strrchr(real, '/') = '\0';
			expand_bdev(c, node, "disk", base_name(real), depth + 1);
		}
	}
	if (backing) {
		size_t len = strlen(backing);
		if (len > 10 && !strcmp(backing + len - 10, " (deleted)"))
			backing[len - 10] = '\0';
		expand_file(c, node, backing, depth + 1);
		free(backing);
	}
	char dir[PATH_MAX];
	struct dirent **ents;
	snprintf(dir, sizeof(dir), "/sys/class/block/%s/slaves", name);
	int nents = scandir(dir, &ents, NULL, alphasort);
	for (int k = 0; k < nents; k++) {
		if (ents[k]->d_name[0] != '.')
			expand_bdev(c, node, md ? "member" : "slave", ents[k]->d_name, depth + 1);
		free(ents[k]);
	}
	if (nents >= 0)
		free(ents);
}

/* The sysfs name of block device number dev; -ENOENT if sysfs lacks it. */
static int name_of_dev(dev_t dev, char name[64])
{
	char real[PATH_MAX];
	int ret = devres_sysdir_of_dev(dev, real);

	if (!ret)
		snprintf(name, 64, "%.63s", base_name(real));
	return ret;
}

static char *devno_str(dev_t dev)
{
	return xasprintf("%u:%u", major(dev), minor(dev));
}

/* The filesystem of mount m (kept once per mount point); true if new. */
static bool find_fs(struct chain *c, const struct devres_mount *m, size_t *index)
{
	struct sysinfo *si = c->si;
	size_t i;

	for (i = 0; i < si->nr_fs; i++)
		if (!strcmp(si->fs[i].mountpoint, m->mountpoint))
			break;
	*index = i;
	if (i < si->nr_fs)
		return false;
	si->fs = xgrow(si->fs, &c->fs_alloc, si->nr_fs, sizeof(*si->fs));
	struct sysinfo_fs *fs = &si->fs[si->nr_fs++];
	memset(fs, 0, sizeof(*fs));
	fs->mountpoint = xstrdup(m->mountpoint);
	fs->type = xstrdup(m->fstype);
	fs->source = xstrdup(m->source);
	fs->options = m->options ? xstrdup(m->options) : NULL;
	fs->super_options = m->super_options ? xstrdup(m->super_options) : NULL;
	fs->devno = devno_str(m->dev);
	sysinfo_fs_geometry(fs);
	return true;
}

/* The devices a filesystem sits on, under its node. */
static void expand_fs_devices(struct chain *c, int node, const struct devres_mount *m,
			      dev_t st_dev, int depth)
{
	char name[64], members[64][64];
	struct stat st;
	size_t n;

	if (!name_of_dev(st_dev, name)) {
		expand_bdev(c, node, "source", name, depth + 1);
		return;
	}
	/* anonymous device number (btrfs): the source names a member */
	if (m->source[0] != '/' || stat(m->source, &st) || !S_ISBLK(st.st_mode) ||
	    name_of_dev(st.st_rdev, name))
		return;
	if (!strcmp(m->fstype, "btrfs") && !devres_btrfs_members(name, members, 64, &n)) {
		for (size_t i = 0; i < n; i++)
			expand_bdev(c, node, "member", members[i], depth + 1);
		return;
	}
	expand_bdev(c, node, "source", name, depth + 1);
}

/* Expand an existing, resolved path under node parent (-1: the root). */
static void expand_file(struct chain *c, int parent, const char *path, int depth)
{
	struct devres_mount m;
	struct stat st;
	char real[PATH_MAX], name[64], *line;
	int node, fsnode;
	size_t index;

	if (depth > CHAIN_MAX_DEPTH)
		return;
	node = add_node(c, SYSINFO_NODE_FILE, parent, parent < 0 ? NULL : "backing file");
	if (node < 0)
		return;
	c->si->nodes[node].path = xstrdup(path);
	if (stat(path, &st) || !realpath(path, real))
		return;
	if (S_ISBLK(st.st_mode)) {
		if (!name_of_dev(st.st_rdev, name))
			expand_bdev(c, node, "device", name, depth + 1);
		return;
	}
	if (devres_find_mount(real, &line, &m))
		return;
	bool fresh = find_fs(c, &m, &index);
	fsnode = add_node(c, SYSINFO_NODE_FS, node, "on");
	if (fsnode >= 0) {
		c->si->nodes[fsnode].index = index;
		c->si->nodes[fsnode].repeated = !fresh;
		if (fresh)
			expand_fs_devices(c, fsnode, &m, st.st_dev, depth + 1);
	}
	free(line);
}

int sysinfo_chain_capture(struct sysinfo *si, const char *path)
{
	struct chain c = { .si = si };
	char buf[PATH_MAX], real[PATH_MAX];
	struct stat anc;
	int ret = devres_existing_ancestor(path, buf, sizeof(buf), &anc);

	if (ret)
		return ret;
	if (!realpath(buf, real))
		return -errno;
	expand_file(&c, -1, real, 0);
	return 0;
}
