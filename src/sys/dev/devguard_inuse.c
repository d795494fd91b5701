/*
 * The device guard's in-use scan (devguard_int.h): a device and its
 * members are looked up in the mount table and /proc/swaps, their holders
 * listed, and the storage they share through loop devices followed (loops
 * stacked on the device, what backs a loop device, other loop devices over
 * the same file, filesystems mounted from files), each related device
 * examined the same way with the chain that led to it as the subject; a
 * device nothing explains is probed with an exclusive open.
 */
#include "sys/dev/devguard_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/dev/devres.h"

/* What the in-use check works from: the findings, the system's bound loop
 * devices (read once; fs_dev[i] is the block device holding loops[i]'s
 * backing file, 0 if none is known), the filesystems mounted straight from
 * a file (erofs can be, since Linux 6.12), and the devices examined so far
 * (two loop devices over one file lead to each other). */
struct filemount {
	dev_t dev;        /* the file's device and inode */
	uint64_t ino;
	dev_t fs_dev;     /* the block device holding the file, 0 if none is known */
	char *file, *mnt; /* the mount's source and mount point */
};

struct scan {
	struct findings *f;
	const struct devres_loop *loops;
	const dev_t *fs_dev;
	size_t nloops;
	const struct filemount *fmounts; /* filesystems mounted from a file */
	size_t nfmounts;
	dev_t seen[MAX_SEEN];
	size_t nseen;
	char err[128]; /* what could not be read, when a check fails */
};

/* A check failed: say which file could not be read; returns rc. */
static int cannot_read(struct scan *s, const char *file, int rc)
{
	snprintf(s->err, sizeof(s->err), "cannot read %s: %s", file, strerror(-rc));
	return rc;
}

static bool seen(const struct scan *s, dev_t dev)
{
	for (size_t i = 0; i < s->nseen; i++)
		if (s->seen[i] == dev)
			return true;
	return false;
}

static void mark_seen(struct scan *s, dev_t dev)
{
	if (!seen(s, dev) && s->nseen < MAX_SEEN)
		s->seen[s->nseen++] = dev;
}

static const struct devres_loop *loop_by_dev(const struct scan *s, dev_t dev)
{
	for (size_t i = 0; i < s->nloops; i++)
		if (s->loops[i].dev == dev)
			return &s->loops[i];
	return NULL;
}

/* The block device holding the filesystem with file (inode ino of device
 * dev): dev itself, or, for an anonymous number (btrfs gives each subvolume
 * its own), the source of the mount covering the file's path once that
 * path is checked to still name the inode; 0 when none is known (tmpfs,
 * overlay, a deleted or moved file on btrfs). */
static dev_t fs_block_device(const char *file, dev_t dev, uint64_t ino)
{
	char real[PATH_MAX], *line;
	struct devres_mount m;
	struct stat st;
	dev_t found;

	if (major(dev))
		return dev;
	if (stat(file, &st) || st.st_dev != dev || (uint64_t)st.st_ino != ino ||
	    !realpath(file, real) || devres_find_mount(real, &line, &m))
		return 0;
	found = dg_bdev_of_path(m.source);
	free(line);
	return found;
}

static void file_mounts_free(struct filemount *fm, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(fm[i].file);
		free(fm[i].mnt);
	}
	free(fm);
}

/* The filesystems mounted from a regular file (an anonymous device number
 * and a source that is a path to one): 0, or -errno when the mount table
 * cannot be read. */
