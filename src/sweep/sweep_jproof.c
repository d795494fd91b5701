/*
 * The journal entries that must prove the sweep made what they undo
 * (sweep_journal_int.h): each is checked against the sweep's plan as the
 * database beside the journal stores it (read once, with the points of its
 * design) and against the machine, and undone only when both agree:
 *   image    one of the plan's images, the same device and inode as its
 *            proof recorded at creation (fstatat, never following a link),
 *            removed with unlinkat in the directory checked;
 *   mkdir    the sweep's mount point or a directory above a plan's image,
 *            the inode recorded when it was made;
 *   loop     the inode of a proven image entry for the same path; each loop
 *            device backed by it (LOOP_GET_STATUS64) must name that path as
 *            its backing file (sysfs);
 *   mount    the sweep's mount point, unmounted only while the top mount
 *            there has the mount id and source recorded at mount time;
 *   teardown the plan's teardown template, expanded for the point as the
 *            sweep did, never a command from the journal.
 */
#include "sweep/sweep_journal_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "store/store_sweep.h"
#include "sweep/sweep_exec_int.h"
#include "sweep/sweep_int.h"
#include "sys/dev/devres.h"
#include "util/error.h"
#include "util/xmalloc.h"

struct sweep_jsweep {
	int64_t id;
	long pid;            /* the process that ran it (0: not recorded) */
	int state;           /* 1 read, -1 could not be read (why) */
	char why[512];
	struct sweep_plan p;
	struct sweep_points pts;
};

void sweep_jsweep_free(struct sweep_jsweep *sw)
{
	if (!sw)
		return;
	if (sw->state > 0) {
		sweep_points_release(&sw->pts);
		sweep_plan_release(&sw->p);
	}
	free(sw);
}

/* The database beside the journal: ours, not writable by others, there. */
static int open_db(const struct sweep_journal *j, struct store **st, char *why, size_t whylen)
{
	size_t n = strlen(j->path), sl = strlen("-sweep-journal");
	if (n <= sl || strcmp(j->path + n - sl, "-sweep-journal")) {
		snprintf(why, whylen, "the journal is not named DB-sweep-journal, so it has no database");
		return -EINVAL;
	}
	char *db = xstrndup(j->path, n - sl);
	struct stat s;
	int rc = 0;
	if (lstat(db, &s) < 0 || !S_ISREG(s.st_mode)) {
		snprintf(why, whylen, "its database '%s' is not there", db);
		rc = -ENOENT;
	} else if (s.st_uid != geteuid() || (s.st_mode & S_IWOTH)) {
		snprintf(why, whylen, "its database '%s' is owned by uid %u with mode %04o, not by "
			 "uid %u and writable by nobody else", db, (unsigned)s.st_uid,
			 (unsigned)(s.st_mode & 07777), (unsigned)geteuid());
		rc = -EPERM;
	} else if (store_open(db, st) < 0) {
		snprintf(why, whylen, "its database '%s' cannot be opened", db);
		rc = -EIO;
	}
	free(db);
	return rc;
}

