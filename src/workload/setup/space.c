/*
 * Free space before layout: the bytes the planned layouts allocate (the
 * data a read job's file is filled with, or what fallocate reserves for a
 * writer; a sparse layout, fallocate=none or truncate, allocates nothing)
 * are summed per filesystem over all the jobs of the run and compared with
 * what statvfs says an unprivileged writer may still use (f_bavail). A run
 * that would not fit is refused before the first byte is written, naming
 * both figures and the filesystem, instead of laying out until ENOSPC.
 * A filesystem that reports no size at all (ramfs: f_blocks 0) has no
 * limit to compare with and is not checked.
 */
#include "util/array.h"
#include "workload/job/job.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "sys/dev/devres.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "workload/setup/setup.h"

/* One filesystem the layouts touch. */
struct fs_need {
	dev_t dev;
	char probe[PATH_MAX]; /* an existing path on it */
	uint64_t need;
	unsigned files;
	const struct job *first_job;
	const char *first_path;
	bool several_jobs;
	bool allocating_writer; /* some of it is fallocate for a writer */
};

static void human(uint64_t b, char *out, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)b;
	unsigned u = 0;
	while (v >= 1024 && u + 1 < ARRAY_SIZE(unit)) {
		v /= 1024;
		u++;
	}
	if (u)
		snprintf(out, len, "%.1f %s (%llu bytes)", v, unit[u], (unsigned long long)b);
	else
		snprintf(out, len, "%llu bytes", (unsigned long long)b);
}

/* "the filesystem at /mnt (ext4 on /dev/loop3)" for the path probe. */
static void fs_name(const char *probe, char *out, size_t len)
{
	char real[PATH_MAX], *line = NULL;
	struct devres_mount m;

	if (!realpath(probe, real) || devres_find_mount(real, &line, &m) < 0) {
		snprintf(out, len, "the filesystem of '%s'", probe);
		free(line);
		return;
	}
	snprintf(out, len, "the filesystem at %s (%s on %s)", m.mountpoint, m.fstype, m.source);
	free(line);
}

static struct fs_need *fs_of(struct fs_need **v, size_t *n, const char *path)
{
	char probe[PATH_MAX];
	struct stat st;

	if (devres_existing_ancestor(path, probe, sizeof(probe), &st) < 0)
		return NULL; /* the layout itself will say what is wrong */
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].dev == st.st_dev)
			return &(*v)[i];
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	struct fs_need *f = &(*v)[(*n)++];
	memset(f, 0, sizeof(*f));
	f->dev = st.st_dev;
	snprintf(f->probe, sizeof(f->probe), "%s", probe);
	return f;
}

static int refuse(const struct fs_need *f, uint64_t avail)
{
	char need[64], have[64], fs[PATH_MAX + 64];
	human(f->need, need, sizeof(need));
	human(avail, have, sizeof(have));
	fs_name(f->probe, fs, sizeof(fs));
	const char *hint = f->allocating_writer
		? "; a job that only writes can lay its file out sparse instead (fallocate=none)" : "";
	if (f->files == 1)
		return error("job '%s': laying out '%s' needs %s, but %s has %s available (statvfs "
			     "f_bavail)%s", f->first_job->spec->name, f->first_path, need, fs, have,
			     hint);
	return error("%s '%s'%s: laying out %u files needs %s together, but %s has %s available "
		     "(statvfs f_bavail)%s", f->several_jobs ? "jobs" : "job",
		     f->first_job->spec->name, f->several_jobs ? " and others" : "", f->files, need,
		     fs, have, hint);
}

int job_files_check_space(const struct job *jobs, size_t nr)
{
	struct fs_need *v = NULL;
	size_t n = 0;
	int rc = 0;

	for (size_t k = 0; k < nr; k++) {
		const struct job *j = &jobs[k];
		for (unsigned i = 0; j->plans && i < j->nr_files; i++) {
			const struct job_file_plan *p = &j->plans[i];
			if (!p->layout || !p->layout_need)
				continue;
			struct fs_need *f = fs_of(&v, &n, j->files[i].path);
			if (!f)
				continue;
			if (!f->first_job) {
				f->first_job = j;
				f->first_path = j->files[i].path;
			} else if (f->first_job != j) {
				f->several_jobs = true; /* another job, or a clone */
			}
			f->need = f->need + p->layout_need < f->need ? UINT64_MAX : f->need + p->layout_need;
			f->files++;
			if (!((j->spec->rw & RW_READ) || j->spec->overwrite))
				f->allocating_writer = true;
		}
	}
	for (size_t i = 0; i < n && !rc; i++) {
		struct statvfs sv;
		if (statvfs(v[i].probe, &sv) < 0)
			continue; /* cannot tell: the layout finds out */
		if (!sv.f_blocks)
			continue; /* no size at all (ramfs): nothing to compare with */
		uint64_t avail = (uint64_t)sv.f_bavail * (sv.f_frsize ? sv.f_frsize : sv.f_bsize);
		if (v[i].need > avail)
			rc = refuse(&v[i], avail);
	}
	free(v);
	return rc;
}
