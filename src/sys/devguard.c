/*
 * The device guard (devguard.h). A block device is examined together with
 * its relatives: its partitions (for a whole disk) or its whole disk (for a
 * partition). Each is looked up by device number in the mount table and in
 * /proc/swaps, its holders are listed from sysfs (and theirs, to say where
 * the stack ends up mounted), and libblkid (devsig.h) looks for data on the
 * device and its partitions. Findings are gathered into one message; "in
 * use" findings refuse even an allowed device, data findings only refuse a
 * device --allow-destroy does not name.
 */
#include "sys/devguard.h"

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

#include "sys/devres.h"
#include "sys/devsig.h"

#define MAX_MEMBERS 128
#define MAX_HOLDER_DEPTH 8

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
	bool mounted, swap, held, busy; /* which kinds of use, for the remedy */
	bool excl_held; /* the caller holds the device open with O_EXCL: no probe */
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

/* Holders of one member: "partition /dev/loop3p1 is held by md0, which is
 * mounted at /x". */
static void check_holders(struct findings *f, const struct member *m)
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
		add(f, "%s/dev/%s is held by %s%s", m->role, m->name, e->d_name, nice);
		f->in_use++;
		f->held = true;
		snprintf(sub, sizeof(sub), "/sys/class/block/%s", e->d_name);
		if (!sysfs_dev(sub, &hdev))
			describe_holder_use(f, e->d_name, hdev, 1);
	}
	closedir(d);
}

/* Mounted, swap and holders of every member; then, if nothing explained
 * it, whether the kernel still has the device claimed. */
static int check_in_use(struct findings *f, const char *real, const struct member *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char mnt[PATH_MAX];
		int rc = mount_of(m[i].dev, mnt, sizeof(mnt));
		if (rc < 0)
			return rc;
		if (rc) {
			add(f, "%s/dev/%s is mounted at %s", m[i].role, m[i].name, mnt);
			f->in_use++;
			f->mounted = true;
		}
		rc = swap_of(m[i].dev);
		if (rc < 0)
			return rc;
		if (rc) {
			add(f, "%s/dev/%s is used as swap", m[i].role, m[i].name);
			f->in_use++;
			f->swap = true;
		}
		check_holders(f, &m[i]);
	}
	if (!f->in_use && !f->excl_held) {
		int fd = open(real, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0)
			close(fd);
		else if (errno == EBUSY) {
			add(f, "/dev/%s is busy: the kernel has it claimed (mounted in another "
			       "namespace, or used by a filesystem, RAID or device-mapper driver)", m[0].name);
			f->in_use++;
			f->busy = true;
		}
	}
	return 0;
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

	char found[2048] = "";
	struct findings f = { .buf = found, .len = sizeof(found), .excl_held = excl_held };
	rc = check_in_use(&f, node, m, n);
	if (rc) {
		say(why, whylen, "%s: cannot check whether it is in use: %s", shown, strerror(-rc));
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
		say(why, whylen, "%s%s; a device in use is never written to, even with "
			"--allow-destroy: first %s%s%s%s%s%s%s", dev_intro, found,
		    f.mounted ? "unmount it" : "",
		    f.mounted && (f.swap || f.held || f.busy) ? ", " : "",
		    f.swap ? "swapoff it" : "",
		    f.swap && (f.held || f.busy) ? ", " : "",
		    f.held ? "stop what holds it" : "",
		    f.held && f.busy ? ", " : "",
		    f.busy ? "release it" : "");
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
