/*
 * pagecache.h: BLKFLSBUF for block devices, else fdatasync + DONTNEED.
 */
#include "sys/pagecache.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

int pagecache_drop_fd(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return 0;
	if (S_ISBLK(st.st_mode) && ioctl(fd, BLKFLSBUF, 0) == 0)
		return 0;
	fdatasync(fd);
	int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return -rc;
}

int pagecache_drop(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	int rc = pagecache_drop_fd(fd);
	close(fd);
	return rc;
}
