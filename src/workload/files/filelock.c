/*
 * lockfile=: the run's per-file locks (a list of names with a mutex and a
 * read-write lock each) and a job's taking and keeping of them around its
 * I/Os; see filelock.h.
 */
#include "workload/files/filelock.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/assert.h"
#include "util/xmalloc.h"

struct file_lock {
	char *path;
	pthread_mutex_t mx;    /* exclusive */
	pthread_rwlock_t rw;   /* readwrite */
	struct file_lock *next;
};

struct file_locks {
	struct file_lock *head;
};

static struct file_lock *lock_of(struct file_locks *l, const char *path)
{
	for (struct file_lock *f = l->head; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	struct file_lock *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	pthread_mutex_init(&f->mx, NULL);
	pthread_rwlock_init(&f->rw, NULL);
	f->next = l->head;
	l->head = f;
	return f;
}

struct file_locks *file_locks_make(struct job *jobs, size_t nr)
{
	struct file_locks *l = NULL;
	for (size_t k = 0; k < nr; k++) {
		struct job *j = &jobs[k];
		j->lock_held = -1;
		if (j->spec->lockfile == FLOCK_NONE || !j->nr_files)
			continue;
		if (!l)
			l = xcalloc(1, sizeof(*l));
		j->file_locks = xcalloc(j->nr_files, sizeof(*j->file_locks));
		for (unsigned i = 0; i < j->nr_files; i++)
			j->file_locks[i] = lock_of(l, j->files[i].path);
	}
	return l;
}

void file_locks_free(struct file_locks *l, struct job *jobs, size_t nr)
{
	for (size_t k = 0; k < nr; k++) {
		free(jobs[k].file_locks);
		jobs[k].file_locks = NULL;
	}
	if (!l)
		return;
	for (struct file_lock *f = l->head, *n; f; f = n) {
		n = f->next;
		pthread_mutex_destroy(&f->mx);
		pthread_rwlock_destroy(&f->rw);
		free(f->path);
		free(f);
	}
	free(l);
}

static void release(struct job *j)
{
	struct file_lock *f = j->file_locks[j->lock_held];
	if (j->spec->lockfile == FLOCK_EXCLUSIVE)
		pthread_mutex_unlock(&f->mx);
	else
		pthread_rwlock_unlock(&f->rw);
	j->lock_held = -1;
	j->lock_left = 0;
}

void job_file_lock(struct job *j, unsigned fi, enum ddir d)
{
	if (!j->file_locks)
		return;
	IOB_ASSERT(fi < j->nr_files);
	bool wr = d != DDIR_READ;
	bool rw = j->spec->lockfile == FLOCK_READWRITE;
	if (j->lock_held == (int)fi && j->lock_left && (!rw || j->lock_wr == wr)) {
		j->lock_left--; /* the batch goes on */
		return;
	}
	if (j->lock_held >= 0)
		release(j);
	struct file_lock *f = j->file_locks[fi];
	if (!rw)
		pthread_mutex_lock(&f->mx);
	else if (wr)
		pthread_rwlock_wrlock(&f->rw);
	else
		pthread_rwlock_rdlock(&f->rw);
	j->lock_held = (int)fi;
	j->lock_wr = wr;
	j->lock_left = j->spec->lockfile_batch ? j->spec->lockfile_batch - 1 : 0;
}

void job_file_unlock(struct job *j, bool now)
{
	if (!j->file_locks || j->lock_held < 0)
		return;
	if (now || !j->lock_left)
		release(j);
}
