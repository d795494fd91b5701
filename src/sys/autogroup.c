/*
 * Autogroup nice values (autogroup.h): read and written through
 * /proc/self/autogroup, whose text is "/autogroup-ID nice N"; the weights
 * are the kernel's nice-to-weight table (kernel/sched/core.c,
 * sched_prio_to_weight), nice 0 weighing 1024, each step about 1.25 times.
 */
#include "sys/autogroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AUTOGROUP_PATH "/proc/self/autogroup"
#define ENABLED_PATH "/proc/sys/kernel/sched_autogroup_enabled"

/* weight of nice -20 .. 0 */
static const unsigned weight_of_nice[21] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277, 1024,
};

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc)
		return rc;
	buf[n] = '\0';
	return 0;
}

int autogroup_parse(const char *text, int *nice)
{
	const char *p = strstr(text, " nice ");
	if (strncmp(text, "/autogroup-", 11) || !p)
		return -EINVAL;
	char *end;
	long v = strtol(p + 6, &end, 10);
	if (end == p + 6 || v < -20 || v > 19)
		return -EINVAL;
	*nice = (int)v;
	return 0;
}

int autogroup_nice_get(int *nice)
{
	char buf[128];
	int rc = read_small(ENABLED_PATH, buf, sizeof(buf));
	if (rc)
		return rc;
	if (atoi(buf) != 1)
		return -ENOENT;
	rc = read_small(AUTOGROUP_PATH, buf, sizeof(buf));
	if (rc)
		return rc;
	return autogroup_parse(buf, nice);
}

int autogroup_nice_set(int nice)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%d\n", nice);
	int fd = open(AUTOGROUP_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int rc = write(fd, buf, (size_t)n) == n ? 0 : -errno;
	close(fd);
	return rc;
}

int autogroup_nice_for(double sessions)
{
	if (!(sessions > 1))
		return 0;
	double want = log(1024.0 * sessions);
	int best = 0;
	double best_d = INFINITY;
	for (int i = 0; i <= 20; i++) {
		double d = fabs(log((double)weight_of_nice[i]) - want);
		if (d < best_d) {
			best_d = d;
			best = i - 20;
		}
	}
	return best;
}

int autogroup_tasks_busy(struct task_busy *out, unsigned max)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -errno;
	unsigned n = 0;
	struct dirent *e;
	while (n < max && (e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		char path[300], buf[128];
		snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat", e->d_name);
		unsigned long long run, wait;
		if (read_small(path, buf, sizeof(buf)) < 0 ||
		    sscanf(buf, "%llu %llu", &run, &wait) != 2)
			continue; /* the thread has just ended */
		out[n].tid = atoi(e->d_name);
		out[n].ns = run + wait;
		n++;
	}
	closedir(d);
	return (int)n;
}
