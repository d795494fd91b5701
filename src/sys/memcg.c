/*
 * Making, entering and reading the workload's memory cgroup (memcg.h):
 * where the memory controller is (the cgroup2 and cgroup v1 mounts in
 * /proc/self/mountinfo, this process's place in them from /proc/self/cgroup,
 * or IOBENCH_CGROUP_ROOT), the child directory and its limit, the move in,
 * and the counters. The keeper and the removal are in memcg_keeper.c.
 */
#include "sys/memcg.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "sys/memcg_int.h"
#include "util/xmalloc.h"

int memcg_read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t off = 0;
	while (off + 1 < len) {
		ssize_t n = read(fd, buf + off, len - 1 - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;
			close(fd);
			return e;
		}
		if (n == 0)
			break;
		off += (size_t)n;
	}
	buf[off] = 0;
	close(fd);
	return 0;
}

int memcg_write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(text);
	ssize_t n;
	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	int rc = n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	return rc;
}

static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* The mount point of the first mount of fstype (whose super options hold
 * opt, if given), and its root within the hierarchy. */
static int find_mount(const char *fstype, const char *opt, char *mnt, size_t mlen, char *root,
		      size_t rlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;
	while (rc && getline(&line, &cap, f) > 0) {
		struct devres_mount m;
		if (devres_parse_mountinfo(line, &m) || strcmp(m.fstype, fstype))
			continue;
		if (opt) {
			char *o = m.super_options ? xstrdup(m.super_options) : xstrdup(""), *sp;
			bool has = false;
			for (char *t = strtok_r(o, ",", &sp); t && !has; t = strtok_r(NULL, ",", &sp))
				has = !strcmp(t, opt);
			free(o);
			if (!has)
				continue;
		}
		snprintf(mnt, mlen, "%s", m.mountpoint);
		snprintf(root, rlen, "%s", m.root);
		rc = 0;
	}
	free(line);
	fclose(f);
	return rc;
}

/* mount + this process's path in the hierarchy (a path inside a mount of
 * a subtree drops the subtree's part). */
static void join_home(char *home, size_t len, const char *mnt, const char *root, const char *self)
{
	size_t r = strlen(root);
	if (r > 1 && !strncmp(self, root, r) && (self[r] == '/' || !self[r]))
		self += r;
	snprintf(home, len, "%s%s", mnt, strcmp(self, "/") ? self : "");
}

static int located(char *why, size_t len, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int located(char *why, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return rc;
}

/* Where to make the child: home (a cgroup directory) and the version. */
static int find_home(char *home, size_t hlen, unsigned *version, char *why, size_t wlen)
{
	char text[4096], mnt[PATH_MAX], root[PATH_MAX], self[PATH_MAX], ctl[512] = "";
	const char *over = getenv("IOBENCH_CGROUP_ROOT");
	if (over && *over) {
		snprintf(home, hlen, "%s", over);
		snprintf(text, sizeof(text), "%s/cgroup.controllers", over);
		if (memcg_read_text(text, ctl, sizeof(ctl)) == 0) {
			*version = 2;
			if (!memcg_list_has(ctl, "memory"))
				return located(why, wlen, -EOPNOTSUPP,
					       "IOBENCH_CGROUP_ROOT '%s' is a cgroup v2 directory without "
					       "the memory controller (cgroup.controllers: %s)", over,
					       *ctl ? strtok(ctl, "\n") : "none");
			return 0;
		}
		*version = 1;
		if (!exists(over, "memory.limit_in_bytes"))
			return located(why, wlen, -ENOENT,
				       "IOBENCH_CGROUP_ROOT '%s' is not a memory cgroup (it has neither "
				       "cgroup.controllers nor memory.limit_in_bytes)", over);
		return 0;
	}
	int rc = memcg_read_text("/proc/self/cgroup", text, sizeof(text));
	if (rc < 0)
		return located(why, wlen, rc, "cannot read /proc/self/cgroup: %s", strerror(-rc));
	char v2where[PATH_MAX + 640] = "no cgroup2 filesystem is mounted";
	if (find_mount("cgroup2", NULL, mnt, sizeof(mnt), root, sizeof(root)) == 0 &&
	    memcg_parse_self(text, NULL, self, sizeof(self)) == 0) {
		join_home(home, hlen, mnt, root, self);
		char p[PATH_MAX + 64];
		snprintf(p, sizeof(p), "%s/cgroup.controllers", home);
		if (memcg_read_text(p, ctl, sizeof(ctl)) == 0 && memcg_list_has(ctl, "memory")) {
			*version = 2;
			return 0;
		}
		ctl[strcspn(ctl, "\n")] = 0;
		snprintf(v2where, sizeof(v2where), "cgroup v2 at '%s' offers no memory controller "
			 "(cgroup.controllers: %s)", home, *ctl ? ctl : "none");
	}
	if (find_mount("cgroup", "memory", mnt, sizeof(mnt), root, sizeof(root)) == 0 &&
	    memcg_parse_self(text, "memory", self, sizeof(self)) == 0) {
		join_home(home, hlen, mnt, root, self);
		if (exists(home, "memory.limit_in_bytes")) {
			*version = 1;
			return 0;
		}
	}
	return located(why, wlen, -EOPNOTSUPP, "no memory cgroup can be made: %s, and no cgroup v1 "
		       "memory hierarchy is mounted", v2where);
}

int memcg_create(struct memcg *m, uint64_t limit, char *why, size_t whylen)
{
	memset(m, 0, sizeof(*m));
	m->sock = -1;
	char home[PATH_MAX];
	unsigned version = 0;
	int rc = find_home(home, sizeof(home), &version, why, whylen);
	if (rc < 0)
		return rc;
	memcg_sweep_stale(home, version);
	char *dir = xasprintf("%s/iobench.%d", home, (int)getpid());
	if (mkdir(dir, 0755) < 0) {
		rc = -errno;
		if (rc == -EACCES || rc == -EPERM || rc == -EROFS)
			snprintf(why, whylen, "cannot create the memory cgroup '%s': %s; "
				 "--memory-limit needs write access to this process's memory cgroup "
				 "(run as root, or have the cgroup delegated to this user)",
				 dir, strerror(-rc));
		else
			snprintf(why, whylen, "cannot create the memory cgroup '%s': %s", dir,
				 strerror(-rc));
		free(dir);
		return rc;
	}
	m->version = version;
	m->dir = dir;
	m->home = xstrdup(home);
	m->limit = limit;
	rc = memcg_keeper_start(m);
	if (rc < 0) {
		snprintf(why, whylen, "cannot start the process that removes the memory cgroup "
			 "'%s': %s", dir, strerror(-rc));
		rmdir(dir);
		free(m->dir);
		free(m->home);
		memset(m, 0, sizeof(*m));
		m->sock = -1;
		return rc;
	}
	return 0;
}

static int write_in(const char *dir, const char *name, const char *val, char *why, size_t len)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	int rc = memcg_write_text(p, val);
	if (rc < 0)
		snprintf(why, len, "cannot write '%s' to '%s': %s", val, p, strerror(-rc));
	return rc;
}

