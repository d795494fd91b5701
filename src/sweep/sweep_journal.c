/*
 * The restore journal (sweep_journal.h): appending and fsync'ing entries,
 * reading a journal back, and undoing each kind of entry.
 */
#include "sweep/sweep_journal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "store/store_sweep.h"
#include "sweep/sweep_exec.h"
#include "sweep/sweep_int.h"
#include "sys/dev/devres.h"
#include "sys/dev/guardopen.h"
#include "sys/sysknob.h"
#include "util/error.h"
#include "util/xmalloc.h"

char *sweep_journal_path(const char *db)
{
	return xasprintf("%s-sweep-journal", db);
}

static void encode(FILE *f, const char *s)
{
	if (!*s) {
		fputs("%", f); /* an empty argument: a lone '%' */
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p == '%' || *p >= 0x7f)
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
}

static char *decode(const char *s, size_t n)
{
	char *out = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			out[k++] = s[i];
		} else if (i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
			   isxdigit((unsigned char)s[i + 2])) {
			char hex[3] = { s[i + 1], s[i + 2], 0 };
			out[k++] = (char)strtol(hex, NULL, 16);
			i += 2;
		}
	}
	out[k] = '\0';
	return out;
}

static void push(struct sweep_journal *j, char *kind, char *a, char *b)
{
	j->v = xgrow(j->v, &j->alloc, j->n + 1, sizeof(*j->v));
	j->v[j->n++] = (struct sweep_jentry){ .kind = kind, .a = a, .b = b };
}

/* Read the entries of the journal open on fd (from its start). */
static int load(struct sweep_journal *j)
{
	FILE *f = fdopen(dup(j->fd), "r");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			break; /* torn by a crash while it was written: never acted on */
		line[--len] = '\0';
		char *w[3] = { 0 };
		size_t nw = 0;
		for (char *save, *t = strtok_r(line, " ", &save); t && nw < 3;
		     t = strtok_r(NULL, " ", &save))
			w[nw++] = t;
		if (!nw)
			continue;
		if (!strcmp(w[0], "undo") && nw == 2) {
			unsigned long e = strtoul(w[1], NULL, 10);
			if (e < j->n)
				j->v[e].undone = true;
			push(j, xstrdup("undo"), NULL, NULL);
			j->v[j->n - 1].undone = true;
			continue;
		}
		push(j, xstrdup(w[0]), nw > 1 ? decode(w[1], strlen(w[1])) : NULL,
		     nw > 2 ? decode(w[2], strlen(w[2])) : NULL);
	}
	free(line);
	fclose(f);
	return 0;
}

int sweep_journal_open(struct sweep_journal *j, const char *path)
{
	memset(j, 0, sizeof(*j));
	j->fd = -1;
	j->path = xstrdup(path);
	struct devguard_use u = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE };
	struct devguard_fd g;
	char why[512];
	int rc = devguard_open(path, O_RDWR | O_CREAT | O_APPEND, 0600, &u, &g, why, sizeof(why));
	if (rc < 0)
		return error("cannot open the sweep's restore journal '%s': %s", path, why);
	j->fd = g.fd;
	if (flock(j->fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		close(j->fd);
		j->fd = -1;
		if (e == EWOULDBLOCK)
			return error("another sweep is running on this database (its restore journal "
				     "'%s' is locked)", path), -EBUSY;
		return error_errno(e, "cannot lock the sweep's restore journal '%s'", path);
	}
	if (g.created) { /* the new name is durable before anything relies on it */
		char *dir = xstrdup(path), *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		int dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(dir);
	}
	if ((rc = load(j)) < 0)
		return error_errno(-rc, "cannot read the sweep's restore journal '%s'", path);
	return 0;
}

static int append_line(struct sweep_journal *j, const char *text, size_t len)
{
	if (j->fd < 0)
		return 0; /* a dry run's journal, in memory only */
	if (write(j->fd, text, len) != (ssize_t)len || fdatasync(j->fd) < 0)
		return error_errno(errno ? errno : EIO, "cannot write the sweep's restore journal '%s'",
				   j->path);
	return 0;
}