/* The stored sweep the journal's "sweep" entry names, read once. */
static struct sweep_jsweep *stored(struct sweep_journal *j, char *why, size_t whylen)
{
	if (j->sw && j->sw->state > 0)
		return j->sw;
	if (j->sw) {
		snprintf(why, whylen, "%s", j->sw->why);
		return NULL;
	}
	struct sweep_jsweep *sw = xcalloc(1, sizeof(*sw));
	j->sw = sw;
	sw->state = -1;
	const struct sweep_jentry *e = NULL;
	for (size_t i = 0; i < j->n; i++)
		if (!strcmp(j->v[i].kind, "sweep")) {
			if (e) {
				snprintf(sw->why, sizeof(sw->why), "the journal names two sweeps");
				goto fail;
			}
			e = &j->v[i];
		}
	if (!e || !e->a) {
		snprintf(sw->why, sizeof(sw->why), "the journal names no sweep");
		goto fail;
	}
	sw->id = strtoll(e->a, NULL, 10);
	sw->pid = e->b ? strtol(e->b, NULL, 10) : 0;
	struct store *st = j->store;
	if (!st && open_db(j, &st, sw->why, sizeof(sw->why)) < 0)
		goto fail;
	struct store_sweep s;
	int rc = store_sweep_get(st, sw->id, &s);
	if (st != j->store)
		store_close(st);
	if (rc < 0) {
		snprintf(sw->why, sizeof(sw->why), "its database has no sweep %" PRId64, sw->id);
		goto fail;
	}
	rc = sweep_plan_parse(s.plan_path, s.plan, strlen(s.plan), &sw->p);
	uint64_t seed = s.seed;
	store_sweep_release(&s);
	if (rc < 0) {
		snprintf(sw->why, sizeof(sw->why), "the stored plan of sweep %" PRId64 " does not "
			 "parse any more", sw->id);
		goto fail;
	}
	sw->p.seed = seed;
	if (sweep_design(&sw->p, seed, &sw->pts) < 0) {
		sweep_plan_release(&sw->p);
		snprintf(sw->why, sizeof(sw->why), "the stored plan of sweep %" PRId64 " gives no "
			 "points", sw->id);
		goto fail;
	}
	sw->state = 1;
	return sw;
fail:
	snprintf(why, whylen, "%s", sw->why);
	return NULL;
}

/* The sweep's mount point (xmalloc'ed), or NULL. */
static char *mount_point(const struct sweep_jsweep *sw)
{
	if (sw->p.target == SWT_DIR)
		return sw->p.nr_paths ? xstrdup(sw->p.paths[0]) : NULL;
	return sw->pid > 0 ? xasprintf("/tmp/iobench-sweep-%ld", sw->pid) : NULL;
}

static bool plan_image(const struct sweep_jsweep *sw, const char *path)
{
	for (size_t i = 0; sw->p.target == SWT_IMAGE && i < sw->p.nr_paths; i++)
		if (!strcmp(sw->p.paths[i], path))
			return true;
	return false;
}

static int parse_devino(const char *s, dev_t *dev, uint64_t *ino)
{
	unsigned ma, mi;
	if (!s || sscanf(s, "%u:%u:%" SCNu64, &ma, &mi, ino) != 3)
		return -EINVAL;
	*dev = makedev(ma, mi);
	return 0;
}

/* Open path's directory (O_PATH) and split off its last name. */
static int open_parent(const char *path, const char **base)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	if (!slash || !slash[1]) {
		free(dir);
		return -EINVAL;
	}
	*base = path + (slash - dir) + 1;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int rc = fd < 0 ? -errno : fd;
	free(dir);
	return rc;
}

/* Remove path (a file, or with dir an empty directory) if it is still the
 * inode the proof recorded. */
static int remove_proven(const struct sweep_jentry *e, bool dir, char *why, size_t whylen)
{
	dev_t dev;
	uint64_t ino;
	if (!e->proof || parse_devino(e->proof, &dev, &ino) < 0) {
		snprintf(why, whylen, "refused: no inode was recorded for it (the sweep stopped while "
			 "making it); '%s' is left alone: remove it yourself if it is the sweep's",
			 e->a);
		return -1;
	}
	const char *base;
	int dfd = open_parent(e->a, &base);
	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0) {
		snprintf(why, whylen, "cannot open the folder of '%s': %s", e->a, strerror(-dfd));
		return -1;
	}
	struct stat st;
	int rc = 0;
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT) {
			snprintf(why, whylen, "cannot examine '%s': %s", e->a, strerror(errno));
			rc = -1;
		}
	} else if ((dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) || st.st_dev != dev ||
		   (uint64_t)st.st_ino != ino) {
		snprintf(why, whylen, "refused: '%s' is not the %s the sweep made (it is %s, device "
			 "%u:%u inode %" PRIu64 "; the sweep's was %u:%u inode %" PRIu64 "): left "
			 "alone", e->a, dir ? "directory" : "image", S_ISLNK(st.st_mode) ? "a symbolic "
			 "link" : S_ISDIR(st.st_mode) ? "a directory" : S_ISREG(st.st_mode) ? "a file" :
			 "something else", major(st.st_dev), minor(st.st_dev), (uint64_t)st.st_ino,
			 major(dev), minor(dev), ino);
		rc = -1;
	} else if (unlinkat(dfd, base, dir ? AT_REMOVEDIR : 0) < 0 && errno != ENOENT) {
		snprintf(why, whylen, "cannot remove '%s': %s", e->a, strerror(errno));
		rc = -1;
	}
	close(dfd);
	return rc;
}

