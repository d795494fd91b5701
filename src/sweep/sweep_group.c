/*
 * A command's process group and cgroup (sweep_group_int.h): making them before
 * the child execs, telling whether anything of them still runs, and ending
 * them, each process verified as the group's own.
 */
#include "sweep/sweep_group_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "util/xmalloc.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define CG_PREFIX "iobench-sweep-"

int sweep_group_begin(struct sweep_group *g)
{
	memset(g, 0, sizeof(*g));
	g->gate[0] = g->gate[1] = -1;
	return pipe2(g->gate, O_CLOEXEC) < 0 ? -errno : 0;
}

void sweep_group_child(struct sweep_group *g)
{
	setpgid(0, 0);
	close(g->gate[1]);
	char c;
	ssize_t n;
	while ((n = read(g->gate[0], &c, 1)) < 0 && errno == EINTR)
		;
	if (n != 1)
		_exit(125);
	close(g->gate[0]);
}

int sweep_proc_stat(pid_t pid, unsigned long long *start, pid_t *pgrp, pid_t *sid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the name may hold blanks and ')' */
	if (!p)
		return -EINVAL;
	/* after ')': field 3 (state) onwards */
	char state;
	int ppid, pg, se;
	unsigned long long st = 0;
	if (sscanf(p + 1, " %c %d %d %d", &state, &ppid, &pg, &se) != 4)
		return -EINVAL;
	char *s = p + 2;
	for (int field = 3; field < 22 && s; field++) {
		s = strchr(s, ' ');
		if (s)
			s++;
	}
	if (!s || sscanf(s, "%llu", &st) != 1)
		return -EINVAL;
	if (state == 'Z' || state == 'X')
		return -ESRCH; /* gone already, only not reaped */
	if (start)
		*start = st;
	if (pgrp)
		*pgrp = pg;
	if (sid)
		*sid = se;
	return 0;
}

/* The cgroup v2 directory this process is in, or -ENOENT. */
static int own_cgroup(char *out, size_t len)
{
	const char *mounts[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	const char *mnt = NULL;
	for (size_t i = 0; i < 2 && !mnt; i++) {
		struct statfs sf;
		if (statfs(mounts[i], &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC)
			mnt = mounts[i];
	}
	if (!mnt)
		return -ENOENT;
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		const char *rel = line + 3;
		if (strstr(rel, "/..") || strstr(rel, "(deleted)"))
			break;
		snprintf(out, len, "%s%s", mnt, !strcmp(rel, "/") ? "" : rel);
		rc = 0;
		break;
	}
	free(line);
	fclose(f);
	return rc;
}

/* Make a cgroup for pid and move it there: 0, or -errno (none made). */
static int make_cgroup(struct sweep_group *g, pid_t pid)
{
	const char *off = getenv("IOBENCH_SWEEP_CGROUP");
	if (off && !strcmp(off, "0"))
		return -ENOENT;
	char base[PATH_MAX - 64];
	int rc = own_cgroup(base, sizeof(base));
	if (rc < 0)
		return rc;
	snprintf(g->cgroup, sizeof(g->cgroup), "%s/" CG_PREFIX "%d-%" PRIu64, base, (int)getpid(),
		 now_ns());
	if (mkdir(g->cgroup, 0700) < 0) {
		rc = -errno;
		g->cgroup[0] = '\0';
		return rc;
	}
	char procs[PATH_MAX + 16];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", g->cgroup);
	int fd = open(procs, O_WRONLY | O_CLOEXEC);
	char num[24];
	int n = snprintf(num, sizeof(num), "%d", (int)pid);
	if (fd < 0 || write(fd, num, (size_t)n) != n) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		rmdir(g->cgroup);
		g->cgroup[0] = '\0';
		return rc ? rc : -EIO;
	}
	close(fd);
	return 0;
}

void sweep_group_enter(struct sweep_group *g, pid_t pid)
{
	setpgid(pid, pid); /* as the child does: whichever runs first */
	g->pgid = pid;
	g->sid = getsid(0);
	sweep_proc_stat(pid, &g->start, NULL, NULL);
	make_cgroup(g, pid);
}

void sweep_group_release(struct sweep_group *g, bool ok)
{
	if (g->gate[0] >= 0)
		close(g->gate[0]);
	if (ok && g->gate[1] >= 0 && write(g->gate[1], "g", 1) != 1)
		ok = false;
	if (g->gate[1] >= 0)
		close(g->gate[1]);
	g->gate[0] = g->gate[1] = -1;
}

