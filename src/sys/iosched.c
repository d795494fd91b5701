/*
 * Reading and switching a block queue's I/O scheduler (iosched.h) through
 * sysfs: the queue is found from the device number of the path (st_rdev of
 * a block device, st_dev of anything else), a partition's being its disk's.
 */
#include "sys/iosched.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/dev/devres.h"

int iosched_find(const char *path, char file[PATH_MAX], char disk[64], char *why, size_t whylen)
{
	struct stat st;
	char dir[PATH_MAX], part[PATH_MAX + 16];
	if (stat(path, &st) < 0) {
		int e = errno;
		snprintf(why, whylen, "cannot stat '%s': %s", path, strerror(e));
		return -e;
	}
	dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (!major(dev) || devres_sysdir_of_dev(dev, dir) < 0) {
		snprintf(why, whylen, "'%s' is not on a block device (device %u:%u), so it has no "
			 "I/O scheduler to set", path, major(dev), minor(dev));
		return -ENOTBLK;
	}
	snprintf(part, sizeof(part), "%s/partition", dir);
	if (access(part, F_OK) == 0) { /* a partition: the queue is its disk's */
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
	}
	const char *name = strrchr(dir, '/');
	const char *base = name ? name + 1 : dir;
	size_t bl = strnlen(base, 63);
	memcpy(disk, base, bl);
	disk[bl] = '\0';
	if (snprintf(file, PATH_MAX, "%s/queue/scheduler", dir) >= PATH_MAX ||
	    access(file, W_OK) < 0) {
		snprintf(why, whylen, "'%s' is on %s, which has no I/O scheduler iobench can set "
			 "(no writable queue/scheduler in sysfs)", path, disk);
		return -ENOTSUP;
	}
	return 0;
}

int iosched_get(const char *file, char *cur, size_t len)
{
	char line[256];
	int rc = devres_read_line(file, line, sizeof(line));
	if (rc < 0)
		return rc;
	char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
	if (!open || !close) { /* a queue with a single choice prints it bare */
		snprintf(cur, len, "%s", line);
		cur[strcspn(cur, " ")] = '\0';
		return 0;
	}
	*close = '\0';
	snprintf(cur, len, "%s", open + 1);
	return 0;
}

int iosched_set(const char *file, const char *name, char *why, size_t whylen)
{
	/* O_TRUNC: sysfs ignores it, a test's fake file is rewritten whole */
	int fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(why, whylen, "cannot open '%s': %s", file, strerror(e));
		return -e;
	}
	ssize_t n = write(fd, name, strlen(name));
	int e = n < 0 ? errno : 0;
	close(fd);
	char cur[64] = "", offered[256] = "";
	if (!e && (iosched_get(file, cur, sizeof(cur)) < 0 || strcmp(cur, name)))
		e = EINVAL;
	if (e) {
		devres_read_line(file, offered, sizeof(offered));
		snprintf(why, whylen, "cannot set the I/O scheduler to '%s' in '%s': %s (it offers: %s)",
			 name, file, strerror(e), offered);
		return -e;
	}
	return 0;
}