static int file_mounts(struct filemount **out, size_t *n)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	struct filemount *fm = NULL;
	char *line = NULL;
	size_t cap = 0, cnt = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!fp)
		return -errno;
	while (!rc && getline(&line, &cap, fp) > 0) {
		struct devres_mount m;
		struct stat st;
		if (devres_parse_mountinfo(line, &m) || major(m.dev) || m.source[0] != '/' ||
		    stat(m.source, &st) || !S_ISREG(st.st_mode))
			continue;
		struct filemount *grown = realloc(fm, (cnt + 1) * sizeof(*fm));
		if (!grown) {
			rc = -ENOMEM;
			break;
		}
		fm = grown;
		fm[cnt] = (struct filemount){ .dev = st.st_dev, .ino = st.st_ino,
					      .file = strdup(m.source), .mnt = strdup(m.mountpoint) };
		if (!fm[cnt].file || !fm[cnt].mnt)
			rc = -ENOMEM;
		cnt++;
	}
	free(line);
	fclose(fp);
	for (size_t i = 0; !rc && i < cnt; i++)
		fm[i].fs_dev = fs_block_device(fm[i].file, fm[i].dev, fm[i].ino);
	if (rc) {
		file_mounts_free(fm, cnt);
		return rc;
	}
	*out = fm;
	*n = cnt;
	return 0;
}

/* Is inode ino of device dev an active swap file? 1, 0 or -errno. */
static int swapfile_of(dev_t dev, uint64_t ino)
{
	FILE *fp = fopen("/proc/swaps", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!fp)
		return errno == ENOENT ? 0 : -errno;
	while (!found && getline(&line, &cap, fp) > 0) {
		char *sp = strpbrk(line, " \t");
		struct stat st;
		if (line[0] != '/' || !sp)
			continue;
		*sp = '\0';
		devres_unescape(line);
		found = !stat(line, &st) && S_ISREG(st.st_mode) && st.st_dev == dev &&
			(uint64_t)st.st_ino == ino;
	}
	free(line);
	fclose(fp);
	return found;
}

/* How a member is named in a finding: "/dev/loop3", "partition
 * /dev/loop3p1"; within a related device's description (rel), "REL, which"
 * or "REL, whose partition /dev/loop6p1". */
static void subject_of(char *out, size_t len, const char *rel, const struct member *m)
{
	if (!rel)
		snprintf(out, len, "%s/dev/%s", m->role, m->name);
	else if (!m->role[0])
		snprintf(out, len, "%s, which", rel);
	else
		snprintf(out, len, "%s, whose %s/dev/%s", rel, m->role, m->name);
}

/* Holders of one member: "partition /dev/loop3p1 is held by md0, which is
 * mounted at /x". */
static void check_holders(struct findings *f, const char *subj, const struct member *m, bool related)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "/sys/class/block/%s/holders", m->name);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char sub[PATH_MAX], nice[140];
		dev_t hdev;
		if (e->d_name[0] == '.')
			continue;
		dg_dm_name(e->d_name, nice, sizeof(nice));
		dg_add(f, "%s is held by %s%s", subj, e->d_name, nice);
		dg_used(f, related, USE_HELD);
		snprintf(sub, sizeof(sub), "/sys/class/block/%s", e->d_name);
		if (!dg_sysfs_dev(sub, &hdev))
			dg_describe_holder_use(f, e->d_name, hdev, 1);
	}
	closedir(d);
}

static int examine_dev(struct scan *s, dev_t dev, const char *rel, int depth);

/* Loop devices stacked on member m: one backed by a file on m's filesystem
 * keeps that filesystem in use for as long as it exists; one backed by m
 * itself (a view of its bytes) counts when it is in use. A filesystem
 * mounted from a file on m's filesystem is a use too. */
static int check_stacked_loops(struct scan *s, const char *subj, const struct member *m,
			       bool related, int depth)
{
	char rel[RELLEN];
	int rc = 0;

	for (size_t i = 0; !rc && i < s->nloops; i++) {
		const struct devres_loop *l = &s->loops[i];
		if (l->back_rdev && l->back_rdev == m->dev) {
			if (seen(s, l->dev))
				continue;
			dg_say(rel, sizeof(rel), "%s is the backing device of /dev/%s", subj, l->name);
			rc = examine_dev(s, l->dev, rel, depth + 1);
		} else if (!l->back_rdev && s->fs_dev[i] == m->dev) {
			unsigned before = s->f->in_use;
			dg_say(rel, sizeof(rel), "%s holds the filesystem of %s%s, the backing file of /dev/%s",
				 subj, l->file, l->deleted ? " (deleted)" : "", l->name);
			if (!seen(s, l->dev))
				rc = examine_dev(s, l->dev, rel, depth + 1);
			if (s->f->in_use == before) {
				dg_add(s->f, "%s", rel);
				dg_used(s->f, related, USE_LOOPS);
			}
		}
	}
	for (size_t i = 0; !rc && i < s->nfmounts; i++) {
		if (s->fmounts[i].fs_dev != m->dev)
			continue;
		dg_add(s->f, "%s holds the filesystem of %s, which is mounted at %s", subj,
		    s->fmounts[i].file, s->fmounts[i].mnt);
		dg_used(s->f, related, USE_FILEMOUNTS);
	}
	return rc;
}

