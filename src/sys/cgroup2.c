/*
 * cgroup v2 groups for job threads (cgroup2.h): /proc/self/mounts for the
 * cgroup2 mount, /proc/self/cgroup for the process's own group ("0::PATH"),
 * cgroup.type, cgroup.threads and cgroup.controllers.
 */
#include "sys/cgroup2.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/xmalloc.h"

static int mount_point(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "r");
	if (!f)
		return -errno;
	struct mntent m, *e;
	char tmp[4096];
	int rc = -ENOENT;
	while ((e = getmntent_r(f, &m, tmp, sizeof(tmp)))) {
		if (!strcmp(e->mnt_type, "cgroup2")) {
			snprintf(buf, len, "%s", e->mnt_dir);
			rc = 0;
			break;
		}
	}
	endmntent(f);
	return rc;
}

/* The process's cgroup v2 path ("/" or "/a/b"), from the "0::" line. */
static int own_group(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return -errno;
	char line[4096];
	int rc = -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line + 3) >= len) {
			rc = -ENAMETOOLONG;
			break;
		}
		memcpy(buf, line + 3, strlen(line + 3) + 1);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}

int cgroup2_group_path(const char *name, char **out, char *why, size_t whylen)
{
	char mnt[1024], own[2048];
	/* a group under iobench's own: never a way out of it */
	for (const char *c = name; *c; c += strcspn(c, "/"), c += *c == '/')
		if (!strncmp(c, "..", 2) && (c[2] == '/' || !c[2])) {
			snprintf(why, whylen, "cgroup name '%s' has a '..' component: the group must lie "
				 "under the cgroup iobench runs in", name);
			return -EINVAL;
		}
	int rc = mount_point(mnt, sizeof(mnt));
	if (rc < 0) {
		snprintf(why, whylen, "no cgroup2 filesystem is mounted (/proc/self/mounts lists none): iobench "
			 "places jobs in cgroup v2 groups only (fio 3.33 also takes a cgroup v1 blkio mount; "
			 "iobench does not); mount one (mount -t cgroup2 none /sys/fs/cgroup) or leave cgroup unset");
		return rc;
	}
	if ((rc = own_group(own, sizeof(own))) < 0) {
		snprintf(why, whylen, "this process is in no cgroup v2 group (/proc/self/cgroup has no 0:: line)");
		return rc;
	}
	/* MOUNT/NAME with the process in the root, MOUNT/OWN/NAME otherwise */
	*out = xasprintf("%s%s/%s", mnt, strcmp(own, "/") ? own : "", name);
	return 0;
}

static int read_small(const char *dir, const char *file, char *buf, size_t len)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_small(const char *dir, const char *file, const char *val)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, val, strlen(val));
	int e = errno;
	close(fd);
	return n < 0 ? -e : 0;
}

int cgroup2_prepare(const char *path, bool *created, char *why, size_t whylen)
{
	*created = false;
	if (mkdir(path, 0755) < 0) {
		int e = errno;
		if (e != EEXIST) {
			snprintf(why, whylen, "cannot create cgroup %s: %s%s", path, strerror(e),
				 e == EACCES || e == EROFS || e == EPERM ? " (the cgroup2 hierarchy is not writable "
				 "here: it needs root or a delegated subtree)" : "");
			return -e;
		}
	} else {
		*created = true;
	}
	char type[64];
	int rc = read_small(path, "cgroup.type", type, sizeof(type));
	if (rc < 0) {
		snprintf(why, whylen, "cannot read %s/cgroup.type: %s", path, strerror(-rc));
		goto fail;
	}
	if (!strcmp(type, "threaded"))
		return 0;
	if (!*created) {
		snprintf(why, whylen, "cgroup %s exists as a '%s' group: each iobench job is a thread, and "
			 "cgroup v2 takes single threads only into threaded groups (write 'threaded' to its "
			 "cgroup.type, or name a group iobench creates)", path, type);
		return -EOPNOTSUPP;
	}
	if ((rc = write_small(path, "cgroup.type", "threaded")) < 0) {
		snprintf(why, whylen, "cannot make cgroup %s threaded (cgroup.type): %s (the group iobench runs in "
			 "cannot be a threaded domain: it has child groups with domain controllers)",
			 path, strerror(-rc));
		goto fail;
	}
	return 0;
fail:
	if (*created)
		rmdir(path);
	*created = false;
	return rc;
}

int cgroup2_weight_refusal(const char *path, unsigned weight, char *why, size_t whylen)
{
	char parent[4096], ctl[512] = "";
	snprintf(parent, sizeof(parent), "%s", path);
	char *slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	int rc = read_small(parent, "cgroup.controllers", ctl, sizeof(ctl));
	bool io = false;
	for (char *t = strtok(ctl, " "); t; t = strtok(NULL, " "))
		io |= !strcmp(t, "io");
	if (rc < 0 || !io)
		snprintf(why, whylen, "cgroup_weight=%u cannot be applied: the cgroup v2 hierarchy at %s delegates "
			 "no io controller (its cgroup.controllers lists '%s'), so there is no io.weight or "
			 "io.bfq.weight to set; and io weights are per process, while each iobench job is a thread "
			 "(fio 3.33 refuses cgroup_weight on cgroup v2 too)", weight, parent, rc < 0 ? "nothing" : ctl);
	else
		snprintf(why, whylen, "cgroup_weight=%u cannot be applied: io is a domain controller, so cgroup v2 "
			 "weighs whole processes (io.weight, io.bfq.weight), while each iobench job is a thread of one "
			 "process (fio 3.33 refuses cgroup_weight on cgroup v2 too)", weight);
	return -ENOTSUP;
}

int cgroup2_enter(const char *path)
{
	char tid[32];
	snprintf(tid, sizeof(tid), "%d", (int)gettid());
	return write_small(path, "cgroup.threads", tid);
}

int cgroup2_remove(const char *path)
{
	/* an ended thread leaves its group a moment after pthread_join */
	for (int i = 0; i < 200; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	return -EBUSY;
}
