/*
 * A sweep's targets (sweep_int.h): the check before anything changes (each
 * device named by --allow-destroy and passed by the device guard, each
 * image new, the directory there), and the setup that makes the image
 * files, attaches them as loop devices (losetup, direct I/O on by default)
 * and makes the mount point, each journaled before it is done.
 */
#include "sweep/sweep_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sweep/sweep_exec_int.h"
#include "sweep/sweep_journal_int.h"
#include "sys/dev/devguard.h"
#include "sys/dev/devres.h"
#include "sys/dev/guardopen.h"
#include "sys/iosched.h"
#include "sys/sysknob.h"
#include "util/error.h"
#include "util/units.h"
#include "util/xmalloc.h"

/* The first md factor of the plan, or NULL. */
static const struct sweep_factor *md_factor(const struct sweep_plan *p)
{
	for (size_t i = 0; i < p->nr_factors; i++)
		if (p->factors[i].kind == SWF_MD)
			return &p->factors[i];
	return NULL;
}

/* An md factor on a disk that is no md array: said, -1. */
static int md_check(const struct sweep_ctx *c, const char *path, const char *disk)
{
	const struct sweep_factor *f = md_factor(c->p);
	if (!f || sysknob_is_md(c->j.sysfs, disk))
		return 0;
	return error("%s:%u:%u: factor '%s': target '%s' (%s) is not an md array (no "
		     "%s/block/%s/md), so it has no md knobs", c->p->path, f->line, f->col,
		     f->name, path, disk, c->j.sysfs ? c->j.sysfs : "/sys", disk);
}

static bool needs_queue(const struct sweep_plan *p)
{
	for (size_t i = 0; i < p->nr_factors; i++)
		if (p->factors[i].kind == SWF_SCHED || p->factors[i].kind == SWF_QUEUE)
			return true;
	return false;
}

/* Does --allow-destroy name the block device rdev? */
static bool allowed(const struct devguard_allow *a, dev_t rdev)
{
	for (size_t i = 0; a && i < a->nr_devices; i++) {
		struct stat st;
		if (stat(a->devices[i], &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == rdev)
			return true;
	}
	return false;
}

int sweep_target_check(struct sweep_ctx *c, bool state)
{
	const struct sweep_plan *p = c->p;
	char why[2048];
	int rc = 0;
	for (size_t i = 0; i < p->nr_paths; i++) {
		const char *path = p->paths[i];
		struct stat st;
		if (p->target == SWT_IMAGE) {
			if (state && lstat(path, &st) == 0)
				rc = error("%s: image '%s' exists already: a sweep makes its images "
					   "itself (and removes them at the end); remove it or name "
					   "another", p->path, path);
		} else if (p->target == SWT_DEVICE) {
			if (stat(path, &st) < 0) {
				rc = error_errno(errno, "%s: target device '%s'", p->path, path);
			} else if (!S_ISBLK(st.st_mode)) {
				rc = error("%s: target device '%s' is not a block device", p->path, path);
			} else if (!allowed(c->o->allow, st.st_rdev)) {
				rc = error("%s: refusing to format '%s': a sweep destroys the data on "
					   "its target devices; name it with --allow-destroy=%s",
					   p->path, path, path);
			} else if (state && devguard_check(path, DEVGUARD_FORMAT | DEVGUARD_WRITE, c->o->allow,
						  why, sizeof(why)) < 0) {
				rc = error("%s: refusing to format '%s': %s", p->path, path, why);
			} else {
				char file[PATH_MAX], disk[64];
				if (iosched_find(path, file, disk, why, sizeof(why)) < 0) {
					const char *b = strrchr(path, '/');
					snprintf(disk, sizeof(disk), "%.63s", b ? b + 1 : path);
				}
				if (md_check(c, path, disk) < 0)
					rc = -1;
			}
		} else if (p->target == SWT_DIR) {
			char disks[4][64];
			size_t n = 0;
			if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
				rc = error("%s: target dir '%s' is not an existing directory", p->path,
					   path);
			} else if ((needs_queue(p) || md_factor(p)) &&
				   (devres_devices_for_path(path, disks, 4, &n) < 0 || !n)) {
				rc = error("%s: target dir '%s' is on no block device, so it has no "
					   "queue or md knobs to turn", p->path, path);
			} else if (md_factor(p) && md_check(c, path, disks[0]) < 0) {
				rc = -1;
			}
		}
	}
	return rc;
}

/* The proof of what the sweep just made at path: its device and inode. */
static int prove_inode(struct sweep_ctx *c, size_t e, const struct stat *st)
{
	char proof[64];
	snprintf(proof, sizeof(proof), "%u:%u:%" PRIu64, major(st->st_dev), minor(st->st_dev),
		 (uint64_t)st->st_ino);
	return sweep_journal_prove(&c->j, e, proof);
}

/* mkdir path (journaled, then its inode recorded). */
static int make_dir(struct sweep_ctx *c, const char *dir, mode_t mode)
{
	size_t e;
	int rc = sweep_journal_add(&c->j, "mkdir", dir, NULL, &e);
	if (rc < 0)
		return rc;
	if (mkdir(dir, mode) < 0) {
		rc = error_errno(errno, "cannot make the directory '%s'", dir);
		sweep_journal_forget(&c->j, e);
		return rc;
	}
	struct stat st;
	if (lstat(dir, &st) < 0 || prove_inode(c, e, &st) < 0)
		return error("cannot record the inode of the directory '%s' in the journal", dir);
	return 0;
}

static void add(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

/* mkdir the missing directories above path, outermost first, journaled. */
static int make_parents(struct sweep_ctx *c, const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int rc = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		struct stat st;
		if (stat(dir, &st) < 0) {
			if ((rc = make_parents(c, dir)) == 0) {
				if (c->dry)
					fprintf(c->out, "  mkdir %s\n", dir);
				else
					rc = make_dir(c, dir, 0755);
			}
		}
	}
	free(dir);
	return rc;
}