/* Member l is a loop device: what backs it. A block device: l is in use
 * when that device is. A file: when it is an active swap file or mounted
 * itself (a file-backed mount), or another loop device over the same inode
 * (at any offset) is in use. */
static int check_loop_backing(struct scan *s, const char *subj, const struct devres_loop *l,
			      bool related, int depth)
{
	char rel[RELLEN];
	int rc;

	if (l->back_rdev) {
		if (seen(s, l->back_rdev))
			return 0;
		dg_say(rel, sizeof(rel), "%s is backed by %s", subj, l->file);
		return examine_dev(s, l->back_rdev, rel, depth + 1);
	}
	rc = swapfile_of(l->back_dev, l->back_ino);
	if (rc < 0)
		return cannot_read(s, "/proc/swaps", rc);
	if (rc) {
		dg_add(s->f, "%s is backed by %s, which is used as swap", subj, l->file);
		dg_used(s->f, related, USE_SWAPFILE);
	}
	rc = 0;
	for (size_t i = 0; i < s->nfmounts; i++) {
		if (s->fmounts[i].dev != l->back_dev || s->fmounts[i].ino != l->back_ino)
			continue;
		dg_add(s->f, "%s is backed by %s, which is mounted at %s", subj, s->fmounts[i].file,
		    s->fmounts[i].mnt);
		dg_used(s->f, related, USE_FILEMOUNT);
	}
	/* every loop device over the inode is a sibling of l: mark them all
	 * first, so each is named as l's sibling, not as a sibling's */
	bool *todo = calloc(s->nloops ? s->nloops : 1, sizeof(*todo));
	if (!todo)
		return -ENOMEM;
	for (size_t i = 0; i < s->nloops; i++) {
		const struct devres_loop *y = &s->loops[i];
		todo[i] = y != l && !y->back_rdev && y->back_dev == l->back_dev &&
			  y->back_ino == l->back_ino && !seen(s, y->dev);
		if (todo[i])
			mark_seen(s, y->dev);
	}
	for (size_t i = 0; !rc && i < s->nloops; i++) {
		const struct devres_loop *y = &s->loops[i];
		if (!todo[i])
			continue;
		dg_say(rel, sizeof(rel), "%s shares its storage with /dev/%s (same backing file %s%s, offset %llu)",
		    subj, y->name, y->file, y->deleted ? " (deleted)" : "",
		    (unsigned long long)y->offset);
		rc = examine_dev(s, y->dev, rel, depth + 1);
	}
	free(todo);
	return rc;
}

/* Every use of the device (node, members m[0..n)) and of the devices that
 * share its storage; then, if nothing explained it, whether the kernel
 * still has the device claimed (an exclusive open fails). rel is NULL for
 * the device asked about, else how it relates to that device. */