int memcg_enter(struct memcg *m, char *why, size_t whylen)
{
	char pid[32], lim[32];
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	snprintf(lim, sizeof(lim), "%llu\n", (unsigned long long)m->limit);
	if (m->version == 1) {
		int rc = write_in(m->dir, "memory.limit_in_bytes", lim, why, whylen);
		if (!rc)
			rc = write_in(m->dir, "cgroup.procs", pid, why, whylen);
		m->entered = rc == 0;
		return rc;
	}
	/* v2: a cgroup with processes cannot pass controllers to its
	 * children, so move in first, then enable memory below home */
	int rc = write_in(m->dir, "cgroup.procs", pid, why, whylen);
	if (rc)
		return rc;
	m->entered = true;
	char p[PATH_MAX + 64], ctl[512] = "";
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", m->home);
	if (memcg_read_text(p, ctl, sizeof(ctl)) < 0 || !memcg_list_has(ctl, "memory")) {
		rc = memcg_write_text(p, "+memory");
		if (rc == -EBUSY) {
			snprintf(why, whylen, "cannot enable the memory controller below '%s': other "
				 "processes share that cgroup v2; start iobench in a cgroup of its own "
				 "(e.g. 'systemd-run --scope iobench ...')", m->home);
			return rc;
		}
		if (rc) {
			snprintf(why, whylen, "cannot enable the memory controller in '%s': %s", p,
				 strerror(-rc));
			return rc;
		}
		m->subtree_ctl = xstrdup(p);
		memcg_keeper_note_subtree(m);
	}
	return write_in(m->dir, "memory.max", lim, why, whylen);
}

static uint64_t kv(const char *text, const char *key)
{
	uint64_t v = 0;
	memcg_parse_kv(text, key, &v);
	return v;
}

static uint64_t num_file(const char *dir, const char *name)
{
	char p[PATH_MAX + 64], t[64];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (memcg_read_text(p, t, sizeof(t)) < 0)
		return 0;
	return strtoull(t, NULL, 10);
}

int memcg_read(const struct memcg *m, struct memcg_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!m->version)
		return -ENOENT;
	char p[PATH_MAX + 64], *text = xmalloc(16384);
	st->version = m->version;
	snprintf(st->path, sizeof(st->path), "%s", m->dir);
	snprintf(p, sizeof(p), "%s/memory.stat", m->dir);
	int rc = memcg_read_text(p, text, 16384);
	if (rc == 0) {
		st->refault_anon = kv(text, "workingset_refault_anon");
		st->refault_file = kv(text, "workingset_refault_file");
		if (m->version == 2) {
			st->have_scan = memcg_parse_kv(text, "pgscan", &st->scan_pages) == 0;
			st->reclaim_pages = kv(text, "pgsteal");
		} else {
			st->reclaim_pages = kv(text, "pgpgout");
			st->swap_bytes = kv(text, "swap");
		}
	}
	if (m->version == 2) {
		snprintf(p, sizeof(p), "%s/memory.events", m->dir);
		if (memcg_read_text(p, text, 16384) == 0) {
			st->limit_hits = kv(text, "max");
			st->oom_kills = kv(text, "oom_kill");
		}
		st->peak_bytes = num_file(m->dir, "memory.peak");
		st->swap_bytes = num_file(m->dir, "memory.swap.current");
		st->limit_bytes = num_file(m->dir, "memory.max");
	} else {
		st->limit_hits = num_file(m->dir, "memory.failcnt");
		st->peak_bytes = num_file(m->dir, "memory.max_usage_in_bytes");
		st->limit_bytes = num_file(m->dir, "memory.limit_in_bytes");
		snprintf(p, sizeof(p), "%s/memory.oom_control", m->dir);
		if (memcg_read_text(p, text, 16384) == 0)
			st->oom_kills = kv(text, "oom_kill");
	}
	if (!st->limit_bytes)
		st->limit_bytes = m->limit;
	free(text);
	return rc;
}
