/*
 * Files iobench makes (guardopen.h): created with O_CREAT|O_EXCL only, so a
 * file that existed is never truncated or taken over; shared by the jobs of
 * one run when the run's list of made inodes has it; removed only while its
 * name still reaches the very inode the run created (device and inode
 * number from the creating descriptor), so a file that existed before, or
 * one put in its place since, is never deleted.
 */
#include "sys/dev/guardopen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

static bool made_has(const struct devguard_claims *c, const struct stat *st)
{
	for (size_t i = 0; i < c->nmade; i++)
		if (c->made[i].dev == st->st_dev && c->made[i].ino == st->st_ino)
			return true;
	return false;
}

static int made_add(struct devguard_claims *c, const struct stat *st)
{
	if (c->nmade == c->capmade) {
		size_t cap = c->capmade ? 2 * c->capmade : 8;
		struct devguard_made *v = realloc(c->made, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->made = v;
		c->capmade = cap;
	}
	c->made[c->nmade++] = (struct devguard_made){ st->st_dev, st->st_ino };
	return 0;
}

int devguard_create_shared(struct devguard_claims *c, const char *path, int flags, mode_t mode,
			   const struct devguard_use *u, struct devguard_fd *out, char *why,
			   size_t whylen)
{
	flags &= ~O_TRUNC;
	if (c)
		pthread_mutex_lock(&c->made_lock);
	int rc = devguard_open(path, flags | O_CREAT | O_EXCL, mode, u, out, why, whylen);
	struct stat st;
	if (rc == 0 && c) {
		if (fstat(out->fd, &st) < 0 || (rc = made_add(c, &st)) < 0) {
			rc = rc ? rc : -errno;
			snprintf(why, whylen, "cannot keep '%s' as the run's own: %s", path, strerror(-rc));
			close(out->fd);
			unlink(path); /* just made by O_CREAT|O_EXCL: empty and ours */
			out->fd = -1;
		}
	} else if (rc == -EEXIST && c) {
		/* the run's own from an earlier job, or somebody's */
		rc = devguard_open(path, flags & ~(O_CREAT | O_EXCL), mode, u, out, why, whylen);
		if (rc == 0 && (fstat(out->fd, &st) < 0 || !S_ISREG(st.st_mode) || !made_has(c, &st))) {
			if (out->claimed && u->claims)
				devguard_unclaim(u->claims, out->claimed);
			close(out->fd);
			out->fd = -1;
			rc = -EEXIST;
		}
	}
	if (rc == -EEXIST)
		snprintf(why, whylen, "'%s' exists and this run did not make it: iobench writes only "
			 "a file it creates, and never truncates or removes one it did not make", path);
	if (c)
		pthread_mutex_unlock(&c->made_lock);
	return rc;
}

int devguard_unlink_created(int dirfd, const char *path, const struct stat *made, char *why,
			    size_t whylen)
{
	struct stat st;
	if (whylen)
		why[0] = '\0';
	if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		int rc = -errno;
		snprintf(why, whylen, "cannot examine '%s': %s", path, strerror(-rc));
		return rc;
	}
	if (!S_ISREG(st.st_mode) || st.st_dev != made->st_dev || st.st_ino != made->st_ino) {
		snprintf(why, whylen, "'%s' is no longer the file this run created (inode %llu, "
			 "now %s inode %llu): left alone", path, (unsigned long long)made->st_ino,
			 S_ISREG(st.st_mode) ? "another file," : "not a regular file,",
			 (unsigned long long)st.st_ino);
		return -ESTALE;
	}
	if (unlinkat(dirfd, path, 0) < 0) {
		int rc = -errno;
		snprintf(why, whylen, "cannot remove '%s': %s", path, strerror(-rc));
		return rc;
	}
	return 0;
}
