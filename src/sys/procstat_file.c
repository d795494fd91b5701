/*
 * Whole-file reads of /proc files into a caller's buffer for procstat.h:
 * pread() from offset 0 until end of file, no allocation.
 */
#include "sys/procstat.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

long procfile_pread(int fd, char *buf, size_t size)
{
	size_t len = 0;

	if (size < 2)
		return -EINVAL;
	for (;;) {
		ssize_t r = pread(fd, buf + len, size - 1 - len, (off_t)len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len == size - 1)
			return -EFBIG;
	}
	buf[len] = '\0';
	return (long)len;
}

long procfile_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long ret;

	if (fd < 0)
		return -errno;
	ret = procfile_pread(fd, buf, size);
	close(fd);
	return ret;
}
