/*
 * The per-device knob lock (sysknob_lock.h): the folder checked, the lock
 * file opened through the guarded open as iobench's own file, flock'ed,
 * and the holder's pid written in place (a fixed-width line, so no
 * truncation is ever needed). A lock another iobench holds is waited for
 * up to 5 s (a holder that is ending lets go), then refused.
 */
#include "sys/sysknob_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "sys/dev/guardopen.h"

#define RUN_DIR "/run/iobench"
/* how long a held lock is waited for, polled so often */
#define LOCK_WAIT_NS (5 * 1000000000L)
#define LOCK_POLL_NS (50 * 1000000L)

void sysknob_lock_dir(const char *sysfs, char *dir, size_t len)
{
	if (sysfs)
		snprintf(dir, len, "%s/iobench-locks", sysfs);
	else
		snprintf(dir, len, "%s", RUN_DIR);
}

/* The parent of pid (from /proc/PID/stat), or 0. */
static pid_t parent_of(pid_t pid)
{
	char file[64], line[512];
	snprintf(file, sizeof(file), "/proc/%d/stat", (int)pid);
	if (devres_read_line(file, line, sizeof(line)) < 0)
		return 0;
	const char *close = strrchr(line, ')'); /* the name may hold anything */
	int ppid = 0;
	char state;
	if (!close || sscanf(close + 1, " %c %d", &state, &ppid) != 2)
		return 0;
	return ppid;
}

/* Is pid this process or one of its ancestors? */
static bool is_self_or_ancestor(pid_t pid)
{
	if (pid <= 0)
		return false;
	pid_t p = getpid();
	for (int depth = 0; p > 1 && depth < 256; depth++, p = parent_of(p))
		if (p == pid)
			return true;
	return false;
}

static int check_dir(const char *dir, char *why, size_t whylen)
{
	struct stat st;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		int e = errno;
		snprintf(why, whylen, "cannot make the knob locks' folder '%s': %s", dir, strerror(e));
		return -e;
	}
	if (lstat(dir, &st) < 0) {
		int e = errno;
		snprintf(why, whylen, "cannot examine the knob locks' folder '%s': %s", dir,
			 strerror(e));
		return -e;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(why, whylen, "the knob locks' folder '%s' is %s owned by uid %u with mode "
			 "%04o: it must be a folder of uid %u that no one else can write", dir,
			 S_ISDIR(st.st_mode) ? "a folder" : "not a folder", (unsigned)st.st_uid,
			 (unsigned)(st.st_mode & 07777), (unsigned)geteuid());
		return -EPERM;
	}
	return 0;
}

int sysknob_lock_take(const char *dir, const char *key, const char *what, struct sysknob_lock *l,
		      char *why, size_t whylen)
{
	l->fd = -1;
	snprintf(l->key, sizeof(l->key), "%s", key);
	int rc = check_dir(dir, why, whylen);
	if (rc < 0)
		return rc;
	char path[PATH_MAX], gwhy[512];
	snprintf(path, sizeof(path), "%s/knobs-%s.lock", dir, key);
	struct devguard_use u = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE };
	struct devguard_fd g;
	if ((rc = devguard_open(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0644, &u, &g, gwhy,
				sizeof(gwhy))) < 0) {
		snprintf(why, whylen, "cannot open the knob lock of %s: %s", what, gwhy);
		return rc;
	}
	struct stat st;
	if (fstat(g.fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		snprintf(why, whylen, "the knob lock '%s' of %s is not a regular file of uid %u", path,
			 what, (unsigned)geteuid());
		close(g.fd);
		return -EPERM;
	}
	for (unsigned waited = 0; flock(g.fd, LOCK_EX | LOCK_NB) < 0; waited++) {
		int e = errno;
		char text[32] = "";
		ssize_t n = pread(g.fd, text, sizeof(text) - 1, 0);
		text[n > 0 ? n : 0] = '\0';
		long pid = strtol(text, NULL, 10);
		if (e != EWOULDBLOCK) {
			close(g.fd);
			snprintf(why, whylen, "cannot lock '%s' (the knob lock of %s): %s", path, what,
				 strerror(e));
			return -e;
		}
		if (is_self_or_ancestor((pid_t)pid)) {
			close(g.fd);
			return 0; /* ours, or the sweep's that runs us: it restores after us */
		}
		/* A holder that is ending lets go soon: a sweep detaches its loop
		 * device before its locks go, and a new loop device can get that
		 * number meanwhile (CI saw a sweep refused so on its own device).
		 * A signal ends the wait. */
		struct timespec ts = { 0, LOCK_POLL_NS };
		if (waited < LOCK_WAIT_NS / LOCK_POLL_NS && nanosleep(&ts, NULL) == 0)
			continue;
		close(g.fd);
		if (pid > 0)
			snprintf(why, whylen, "the knobs of %s are held by another iobench, pid %ld (its "
				 "lock '%s', waited %u s): one sweep or run --ioscheduler at a time per "
				 "device", what, pid, path, (unsigned)(LOCK_WAIT_NS / 1000000000L));
		else
			snprintf(why, whylen, "the knobs of %s are held by another iobench (its lock "
				 "'%s', no pid in it yet)", what, path);
		return -EBUSY;
	}
	char line[16];
	snprintf(line, sizeof(line), "%-11d\n", (int)getpid());
	if (pwrite(g.fd, line, 12, 0) != 12) {
		int e = errno ? errno : EIO;
		snprintf(why, whylen, "cannot write the pid into '%s': %s", path, strerror(e));
		close(g.fd);
		return -e;
	}
	l->fd = g.fd;
	return 0;
}

int sysknob_lock_disk(const char *sysfs, const char *disk, struct sysknob_lock *l, char *why,
		      size_t whylen)
{
	char file[PATH_MAX], dev[64], dir[PATH_MAX], what[160];
	unsigned ma, mi;
	l->fd = -1;
	snprintf(file, sizeof(file), "%s/block/%s/dev", sysfs ? sysfs : "/sys", disk);
	int rc = devres_read_line(file, dev, sizeof(dev));
	if (rc < 0 || sscanf(dev, "%u:%u", &ma, &mi) != 2) {
		snprintf(why, whylen, "cannot read the device number of %s ('%s'): %s", disk, file,
			 rc < 0 ? strerror(-rc) : "not MAJ:MIN");
		return rc < 0 ? rc : -EINVAL;
	}
	char key[32];
	snprintf(key, sizeof(key), "%u:%u", ma, mi);
	snprintf(what, sizeof(what), "%s (%s)", disk, key);
	sysknob_lock_dir(sysfs, dir, sizeof(dir));
	return sysknob_lock_take(dir, key, what, l, why, whylen);
}

void sysknob_lock_release(struct sysknob_lock *l)
{
	if (l->fd >= 0)
		close(l->fd); /* the lock goes with it; the file stays (removing it would race) */
	l->fd = -1;
}
