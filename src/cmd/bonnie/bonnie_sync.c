/*
 * -u/-g and -p/-y for `iobench bonnie` (bonnie_sync.h). The barrier is the
 * reusable two-turnstile barrier of Downey's "Little Book of Semaphores"
 * built from five POSIX named semaphores (/dev/shm/sem.iobench-bonnie.*):
 * a mutex, the arrival count, two turnstiles and one holding the number of
 * processes that -p N gave.
 */
#include "cmd/bonnie/bonnie_sync_int.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEM_PREFIX "/iobench-bonnie."

static const char *const sem_names[5] = { "mutex", "count", "gate1", "gate2", "procs" };

static bool numeric(const char *s, long *v)
{
	char *end;
	if (!*s)
		return false;
	errno = 0;
	*v = strtol(s, &end, 10);
	return !*end && !errno && *v >= 0;
}

int bonnie_setugid(const char *user, const char *group, char *why, size_t len)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	bool set_gid = false;
	long n;
	if (user) {
		struct passwd *pw;
		if (numeric(user, &n)) {
			uid = (uid_t)n;
			pw = getpwuid(uid);
			struct group *gr = pw ? NULL : getgrnam("nogroup");
			if (pw || gr) {
				gid = pw ? pw->pw_gid : gr->gr_gid;
				set_gid = true;
			}
		} else {
			pw = getpwnam(user);
			if (!pw) {
				snprintf(why, len, "can't find user '%s'", user);
				return -ENOENT;
			}
			uid = pw->pw_uid;
			gid = pw->pw_gid;
			set_gid = true;
		}
	}
	if (group) {
		if (numeric(group, &n)) {
			gid = (gid_t)n;
		} else {
			struct group *gr = getgrnam(group);
			if (!gr) {
				snprintf(why, len, "can't find group '%s'", group);
				return -ENOENT;
			}
			gid = gr->gr_gid;
		}
		set_gid = true;
	}
	if (set_gid) {
		if (geteuid() == 0 && setgroups(1, &gid) < 0) {
			int e = errno;
			snprintf(why, len, "can't set the groups to %d: %s", (int)gid, strerror(e));
			return -e;
		}
		if (setgid(gid) < 0) {
			int e = errno;
			snprintf(why, len, "can't set gid to %d: %s", (int)gid, strerror(e));
			return -e;
		}
	}
	if (setuid(uid) < 0) {
		int e = errno;
		snprintf(why, len, "can't set uid to %d: %s", (int)uid, strerror(e));
		return -e;
	}
	return 0;
}

static void sem_path(char *buf, size_t len, int i)
{
	snprintf(buf, len, SEM_PREFIX "%s", sem_names[i]);
}

int bonnie_sem_remove(char *why, size_t len)
{
	char name[64];
	int rc = 0;
	for (int i = 0; i < 5; i++) {
		sem_path(name, sizeof(name), i);
		if (sem_unlink(name) < 0 && !rc) {
			rc = -errno;
			snprintf(why, len, "can't remove semaphore '%s': %s", name, strerror(errno));
		}
	}
	return rc;
}

int bonnie_sem_create(int procs, char *why, size_t len)
{
	const unsigned init[5] = { 1, 0, 0, 1, (unsigned)procs };
	char name[64];
	char ignored[8];
	bonnie_sem_remove(ignored, sizeof(ignored));
	mode_t old = umask(0);
	for (int i = 0; i < 5; i++) {
		sem_path(name, sizeof(name), i);
		sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0666, init[i]);
		if (s == SEM_FAILED) {
			int e = errno;
			umask(old);
			snprintf(why, len, "can't create semaphore '%s': %s", name, strerror(e));
			bonnie_sem_remove(ignored, sizeof(ignored));
			return -e;
		}
		sem_close(s);
	}
	umask(old);
	return 0;
}

int bonnie_barrier_open(struct bonnie_barrier *b, char *why, size_t len)
{
	sem_t **s[5] = { &b->mutex, &b->count, &b->gate1, &b->gate2, &b->procs };
	char name[64];
	memset(b, 0, sizeof(*b));
	for (int i = 0; i < 5; i++) {
		sem_path(name, sizeof(name), i);
		*s[i] = sem_open(name, 0);
		if (*s[i] == SEM_FAILED) {
			int e = errno;
			*s[i] = NULL;
			snprintf(why, len, "can't open semaphore '%s' (make it with -p N first): %s",
				 name, strerror(e));
			bonnie_barrier_close(b);
			return -e;
		}
	}
	return 0;
}

void bonnie_barrier_close(struct bonnie_barrier *b)
{
	sem_t *s[5] = { b->mutex, b->count, b->gate1, b->gate2, b->procs };
	for (int i = 0; i < 5; i++)
		if (s[i])
			sem_close(s[i]);
	memset(b, 0, sizeof(*b));
}

/* Wait on s, looking at the stop flag every 100 ms: the wait may run on a
 * thread that signals do not interrupt. -EINTR when stopped. */
static int w(sem_t *s, volatile sig_atomic_t *stop)
{
	for (;;) {
		if (stop && *stop)
			return -EINTR;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		if (sem_timedwait(s, &ts) == 0)
			return 0;
		if (errno != ETIMEDOUT && errno != EINTR)
			return -errno;
	}
}

static int p(sem_t *s)
{
	return sem_post(s) < 0 ? -errno : 0;
}

int bonnie_barrier_wait(struct bonnie_barrier *b, volatile sig_atomic_t *stop)
{
	int n, c, rc;
	if (sem_getvalue(b->procs, &n) < 0)
		return -errno;
	/* phase 1: everyone arrives, the last opens gate1 and closes gate2 */
	if ((rc = w(b->mutex, stop)) < 0)
		return rc;
	p(b->count);
	sem_getvalue(b->count, &c);
	if (c == n) {
		w(b->gate2, stop);
		p(b->gate1);
	}
	p(b->mutex);
	if ((rc = w(b->gate1, stop)) < 0)
		return rc;
	p(b->gate1);
	/* phase 2: everyone leaves, the last closes gate1 and opens gate2 */
	if ((rc = w(b->mutex, stop)) < 0)
		return rc;
	w(b->count, stop);
	sem_getvalue(b->count, &c);
	if (c == 0) {
		w(b->gate1, stop);
		p(b->gate2);
	}
	p(b->mutex);
	if ((rc = w(b->gate2, stop)) < 0)
		return rc;
	p(b->gate2);
	return 0;
}

void bonnie_prompt(unsigned test)
{
	char line[64];
	fprintf(stderr, "\n%u:\n", test);
	if (!fgets(line, sizeof(line), stdin))
		clearerr(stdin);
}