void sweep_group_format(const struct sweep_group *g, char *a, size_t alen, char *b, size_t blen)
{
	snprintf(a, alen, "%d:%llu:%d", (int)g->pgid, g->start, (int)g->sid);
	snprintf(b, blen, "%s", g->cgroup[0] ? g->cgroup : "-");
}

int sweep_group_parse(const char *a, const char *b, struct sweep_group *g, char *why,
		      size_t whylen)
{
	memset(g, 0, sizeof(*g));
	g->gate[0] = g->gate[1] = -1;
	int pg, sid, used = 0;
	if (!a || sscanf(a, "%d:%llu:%d%n", &pg, &g->start, &sid, &used) != 3 || a[used] ||
	    pg <= 1 || sid < 0 || !g->start) {
		snprintf(why, whylen, "'%s' is not PGID:START:SID", a ? a : "");
		return -EINVAL;
	}
	g->pgid = pg;
	g->sid = sid;
	if (!b || !strcmp(b, "-"))
		return 0;
	const char *base = strrchr(b, '/');
	struct statfs sf;
	if (b[0] != '/' || strstr(b, "/..") || !base || strncmp(base + 1, CG_PREFIX, strlen(CG_PREFIX))) {
		snprintf(why, whylen, "'%s' is not a sweep's cgroup (a directory named %s*)", b,
			 CG_PREFIX);
		return -EINVAL;
	}
	if (statfs(b, &sf) == 0 && sf.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(why, whylen, "'%s' is not on a cgroup2 filesystem", b);
		return -EINVAL;
	}
	snprintf(g->cgroup, sizeof(g->cgroup), "%s", b);
	return 0;
}

/* The pids in the cgroup's cgroup.procs into *v (NULL when none or no cgroup). */
static size_t cgroup_pids(const struct sweep_group *g, pid_t **v)
{
	*v = NULL;
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/cgroup.procs", g->cgroup);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = 0, alloc = 0;
	int pid;
	while (fscanf(f, "%d", &pid) == 1) {
		*v = xgrow(*v, &alloc, n + 1, sizeof(**v));
		(*v)[n++] = pid;
	}
	fclose(f);
	return n;
}

/* The verified members of the process group (no cgroup): same group and
 * session, started no earlier than the leader (a reused pid is younger
 * than the group only if the group is gone, and then its group id is its
 * own new one, never ours: ids in use as a group are not handed out). */
static size_t group_pids(const struct sweep_group *g, pid_t **v)
{
	*v = NULL;
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	size_t n = 0, alloc = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid_t pid = (pid_t)atoi(e->d_name);
		unsigned long long st;
		pid_t pg, sid;
		if (sweep_proc_stat(pid, &st, &pg, &sid) < 0 || pg != g->pgid || sid != g->sid ||
		    st < g->start || (pid == g->pgid && st != g->start))
			continue;
		*v = xgrow(*v, &alloc, n + 1, sizeof(**v));
		(*v)[n++] = pid;
	}
	closedir(d);
	return n;
}

static size_t members(const struct sweep_group *g, pid_t **v)
{
	if (g->cgroup[0]) {
		struct stat st;
		if (stat(g->cgroup, &st) == 0)
			return cgroup_pids(g, v);
	}
	return group_pids(g, v);
}

bool sweep_group_alive(const struct sweep_group *g)
{
	pid_t *v;
	size_t n = members(g, &v);
	free(v);
	return n > 0;
}

int sweep_group_end(const struct sweep_group *g, char *why, size_t whylen)
{
	bool cg = false;
	if (g->cgroup[0]) {
		struct stat st;
		cg = stat(g->cgroup, &st) == 0;
	}
	if (cg) {
		char kill_file[PATH_MAX + 16];
		snprintf(kill_file, sizeof(kill_file), "%s/cgroup.kill", g->cgroup);
		int fd = open(kill_file, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, "1", 1) != 1) { /* the per-pid kill below does it */
			}
			close(fd);
		}
	}
	size_t n = 0;
	for (int t = 0; t < 200; t++) {
		pid_t *v;
		n = members(g, &v);
		for (size_t i = 0; i < n; i++)
			kill(v[i], SIGKILL);
		free(v);
		while (waitpid(-g->pgid, NULL, WNOHANG) > 0) /* ours when we are their reaper */
			;
		if (!n)
			break;
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (n) {
		snprintf(why, whylen, "%zu process%s of group %d%s%s still run%s after SIGKILL", n,
			 n == 1 ? "" : "es", (int)g->pgid, cg ? " in cgroup " : "", cg ? g->cgroup : "",
			 n == 1 ? "s" : "");
		return -1;
	}
	if (cg) {
		for (int t = 0; t < 100 && rmdir(g->cgroup) < 0 && errno == EBUSY; t++) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
	return 0;
}
