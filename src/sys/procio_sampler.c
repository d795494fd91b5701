/*
 * The privileged procio sampler (procio_sampler.h): a forked child on one
 * end of a socket pair. Protocol: the parent writes one byte; the child
 * answers with a uint64_t count and that many struct procio_entry, and
 * exits. End of file instead of the byte makes it exit at once.
 */
#include "sys/procio_sampler.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/xmalloc.h"

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void child_main(int fd, const struct procio_snapshot *before, uint64_t min_bytes,
		       bool have_dev, dev_t dev, pid_t parent)
{
	char req;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	if (read_all(fd, &req, 1) < 0)
		_exit(0);
	struct procio_snapshot after;
	struct procio_entry *v = NULL;
	size_t n = 0;
	if (procio_snapshot_take(&after, (int)parent) == 0) {
		procio_diff(before, &after, min_bytes, &v, &n);
		if (have_dev)
			procio_filter_dev(v, &n, dev);
		else
			n = 0;
	}
	uint64_t count = n;
	if (write_all(fd, &count, sizeof(count)) == 0 && n)
		write_all(fd, v, n * sizeof(*v));
	_exit(0);
}

int procio_sampler_start(struct procio_sampler *ps, const struct procio_snapshot *before,
			 uint64_t min_bytes, bool have_dev, dev_t dev)
{
	int sv[2];
	ps->pid = 0;
	ps->fd = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int err = -errno;
		close(sv[0]);
		close(sv[1]);
		return err;
	}
	if (pid == 0) {
		close(sv[0]);
		child_main(sv[1], before, min_bytes, have_dev, dev, parent);
	}
	close(sv[1]);
	ps->pid = pid;
	ps->fd = sv[0];
	return 0;
}

static void reap(struct procio_sampler *ps)
{
	if (ps->fd >= 0)
		close(ps->fd);
	ps->fd = -1;
	while (ps->pid > 0 && waitpid(ps->pid, NULL, 0) < 0 && errno == EINTR)
		;
	ps->pid = 0;
}

int procio_sampler_finish(struct procio_sampler *ps, struct procio_entry **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (ps->pid <= 0)
		return -ESRCH;
	char req = 'e';
	uint64_t count = 0;
	int rc = write_all(ps->fd, &req, 1);
	if (!rc)
		rc = read_all(ps->fd, &count, sizeof(count));
	if (!rc && count > (1u << 20))
		rc = -EPROTO;
	if (!rc && count) {
		*out = xcalloc(count, sizeof(**out));
		rc = read_all(ps->fd, *out, count * sizeof(**out));
		if (rc) {
			free(*out);
			*out = NULL;
		} else {
			*n = count;
		}
	}
	reap(ps);
	return rc;
}

void procio_sampler_stop(struct procio_sampler *ps)
{
	reap(ps);
}