static int undo_image(struct sweep_journal *j, const struct sweep_jentry *e, char *why,
		      size_t whylen)
{
	char w[512];
	struct sweep_jsweep *sw = stored(j, w, sizeof(w));
	if (!sw) {
		snprintf(why, whylen, "refused: %s, so nothing proves the sweep made '%s'", w, e->a);
		return -1;
	}
	if (!plan_image(sw, e->a)) {
		snprintf(why, whylen, "refused: '%s' is no image of sweep %" PRId64 "'s plan: left "
			 "alone", e->a, sw->id);
		return -1;
	}
	return remove_proven(e, false, why, whylen);
}

static int undo_mkdir(struct sweep_journal *j, const struct sweep_jentry *e, char *why,
		      size_t whylen)
{
	char w[512];
	struct sweep_jsweep *sw = stored(j, w, sizeof(w));
	if (!sw) {
		snprintf(why, whylen, "refused: %s, so nothing proves the sweep made '%s'", w, e->a);
		return -1;
	}
	char *mnt = mount_point(sw);
	bool ours = mnt && !strcmp(mnt, e->a);
	free(mnt);
	size_t n = strlen(e->a);
	for (size_t i = 0; !ours && sw->p.target == SWT_IMAGE && i < sw->p.nr_paths; i++)
		ours = !strncmp(sw->p.paths[i], e->a, n) && sw->p.paths[i][n] == '/';
	if (!ours) {
		snprintf(why, whylen, "refused: '%s' is neither the mount point of sweep %" PRId64
			 " nor a folder above its images: left alone", e->a, sw->id);
		return -1;
	}
	return remove_proven(e, true, why, whylen);
}

/* The image entry of the journal for path whose proof is devino. */
static const struct sweep_jentry *proven_image(const struct sweep_journal *j, const char *path,
					       dev_t dev, uint64_t ino)
{
	for (size_t i = 0; i < j->n; i++) {
		const struct sweep_jentry *e = &j->v[i];
		dev_t d;
		uint64_t n;
		if (!strcmp(e->kind, "image") && e->a && !strcmp(e->a, path) &&
		    parse_devino(e->proof, &d, &n) == 0 && d == dev && n == ino)
			return e;
	}
	return NULL;
}

