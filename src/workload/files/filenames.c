/*
 * A job's file names, as fio makes them: filename= lists (relative ones in
 * the first directory=), every regular file of an opendir= tree, or
 * generated names (filename_format, default SECTION.JOBNUM.FILENUM) in the
 * directory the clone gets, and fio's rule for a job named after a device.
 */
#include "workload/job/job.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/error.h"
#include "util/strutil.h"
#include "util/xmalloc.h"
#include "workload/files/files.h"

/* fio's lstat() test for a job named after what it uses: a section named
 * like an existing file that is not a regular one ([/dev/sdb]) is that file. */
static bool names_special_file(const char *name)
{
	struct stat st;
	return lstat(name, &st) == 0 && !S_ISREG(st.st_mode);
}

/* One generated name: filename_format with $jobname (the section),
 * $jobnum, $filenum and $clientuid (fio's client address: empty, there is
 * no client mode) put in; other text, '$' included, as written. NULL when
 * memory runs out. */
static char *format_name(const struct job_spec *s, const char *job, unsigned filenum)
{
	const char *fmt = s->filename_format ? s->filename_format : "$jobname.$jobnum.$filenum";
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	if (!m)
		return NULL;
	for (const char *p = fmt; *p;) {
		size_t k = 0;
		while (k < 4 && strncmp(p, keys[k], strlen(keys[k])))
			k++;
		if (k == 4) {
			fputc(*p++, m);
			continue;
		}
		if (k == 0)
			fputs(job, m);
		else if (k == 1)
			fprintf(m, "%u", s->jobnum);
		else if (k == 2)
			fprintf(m, "%u", filenum);
		p += strlen(keys[k]);
	}
	if (fclose(m) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

/* opendir=: every regular file under dir, depth first in the order the
 * directories list them (as fio); symlinks and other kinds are skipped.
 * 0 or -errno (the message said). */
static int add_dir_files(const struct job_spec *s, const char *dir, char ***v, size_t *n,
			 size_t *cap, unsigned depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return error_errno(-errno, "job '%s': opendir: cannot open directory '%s'", s->name, dir);
	if (depth > 64) {
		closedir(d);
		return error("job '%s': opendir: '%s' is more than 64 directories deep", s->name, dir);
	}
	int rc = 0;
	struct dirent *e;
	while (!rc && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			rc = add_dir_files(s, path, v, n, cap, depth + 1);
		} else if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			*v = xgrow(*v, cap, *n + 1, sizeof(**v));
			(*v)[(*n)++] = path;
			(*v)[*n] = NULL;
			continue;
		}
		free(path);
	}
	closedir(d);
	return rc;
}

/* filename='s names (a relative one in the first directory=) into
 * paths[0..n), NULL-terminated, growing it (cap); returns n. */
static size_t named_paths(const struct job_spec *s, char **dirs, size_t nd, char ***paths, size_t *cap)
{
	char **names = NULL;
	size_t nv = 0, nn = s->filename && *s->filename ? str_split_escaped(s->filename, ':', &names) : 0;
	for (size_t i = 0; i < nn; i++) {
		bool rel = names[i][0] != '/';
		*paths = xgrow(*paths, cap, nv + 1, sizeof(**paths));
		(*paths)[nv++] = rel && nd ? xasprintf("%s/%s", dirs[0], names[i]) : xstrdup(names[i]);
	}
	if (names)
		str_list_free(names);
	*paths = xgrow(*paths, cap, nv + 1, sizeof(**paths));
	(*paths)[nv] = NULL;
	return nv;
}

/* File names as fio makes them: filename= entries (relative ones under the
 * first directory), or filename_format's (SECTION.JOBNUM.FILENUM) in the directory the clone
 * gets from a directory=a:b list (clones are spread over it round robin).
 * SECTION is the section name ([sec] or --name=), not name=: two job files
 * with the same section share their files. A single-file job whose section
 * names an existing non-regular file (a device, a directory) uses it.
 * NULL when nrfiles= asks for more names than memory holds. */
char **job_file_paths(const struct job_spec *s, unsigned *n, bool *bad,
		      volatile sig_atomic_t *stop)
{
	char **paths;
	char **dirs = NULL;
	size_t nd = 0;
	if (s->directory && *s->directory)
		nd = str_split_escaped(s->directory, ':', &dirs);
	if (s->opendir && *s->opendir) {
		/* fio adds these instead of generated names, after any filename= */
		size_t cap = 0;
		paths = NULL;
		size_t nv = named_paths(s, dirs, nd, &paths, &cap);
		if (add_dir_files(s, s->opendir, &paths, &nv, &cap, 0) < 0 || !nv) {
			if (!nv)
				error("job '%s': opendir: no regular file under '%s'", s->name, s->opendir);
			str_list_free(paths);
			paths = NULL;
			*n = 0;
			*bad = true;
		} else {
			*n = (unsigned)nv;
		}
	} else if (s->filename && *s->filename) {
		size_t cap = 0;
		paths = NULL;
		*n = (unsigned)named_paths(s, dirs, nd, &paths, &cap);
	} else {
		const char *dir = nd ? dirs[s->jobnum % nd] : NULL;
		const char *job = s->section ? s->section : s->name;
		*n = s->nrfiles ? s->nrfiles : 1;
		/* nrfiles= sizes this (util/xmalloc.h): no abort when it is absurd */
		paths = calloc((size_t)*n + 1, sizeof(*paths));
		if (paths && *n == 1 && names_special_file(job))
			paths[0] = dir ? xasprintf("%s/%s", dir, job) : xstrdup(job);
		else
			for (unsigned i = 0; paths && i < *n; i++) {
				if (stop && *stop) {
					str_list_free(paths); /* the caller says it */
					paths = NULL;
					break;
				}
				char *base = format_name(s, job, i);
				int r = !base ? -1 : dir ? asprintf(&paths[i], "%s/%s", dir, base)
						       : asprintf(&paths[i], "%s", base);
				free(base);
				if (r < 0) {
					paths[i] = NULL;
					str_list_free(paths);
					paths = NULL;
				}
			}
	}
	if (dirs)
		str_list_free(dirs);
	return paths;
}

