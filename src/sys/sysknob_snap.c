/*
 * Snapshots of a block queue's writable knobs and their ordered restore
 * (sysknob_snap.h). Paths are built here from the disk and the knob name,
 * both checked, and written through sysknob_write_in, which keeps every
 * write inside SYSFS/block/DISK/queue/.
 */
#include "sys/sysknob_snap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "sys/sysknob.h"
#include "util/xmalloc.h"

#define VAL_MAX 256
#define PASSES 3

static bool word_ok(const char *s)
{
	if (!*s || strstr(s, ".."))
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return false;
	return true;
}

/* "NAME" or "iosched/NAME" */
static bool knob_ok(const char *name)
{
	return word_ok(!strncmp(name, "iosched/", 8) ? name + 8 : name);
}

static const char *root(const char *sysfs)
{
	return sysfs ? sysfs : "/sys";
}

static void knob_file(const char *sysfs, const char *disk, const char *name, char file[PATH_MAX])
{
	snprintf(file, PATH_MAX, "%s/block/%s/queue/%s", root(sysfs), disk, name);
}

int sysknob_snap_order(const char *name)
{
	if (!strcmp(name, "scheduler"))
		return 0; /* a switch resets nr_requests and the iosched/ knobs */
	if (!strcmp(name, "nr_requests"))
		return 1; /* resets mq-deadline's async_depth, kyber's depths */
	if (!strncmp(name, "iosched/", 8))
		return 2;
	if (!strcmp(name, "max_sectors_kb"))
		return 3; /* a new limit: the kernel resets read_ahead_kb */
	if (!strcmp(name, "read_ahead_kb"))
		return 5; /* last: most limit and feature writes reset it */
	return 4;
}

static void add(struct sysknob_snap *s, size_t *alloc, const char *name, const char *val)
{
	s->v = xgrow(s->v, alloc, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = (struct sysknob_val){ .name = xstrdup(name), .val = xstrdup(val) };
}

static int by_order(const void *a, const void *b)
{
	const struct sysknob_val *x = a, *y = b;
	int d = sysknob_snap_order(x->name) - sysknob_snap_order(y->name);
	return d ? d : strcmp(x->name, y->name);
}

static int read_dev(const char *sysfs, const char *disk, unsigned *ma, unsigned *mi)
{
	char file[PATH_MAX], line[64];
	snprintf(file, sizeof(file), "%s/block/%s/dev", root(sysfs), disk);
	int rc = devres_read_line(file, line, sizeof(line));
	if (rc < 0)
		return rc;
	return sscanf(line, "%u:%u", ma, mi) == 2 ? 0 : -EINVAL;
}

/* Read the knobs of one folder (queue/ or queue/iosched/) into s. */
static void take_dir(const char *sysfs, struct sysknob_snap *s, size_t *alloc, const char *sub,
		     FILE *ro, size_t *nro, FILE *bad)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/block/%s/queue%s", root(sysfs), s->disk, sub);
	DIR *d = opendir(dir);
	if (!d)
		return; /* no iosched/: the scheduler is none */
	struct dirent *e;
	while ((e = readdir(d))) {
		char name[320], file[PATH_MAX], val[VAL_MAX], why[PATH_MAX + 64];
		struct stat st;
		snprintf(name, sizeof(name), "%s%s", *sub ? "iosched/" : "", e->d_name);
		if (e->d_name[0] == '.' || !knob_ok(name) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (!(st.st_mode & 0222)) { /* root may open it, the kernel has no store for it */
			fprintf(ro, "%s%s", (*nro)++ ? ", " : "", name);
			continue;
		}
		knob_file(sysfs, s->disk, name, file);
		if (sysknob_read(file, val, sizeof(val), why, sizeof(why)) < 0) {
			fprintf(bad, "; %s (cannot be read: a write-only knob)", name);
			continue;
		}
		add(s, alloc, name, val);
	}
	closedir(d);
}

int sysknob_snap_take(const char *sysfs, const char *disk, struct sysknob_snap *s, char *why,
		      size_t whylen)
{
	memset(s, 0, sizeof(*s));
	if (!word_ok(disk) || strlen(disk) >= sizeof(s->disk)) {
		snprintf(why, whylen, "'%s' is not a disk name", disk);
		return -EINVAL;
	}
	snprintf(s->disk, sizeof(s->disk), "%s", disk);
	int rc = read_dev(sysfs, disk, &s->major, &s->minor);
	if (rc < 0) {
		snprintf(why, whylen, "cannot read the device number of %s (%s/block/%s/dev): %s",
			 disk, root(sysfs), disk, strerror(-rc));
		return rc;
	}
	char *rotext = NULL, *badtext = NULL;
	size_t rolen = 0, badlen = 0, nro = 0, alloc = 0;
	FILE *ro = open_memstream(&rotext, &rolen), *bad = open_memstream(&badtext, &badlen);
	if (!ro || !bad) {
		if (ro)
			fclose(ro);
		if (bad)
			fclose(bad);
		free(rotext);
		free(badtext);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	take_dir(sysfs, s, &alloc, "", ro, &nro, bad);
	take_dir(sysfs, s, &alloc, "/iosched", ro, &nro, bad);
	fclose(ro);
	fclose(bad);
	if (!s->n) {
		snprintf(why, whylen, "%s has no writable queue knobs (%s/block/%s/queue/)", disk,
			 root(sysfs), disk);
		free(rotext);
		free(badtext);
		sysknob_snap_release(s);
		return -ENOENT;
	}
	qsort(s->v, s->n, sizeof(*s->v), by_order);
	if (nro || *badtext)
		s->excluded = xasprintf("%s%s%s", nro ? rotext : "", nro ? " (read-only)" : "",
					*badtext ? badtext + (nro ? 0 : 2) : "");
	free(rotext);
	free(badtext);
	return 0;
}

char *sysknob_snap_id(const struct sysknob_snap *s)
{
	return xasprintf("%s@%u:%u", s->disk, s->major, s->minor);
}

char *sysknob_snap_text(const struct sysknob_snap *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return xstrdup("");
	for (size_t i = 0; i < s->n; i++)
		fprintf(m, "%s=%s\n", s->v[i].name, s->v[i].val);
	fclose(m);
	return buf;
}

int sysknob_snap_parse(const char *id, const char *text, struct sysknob_snap *s, char *why,
		       size_t whylen)
{
	memset(s, 0, sizeof(*s));
	const char *at = strchr(id, '@');
	size_t dl = at ? (size_t)(at - id) : 0;
	if (!at || !dl || dl >= sizeof(s->disk) || sscanf(at + 1, "%u:%u", &s->major, &s->minor) != 2) {
		snprintf(why, whylen, "'%s' is not DISK@MAJ:MIN", id);
		return -EINVAL;
	}
	memcpy(s->disk, id, dl);
	s->disk[dl] = '\0';
	if (!word_ok(s->disk)) {
		snprintf(why, whylen, "'%s' is not a disk name", s->disk);
		return -EINVAL;
	}
	size_t alloc = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, n), *eq = strchr(line, '=');
		p += n + (nl ? 1 : 0);
		if (!n) {
			free(line);
			continue;
		}
		if (!eq || !knob_ok((*eq = '\0', line)) || strlen(eq + 1) >= VAL_MAX) {
			snprintf(why, whylen, "'%s' is not a queue knob of the snapshot", line);
			free(line);
			sysknob_snap_release(s);
			return -EINVAL;
		}
		add(s, &alloc, line, eq + 1);
		free(line);
	}
	qsort(s->v, s->n, sizeof(*s->v), by_order);
	return 0;
}