static int make_image(struct sweep_ctx *c, const char *path)
{
	const struct sweep_plan *p = c->p;
	char why[1024], size[32];
	fmt_iec(p->image_size, size, sizeof(size));
	int rc = make_parents(c, path);
	if (rc < 0)
		return rc;
	if (c->dry) {
		fprintf(c->out, "  create image %s (%s, sparse)\n", path, size);
		return 0;
	}
	size_t e;
	if ((rc = sweep_journal_add(&c->j, "image", path, NULL, &e)) < 0)
		return rc;
	struct devguard_use u = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE };
	struct devguard_fd g;
	if ((rc = devguard_open(path, O_RDWR | O_CREAT | O_EXCL, 0600, &u, &g, why, sizeof(why))) < 0) {
		sweep_journal_forget(&c->j, e); /* not ours: it must stay */
		return error("cannot create the image '%s': %s", path, why);
	}
	struct stat st;
	if (fstat(g.fd, &st) < 0 || prove_inode(c, e, &st) < 0) {
		rc = error("cannot record the inode of the image '%s' in the journal", path);
		close(g.fd);
		return rc;
	}
	if (ftruncate(g.fd, (off_t)p->image_size) < 0 || fsync(g.fd) < 0) {
		rc = error_errno(errno, "cannot size the image '%s' to %s", path, size);
		close(g.fd);
		return rc;
	}
	close(g.fd);
	return 0;
}

static int attach(struct sweep_ctx *c, const char *image)
{
	char *argv[] = { "losetup", "-f", "--show",
			 c->p->direct_io ? "--direct-io=on" : "--direct-io=off", (char *)image, NULL };
	char why[1024], out[256] = "";
	if (c->dry) {
		char *t = sweep_argv_text(argv);
		fprintf(c->out, "  %s\n", t);
		free(t);
		char *dev = xasprintf("<loop of %s>", image);
		add(&c->devs, &c->ndev, dev);
		add(&c->disks, &c->ndisk, dev);
		free(dev);
		return 0;
	}
	struct stat st;
	if (stat(image, &st) < 0)
		return error_errno(errno, "cannot examine the image '%s'", image);
	char devino[64];
	snprintf(devino, sizeof(devino), "%u:%u:%" PRIu64, major(st.st_dev), minor(st.st_dev),
		 (uint64_t)st.st_ino);
	int rc = sweep_journal_add(&c->j, "loop", devino, image, NULL);
	if (rc < 0)
		return rc;
	struct sweep_cmd cmd = { .argv = argv, .out = out, .outlen = sizeof(out), .journal = &c->j };
	if (sweep_exec(&cmd, why, sizeof(why)) < 0)
		return error("cannot attach '%s' as a loop device: %s", image, why);
	out[strcspn(out, "\n")] = '\0';
	struct devres_loop l;
	const char *name = strncmp(out, "/dev/", 5) ? out : out + 5;
	if (devres_loop_info(name, &l) < 0 || l.back_ino != (uint64_t)st.st_ino ||
	    l.back_dev != st.st_dev)
		return error("losetup said '%s' for '%s', which is not backed by it", out, image);
	add(&c->devs, &c->ndev, out);
	char file[PATH_MAX], disk[64];
	if (iosched_find(out, file, disk, why, sizeof(why)) < 0)
		snprintf(disk, sizeof(disk), "%.63s", name);
	add(&c->disks, &c->ndisk, disk);
	return 0;
}

int sweep_target_setup(struct sweep_ctx *c)
{
	const struct sweep_plan *p = c->p;
	char why[1024], file[PATH_MAX], disk[64];
	int rc = 0;
	if (p->target == SWT_IMAGE) {
		for (size_t i = 0; !rc && i < p->nr_paths; i++)
			if (!(rc = make_image(c, p->paths[i])))
				rc = attach(c, p->paths[i]);
	} else if (p->target == SWT_DEVICE) {
		for (size_t i = 0; i < p->nr_paths; i++) {
			add(&c->devs, &c->ndev, p->paths[i]);
			if (iosched_find(p->paths[i], file, disk, why, sizeof(why)) < 0) {
				const char *b = strrchr(p->paths[i], '/');
				snprintf(disk, sizeof(disk), "%.63s", b ? b + 1 : p->paths[i]);
			}
			add(&c->disks, &c->ndisk, disk);
		}
	} else {
		char disks[4][64];
		size_t n = 0;
		c->mnt = xstrdup(p->paths[0]);
		if (devres_devices_for_path(p->paths[0], disks, 4, &n) >= 0 && n)
			add(&c->disks, &c->ndisk, disks[0]);
		return 0;
	}
	if (rc < 0)
		return rc;
	/* our own loop devices: the guard lets mkfs at them once they carry a filesystem */
	c->allow_v = xcalloc(c->o->allow->nr_devices + c->ndev + 1, sizeof(*c->allow_v));
	for (size_t i = 0; i < c->o->allow->nr_devices; i++)
		c->allow_v[c->nr_allow++] = c->o->allow->devices[i];
	if (p->target == SWT_IMAGE)
		for (size_t i = 0; i < c->ndev; i++)
			c->allow_v[c->nr_allow++] = c->devs[i];
	c->allow = (struct devguard_allow){ .devices = c->allow_v, .nr_devices = c->nr_allow };
	c->mnt = xasprintf("/tmp/iobench-sweep-%d", (int)getpid());
	if (c->dry) {
		fprintf(c->out, "  mkdir %s\n", c->mnt);
		return 0;
	}
	return make_dir(c, c->mnt, 0700);
}
