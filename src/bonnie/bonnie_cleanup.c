/*
 * Leaving nothing behind: after the bonnie++ suite ends, fails or is
 * stopped, each copy's working directory under -d is removed with what is
 * left in it (the I/O test file, file-test files, links and subdirectories).
 * Only that directory is walked, two levels deep at most (the runner never
 * makes more), and symlinks are removed, never followed.
 */
#include "bonnie/bonnie_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"

static int remove_tree(int parent, const char *name, const char *shown, int depth)
{
	int rc = 0;
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dp = fd < 0 ? NULL : fdopendir(fd);
	if (!dp) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc == -ENOENT ? 0 : rc;
	}
	struct dirent *e;
	while ((e = readdir(dp))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(dirfd(dp), e->d_name, 0) == 0)
			continue;
		int err = -errno;
		if ((err == -EISDIR || err == -EPERM) && depth > 0)
			err = remove_tree(dirfd(dp), e->d_name, shown, depth - 1);
		if (err < 0 && rc == 0)
			rc = err;
	}
	closedir(dp);
	if (unlinkat(parent, name, AT_REMOVEDIR) < 0 && rc == 0)
		rc = -errno;
	if (rc < 0 && depth == 2)
		warning("cannot remove '%s' and everything in it: %s", shown, strerror(-rc));
	return rc;
}

int bon_cleanup(struct bon_copy *c)
{
	if (c->wfd >= 0) {
		close(c->wfd);
		c->wfd = -1;
	}
	if (!c->workdir_made)
		return 0;
	c->workdir_made = false;
	return remove_tree(AT_FDCWD, c->workdir, c->workdir, 2);
}