int sysknob_snap_restore(const char *sysfs, const struct sysknob_snap *s, char **report)
{
	return sysknob_snap_restore_by(sysfs, s, NULL, NULL, report);
}

int sysknob_snap_restore_by(const char *sysfs, const struct sysknob_snap *s, sysknob_writer *w,
			    void *arg, char **report)
{
	*report = NULL;
	unsigned ma, mi;
	int rc = read_dev(sysfs, s->disk, &ma, &mi);
	if (rc == -ENOENT)
		return 0; /* the disk is gone, and its queue with it */
	if (rc < 0 || ma != s->major || mi != s->minor) {
		*report = rc < 0 ? xasprintf("cannot read the device number of %s: %s", s->disk,
					     strerror(-rc))
				 : xasprintf("%s is now device %u:%u, not %u:%u as when its knobs were "
					     "saved: nothing written", s->disk, ma, mi, s->major, s->minor);
		return -ESTALE;
	}
	char (*err)[PATH_MAX + 128] = xcalloc(s->n ? s->n : 1, sizeof(*err));
	char file[PATH_MAX], cur[VAL_MAX];
	/* write what differs, in order; again while a later write undid an earlier one */
	for (int pass = 0; pass < PASSES; pass++) {
		bool wrote = false;
		for (size_t i = 0; i < s->n; i++) {
			knob_file(sysfs, s->disk, s->v[i].name, file);
			if (sysknob_read(file, cur, sizeof(cur), err[i], sizeof(err[i])) < 0 ||
			    !strcmp(cur, s->v[i].val))
				continue;
			err[i][0] = '\0';
			if ((w ? w(arg, sysfs, file, s->v[i].val, err[i], sizeof(err[i]))
			       : sysknob_write_in(sysfs, file, s->v[i].val, err[i], sizeof(err[i]))) == 0)
				wrote = true;
		}
		if (!wrote)
			break;
	}
	char *buf = NULL;
	size_t len = 0, bad = 0;
	FILE *m = open_memstream(&buf, &len);
	for (size_t i = 0; m && i < s->n; i++) {
		char why[PATH_MAX + 64];
		knob_file(sysfs, s->disk, s->v[i].name, file);
		if (sysknob_read(file, cur, sizeof(cur), why, sizeof(why)) < 0) {
			fprintf(m, "%s%s: %s%s", bad++ ? "; " : "", s->v[i].name, why,
				!strncmp(s->v[i].name, "iosched/", 8) ? " (a knob of another scheduler)"
								       : "");
			continue;
		}
		if (!strcmp(cur, s->v[i].val))
			continue;
		fprintf(m, "%s%s reads '%s', it was '%s' (%s)", bad++ ? "; " : "", s->v[i].name, cur,
			s->v[i].val, err[i][0] ? err[i]
			: "written back, but the kernel recomputed it or did not keep it");
	}
	if (m)
		fclose(m);
	free(err);
	if (!bad) {
		free(buf);
		return 0;
	}
	*report = buf;
	return -EIO;
}

void sysknob_snap_release(struct sysknob_snap *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].val);
	}
	free(s->v);
	free(s->excluded);
	memset(s, 0, sizeof(*s));
}
