/*
 * A sweep's hold on its target queues (sweep_int.h): before the first
 * change each target queue's knob lock is taken (per device, whatever the
 * database: sys/sysknob_lock.h) and its whole writable state saved
 * (sys/sysknob_snap.h) and journaled as a "qsnap" entry; after every point
 * and at the end every saved queue is put back in the order that makes
 * the values stick and read back, and the journal's entry does the same
 * for `sweep --restore` after a SIGKILL. The vm sysctls, the machine's,
 * have one lock of their own while a plan turns one.
 */
#include "sweep/sweep_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sys/sysknob.h"
#include "util/error.h"
#include "util/xmalloc.h"

static bool plan_has(const struct sweep_plan *p, enum sweep_fkind kind)
{
	for (size_t i = 0; i < p->nr_factors; i++)
		if (p->factors[i].kind == kind)
			return true;
	return false;
}

static int take_lock(struct sweep_ctx *c, const char *disk)
{
	char why[PATH_MAX + 256];
	struct sysknob_lock l;
	int rc = disk ? sysknob_lock_disk(c->j.sysfs, disk, &l, why, sizeof(why)) : 0;
	if (!disk) {
		char dir[PATH_MAX];
		sysknob_lock_dir(c->j.sysfs, dir, sizeof(dir));
		rc = sysknob_lock_take(dir, "vm", "the vm sysctls", &l, why, sizeof(why));
	}
	if (rc < 0)
		return error("%s: refusing to turn knobs: %s", c->p->path, why);
	c->locks = xrealloc(c->locks, (c->nlock + 1) * sizeof(*c->locks));
	c->locks[c->nlock++] = l;
	return 0;
}

int sweep_knobs_begin(struct sweep_ctx *c)
{
	const struct sweep_plan *p = c->p;
	bool queue = p->target != SWT_DIR || plan_has(p, SWF_SCHED) || plan_has(p, SWF_QUEUE) ||
		     plan_has(p, SWF_MD);
	if (plan_has(p, SWF_VM)) {
		if (c->dry)
			fprintf(c->out, "  lock the vm sysctls (no other sweep turns them meanwhile)\n");
		else if (take_lock(c, NULL) < 0)
			return -1;
	}
	for (size_t d = 0; queue && d < c->ndisk; d++) {
		bool seen = false;
		for (size_t k = 0; k < d; k++)
			seen |= !strcmp(c->disks[k], c->disks[d]);
		if (seen)
			continue;
		if (c->dry) {
			fprintf(c->out, "  lock the knobs of %s and save its queue (every writable "
				"file of queue/ and queue/iosched/), put back after each point and at "
				"the end\n", c->disks[d]);
			continue;
		}
		char why[PATH_MAX + 256];
		struct sysknob_snap s;
		if (take_lock(c, c->disks[d]) < 0)
			return -1;
		if (sysknob_snap_take(c->j.sysfs, c->disks[d], &s, why, sizeof(why)) < 0)
			return error("%s: cannot save the queue knobs of %s: %s", p->path, c->disks[d],
				     why);
		char *id = sysknob_snap_id(&s), *text = sysknob_snap_text(&s);
		int rc = sweep_journal_add(&c->j, "qsnap", id, text, NULL);
		free(text);
		if (rc < 0) {
			free(id);
			sysknob_snap_release(&s);
			return error("cannot journal the queue knobs of %s", c->disks[d]);
		}
		fprintf(stderr, "sweep: saved the %zu writable queue knobs of %s%s%s\n", s.n, id,
			s.excluded ? "; left out: " : "", s.excluded ? s.excluded : "");
		free(id);
		free(s.excluded); /* said; the restore needs only the values */
		s.excluded = NULL;
		c->snaps = xrealloc(c->snaps, (c->nsnap + 1) * sizeof(*c->snaps));
		c->snaps[c->nsnap++] = s;
	}
	return 0;
}

int sweep_knobs_restore(struct sweep_ctx *c, bool final)
{
	int rc = 0;
	for (size_t i = 0; !c->dry && i < c->nsnap; i++) {
		char *report;
		if (sysknob_snap_restore(c->j.sysfs, &c->snaps[i], &report) < 0) {
			if (final)
				error("the queue knobs of %s did not all go back: %s", c->snaps[i].disk,
				      report);
			else
				warning("after the point, the queue knobs of %s did not all go back: %s",
					c->snaps[i].disk, report);
			rc = -1;
		}
		free(report);
	}
	return rc;
}

void sweep_knobs_end(struct sweep_ctx *c)
{
	for (size_t i = 0; i < c->nsnap; i++)
		sysknob_snap_release(&c->snaps[i]);
	free(c->snaps);
	c->snaps = NULL;
	c->nsnap = 0;
	for (size_t i = 0; i < c->nlock; i++)
		sysknob_lock_release(&c->locks[i]);
	free(c->locks);
	c->locks = NULL;
	c->nlock = 0;
}

int sweep_knobs_undo(const char *sysfs, const char *id, const char *text)
{
	char why[PATH_MAX + 256], dir[PATH_MAX], key[32], what[128];
	struct sysknob_snap s;
	if (sysknob_snap_parse(id, text ? text : "", &s, why, sizeof(why)) < 0)
		return error("restore journal: bad queue snapshot: %s", why);
	struct sysknob_lock l;
	snprintf(key, sizeof(key), "%u:%u", s.major, s.minor);
	snprintf(what, sizeof(what), "%s (%s)", s.disk, key);
	sysknob_lock_dir(sysfs, dir, sizeof(dir));
	int rc = sysknob_lock_take(dir, key, what, &l, why, sizeof(why));
	if (rc < 0) {
		sysknob_snap_release(&s);
		return error("cannot put the queue knobs of %s back now: %s", what, why);
	}
	char *report;
	rc = sysknob_snap_restore(sysfs, &s, &report);
	if (rc == -ESTALE)
		warning("the queue knobs of %s are not put back: %s", what, report);
	else if (rc < 0)
		warning("the queue knobs of %s did not all go back: %s", what, report);
	free(report);
	sysknob_lock_release(&l);
	sysknob_snap_release(&s);
	return 0;
}

int sweep_knobs_undo_knob(const char *sysfs, const char *file, const char *old)
{
	char why[PATH_MAX + 256], root[PATH_MAX], disk[64] = "", dir[PATH_MAX];
	struct sysknob_lock l = { .fd = -1 };
	int rc = 0;
	snprintf(root, sizeof(root), "%s/block/", sysfs ? sysfs : "/sys");
	size_t n = strlen(root);
	const char *slash = !strncmp(file, root, n) ? strchr(file + n, '/') : NULL;
	if (slash && (size_t)(slash - file - n) < sizeof(disk)) {
		memcpy(disk, file + n, (size_t)(slash - file - n));
		disk[slash - file - n] = '\0';
		rc = sysknob_lock_disk(sysfs, disk, &l, why, sizeof(why));
	} else if (!strncmp(file, "/proc/sys/vm/", 13)) {
		sysknob_lock_dir(sysfs, dir, sizeof(dir));
		rc = sysknob_lock_take(dir, "vm", "the vm sysctls", &l, why, sizeof(why));
	}
	if (rc < 0)
		return error("cannot put the knob '%s' back now: %s", file, why);
	if ((rc = sysknob_write_in(sysfs, file, old, why, sizeof(why))) < 0)
		error("cannot restore a knob: %s", why);
	sysknob_lock_release(&l);
	return rc;
}
