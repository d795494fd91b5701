/*
 * tracefs found in mountinfo, or mounted at /sys/kernel/tracing under an
 * flock of that directory (tracefs_int.h).
 */
#include "sys/tracefs_int.h"

#include "sys/dev/devres.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

int tracefs_scan(FILE *f, char *dir, size_t len)
{
	char *line = NULL, *first = NULL;
	size_t cap = 0;
	bool preferred = false;

	while (!preferred && getline(&line, &cap, f) > 0) {
		struct devres_mount m;
		if (devres_parse_mountinfo(line, &m) || strcmp(m.fstype, "tracefs") ||
		    strcmp(m.root, "/"))
			continue;
		preferred = !strcmp(m.mountpoint, TRACEFS_DEFAULT);
		if (!first || preferred) {
			free(first);
			first = strdup(m.mountpoint);
			if (!first) {
				free(line);
				return -ENOMEM;
			}
		}
	}
	free(line);
	if (!first)
		return -ENOENT;
	int rc = strlen(first) < len ? 0 : -ENAMETOOLONG;
	if (!rc)
		strcpy(dir, first);
	free(first);
	return rc;
}

/* tracefs_scan of the file mountinfo: 1 found, 0 not there, or -errno (a
 * file that cannot be read is an error, not "no tracefs") */
static int scan_file(const char *mountinfo, char *dir, size_t len)
{
	FILE *f = fopen(mountinfo, "re");
	if (!f)
		return error_errno(-errno, "cannot look for tracefs: open '%s'", mountinfo);
	int rc = tracefs_scan(f, dir, len);
	fclose(f);
	if (rc == 0 || rc == -ENOENT)
		return rc == 0;
	if (rc == -ENAMETOOLONG)
		return error_errno(rc, "tracefs's mount point in '%s' is longer than %zu bytes",
				   mountinfo, len - 1);
	if (rc == -ENOMEM)
		return error_errno(rc, "cannot look for tracefs in '%s'", mountinfo);
	return rc;
}

/* tracefs mounted at target, which is locked and open on fd */
static int mount_at(const char *target, int fd)
{
	struct statfs sf;
	if (fstatfs(fd, &sf) == 0 && sf.f_type == TRACEFS_MAGIC)
		return 0; /* the directory is tracefs's top already */
	if (mount("nodev", target, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		int e = errno;
		const char *why = e == EPERM ? " (mounting needs root: CAP_SYS_ADMIN)"
				  : e == ENODEV ? " (this kernel has no tracefs: CONFIG_TRACING)"
						: "";
		return error_errno(-e, "tracefs is not mounted and mounting it at '%s' failed%s",
				   target, why);
	}
	if (statfs(target, &sf) < 0 || sf.f_type != TRACEFS_MAGIC)
		return error("mounted tracefs at '%s' but the directory is not tracefs after it",
			     target);
	note("tracefs was not mounted: mounted it at '%s' (as perf and trace-cmd do)", target);
	return 1;
}

int tracefs_find_at(const char *mountinfo, const char *target, char *dir, size_t len,
		    bool *mounted_now)
{
	*mounted_now = false;
	int rc = scan_file(mountinfo, dir, len);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	if (strlen(target) >= len)
		return error_errno(-ENAMETOOLONG, "tracefs's mount point '%s' is longer than %zu bytes",
				   target, len - 1);
	int fd = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return error_errno(-e, "tracefs is not mounted and its mount point '%s' cannot be opened%s",
				   target, e == ENOENT ? " (a kernel without tracing?)" : "");
	}
	if (flock(fd, LOCK_EX) < 0) {
		rc = error_errno(-errno, "cannot lock '%s' to mount tracefs there", target);
		close(fd);
		return rc;
	}
	/* another process may have mounted it while this one waited */
	rc = scan_file(mountinfo, dir, len);
	if (rc == 0) {
		rc = mount_at(target, fd);
		if (rc >= 0) {
			*mounted_now = rc == 1;
			strcpy(dir, target);
			rc = 0;
		}
	} else if (rc == 1) {
		rc = 0;
	}
	close(fd); /* and the lock with it */
	return rc;
}

int tracefs_find(char *dir, size_t len, bool *mounted_now)
{
	return tracefs_find_at(TRACEFS_MOUNTINFO, TRACEFS_DEFAULT, dir, len, mounted_now);
}
