/*
 * sync, then drop_caches = 3 (dropcache.h).
 */
#include "sys/dropcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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