int sweep_journal_add(struct sweep_journal *j, const char *kind, const char *a, const char *b,
		      size_t *entry)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	fputs(kind, m);
	if (a) {
		fputc(' ', m);
		encode(m, a);
	}
	if (b) {
		fputc(' ', m);
		encode(m, b);
	}
	fputc('\n', m);
	fclose(m);
	int rc = append_line(j, buf, len);
	free(buf);
	if (rc < 0)
		return rc;
	push(j, xstrdup(kind), a ? xstrdup(a) : NULL, b ? xstrdup(b) : NULL);
	if (entry)
		*entry = j->n - 1;
	return 0;
}

/* Detach every loop device backed by inode DEV:INO (a); path (b) for messages. */
static int undo_loop(const char *devino, const char *path)
{
	unsigned ma, mi;
	uint64_t ino;
	if (sscanf(devino, "%u:%u:%" SCNu64, &ma, &mi, &ino) != 3)
		return error("restore journal: bad loop entry '%s'", devino);
	struct devres_loop *loops;
	size_t n;
	char bad[64];
	int rc = devres_loops(&loops, &n, bad);
	if (rc < 0)
		return error_errno(-rc, "cannot list the loop devices (%s)", bad);
	for (size_t i = 0; i < n; i++) {
		if (loops[i].back_dev != makedev(ma, mi) || loops[i].back_ino != ino)
			continue;
		char dev[80], why[512];
		snprintf(dev, sizeof(dev), "/dev/%s", loops[i].name);
		char *argv[] = { "losetup", "-d", dev, NULL };
		struct sweep_cmd c = { .argv = argv };
		if (sweep_exec(&c, why, sizeof(why)) < 0) {
			rc = error("cannot detach %s (over '%s'): %s", dev, path, why);
			continue;
		}
		/* losetup -d of a device still in use only marks it to go (autoclear) */
		struct devres_loop l;
		for (int t = 0; t < 20 && devres_loop_info(loops[i].name, &l) == 0 &&
				l.back_ino == ino; t++) {
			struct timespec ts = { 0, 100 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
		if (devres_loop_info(loops[i].name, &l) == 0 && l.back_ino == ino &&
		    l.back_dev == makedev(ma, mi))
			rc = error("%s (over '%s') is still attached: something still uses it", dev,
				   path);
	}
	free(loops);
	return rc;
}

static bool is_mounted(const char *dir)
{
	char *line;
	struct devres_mount m;
	char real[4096];
	if (!realpath(dir, real))
		return false;
	if (devres_find_mount(real, &line, &m) < 0)
		return false;
	bool at = !strcmp(m.mountpoint, real);
	free(line);
	return at;
}

static int undo_mount(const char *dir)
{
	for (int tries = 0; is_mounted(dir); tries++) {
		if (umount2(dir, 0) == 0)
			continue;
		if (errno == EINVAL || errno == ENOENT)
			break;
		if (errno != EBUSY || tries >= 50) {
			if (umount2(dir, MNT_DETACH) == 0)
				break;
			return error_errno(errno, "cannot unmount '%s'", dir);
		}
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* The sweep a killed process left marked running is marked interrupted. */
static int undo_sweep(const char *journal, const char *id)
{
	size_t n = strlen(journal), sl = strlen("-sweep-journal");
	if (n <= sl || strcmp(journal + n - sl, "-sweep-journal"))
		return 0;
	char *db = xstrndup(journal, n - sl);
	struct store *st;
	struct store_sweep s;
	int rc = store_open(db, &st);
	if (rc == 0) {
		int64_t sid = strtoll(id, NULL, 10);
		if (store_sweep_get(st, sid, &s) == 0) {
			if (!strcmp(s.state, STORE_SWEEP_RUNNING))
				rc = store_sweep_set_state(st, sid, STORE_SWEEP_INTERRUPTED, -1);
			store_sweep_release(&s);
		}
		store_close(st);
	}
	free(db);
	return rc;
}

static int undo_one(const struct sweep_journal *j, const struct sweep_jentry *e)
{
	char why[512];
	const char *a = e->a ? e->a : "";
	if (!strcmp(e->kind, "image")) {
		if (unlink(a) < 0 && errno != ENOENT)
			return error_errno(errno, "cannot remove the image '%s'", a);
	} else if (!strcmp(e->kind, "mkdir")) {
		if (rmdir(a) < 0 && errno != ENOENT)
			return error_errno(errno, "cannot remove the directory '%s'", a);
	} else if (!strcmp(e->kind, "loop")) {
		return undo_loop(a, e->b ? e->b : "?");
	} else if (!strcmp(e->kind, "mount")) {
		return undo_mount(a);
	} else if (!strcmp(e->kind, "knob")) {
		if (access(a, F_OK) < 0 && errno == ENOENT)
			return 0; /* its device is gone, and its knobs with it */
		return sweep_knobs_undo_knob(j->sysfs, a, e->b ? e->b : "");
	} else if (!strcmp(e->kind, "qsnap")) {
		return sweep_knobs_undo(j->sysfs, a, e->b);
	} else if (!strcmp(e->kind, "cmd")) {
		char *argv[] = { "/bin/sh", "-c", (char *)a, NULL };
		struct sweep_cmd c = { .argv = argv };
		if (sweep_exec(&c, why, sizeof(why)) < 0)
			return error("teardown command '%s' failed: %s", a, why);
	} else if (!strcmp(e->kind, "sweep")) {
		return undo_sweep(j->path, a);
	} else if (strcmp(e->kind, "undo")) {
		return error("restore journal: unknown entry '%s'", e->kind);
	}
	return 0;
}

static int mark_undone(struct sweep_journal *j, size_t entry)
{
	char line[48];
	int len = snprintf(line, sizeof(line), "undo %zu\n", entry);
	int rc = append_line(j, line, (size_t)len);
	j->v[entry].undone = true;
	push(j, xstrdup("undo"), NULL, NULL); /* entries are numbered by line */
	j->v[j->n - 1].undone = true;
	return rc;
}

int sweep_journal_forget(struct sweep_journal *j, size_t entry)
{
	return entry < j->n && !j->v[entry].undone ? mark_undone(j, entry) : 0;
}

int sweep_journal_rollback(struct sweep_journal *j, size_t mark)
{
	int first = 0;
	for (size_t i = j->n; i > mark; i--) {
		struct sweep_jentry *e = &j->v[i - 1];
		if (e->undone)
			continue;
		int rc = undo_one(j, e);
		if (rc < 0 && !first)
			first = rc;
		if (rc < 0)
			continue; /* stays to undo: --restore tries again */
		if (mark_undone(j, i - 1) < 0 && !first)
			first = -EIO;
	}
	return first;
}

static void free_entries(struct sweep_journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->v[i].kind);
		free(j->v[i].a);
		free(j->v[i].b);
	}
	free(j->v);
	j->v = NULL;
	j->n = j->alloc = 0;
}

int sweep_journal_reset(struct sweep_journal *j)
{
	if (sweep_journal_pending(j))
		return -EBUSY;
	if (j->fd >= 0 && (ftruncate(j->fd, 0) < 0 || fdatasync(j->fd) < 0))
		return error_errno(errno, "cannot empty the sweep's restore journal '%s'", j->path);
	free_entries(j);
	return 0;
}

size_t sweep_journal_pending(const struct sweep_journal *j)
{
	size_t n = 0;
	for (size_t i = 0; i < j->n; i++)
		n += !j->v[i].undone;
	return n;
}

void sweep_journal_close(struct sweep_journal *j, bool remove)
{
	if (j->fd >= 0) {
		if (remove && j->path)
			unlink(j->path);
		close(j->fd); /* the lock goes with it */
	}
	free_entries(j);
	free(j->path);
	memset(j, 0, sizeof(*j));
	j->fd = -1;
}

int sweep_journal_restore(const char *path, bool *had)
{
	*had = false;
	struct stat st;
	if (stat(path, &st) < 0 && errno == ENOENT)
		return 0;
	struct sweep_journal j;
	int rc = sweep_journal_open(&j, path);
	if (rc < 0) {
		sweep_journal_close(&j, false);
		return rc;
	}
	*had = sweep_journal_pending(&j) > 0;
	rc = sweep_journal_rollback(&j, 0);
	sweep_journal_close(&j, rc == 0);
	return rc;
}
