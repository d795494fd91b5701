/*
 * sync, then drop_caches = 3; or one filesystem's files and devices only
 * (dropcache.h).
 */
#include "sys/dropcache.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int dropcache_all(char *why, size_t len)
{
	sync();
	int fd = open(DROPCACHE_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(why, len, "cannot drop the page cache: open %s: %s", DROPCACHE_PATH,
			 strerror(e));
		return -e;
	}
	ssize_t n = write(fd, "3", 1);
	int e = n == 1 ? 0 : n < 0 ? errno : EIO;
	close(fd);
	if (e) {
		snprintf(why, len, "cannot drop the page cache: write 3 to %s: %s", DROPCACHE_PATH,
			 strerror(e));
		return -e;
	}
	return 0;
}

/* nftw's visit: a regular file's clean pages dropped; errors passed over */
static int drop_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
	return 0;
}

int dropcache_under(const char *dir, char *const *devs, size_t ndev, char *why, size_t len)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(why, len, "cannot drop the page cache under '%s': %s", dir, strerror(e));
		return -e;
	}
	int rc = syncfs(fd) < 0 ? -errno : 0;
	close(fd);
	if (rc < 0) {
		snprintf(why, len, "cannot drop the page cache under '%s': syncfs: %s", dir,
			 strerror(-rc));
		return rc;
	}
	nftw(dir, drop_file, 16, FTW_PHYS | FTW_MOUNT);
	for (size_t i = 0; i < ndev; i++) {
		int bd = open(devs[i], O_RDONLY | O_CLOEXEC);
		if (bd < 0)
			continue;
		if (ioctl(bd, BLKFLSBUF, 0) < 0 && !rc) {
			rc = -errno;
			snprintf(why, len, "cannot drop the buffer cache of '%s': %s", devs[i],
				 strerror(-rc));
		}
		close(bd);
	}
	return rc;
}
