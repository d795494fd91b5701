/*
 * The keeper of a workload's memory cgroup (memcg.h) and the removal. The
 * keeper is forked when the cgroup is made, before the process moves in and
 * before it drops privileges, so it stays outside the cgroup with the
 * creator's rights. It waits on a socket: "E" says the process enabled the
 * v2 memory controller in its old cgroup (to be undone), "M" asks it to move
 * the process back, remove the cgroup and answer with the result; end of
 * file (the process died or forgot) makes it wait for the cgroup to empty
 * and remove it. It ignores the terminal's signals, so Ctrl-C on the run
 * cannot stop the cleanup. Everything it needs is formatted before the fork.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "sys/memcg_int.h"
#include "util/array.h"

struct cg_paths {
	unsigned version;
	char dir[PATH_MAX];
	char procs[PATH_MAX + 16];       /* dir/cgroup.procs */
	char home_procs[PATH_MAX + 16];  /* home/cgroup.procs */
	char force_empty[PATH_MAX + 24]; /* dir/memory.force_empty (v1) */
	char subtree_ctl[PATH_MAX + 32]; /* home/cgroup.subtree_control (v2) */
};

static void fill_paths(struct cg_paths *p, const struct memcg *m)
{
	p->version = m->version;
	snprintf(p->dir, sizeof(p->dir), "%s", m->dir);
	snprintf(p->procs, sizeof(p->procs), "%s/cgroup.procs", m->dir);
	snprintf(p->home_procs, sizeof(p->home_procs), "%s/cgroup.procs", m->home);
	snprintf(p->force_empty, sizeof(p->force_empty), "%s/memory.force_empty", m->dir);
	snprintf(p->subtree_ctl, sizeof(p->subtree_ctl), "%s/cgroup.subtree_control", m->home);
}

static bool no_tasks(const char *procs)
{
	char buf[64];
	return memcg_read_text(procs, buf, sizeof(buf)) < 0 || !buf[strspn(buf, " \n")];
}

/* Undo the controller, move owner (0: none) home, wait for the cgroup to
 * empty, free its pages (v1) and remove it. 0 or the first -errno. */
static int cleanup(const struct cg_paths *p, bool undo_subtree, pid_t owner)
{
	int rc = 0, r;
	if (undo_subtree && (r = memcg_write_text(p->subtree_ctl, "-memory")) < 0)
		rc = r;
	if (owner > 0) {
		char pid[24];
		snprintf(pid, sizeof(pid), "%d\n", (int)owner);
		r = memcg_write_text(p->home_procs, pid);
		if (r < 0 && r != -ESRCH && !rc)
			rc = r;
	}
	/* the threads of a process that is exiting take a moment to leave */
	for (int i = 0; i < 1500 && !no_tasks(p->procs); i++)
		usleep(20000);
	if (p->version == 1)
		memcg_write_text(p->force_empty, "0");
	for (int i = 0; i < 250; i++) {
		if (rmdir(p->dir) == 0 || errno == ENOENT)
			return rc;
		if (errno != EBUSY)
			return rc ? rc : -errno;
		usleep(20000);
	}
	return rc ? rc : -EBUSY;
}

static _Noreturn void keeper_main(const struct cg_paths *p, int sock, pid_t owner)
{
	static const int ignored[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP };
	for (size_t i = 0; i < ARRAY_SIZE(ignored); i++)
		signal(ignored[i], SIG_IGN);
	prctl(PR_SET_NAME, "iobench-memcg", 0, 0, 0);
	/* hold no mount busy and no pipe of the caller's open but stderr */
	if (chdir("/") < 0)
		_exit(1);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	if (dup2(sock, 3) < 0)
		_exit(1);
	close_range(4, ~0u, 0);
	sock = 3;
	bool undo = false;
	for (;;) {
		char c;
		ssize_t n = recv(sock, &c, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 1 && c == 'E') {
			undo = true;
			continue;
		}
		int32_t rc = cleanup(p, undo, n == 1 && c == 'M' ? owner : 0);
		if (n == 1)
			send(sock, &rc, sizeof(rc), MSG_NOSIGNAL);
		_exit(rc ? 1 : 0);
	}
}

int memcg_keeper_start(struct memcg *m)
{
	struct cg_paths *p = malloc(sizeof(*p));
	if (!p)
		return -ENOMEM;
	fill_paths(p, m);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		int e = -errno;
		free(p);
		return e;
	}
	pid_t owner = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = -errno;
		close(sv[0]);
		close(sv[1]);
		free(p);
		return e;
	}
	if (pid == 0) {
		close(sv[0]);
		keeper_main(p, sv[1], owner);
	}
	close(sv[1]);
	free(p);
	m->keeper = pid;
	m->sock = sv[0];
	return 0;
}

void memcg_keeper_note_subtree(struct memcg *m)
{
	if (m->sock >= 0)
		send(m->sock, "E", 1, MSG_NOSIGNAL);
}

int memcg_remove(struct memcg *m, char *why, size_t whylen)
{
	if (!m->version)
		return 0;
	int rc = -ECHILD;
	if (m->sock >= 0) {
		char c = m->entered ? 'M' : 'R';
		ssize_t sent;
		do
			sent = send(m->sock, &c, 1, MSG_NOSIGNAL);
		while (sent < 0 && errno == EINTR);
		if (sent == 1) {
			int32_t r;
			ssize_t n;
			do
				n = recv(m->sock, &r, sizeof(r), MSG_WAITALL);
			while (n < 0 && errno == EINTR);
			if (n == (ssize_t)sizeof(r))
				rc = r;
		}
		close(m->sock);
	}
	if (m->keeper > 0)
		while (waitpid(m->keeper, NULL, 0) < 0 && errno == EINTR)
			;
	if (rc == -ECHILD) {
		/* the keeper is gone: do it here, with whatever rights are left */
		struct cg_paths *p = malloc(sizeof(*p));
		if (p) {
			fill_paths(p, m);
			rc = cleanup(p, m->subtree_ctl != NULL, m->entered ? getpid() : 0);
			free(p);
		}
	}
	if (rc < 0)
		snprintf(why, whylen, "cannot remove the memory cgroup '%s': %s", m->dir,
			 strerror(-rc));
	free(m->dir);
	free(m->home);
	free(m->subtree_ctl);
	memset(m, 0, sizeof(*m));
	m->sock = -1;
	return rc;
}

void memcg_sweep_stale(const char *home, unsigned version)
{
	DIR *d = opendir(home);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		if (strncmp(e->d_name, "iobench.", 8))
			continue;
		long pid = strtol(e->d_name + 8, &end, 10);
		/* one named after this process is older than it: a stale one */
		if (*end || pid <= 0 ||
		    (pid != getpid() && (kill((pid_t)pid, 0) == 0 || errno != ESRCH)))
			continue;
		char p[PATH_MAX + 300], f[PATH_MAX + 330];
		snprintf(p, sizeof(p), "%s/%s", home, e->d_name);
		snprintf(f, sizeof(f), "%s/cgroup.procs", p);
		if (!no_tasks(f))
			continue;
		if (version == 1) {
			snprintf(f, sizeof(f), "%s/memory.force_empty", p);
			memcg_write_text(f, "0");
		}
		rmdir(p);
	}
	closedir(d);
}
