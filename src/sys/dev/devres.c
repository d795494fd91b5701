/*
 * Path-to-block-device resolution for devres.h, from sysfs and the mount
 * table. A device number maps to a name through the /sys/dev/block/MAJ:MIN
 * link; a partition's directory sits inside its disk's, so the disk is the
 * parent directory. Loop and dm/md stacks are followed (depth-limited), and
 * for btrfs every member device; every name is kept once, in the order found.
 * At the end, the loop-device table: /sys/block/loopN/loop exists only while
 * loopN is bound, and LOOP_GET_STATUS64 says which inode backs it.
 */
#include "sys/dev/devres.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DEVRES_MAX_DEPTH 8

struct devlist {
	char (*names)[64];
	size_t max, n;
	bool overflow;
};

static void path_devices(struct devlist *l, const char *path, int depth);

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* Copy a device name into a 64-byte slot, cut if (absurdly) longer. */
static void set_name(char out[64], const char *name)
{
	size_t len = strnlen(name, 63);

	memcpy(out, name, len);
	out[len] = '\0';
}

/* Adds name; false if it was already there (or there is no room). */
static bool devlist_add(struct devlist *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->names[i], name))
			return false;
	if (l->n == l->max) {
		l->overflow = true;
		return false;
	}
	set_name(l->names[l->n++], name);
	return true;
}

