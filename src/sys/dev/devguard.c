/*
 * The device guard (devguard.h). A block device is examined together with
 * its relatives: its partitions (for a whole disk) or its whole disk (for a
 * partition). Each is looked up by device number in the mount table and in
 * /proc/swaps, its holders are listed from sysfs (and theirs, to say where
 * the stack ends up mounted), and libblkid (devsig.h) looks for data on the
 * device and its partitions. Storage shared through loop devices (the table
 * of bound loop devices is read once, devres.h) leads to other devices,
 * each examined the same way with the chain that led there as the subject
 * of what is found: "/dev/loop5 shares its storage with /dev/loop6 (...),
 * which is mounted at /mnt/y". Findings are gathered into one message; "in
 * use" findings refuse even an allowed device, data findings only refuse a
 * device --allow-destroy does not name.
 */
#include "sys/dev/devguard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "sys/dev/devsig.h"

#define MAX_MEMBERS 128
#define MAX_HOLDER_DEPTH 8
#define MAX_RELATED_DEPTH 8 /* loop over loop over ... */
#define MAX_SEEN 256
#define RELLEN 1024         /* one finding's chain of relations */

/* The device and its relatives. */
struct member {
	dev_t dev;
	char name[64];    /* as in /sys/class/block: loop3, loop3p1 */
	const char *role; /* "" (the device itself), "partition ", "whole disk " */
};

/* The message being built: findings separated by "; ". */
struct findings {
	char *buf;
	size_t len, used;
	unsigned in_use, data;
	unsigned uses; /* USE_* kinds found, for the remedy */
	bool excl_held; /* the caller holds the device open with O_EXCL: no probe of it */
};

static void vappend(struct findings *f, const char *sep, const char *fmt, va_list ap)
{
	if (!f->len || f->used + 1 >= f->len)
		return;
	int n = snprintf(f->buf + f->used, f->len - f->used, "%s", f->used ? sep : "");
	f->used += n > 0 ? (size_t)n : 0;
	if (f->used < f->len) {
		n = vsnprintf(f->buf + f->used, f->len - f->used, fmt, ap);
		f->used += n > 0 ? (size_t)n : 0;
	}
	if (f->used >= f->len)
		f->used = f->len - 1;
}

static void add(struct findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct findings *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(f, "; ", fmt, ap);
	va_end(ap);
}

/* Continue the last finding (no separator). */
static void cont(struct findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cont(struct findings *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(f, "", fmt, ap);
	va_end(ap);
}

static void say(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

const char *devguard_verb(unsigned what)
{
	if (what & DEVGUARD_FORMAT)
		return "format";
	if (what & DEVGUARD_WRITE)
		return "write to";
	return "trim";
}

/* The device number in a sysfs "dev" file ("MAJ:MIN"). */
static int sysfs_dev(const char *dir, dev_t *dev)
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
static int collect_members(const char *sysdir, dev_t dev, struct member *m, size_t *n)
{
	*n = 0;
	member_add(m, n, dev, base_name(sysdir), "");
	if (is_partition_dir(sysdir)) {
		char disk[PATH_MAX];
		dev_t ddev;
		snprintf(disk, sizeof(disk), "%s", sysdir);
		*strrchr(disk, '/') = '\0';
		if (!sysfs_dev(disk, &ddev))
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
		if (is_partition_dir(sub) && !sysfs_dev(sub, &pdev))
			member_add(m, n, pdev, e->d_name, "partition ");
	}
	closedir(d);
	return 0;
}

/* Block device number behind a mount source or swap path, or 0. */
static dev_t bdev_of_path(const char *p)
{
	struct stat st;

	if (strncmp(p, "/dev/", 5) || stat(p, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

/* Where dev is mounted (the first mount of it): 1 found, 0 not, -errno.
 * Matched by the mount's device number, or by its source device for
 * filesystems with anonymous device numbers (btrfs). */
static int mount_of(dev_t dev, char *mnt, size_t len)
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
		if (m.dev == dev || (major(m.dev) == 0 && bdev_of_path(m.source) == dev)) {
			snprintf(mnt, len, "%s", m.mountpoint);
			found = 1;
		}
	}
	free(line);
	fclose(fp);
	return found;
}

/* Is dev an active swap area? 1, 0 or -errno. */
static int swap_of(dev_t dev)
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
		found = bdev_of_path(line) == dev;
	}
	free(line);
	fclose(fp);
	return found;
}

/* " (vg-data)" for a device-mapper device, "" otherwise. */
static void dm_name(const char *name, char *out, size_t len)
{
	char file[PATH_MAX], dm[128];

	out[0] = '\0';
	snprintf(file, sizeof(file), "/sys/class/block/%s/dm/name", name);
	if (!devres_read_line(file, dm, sizeof(dm)) && dm[0])
		snprintf(out, len, " (%s)", dm);
}

/* Append how device `name` (number dev) is used, as ", which is mounted at
 * X", ", which is used as swap" or ", which is held by Y...", to f. */
static void describe_holder_use(struct findings *f, const char *name, dev_t dev, int depth)
{
	char mnt[PATH_MAX], dir[PATH_MAX];

	if (mount_of(dev, mnt, sizeof(mnt)) == 1)
		cont(f, ", which is mounted at %s", mnt);
	else if (swap_of(dev) == 1)
		cont(f, ", which is used as swap");
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
		dm_name(e->d_name, nice, sizeof(nice));
		cont(f, ", which is held by %s%s", e->d_name, nice);
		if (!sysfs_dev(sub, &hdev))
			describe_holder_use(f, e->d_name, hdev, depth + 1);
		break; /* one chain is enough to explain */
	}
	closedir(d);
}

