/*
 * Per-process storage I/O counters from /proc/PID/io (procio.h). Reading
 * another process's io file needs root or the same user; unreadable ones
 * are skipped. Kernel threads are recognised by PF_KTHREAD in the flags
 * field of /proc/PID/stat.
 */
#include "sys/procio.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xmalloc.h"

#define PF_KTHREAD 0x00200000u

static long read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	return n;
}

int procio_parse(const char *text, uint64_t *read_bytes, uint64_t *write_bytes)
{
	const char *r = strstr(text, "\nread_bytes:");
	const char *w = strstr(text, "\nwrite_bytes:");
	if (!r || !w)
		return -EINVAL;
	*read_bytes = strtoull(r + 12, NULL, 10);
	*write_bytes = strtoull(w + 13, NULL, 10);
	return 0;
}

int procio_self_fd(int fd, uint64_t *read_bytes, uint64_t *write_bytes)
{
	char buf[1024];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return procio_parse(buf, read_bytes, write_bytes);
}

int procio_self(uint64_t *read_bytes, uint64_t *write_bytes)
{
	char buf[1024];
	long n = read_small("/proc/self/io", buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return procio_parse(buf, read_bytes, write_bytes);
}

/* comm, flags and starttime from /proc/PID/stat; -ESRCH for a kernel thread. */
static int read_stat(int pid, struct procio_entry *e)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	char *open_paren = strchr(buf, '('), *close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren)
		return -EINVAL;
	size_t len = (size_t)(close_paren - open_paren - 1);
	if (len >= sizeof(e->comm))
		len = sizeof(e->comm) - 1;
	memcpy(e->comm, open_paren + 1, len);
	e->comm[len] = '\0';
	/* after ")": state(3) ppid pgrp session tty_nr tpgid flags(9) ...
	 * starttime is field 22 */
	unsigned long long v[20];
	char state;
	if (sscanf(close_paren + 1, " %c %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu"
		   " %llu %llu %llu %llu %llu %llu %llu",
		   &state, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9],
		   &v[10], &v[11], &v[12], &v[13], &v[14], &v[15], &v[16], &v[17]) != 19)
		return -EINVAL;
	if (v[5] & PF_KTHREAD)
		return -ESRCH;
	e->start_ticks = v[17];
	return 0;
}

int procio_snapshot_take(struct procio_snapshot *s, int skip_pid)
{
	s->v = NULL;
	s->n = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return -errno;
	size_t alloc = 0;
	int self = getpid();
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		int pid = atoi(de->d_name);
		if (pid == self || pid == skip_pid)
			continue;
		struct procio_entry e = { .pid = pid };
		if (read_stat(pid, &e) < 0)
			continue;
		char path[64], buf[1024];
		snprintf(path, sizeof(path), "/proc/%d/io", pid);
		if (read_small(path, buf, sizeof(buf)) < 0 ||
		    procio_parse(buf, &e.read_bytes, &e.write_bytes) < 0)
			continue;
		s->v = xgrow(s->v, &alloc, s->n, sizeof(*s->v));
		s->v[s->n++] = e;
	}
	closedir(d);
	return 0;
}

void procio_snapshot_release(struct procio_snapshot *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static const struct procio_entry *find(const struct procio_snapshot *s, const struct procio_entry *e)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].pid == e->pid && s->v[i].start_ticks == e->start_ticks)
			return &s->v[i];
	return NULL;
}

static int by_bytes_desc(const void *pa, const void *pb)
{
	const struct procio_entry *a = pa, *b = pb;
	uint64_t x = a->read_bytes + a->write_bytes, y = b->read_bytes + b->write_bytes;
	return x < y ? 1 : x > y ? -1 : a->pid - b->pid;
}

void procio_diff(const struct procio_snapshot *a, const struct procio_snapshot *b,
		 uint64_t min_bytes, struct procio_entry **out, size_t *n)
{
	size_t alloc = 0;
	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct procio_entry g = b->v[i];
		const struct procio_entry *old = find(a, &g);
		if (old) {
			g.read_bytes = g.read_bytes > old->read_bytes ? g.read_bytes - old->read_bytes : 0;
			g.write_bytes = g.write_bytes > old->write_bytes ? g.write_bytes - old->write_bytes : 0;
		}
		if (g.read_bytes + g.write_bytes < min_bytes)
			continue;
		*out = xgrow(*out, &alloc, *n, sizeof(**out));
		(*out)[(*n)++] = g;
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), by_bytes_desc);
}

static bool same_dev(const struct stat *st, dev_t dev)
{
	return st->st_dev == dev || (S_ISBLK(st->st_mode) && st->st_rdev == dev);
}

bool procio_uses_dev(int pid, dev_t dev)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%d/cwd", pid);
	if (stat(path, &st) == 0 && same_dev(&st, dev))
		return true;
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		/* stat through the link: the file itself, not the link */
		if (fstatat(dirfd(d), de->d_name, &st, 0) == 0 && same_dev(&st, dev))
			found = true;
	}
	closedir(d);
	return found;
}

void procio_filter_dev(struct procio_entry *v, size_t *n, dev_t dev)
{
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		if (procio_uses_dev(v[i].pid, dev))
			v[k++] = v[i];
	*n = k;
}