/* The whole disk that sysfs device directory `dir` (resolved) belongs to. */
static int disk_of_sysdir(const char *dir, char out[64])
{
	char buf[PATH_MAX];
	char *slash;

	snprintf(buf, sizeof(buf), "%s/partition", dir);
	if (access(buf, F_OK)) {
		set_name(out, base_name(dir));
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", dir);
	slash = strrchr(buf, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	set_name(out, base_name(buf));
	return 0;
}

int devres_sysdir_of_dev(dev_t dev, char real[PATH_MAX])
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return realpath(link, real) ? 0 : -errno;
}

/* The whole disk of device number dev; -ENOENT if sysfs does not know it. */
static int disk_of_dev(dev_t dev, char out[64])
{
	char real[PATH_MAX];
	int ret = devres_sysdir_of_dev(dev, real);

	return ret ? ret : disk_of_sysdir(real, out);
}

int devres_read_line(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

static void expand_disk(struct devlist *l, const char *disk, int depth);

/* dm/md members: every entry of /sys/block/DISK/slaves, by name. */
static void expand_slaves(struct devlist *l, const char *disk, int depth)
{
	struct dirent **ents;
	char dir[PATH_MAX];
	int nents;

	snprintf(dir, sizeof(dir), "/sys/block/%s/slaves", disk);
	nents = scandir(dir, &ents, NULL, alphasort);
	if (nents < 0)
		return;
	for (int i = 0; i < nents; i++) {
		char link[PATH_MAX], real[PATH_MAX], name[64];
		if (ents[i]->d_name[0] != '.' &&
		    snprintf(link, sizeof(link), "%s/%s", dir, ents[i]->d_name) < (int)sizeof(link)) {
			if (realpath(link, real) && !disk_of_sysdir(real, name))
				expand_disk(l, name, depth + 1);
		}
		free(ents[i]);
	}
	free(ents);
}

/* Add a whole disk and what it is built on. */
static void expand_disk(struct devlist *l, const char *disk, int depth)
{
	char file[PATH_MAX], backing[PATH_MAX];
	size_t len;

	if (depth > DEVRES_MAX_DEPTH || !devlist_add(l, disk))
		return;
	snprintf(file, sizeof(file), "/sys/block/%s/loop/backing_file", disk);
	if (!devres_read_line(file, backing, sizeof(backing)) && backing[0]) {
		len = strlen(backing);
		if (len > 10 && !strcmp(backing + len - 10, " (deleted)"))
			backing[len - 10] = '\0';
		path_devices(l, backing, depth + 1);
	}
	expand_slaves(l, disk, depth);
}

void devres_unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

static bool mount_covers(const char *mnt, const char *path)
{
	size_t len = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return true;
	return !strncmp(mnt, path, len) && (path[len] == '/' || !path[len]);
}

int devres_parse_mountinfo(char *line, struct devres_mount *m)
{
	char *save = NULL, *tok[6] = { 0 }, *t;
	unsigned maj, min;
	int i = 0;

	line[strcspn(line, "\n")] = '\0';
	for (t = strtok_r(line, " ", &save); t && i < 5; t = strtok_r(NULL, " ", &save))
		tok[i++] = t;
	if (i < 5)
		return -EINVAL;
	m->options = t;
	/* optional fields run up to the lone "-" */
	while (t && strcmp(t, "-"))
		t = strtok_r(NULL, " ", &save);
	m->fstype = t ? strtok_r(NULL, " ", &save) : NULL;
	m->source = m->fstype ? strtok_r(NULL, " ", &save) : NULL;
	m->super_options = m->source ? strtok_r(NULL, " ", &save) : NULL;
	if (!m->source || sscanf(tok[2], "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	m->dev = makedev(maj, min);
	m->id = atoi(tok[0]);
	m->root = tok[3];
	m->mountpoint = tok[4];
	devres_unescape(m->root);
	devres_unescape(m->mountpoint);
	devres_unescape(m->source);
	return 0;
}

int devres_find_mount(const char *real, char **line, struct devres_mount *m)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	size_t best = 0, cap = 0;
	char *cur = NULL;
	int found = -ENOENT;

	*line = NULL;
	if (!f)
		return -errno;
	while (getline(&cur, &cap, f) > 0) {
		struct devres_mount tmp;
		char *copy = strdup(cur);
		if (!copy) {
			found = -ENOMEM;
			break;
		}
		if (devres_parse_mountinfo(cur, &tmp) || !mount_covers(tmp.mountpoint, real) ||
		    strlen(tmp.mountpoint) < best) {
			free(copy);
			continue;
		}
		best = strlen(tmp.mountpoint);
		free(*line);
		*line = copy;
		found = 0;
	}
	free(cur);
	fclose(f);
	if (found == 0 && devres_parse_mountinfo(*line, m))
		found = -EINVAL;
	if (found) {
		free(*line);
		*line = NULL;
	}
	return found;
}

/* Source and type of the mount whose mount point is the longest prefix of
 * real (later entries win ties: they are mounted on top). */
static int mount_source(const char *real, char *src, size_t srclen, char type[32])
{
	struct devres_mount m;
	char *line;
	int ret = devres_find_mount(real, &line, &m);

	if (ret)
		return ret;
	snprintf(src, srclen, "%s", m.source);
	snprintf(type, 32, "%.31s", m.fstype);
	free(line);
	return 0;
}

int devres_btrfs_members(const char *member, char (*names)[64], size_t max, size_t *n)
{
	struct dirent **fs, **devs;
	char dir[PATH_MAX];
	int nfs, ndevs, ret = -ENOENT;

	*n = 0;
	nfs = scandir("/sys/fs/btrfs", &fs, NULL, alphasort);
	if (nfs < 0)
		return -errno;
	for (int i = 0; i < nfs; i++) {
		if (ret == -ENOENT && fs[i]->d_name[0] != '.' &&
		    snprintf(dir, sizeof(dir), "/sys/fs/btrfs/%s/devices", fs[i]->d_name) < (int)sizeof(dir) &&
		    (ndevs = scandir(dir, &devs, NULL, alphasort)) >= 0) {
			bool ours = false;
			for (int j = 0; j < ndevs; j++)
				ours |= !strcmp(devs[j]->d_name, member);
			if (ours)
				ret = 0;
			for (int j = 0; j < ndevs; j++) {
				if (ours && devs[j]->d_name[0] != '.') {
					if (*n < max)
						set_name(names[(*n)++], devs[j]->d_name);
					else
						ret = -ENOSPC;
				}
				free(devs[j]);
			}
			free(devs);
		}
		free(fs[i]);
	}
	free(fs);
	return ret;
}

/* Every member of the btrfs filesystem that has device `member` (a name as
 * in /sys/class/block), each expanded to its whole disk. */
static void expand_btrfs(struct devlist *l, const char *member, int depth)
{
	char names[64][64];
	size_t n;

	(void)devres_btrfs_members(member, names, 64, &n);
	for (size_t i = 0; i < n; i++) {
		char link[PATH_MAX], real[PATH_MAX], disk[64];
		snprintf(link, sizeof(link), "/sys/class/block/%s", names[i]);
		if (realpath(link, real) && !disk_of_sysdir(real, disk))
			expand_disk(l, disk, depth + 1);
	}
}

int devres_existing_ancestor(const char *path, char *buf, size_t len, struct stat *st)
{
	snprintf(buf, len, "%s", path[0] ? path : ".");
	for (;;) {
		if (!stat(buf, st))
			return 0;
		if ((errno != ENOENT && errno != ENOTDIR) || !strcmp(buf, "/") || !strcmp(buf, "."))
			return -errno;
		size_t n = strlen(buf);
		while (n > 1 && buf[n - 1] == '/')
			buf[--n] = '\0';
		char *slash = strrchr(buf, '/');
		if (!slash)
			snprintf(buf, len, ".");
		else if (slash == buf)
			buf[1] = '\0';
		else
			*slash = '\0';
	}
}

/* Devices under path, or -errno when path cannot be examined. */
static int path_devices_ret(struct devlist *l, const char *path, int depth)
{
	char buf[PATH_MAX], real[PATH_MAX], src[PATH_MAX], disk[64], type[32];
	struct stat st;
	int ret;

	ret = devres_existing_ancestor(path, buf, sizeof(buf), &st);
	if (ret)
		return ret;
	ret = disk_of_dev(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev, disk);
	if (!ret) {
		expand_disk(l, disk, depth);
		return 0;
	}
	/* anonymous device number (btrfs, overlay, tmpfs): ask the mount table */
	if (!realpath(buf, real) || mount_source(real, src, sizeof(src), type))
		return 0;
	if (src[0] != '/' || stat(src, &st) || !S_ISBLK(st.st_mode))
		return 0;
	if (devres_sysdir_of_dev(st.st_rdev, real) || disk_of_sysdir(real, disk))
		return 0;
	expand_disk(l, disk, depth);
	if (!strcmp(type, "btrfs"))
		expand_btrfs(l, base_name(real), depth);
	return 0;
}

static void path_devices(struct devlist *l, const char *path, int depth)
{
	(void)path_devices_ret(l, path, depth);
}

int devres_devices_for_path(const char *path, char (*names)[64], size_t max, size_t *n)
{
	struct devlist l = { .names = names, .max = max };
	int ret = path_devices_ret(&l, path, 0);

	*n = l.n;
	if (ret)
		return ret;
	return l.overflow ? -ENOSPC : 0;
}

int devres_is_block_device(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	return S_ISBLK(st.st_mode) ? 1 : 0;
}

int devres_bdev_size(int fd, uint64_t *bytes)
{
	uint64_t v;

	if (ioctl(fd, BLKGETSIZE64, &v))
		return -errno;
	*bytes = v;
	return 0;
}

int devres_logical_block_size(int fd, unsigned *bytes)
{
	int v;

	if (ioctl(fd, BLKSSZGET, &v))
		return -errno;
	*bytes = (unsigned)v;
	return 0;
}

/* A device number in the kernel's "huge" encoding (what LOOP_GET_STATUS64
 * returns: minor bits 0-7 and 20-31, major bits 8-19). */
static dev_t kernel_dev(uint64_t v)
{
	return makedev((unsigned)((v >> 8) & 0xfff), (unsigned)((v & 0xff) | ((v >> 12) & 0xfff00)));
}

static int read_u64(const char *file, uint64_t *v)
{
	char line[32], *end;
	int ret = devres_read_line(file, line, sizeof(line));

	if (ret)
		return ret;
	errno = 0;
	*v = strtoull(line, &end, 10);
	return errno || end == line ? -EINVAL : 0;
}

int devres_loop_info(const char *name, struct devres_loop *l)
{
	char dir[96], file[128];
	struct loop_info64 info;
	dev_t dev;
	int ret, fd;

	memset(l, 0, sizeof(*l));
	if (strncmp(name, "loop", 4) || strlen(name) >= 64)
		return -ENXIO;
	snprintf(dir, sizeof(dir), "/sys/block/%s", name);
	snprintf(file, sizeof(file), "%s/loop/backing_file", dir);
	ret = devres_read_line(file, l->file, sizeof(l->file));
	if (ret)
		return ret == -ENOENT ? -ENXIO : ret; /* no loop/ directory: not bound */
	size_t len = strlen(l->file);
	if (len > 10 && !strcmp(l->file + len - 10, " (deleted)")) {
		l->file[len - 10] = '\0';
		l->deleted = 1;
	}
	snprintf(file, sizeof(file), "%s/dev", dir);
	unsigned maj, min;
	char line[32];
	if (devres_read_line(file, line, sizeof(line)) || sscanf(line, "%u:%u", &maj, &min) != 2)
		return -ENXIO;
	dev = makedev(maj, min);
	set_name(l->name, name);
	l->dev = dev;
	snprintf(file, sizeof(file), "/dev/%s", name);
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev) {
		ret = ioctl(fd, LOOP_GET_STATUS64, &info) ? -errno : 0;
		close(fd);
		if (ret)
			return ret;
		l->back_dev = kernel_dev(info.lo_device);
		l->back_ino = info.lo_inode;
		l->back_rdev = kernel_dev(info.lo_rdevice);
		l->offset = info.lo_offset;
		l->sizelimit = info.lo_sizelimit;
		return 0;
	}
	ret = fd >= 0 ? -ENODEV : -errno; /* /dev/NAME is not this device, or cannot be opened */
	if (fd >= 0)
		close(fd);
	/* fall back to the inode the path names now */
	if (l->deleted || stat(l->file, &st))
		return ret;
	l->back_dev = st.st_dev;
	l->back_ino = st.st_ino;
	l->back_rdev = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	snprintf(file, sizeof(file), "%s/loop/offset", dir);
	if (read_u64(file, &l->offset))
		return ret;
	snprintf(file, sizeof(file), "%s/loop/sizelimit", dir);
	if (read_u64(file, &l->sizelimit))
		return ret;
	return 0;
}

int devres_loops(struct devres_loop **loops, size_t *n, char bad[64])
{
	struct dirent **ents;
	struct devres_loop *out = NULL;
	int nents, ret = 0;
	size_t cnt = 0;

	*loops = NULL;
	*n = 0;
	nents = scandir("/sys/block", &ents, NULL, alphasort);
	if (nents < 0)
		return -errno;
	for (int i = 0; i < nents; i++) {
		struct devres_loop l;
		int rc = ret ? 0 : devres_loop_info(ents[i]->d_name, &l);
		if (rc == 0 && !ret && !strncmp(ents[i]->d_name, "loop", 4)) {
			struct devres_loop *grown = realloc(out, (cnt + 1) * sizeof(*out));
			if (!grown)
				ret = -ENOMEM;
			else {
				out = grown;
				out[cnt++] = l;
			}
		} else if (rc && rc != -ENXIO) {
			ret = rc;
			if (bad)
				set_name(bad, ents[i]->d_name);
		}
		free(ents[i]);
	}
	free(ents);
	if (ret) {
		free(out);
		return ret;
	}
	*loops = out;
	*n = cnt;
	return 0;
}
