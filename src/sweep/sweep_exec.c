/*
 * fork/exec with the child's stdout and stderr on pipes (sweep_exec_int.h).
 * The stderr tail is what a failed point's message quotes.
 */
#include "sweep/sweep_exec_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep/sweep_group_int.h"
#include "sweep/sweep_journal.h"
#include "util/error.h"
#include "util/xmalloc.h"

#define ERR_TAIL 2048

extern char **environ;

static void child(const struct sweep_cmd *c, int out, int err, pid_t parent,
		  struct sweep_group *g)
{
	/* dies with the sweep; what it starts is in its group, which the
	 * journal records and restore ends */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(125);
	sweep_group_child(g);
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull >= 0)
		dup2(devnull, 0);
	dup2(out, 1);
	dup2(err, 2);
	if (c->cwd && chdir(c->cwd) < 0) {
		dprintf(2, "cannot enter '%s': %s\n", c->cwd, strerror(errno));
		_exit(126);
	}
	for (char *const *e = c->env_add; e && *e; e++)
		putenv(*e);
	const char *path = getenv("PATH");
	char *p = xasprintf("%s:/usr/sbin:/sbin", path ? path : "/usr/bin:/bin");
	setenv("PATH", p, 1);
	signal(SIGPIPE, SIG_DFL);
	execvp(c->argv[0], c->argv);
	dprintf(2, "cannot run '%s': %s\n", c->argv[0], strerror(errno));
	_exit(127);
}

/* The line of s that says what went wrong: the first naming an error,
 * else the first one (a usage text may follow it). */
static void failure_line(const char *s, char *out, size_t len)
{
	for (const char *l = s; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		char *line = xstrndup(l, n);
		bool says = strcasestr(line, "error") || strcasestr(line, "invalid") ||
			    strcasestr(line, "cannot");
		free(line);
		if (says) {
			snprintf(out, len, "%.*s", (int)n, l);
			return;
		}
		if (!e)
			break;
		l = e + 1;
	}
	while (*s == '\n')
		s++;
	snprintf(out, len, "%.*s", (int)strcspn(s, "\n"), s);
}

int sweep_group_record(struct sweep_journal *j, const struct sweep_group *g, size_t *entry)
{
	char a[96], b[PATH_MAX];
	sweep_group_format(g, a, sizeof(a), b, sizeof(b));
	return sweep_journal_add(j, "procs", a, b, entry);
}

void sweep_group_done(struct sweep_journal *j, const struct sweep_group *g, size_t entry,
		      bool recorded, bool keep)
{
	char why[256];
	if (keep && sweep_group_alive(g))
		return; /* the journal's undo ends it */
	if (sweep_group_end(g, why, sizeof(why)) < 0) {
		warning("%s", why);
		return; /* stays in the journal: restore tries again */
	}
	if (recorded)
		sweep_journal_forget(j, entry);
}