static int examine_members(struct scan *s, const char *node, const struct member *m, size_t n,
			   const char *rel, int depth)
{
	struct findings *f = s->f;
	bool related = rel != NULL;
	unsigned before = f->in_use;
	char subj[RELLEN];

	for (size_t i = 0; i < n; i++) {
		char mnt[PATH_MAX];
		subject_of(subj, sizeof(subj), rel, &m[i]);
		int rc = dg_mount_of(m[i].dev, mnt, sizeof(mnt));
		if (rc < 0)
			return cannot_read(s, "/proc/self/mountinfo", rc);
		if (rc) {
			dg_add(f, "%s is mounted at %s", subj, mnt);
			dg_used(f, related, USE_MOUNTED);
		}
		rc = dg_swap_of(m[i].dev);
		if (rc < 0)
			return cannot_read(s, "/proc/swaps", rc);
		if (rc) {
			dg_add(f, "%s is used as swap", subj);
			dg_used(f, related, USE_SWAP);
		}
		check_holders(f, subj, &m[i], related);
		rc = check_stacked_loops(s, subj, &m[i], related, depth);
		if (rc)
			return rc;
		const struct devres_loop *l = loop_by_dev(s, m[i].dev);
		rc = l ? check_loop_backing(s, subj, l, related, depth) : 0;
		if (rc)
			return rc;
	}
	/* the device asked about is not probed when the caller holds it
	 * exclusively itself; the devices reached from it always are */
	if (f->in_use == before && (related || !f->excl_held)) {
		int fd = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0)
			close(fd);
		else if (errno == EBUSY) {
			subject_of(subj, sizeof(subj), rel, &m[0]);
			dg_add(f, "%s is busy: the kernel has it claimed (mounted in another namespace, or "
			       "used by a filesystem, RAID or device-mapper driver)", subj);
			dg_used(f, related, USE_BUSY);
		}
	}
	return 0;
}

/* A device related to the one asked about (rel says how), with its own
 * partitions or whole disk. One that sysfs does not know (gone meanwhile)
 * holds nothing; a chain deeper than MAX_RELATED_DEPTH is refused, not
 * followed further (fail closed). */
static int examine_dev(struct scan *s, dev_t dev, const char *rel, int depth)
{
	char sysdir[PATH_MAX], node[PATH_MAX];
	struct member *m;
	size_t n;
	int rc;

	if (depth > MAX_RELATED_DEPTH) {
		snprintf(s->err, sizeof(s->err), "more than %d devices share its storage in a chain",
			 MAX_RELATED_DEPTH);
		return -ELOOP;
	}
	if (devres_sysdir_of_dev(dev, sysdir))
		return 0;
	m = calloc(MAX_MEMBERS, sizeof(*m));
	if (!m)
		return -ENOMEM;
	rc = dg_collect_members(sysdir, dev, m, &n);
	if (!rc) {
		for (size_t i = 0; i < n; i++)
			mark_seen(s, m[i].dev);
		snprintf(node, sizeof(node), "/dev/%s", m[0].name);
		rc = examine_members(s, node, m, n, rel, depth);
	}
	free(m);
	return rc;
}

int dg_check_in_use(struct findings *f, const char *real, const struct member *m, size_t n,
			char *err, size_t errlen)
{
	struct devres_loop *loops;
	struct scan s = { .f = f };
	char bad[64] = "";
	size_t nl;
	int rc = devres_loops(&loops, &nl, bad);

	if (rc) {
		snprintf(err, errlen, "loop device /dev/%s cannot be examined: %s", bad, strerror(-rc));
		return rc;
	}
	dev_t *fs_dev = calloc(nl ? nl : 1, sizeof(*fs_dev));
	if (!fs_dev) {
		free(loops);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nl; i++)
		fs_dev[i] = loops[i].back_rdev || loops[i].deleted ? 0 :
			    fs_block_device(loops[i].file, loops[i].back_dev, loops[i].back_ino);
	struct filemount *fm;
	size_t nfm;
	rc = file_mounts(&fm, &nfm);
	if (rc) {
		snprintf(err, errlen, "cannot read /proc/self/mountinfo: %s", strerror(-rc));
		free(fs_dev);
		free(loops);
		return rc;
	}
	s.loops = loops;
	s.fs_dev = fs_dev;
	s.nloops = nl;
	s.fmounts = fm;
	s.nfmounts = nfm;
	for (size_t i = 0; i < n; i++)
		mark_seen(&s, m[i].dev);
	rc = examine_members(&s, real, m, n, NULL, 0);
	if (rc)
		snprintf(err, errlen, "%s", s.err[0] ? s.err : strerror(-rc));
	file_mounts_free(fm, nfm);
	free(fs_dev);
	free(loops);
	return rc;
}