static int undo_loop(struct sweep_journal *j, const struct sweep_jentry *e, char *why,
		     size_t whylen)
{
	dev_t dev;
	uint64_t ino;
	char w[512];
	parse_devino(e->a, &dev, &ino);
	struct sweep_jsweep *sw = stored(j, w, sizeof(w));
	if (!sw) {
		snprintf(why, whylen, "refused: %s, so nothing proves the sweep attached a loop "
			 "device over '%s'", w, e->b);
		return -1;
	}
	if (!plan_image(sw, e->b) || !proven_image(j, e->b, dev, ino)) {
		snprintf(why, whylen, "refused: '%s' (inode %s) is not an image sweep %" PRId64
			 " made (no image entry of the journal recorded that inode for an image of "
			 "its plan): its loop devices are left attached", e->b, e->a, sw->id);
		return -1;
	}
	char real[PATH_MAX];
	if (!realpath(e->b, real))
		snprintf(real, sizeof(real), "%s", e->b);
	struct devres_loop *loops;
	size_t n;
	char bad[64];
	int rc = devres_loops(&loops, &n, bad);
	if (rc < 0) {
		snprintf(why, whylen, "cannot list the loop devices (%s): %s", bad, strerror(-rc));
		return -1;
	}
	rc = 0;
	for (size_t i = 0; i < n; i++) {
		if (loops[i].back_dev != dev || loops[i].back_ino != ino)
			continue;
		char dname[80], w2[512];
		snprintf(dname, sizeof(dname), "/dev/%s", loops[i].name);
		if (strcmp(loops[i].file, real) && strcmp(loops[i].file, e->b)) {
			snprintf(why, whylen, "refused: %s is backed by '%s', not the sweep's image "
				 "'%s': left attached", dname, loops[i].file, e->b);
			rc = -1;
			continue;
		}
		char *argv[] = { "losetup", "-d", dname, NULL };
		struct sweep_cmd c = { .argv = argv };
		if (sweep_exec(&c, w2, sizeof(w2)) < 0) {
			snprintf(why, whylen, "cannot detach %s (over '%s'): %s", dname, e->b, w2);
			rc = -1;
			continue;
		}
		/* losetup -d of a device still in use only marks it to go (autoclear) */
		struct devres_loop l;
		for (int t = 0; t < 20 && devres_loop_info(loops[i].name, &l) == 0 &&
				l.back_ino == ino; t++) {
			struct timespec ts = { 0, 100 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
		if (devres_loop_info(loops[i].name, &l) == 0 && l.back_ino == ino && l.back_dev == dev) {
			snprintf(why, whylen, "%s (over '%s') is still attached: something still uses it",
				 dname, e->b);
			rc = -1;
		}
	}
	free(loops);
	return rc;
}

/* The top mount at dir: its id and source into *id and src; 0, or -ENOENT. */
static int top_mount(const char *dir, int *id, char *src, size_t srclen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	int rc = -ENOENT;
	while (getline(&line, &cap, f) > 0) {
		struct devres_mount m;
		if (devres_parse_mountinfo(line, &m) == 0 && !strcmp(m.mountpoint, dir)) {
			*id = m.id; /* later lines are mounted on top */
			snprintf(src, srclen, "%s", m.source);
			rc = 0;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

int sweep_mount_proof(const char *dir, char *proof, size_t len)
{
	int id;
	char src[PATH_MAX];
	if (top_mount(dir, &id, src, sizeof(src)) < 0)
		return -ENOENT;
	snprintf(proof, len, "%d@%s", id, src);
	return 0;
}

static int undo_mount(struct sweep_journal *j, const struct sweep_jentry *e, char *why,
		      size_t whylen)
{
	char w[512];
	struct sweep_jsweep *sw = stored(j, w, sizeof(w));
	if (!sw) {
		snprintf(why, whylen, "refused: %s, so nothing proves the sweep mounted '%s': left "
			 "mounted", w, e->a);
		return -1;
	}
	char *mnt = mount_point(sw);
	bool ours = mnt && sw->p.target != SWT_DIR && !strcmp(mnt, e->a);
	free(mnt);
	if (!ours) {
		snprintf(why, whylen, "refused: '%s' is not the mount point of sweep %" PRId64 ": left "
			 "mounted", e->a, sw->id);
		return -1;
	}
	int want, tid;
	char tsrc[PATH_MAX];
	if (top_mount(e->a, &tid, tsrc, sizeof(tsrc)) < 0)
		return 0; /* nothing mounted there: the mount never happened, or is undone */
	char *at = e->proof ? strchr(e->proof, '@') : NULL;
	if (!at || sscanf(e->proof, "%d@", &want) != 1) {
		snprintf(why, whylen, "refused: no mount id was recorded for it (the sweep stopped "
			 "while mounting): '%s' is left mounted; unmount it yourself if it is the "
			 "sweep's", e->a);
		return -1;
	}
	for (int tries = 0;; tries++) {
		int id;
		char src[PATH_MAX];
		if (top_mount(e->a, &id, src, sizeof(src)) < 0)
			return 0; /* nothing mounted there (any more) */
		if (id != want || strcmp(src, at + 1)) {
			if (tries)
				return 0; /* ours is gone; what is below is not ours */
			snprintf(why, whylen, "refused: the mount on '%s' (mount id %d from '%s') is not "
				 "the one the sweep made (id %d from '%s'): left mounted", e->a, id, src,
				 want, at + 1);
			return -1;
		}
		if (umount2(e->a, UMOUNT_NOFOLLOW) == 0)
			continue;
		if (errno == EINVAL || errno == ENOENT)
			return 0;
		if (errno != EBUSY || tries >= 50) {
			if (umount2(e->a, MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
				return 0;
			snprintf(why, whylen, "cannot unmount '%s': %s", e->a, strerror(errno));
			return -1;
		}
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

char *sweep_jproof_teardown(struct sweep_journal *j, size_t i, char *why, size_t whylen)
{
	const struct sweep_jentry *e = &j->v[i];
	char w[512];
	struct sweep_jsweep *sw = stored(j, w, sizeof(w));
	if (!sw) {
		snprintf(why, whylen, "refused: %s, so its teardown cannot be looked up", w);
		return NULL;
	}
	unsigned long point = 0, step = 0;
	sscanf(e->b, "%lu:%lu", &point, &step);
	if (strtoll(e->a, NULL, 10) != sw->id) {
		snprintf(why, whylen, "refused: it names sweep %s, the journal is sweep %" PRId64 "'s",
			 e->a, sw->id);
		return NULL;
	}
	if (point >= sw->pts.n || step >= sw->p.nr_teardown) {
		snprintf(why, whylen, "refused: the stored plan of sweep %" PRId64 " has no teardown "
			 "%lu at point %lu (%zu teardown templates, %zu points): nothing run", sw->id,
			 step, point, sw->p.nr_teardown, sw->pts.n);
		return NULL;
	}
	/* the values the sweep had: its devices (loop devices over its
	 * proven images, or the plan's), its mount point */
	struct sweep_ctx c = { .p = &sw->p, .pts = &sw->pts };
	c.mnt = mount_point(sw);
	if (!c.mnt)
		c.mnt = xstrdup("");
	c.devs = xcalloc(sw->p.nr_paths + 1, sizeof(*c.devs));
	struct devres_loop *loops = NULL;
	size_t nl = 0;
	char bad[64];
	if (sw->p.target == SWT_IMAGE && devres_loops(&loops, &nl, bad) < 0)
		nl = 0;
	for (size_t k = 0; k < sw->p.nr_paths && sw->p.target != SWT_DIR; k++) {
		if (sw->p.target == SWT_DEVICE) {
			c.devs[c.ndev++] = xstrdup(sw->p.paths[k]);
			continue;
		}
		for (size_t m = 0; m < j->n; m++) {
			const struct sweep_jentry *im = &j->v[m];
			dev_t d;
			uint64_t ino;
			if (strcmp(im->kind, "image") || strcmp(im->a, sw->p.paths[k]) ||
			    parse_devino(im->proof, &d, &ino) < 0)
				continue;
			for (size_t l = 0; l < nl; l++)
				if (loops[l].back_dev == d && loops[l].back_ino == ino) {
					c.devs[c.ndev++] = xasprintf("/dev/%s", loops[l].name);
					break;
				}
			break;
		}
	}
	free(loops);
	char *cmd = sweep_expand(&c, point, sw->p.teardown[step]);
	for (size_t k = 0; k < c.ndev; k++)
		free(c.devs[k]);
	free(c.devs);
	free(c.mnt);
	return cmd;
}

static int undo_teardown(struct sweep_journal *j, size_t i, char *why, size_t whylen)
{
	char *cmd = sweep_jproof_teardown(j, i, why, whylen);
	if (!cmd)
		return -1;
	char w[512];
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	struct sweep_cmd c = { .argv = argv, .what = "teardown command" };
	int rc = sweep_exec(&c, w, sizeof(w));
	if (rc < 0)
		snprintf(why, whylen, "teardown command '%s' failed: %s", cmd, w);
	free(cmd);
	return rc < 0 ? -1 : 0;
}

int sweep_jproof_undo(struct sweep_journal *j, size_t i, char *why, size_t whylen)
{
	const struct sweep_jentry *e = &j->v[i];
	if (!strcmp(e->kind, "image"))
		return undo_image(j, e, why, whylen);
	if (!strcmp(e->kind, "mkdir"))
		return undo_mkdir(j, e, why, whylen);
	if (!strcmp(e->kind, "loop"))
		return undo_loop(j, e, why, whylen);
	if (!strcmp(e->kind, "mount"))
		return undo_mount(j, e, why, whylen);
	if (!strcmp(e->kind, "teardown"))
		return undo_teardown(j, i, why, whylen);
	snprintf(why, whylen, "unknown kind of entry '%s'", e->kind);
	return -1;
}