/* Kinds of use, each with its remedy (in the order the message lists them). */
enum {
	USE_MOUNTED = 1u << 0,
	USE_SWAP = 1u << 1,
	USE_HELD = 1u << 2,
	USE_LOOPS = 1u << 3,
	USE_SWAPFILE = 1u << 4,
	USE_FILEMOUNTS = 1u << 5,
	USE_FILEMOUNT = 1u << 6,
	USE_SHARED = 1u << 7,
	USE_BUSY = 1u << 8,
};

static const char *const remedies[] = {
	"unmount it",
	"swapoff it",
	"stop what holds it",
	"detach the loop devices backed by files on it",
	"swapoff its backing file",
	"unmount the filesystems mounted from files on it",
	"unmount its backing file",
	"stop using the devices that share its storage",
	"release it",
};

/* Count a use found on the device (kind) or on a device that shares its
 * storage (related: the remedy is then about that device). */
static void used(struct findings *f, bool related, unsigned kind)
{
	f->in_use++;
	f->uses |= related ? USE_SHARED : kind;
}

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
	found = bdev_of_path(m.source);
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
		dm_name(e->d_name, nice, sizeof(nice));
		add(f, "%s is held by %s%s", subj, e->d_name, nice);
		used(f, related, USE_HELD);
		snprintf(sub, sizeof(sub), "/sys/class/block/%s", e->d_name);
		if (!sysfs_dev(sub, &hdev))
			describe_holder_use(f, e->d_name, hdev, 1);
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
			say(rel, sizeof(rel), "%s is the backing device of /dev/%s", subj, l->name);
			rc = examine_dev(s, l->dev, rel, depth + 1);
		} else if (!l->back_rdev && s->fs_dev[i] == m->dev) {
			unsigned before = s->f->in_use;
			say(rel, sizeof(rel), "%s holds the filesystem of %s%s, the backing file of /dev/%s",
				 subj, l->file, l->deleted ? " (deleted)" : "", l->name);
			if (!seen(s, l->dev))
				rc = examine_dev(s, l->dev, rel, depth + 1);
			if (s->f->in_use == before) {
				add(s->f, "%s", rel);
				used(s->f, related, USE_LOOPS);
			}
		}
	}
	for (size_t i = 0; !rc && i < s->nfmounts; i++) {
		if (s->fmounts[i].fs_dev != m->dev)
			continue;
		add(s->f, "%s holds the filesystem of %s, which is mounted at %s", subj,
		    s->fmounts[i].file, s->fmounts[i].mnt);
		used(s->f, related, USE_FILEMOUNTS);
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
		say(rel, sizeof(rel), "%s is backed by %s", subj, l->file);
		return examine_dev(s, l->back_rdev, rel, depth + 1);
	}
	rc = swapfile_of(l->back_dev, l->back_ino);
	if (rc < 0)
		return cannot_read(s, "/proc/swaps", rc);
	if (rc) {
		add(s->f, "%s is backed by %s, which is used as swap", subj, l->file);
		used(s->f, related, USE_SWAPFILE);
	}
	rc = 0;
	for (size_t i = 0; i < s->nfmounts; i++) {
		if (s->fmounts[i].dev != l->back_dev || s->fmounts[i].ino != l->back_ino)
			continue;
		add(s->f, "%s is backed by %s, which is mounted at %s", subj, s->fmounts[i].file,
		    s->fmounts[i].mnt);
		used(s->f, related, USE_FILEMOUNT);
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
		say(rel, sizeof(rel), "%s shares its storage with /dev/%s (same backing file %s%s, offset %llu)",
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
		int rc = mount_of(m[i].dev, mnt, sizeof(mnt));
		if (rc < 0)
			return cannot_read(s, "/proc/self/mountinfo", rc);
		if (rc) {
			add(f, "%s is mounted at %s", subj, mnt);
			used(f, related, USE_MOUNTED);
		}
		rc = swap_of(m[i].dev);
		if (rc < 0)
			return cannot_read(s, "/proc/swaps", rc);
		if (rc) {
			add(f, "%s is used as swap", subj);
			used(f, related, USE_SWAP);
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
			add(f, "%s is busy: the kernel has it claimed (mounted in another namespace, or "
			       "used by a filesystem, RAID or device-mapper driver)", subj);
			used(f, related, USE_BUSY);
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
	rc = collect_members(sysdir, dev, m, &n);
	if (!rc) {
		for (size_t i = 0; i < n; i++)
			mark_seen(s, m[i].dev);
		snprintf(node, sizeof(node), "/dev/%s", m[0].name);
		rc = examine_members(s, node, m, n, rel, depth);
	}
	free(m);
	return rc;
}

/* Is the device (real, members m[0..n)) in use, by itself or through a
 * device that shares its storage? 0 with the findings in f, or -errno
 * with err saying what could not be examined. */
static int check_in_use(struct findings *f, const char *real, const struct member *m, size_t n,
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

/* Signatures on the device and on each of its partitions. */
static int check_data(struct findings *f, const char *real, const struct member *m, size_t n)
{
	char sig[512];

	for (size_t i = 0; i < n; i++) {
		char node[PATH_MAX];
		if (!strcmp(m[i].role, "whole disk "))
			continue; /* its partition table is what made the partition */
		if (i == 0)
			snprintf(node, sizeof(node), "%s", real);
		else
			snprintf(node, sizeof(node), "/dev/%s", m[i].name);
		int rc = devsig_describe(node, sig, sizeof(sig));
		if (rc < 0 && i == 0)
			return rc;
		if (rc < 0) {
			add(f, "partition /dev/%s cannot be probed for signatures: %s", m[i].name,
			    strerror(-rc));
			f->data++;
		} else if (rc > 0) {
			if (i == 0)
				add(f, "%s", sig);
			else
				add(f, "partition /dev/%s: %s", m[i].name, sig);
			f->data++;
		}
	}
	return 0;
}

/* Does allow name the device dev (by device number, after symlinks)? */
static bool allowed(const struct devguard_allow *allow, dev_t dev)
{
	for (size_t i = 0; allow && i < allow->nr_devices; i++) {
		struct stat st;
		if (!stat(allow->devices[i], &st) && S_ISBLK(st.st_mode) && st.st_rdev == dev)
			return true;
	}
	return false;
}

/* The checks on block device rdev. node is a path that opens it (probed
 * with libblkid and, unless excl_held, with O_EXCL); shown is the name the
 * messages use; path is what the caller named. */
static int check_bdev(const char *path, const char *node, const char *shown, dev_t rdev,
		      bool excl_held, unsigned what, const struct devguard_allow *allow,
		      char *why, size_t whylen)
{
	char sysdir[PATH_MAX];
	struct member *m;
	size_t n;
	int rc;

	rc = devres_sysdir_of_dev(rdev, sysdir);
	if (rc) {
		say(why, whylen, "%s: cannot find block device %u:%u in sysfs to check it: %s", shown,
		    major(rdev), minor(rdev), strerror(-rc));
		return rc;
	}
	m = calloc(MAX_MEMBERS, sizeof(*m));
	if (!m)
		return -ENOMEM;
	rc = collect_members(sysdir, rdev, m, &n);
	if (rc) {
		say(why, whylen, "%s: cannot list its partitions in '%s': %s", shown, sysdir, strerror(-rc));
		free(m);
		return rc;
	}

	char found[2048] = "", err[256] = "";
	struct findings f = { .buf = found, .len = sizeof(found), .excl_held = excl_held };
	rc = check_in_use(&f, node, m, n, err, sizeof(err));
	if (rc) {
		say(why, whylen, "%s: cannot check whether it is in use: %s", shown, err);
		free(m);
		return rc;
	}
	rc = check_data(&f, node, m, n);
	free(m);
	if (rc) {
		say(why, whylen, "%s: cannot probe it for signatures: %s", shown, strerror(-rc));
		return rc;
	}
	/* name the device when the caller's path does not */
	char dev_intro[PATH_MAX + 16] = "";
	if (strcmp(path, shown))
		snprintf(dev_intro, sizeof(dev_intro), "it is %s: ", shown);
	if (what & DEVGUARD_DESCRIBE) {
		if (f.in_use || f.data)
			say(why, whylen, "%s%s", dev_intro, found);
		else
			say(why, whylen, "%sno signature found, not in use", dev_intro);
		return (f.in_use || f.data) ? 1 : 0;
	}
	if (f.in_use) {
		char remedy[512] = "";
		size_t used_len = 0;
		for (size_t k = 0; k < sizeof(remedies) / sizeof(remedies[0]); k++)
			if (f.uses & (1u << k)) {
				int w = snprintf(remedy + used_len, sizeof(remedy) - used_len, "%s%s",
						 used_len ? ", " : "", remedies[k]);
				if (w > 0 && (size_t)w < sizeof(remedy) - used_len)
					used_len += (size_t)w;
			}
		say(why, whylen, "%s%s; a device in use is never written to, even with "
			"--allow-destroy: first %s", dev_intro, found, remedy);
		return -EBUSY;
	}
	if (f.data && !allowed(allow, rdev)) {
		say(why, whylen, "%s%s; to destroy its contents anyway, add --allow-destroy=%s",
		    dev_intro, found, shown);
		return -EPERM;
	}
	return 0;
}

/* Read-only mode refuses before anything is looked at. */
static int readonly_refusal(unsigned what, const struct devguard_allow *allow, char *why,
			    size_t whylen)
{
	if (!(what & DEVGUARD_DESCRIBE) && allow && allow->readonly_by) {
		say(why, whylen, "read-only mode (%s) forbids every write, trim and format",
		    allow->readonly_by);
		return -EROFS;
	}
	return 0;
}

int devguard_check(const char *path, unsigned what, const struct devguard_allow *allow,
		   char *why, size_t whylen)
{
	char real[PATH_MAX];
	struct stat st;

	if (whylen)
		why[0] = '\0';
	if (!what)
		return 0;
	int rc = readonly_refusal(what, allow, why, whylen);
	if (rc)
		return rc;
	if (!realpath(path, real) || stat(real, &st) || !S_ISBLK(st.st_mode))
		return 0; /* not there yet, or not a block device */
	return check_bdev(path, real, real, st.st_rdev, false, what, allow, why, whylen);
}

int devguard_check_fd(int fd, const char *path, unsigned what, const struct devguard_allow *allow,
		      bool excl_held, char *why, size_t whylen)
{
	char node[64], shown[PATH_MAX];
	struct stat st;

	if (whylen)
		why[0] = '\0';
	if (!what)
		return 0;
	int rc = readonly_refusal(what, allow, why, whylen);
	if (rc)
		return rc;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return 0;
	/* the descriptor's own inode, whatever its name has become since */
	snprintf(node, sizeof(node), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(node, shown, sizeof(shown) - 1);
	if (n <= 0 || shown[0] != '/')
		n = snprintf(shown, sizeof(shown), "block device %u:%u", major(st.st_rdev),
			     minor(st.st_rdev));
	shown[n < (ssize_t)sizeof(shown) ? n : (ssize_t)sizeof(shown) - 1] = '\0';
	return check_bdev(path, node, shown, st.st_rdev, excl_held, what, allow, why, whylen);
}

int devguard_allow_validate(const struct devguard_allow *allow, char *why, size_t whylen)
{
	for (size_t i = 0; allow && i < allow->nr_devices; i++) {
		struct stat st;
		const char *d = allow->devices[i];
		if (stat(d, &st)) {
			int rc = -errno;
			say(why, whylen, "--allow-destroy='%s': %s", d, strerror(-rc));
			return rc;
		}
		if (!S_ISBLK(st.st_mode)) {
			say(why, whylen, "--allow-destroy='%s' is not a block device", d);
			return -ENOTBLK;
		}
	}
	return 0;
}
