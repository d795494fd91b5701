/*
 * The guarded open (guardopen.h): open, then judge the descriptor. The name
 * is only used to open; everything decided afterwards comes from fstat of
 * the descriptor and from the device guard run on that descriptor's inode
 * (/proc/self/fd/N), so a file swapped for a symlink or a device between a
 * plan and the open is seen as what it is. Descriptions of what was found
 * instead of what was planned are built here; the device findings
 * themselves come from devguard.c.
 */
#include "sys/dev/guardopen.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define CREATE_TRIES 8 /* open-or-create races lost in a row before giving up */

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

static bool writes(const struct devguard_use *u, int flags)
{
	return u->what || (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
}

static const char *readonly_by(const struct devguard_use *u)
{
	return u->allow ? u->allow->readonly_by : NULL;
}

/* The name fd was opened through, as the kernel has it now. */
static void fd_name(int fd, char *out, size_t len)
{
	char node[64];
	snprintf(node, sizeof(node), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(node, out, len - 1);
	if (n <= 0)
		n = 0;
	out[n] = '\0';
}

/* "block device /dev/loop3 (7:3, ext4 signature found, label 'x')", "a
 * directory", ... for what fd (with stat st) is; the device's name is left
 * out when it is path. */
static void describe_fd(int fd, const struct stat *st, const char *path, char *out, size_t len)
{
	char name[PATH_MAX], found[1536];

	fd_name(fd, name, sizeof(name));
	const char *shown = name[0] && strcmp(name, path) ? name : NULL;
	switch (st->st_mode & S_IFMT) {
	case S_IFREG:
		say(out, len, "a regular file");
		break;
	case S_IFBLK:
		if (devguard_check_fd(fd, name, DEVGUARD_DESCRIBE, NULL, false, found, sizeof(found)) < 0)
			found[0] = '\0';
		if (shown)
			say(out, len, "block device %s (%u:%u%s%s)", shown, major(st->st_rdev),
			    minor(st->st_rdev), found[0] ? ", " : "", found);
		else
			say(out, len, "block device %u:%u%s%s%s", major(st->st_rdev), minor(st->st_rdev),
			    found[0] ? " (" : "", found, found[0] ? ")" : "");
		break;
	case S_IFCHR:
		if (shown)
			say(out, len, "character device %s (%u:%u)", shown, major(st->st_rdev),
			    minor(st->st_rdev));
		else
			say(out, len, "character device %u:%u", major(st->st_rdev), minor(st->st_rdev));
		break;
	case S_IFDIR:
		say(out, len, "a directory");
		break;
	case S_IFIFO:
		say(out, len, "a named pipe");
		break;
	case S_IFSOCK:
		say(out, len, "a socket");
		break;
	default:
		say(out, len, "a file of type 0%o", (unsigned)(st->st_mode & S_IFMT));
		break;
	}
}

/* "a symbolic link to '/dev/loop3', block device /dev/loop3 (7:3, ext4
 * signature found)" for the symlink at path. */
static void describe_symlink(int dirfd, const char *path, char *out, size_t len)
{
	char target[PATH_MAX], found[1800] = "";
	struct stat st;
	ssize_t n = readlinkat(dirfd, path, target, sizeof(target) - 1);

	target[n > 0 ? n : 0] = '\0';
	if (fstatat(dirfd, path, &st, 0)) {
		say(out, len, "a symbolic link to '%s', which leads nowhere (%s)", target,
		    strerror(errno));
		return;
	}
	if (S_ISBLK(st.st_mode)) {
		/* opened for reading only, to describe it by its own inode */
		int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			describe_fd(fd, &st, target, found, sizeof(found));
			close(fd);
		}
	} else if (S_ISCHR(st.st_mode)) {
		say(found, sizeof(found), "character device %u:%u", major(st.st_rdev),
		    minor(st.st_rdev));
	} else if (S_ISDIR(st.st_mode)) {
		say(found, sizeof(found), "a directory");
	} else if (S_ISREG(st.st_mode)) {
		say(found, sizeof(found), "a regular file");
	}
	say(out, len, "a symbolic link to '%s'%s%s", target, found[0] ? ", " : "", found);
}

static bool expects_regular(const struct devguard_seen *s)
{
	return s && (s->type == 0 || s->type == S_IFREG);
}

static const char *seen_as(const struct devguard_seen *s, char *buf, size_t len)
{
	if (!s->type)
		return "did not exist when the run was set up";
	if (s->type == S_IFREG)
		return "was a regular file when the run was set up";
	snprintf(buf, len, "was %s device %u:%u when the run was set up",
		 s->type == S_IFBLK ? "block" : "character", major(s->rdev), minor(s->rdev));
	return buf;
}

/* Does what fd is still match the plan? */
static int check_seen(int fd, const struct stat *st, const char *path, const struct devguard_seen *s,
		      char *why, size_t whylen)
{
	mode_t type = st->st_mode & S_IFMT;
	bool same;

	if (!s)
		return 0;
	if (expects_regular(s))
		same = type == S_IFREG;
	else
		same = type == s->type && st->st_rdev == s->rdev;
	if (same)
		return 0;
	char was[64], now[1800];
	describe_fd(fd, st, path, now, sizeof(now));
	say(why, whylen, "'%s' %s and is now %s", path, seen_as(s, was, sizeof(was)), now);
	return type == S_IFBLK ? -EPERM : -EINVAL;
}

/* iobench's own output goes nowhere near a block device. */
static int check_own(int fd, const struct stat *st, const char *path, const struct devguard_use *u,
		     char *why, size_t whylen)
{
	if (!S_ISBLK(st->st_mode))
		return 0;
	char now[1800], ro[128] = "";
	describe_fd(fd, st, path, now, sizeof(now));
	if (readonly_by(u))
		snprintf(ro, sizeof(ro), "; read-only mode (%s) forbids writing it in any case",
			 readonly_by(u));
	say(why, whylen, "'%s' is %s; iobench writes its own output (reports, state files, logs) to "
	    "regular files, terminals, pipes and character devices such as /dev/null, never to a "
	    "block device%s", path, now, ro);
	return -EPERM;
}

/* A block device the job writes: claim it, then run the guard on it. */
static int check_data_bdev(int fd, const struct stat *st, const char *path,
			   const struct devguard_use *u, struct devguard_fd *out, char *why,
			   size_t whylen)
{
	unsigned what = u->what ? u->what : DEVGUARD_WRITE;

	if (!u->claims) {
		say(why, whylen, "'%s' is a block device, and this caller cannot hold it exclusively",
		    path);
		return -EPERM;
	}
	int rc = devguard_claim(u->claims, fd, st->st_rdev);
	if (rc == -EBUSY) {
		/* somebody has it: the guard says who (or that it is claimed) */
		rc = devguard_check_fd(fd, path, what, u->allow, false, why, whylen);
		if (rc >= 0)
			say(why, whylen, "'%s' is busy: another program has it open exclusively", path);
		return -EBUSY;
	}
	if (rc < 0) {
		say(why, whylen, "cannot open '%s' exclusively: %s", path, strerror(-rc));
		return rc;
	}
	rc = devguard_check_fd(fd, path, what, u->allow, true, why, whylen);
	if (rc < 0) {
		devguard_unclaim(u->claims, st->st_rdev);
		return rc;
	}
	out->claimed = st->st_rdev;
	return 0;
}

static int judge(int fd, const char *path, int flags, const struct devguard_use *u,
		 struct devguard_fd *out, char *why, size_t whylen)
{
	if (fstat(fd, &out->st)) {
		int rc = -errno;
		say(why, whylen, "cannot examine '%s' after opening it: %s", path, strerror(-rc));
		return rc;
	}
	out->fd = fd;
	out->claimed = 0;
	if (!writes(u, flags))
		return 0; /* reading harms nothing: only writers are judged */
	int rc = check_seen(fd, &out->st, path, u->seen, why, whylen);
	if (!rc && u->kind == DEVGUARD_OWN)
		rc = check_own(fd, &out->st, path, u, why, whylen);
	if (!rc && u->kind == DEVGUARD_DATA && S_ISBLK(out->st.st_mode))
		rc = check_data_bdev(fd, &out->st, path, u, out, why, whylen);
	return rc;
}

int devguard_adopt(int fd, const char *path, const struct devguard_use *u,
		   struct devguard_fd *out, char *why, size_t whylen)
{
	int flags = fcntl(fd, F_GETFL);

	if (whylen)
		why[0] = '\0';
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (flags < 0)
		return -errno;
	if (u->kind == DEVGUARD_DATA && writes(u, flags) && readonly_by(u)) {
		say(why, whylen, "read-only mode (%s) forbids every write, trim and format",
		    readonly_by(u));
		return -EROFS;
	}
	int rc = judge(fd, path, flags, u, out, why, whylen);
	if (rc < 0)
		out->fd = -1;
	return rc;
}

/* Is the directory open on dfd /dev's own filesystem? */
static bool is_dev_fs(int dfd)
{
	struct stat d, dev;
	char name[PATH_MAX];

	if (fstat(dfd, &d) || stat("/dev", &dev) || d.st_dev != dev.st_dev)
		return false;
	/* the same filesystem as /dev; where /dev is no mount of its own (a
	 * container), only what lies below the name /dev counts */
	fd_name(dfd, name, sizeof(name));
	return !strncmp(name, "/dev", 4) && (name[4] == '\0' || name[4] == '/');
}

int devguard_may_create(int dirfd, const char *path, char *why, size_t whylen)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (whylen)
		why[0] = '\0';
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	int dfd = openat(dirfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	bool dev = is_dev_fs(dfd);
	close(dfd);
	if (!dev)
		return 0;
	say(why, whylen, "'%s' does not exist, and iobench does not create files in /dev: a name "
	    "there that does not exist is a device that is not there (check the name, or that the "
	    "device is attached)", path);
	return -ENOENT;
}

/* Open an existing path; -ENOENT when there is none. */
static int open_existing(int dirfd, const char *path, int flags, bool nofollow,
			 const struct devguard_use *u, struct devguard_fd *out, char *why,
			 size_t whylen)
{
	int base = (flags & ~(O_CREAT | O_EXCL | O_TRUNC)) | O_CLOEXEC | O_NOCTTY;
	int fd;

	do
		fd = openat(dirfd, path, base | (nofollow ? O_NOFOLLOW : 0));
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		int rc = -errno;
		if (rc == -ELOOP && nofollow) {
			char what[1800], was[64];
			describe_symlink(dirfd, path, what, sizeof(what));
			if (u->seen)
				say(why, whylen, "'%s' %s and is now %s: refusing to follow it", path,
				    seen_as(u->seen, was, sizeof(was)), what);
			else
				say(why, whylen, "'%s' is %s: refusing to follow it", path, what);
		} else if (rc != -ENOENT) {
			say(why, whylen, "cannot open '%s': %s", path, strerror(-rc));
		}
		return rc;
	}
	int rc = judge(fd, path, flags, u, out, why, whylen);
	if (!rc && (flags & O_TRUNC) && S_ISREG(out->st.st_mode) && ftruncate(fd, 0) < 0) {
		rc = -errno;
		say(why, whylen, "cannot truncate '%s': %s", path, strerror(-rc));
		if (out->claimed)
			devguard_unclaim(u->claims, out->claimed);
	}
	if (rc < 0) {
		close(fd);
		out->fd = -1;
	}
	return rc;
}