int sweep_exec(const struct sweep_cmd *c, char *why, size_t whylen)
{
	int po[2], pe[2];
	struct sweep_group g;
	if (sweep_group_begin(&g) < 0)
		goto fail_errno;
	if (pipe2(po, O_CLOEXEC) < 0) {
		sweep_group_release(&g, false);
		goto fail_errno;
	}
	if (pipe2(pe, O_CLOEXEC) < 0) {
		close(po[0]);
		close(po[1]);
		sweep_group_release(&g, false);
		goto fail_errno;
	}
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		sweep_group_release(&g, false);
		goto fail_errno;
	}
	if (pid == 0)
		child(c, po[1], pe[1], parent, &g);
	close(po[1]);
	close(pe[1]);
	sweep_group_enter(&g, pid);
	size_t entry = 0;
	bool recorded = false, let = true;
	if (c->journal) {
		recorded = sweep_group_record(c->journal, &g, &entry) == 0;
		let = recorded;
	}
	sweep_group_release(&g, let);
	char err[ERR_TAIL + 1] = "";
	size_t elen = 0, olen = 0;
	if (c->out && c->outlen)
		c->out[0] = '\0';
	struct pollfd fds[2] = { { po[0], POLLIN, 0 }, { pe[0], POLLIN, 0 } };
	int open_fds = 2, status = 0;
	bool passed = false, exited = false;
	while (open_fds) {
		if (c->stop && *c->stop && !passed) {
			kill(-pid, SIGTERM);
			passed = true;
		}
		/* what it left running may hold the pipes: its exit ends the
		 * reading (what is there already is read below) */
		if (!exited && waitpid(pid, &status, WNOHANG) == pid)
			exited = true;
		int r = poll(fds, 2, exited ? 0 : 200);
		if (exited && r == 0)
			break;
		if (r < 0 && errno != EINTR)
			break;
		for (int i = 0; r > 0 && i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			char buf[4096];
			ssize_t n = read(fds[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			if (i == 0 && c->out && olen + 1 < c->outlen) {
				size_t k = (size_t)n < c->outlen - 1 - olen ? (size_t)n : c->outlen - 1 - olen;
				memcpy(c->out + olen, buf, k);
				olen += k;
				c->out[olen] = '\0';
			} else if (i == 1) { /* keep the tail */
				if ((size_t)n >= ERR_TAIL) {
					memcpy(err, buf + n - ERR_TAIL, ERR_TAIL);
					elen = ERR_TAIL;
				} else {
					if (elen + (size_t)n > ERR_TAIL) {
						size_t drop = elen + (size_t)n - ERR_TAIL;
						memmove(err, err + drop, elen - drop);
						elen -= drop;
					}
					memcpy(err + elen, buf, (size_t)n);
					elen += (size_t)n;
				}
				err[elen] = '\0';
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (fds[i].fd >= 0)
			close(fds[i].fd);
	while (!exited && waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(why, whylen, "cannot wait for '%s': %s", c->argv[0], strerror(errno));
			sweep_group_done(c->journal, &g, entry, recorded, c->keep_group);
			return -1;
		}
		if (c->stop && *c->stop && !passed) {
			kill(-pid, SIGTERM);
			passed = true;
		}
	}
	sweep_group_done(c->journal, &g, entry, recorded, c->keep_group);
	if (!let) {
		snprintf(why, whylen, "cannot journal the process group of '%s'", c->argv[0]);
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	char line[512];
	failure_line(err, line, sizeof(line));
	const char *what = c->what ? c->what : c->argv[0];
	if (WIFEXITED(status))
		snprintf(why, whylen, "%s exited with status %d%s%s", what, WEXITSTATUS(status),
			 *line ? ": " : "", line);
	else
		snprintf(why, whylen, "%s was killed by signal %d%s%s", what,
			 WTERMSIG(status), *line ? ": " : "", line);
	return -1;
fail_errno:
	snprintf(why, whylen, "cannot run '%s': %s", c->argv[0], strerror(errno));
	return -1;
}

char **sweep_words(const char *line)
{
	size_t n = 0, alloc = 0;
	char **w = NULL;
	const char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		char *word = xmalloc(strlen(p) + 1);
		size_t k = 0;
		char q = 0;
		for (; *p && (q || (*p != ' ' && *p != '\t')); p++) {
			if (q && *p == q)
				q = 0;
			else if (!q && (*p == '\'' || *p == '"'))
				q = *p;
			else
				word[k++] = *p;
		}
		word[k] = '\0';
		w = xgrow(w, &alloc, n + 1, sizeof(*w));
		w[n++] = word;
	}
	w = xgrow(w, &alloc, n + 1, sizeof(*w));
	w[n] = NULL;
	return w;
}

void sweep_words_free(char **w)
{
	for (char **p = w; p && *p; p++)
		free(*p);
	free(w);
}

char *sweep_argv_text(char *const *argv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return xstrdup("");
	for (size_t i = 0; argv[i]; i++) {
		bool quote = !*argv[i] || strpbrk(argv[i], " \t'\"$;&|<>*?") != NULL;
		fprintf(m, "%s%s%s%s", i ? " " : "", quote ? "'" : "", argv[i], quote ? "'" : "");
	}
	fclose(m);
	return buf;
}