int devguard_openat(int dirfd, const char *path, int flags, mode_t mode,
		    const struct devguard_use *u, struct devguard_fd *out, char *why, size_t whylen)
{
	bool nofollow = (flags & O_NOFOLLOW) || (expects_regular(u->seen) && !u->seen->symlink);
	int rc;

	if (whylen)
		why[0] = '\0';
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (u->kind == DEVGUARD_DATA && writes(u, flags) && readonly_by(u)) {
		say(why, whylen, "read-only mode (%s) forbids every write, trim and format",
		    readonly_by(u));
		return -EROFS;
	}
	/* planned as missing: try to create it first (it is there only if
	 * somebody else made it, and then it is opened and judged) */
	bool create_first = (flags & O_CREAT) && u->seen && !u->seen->type;
	for (int tries = 0; tries < CREATE_TRIES; tries++) {
		if (!((flags & O_CREAT) && (flags & O_EXCL)) && !(create_first && !tries)) {
			rc = open_existing(dirfd, path, flags, nofollow, u, out, why, whylen);
			if (rc != -ENOENT || !(flags & O_CREAT)) {
				if (rc == -ENOENT)
					say(why, whylen, "'%s' does not exist", path);
				return rc;
			}
		}
		/* O_EXCL on a name that is there: it exists (a device in /dev
		 * too), whatever the /dev rule below would say of a new name */
		if ((flags & O_EXCL) && faccessat(dirfd, path, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
			say(why, whylen, "'%s' exists", path);
			return -EEXIST;
		}
		if (!u->dir_checked && (rc = devguard_may_create(dirfd, path, why, whylen)) < 0) {
			if (rc != -ENOENT || !why[0])
				say(why, whylen, "cannot create '%s': %s", path, strerror(-rc));
			return rc;
		}
		/* O_CREAT|O_EXCL makes a new regular file or fails: it never
		 * follows a symlink, so the new descriptor needs no judging */
		int fd;
		do
			fd = openat(dirfd, path, (flags & ~O_TRUNC) | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
				    mode);
		while (fd < 0 && errno == EINTR);
		if (fd >= 0) {
			out->fd = fd;
			out->created = true;
			out->st.st_mode = S_IFREG | (mode & 07777);
			return 0;
		}
		rc = -errno;
		if (rc != -EEXIST || (flags & O_EXCL)) {
			say(why, whylen, "cannot create '%s': %s", path, strerror(-rc));
			return rc;
		}
		/* somebody made it between our two opens: open what is there */
	}
	say(why, whylen, "cannot create '%s': it keeps appearing and disappearing", path);
	return -EAGAIN;
}

int devguard_open(const char *path, int flags, mode_t mode, const struct devguard_use *u,
		  struct devguard_fd *out, char *why, size_t whylen)
{
	return devguard_openat(AT_FDCWD, path, flags, mode, u, out, why, whylen);
}

int devguard_fopen(const char *path, bool append, const struct devguard_allow *allow, FILE **fp,
		   char *why, size_t whylen)
{
	struct devguard_use u = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE, .allow = allow };
	struct devguard_fd g;
	int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);

	*fp = NULL;
	int rc = devguard_open(path, flags, 0644, &u, &g, why, whylen);
	if (rc < 0)
		return rc;
	*fp = fdopen(g.fd, append ? "a" : "w");
	if (!*fp) {
		rc = -errno;
		close(g.fd);
		say(why, whylen, "cannot open '%s' as a stream: %s", path, strerror(-rc));
		return rc;
	}
	return 0;
}
