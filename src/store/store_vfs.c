/*
 * The guarded VFS: SQLite's default (unix) VFS with one change, its xOpen.
 * Every file SQLite opens by name to write it (the database, its -wal and
 * -journal, and the -shm beside a WAL, which the unix VFS opens on its own)
 * is first opened, or created, through the device guard as iobench's own
 * output (sys/guardopen.h: judged on the opened descriptor, never a block
 * device). Then SQLite opens the same name itself (it always adds
 * O_NOFOLLOW), and the two must be the same file: the inode at the name
 * is still the one the guard judged and SQLite's descriptor is on it
 * (SQLITE_FCNTL_HAS_MOVED), else the open fails.
 *
 * Why a VFS rather than a check before sqlite3_open_v2: SQLite opens the
 * -wal and -journal files later, when it needs them, and again after a
 * checkpoint has removed them; a VFS sees each of those opens, a check
 * before the open sees none of them. Why not a VFS of our own I/O methods:
 * SQLite's locking and shared memory are subtle and its unix VFS is
 * tested; only the open needs the guard. The VFS is registered per store
 * handle (its pAppData is the handle, where a refusal's reason is kept),
 * so there is no global state of ours.
 */
#include "store/store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/guardopen.h"

/* Open (or create) name through the guard; *fd holds it open. */
static int guard_file(struct store *st, const char *name, bool create, int *fd, struct stat *sb)
{
	struct devguard_use u = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE };
	struct devguard_fd g;
	char why[2400];
	int flags = O_RDWR | (create ? O_CREAT : 0);
	int rc = devguard_open(name, flags, 0644, &u, &g, why, sizeof(why));
	if (rc < 0) {
		snprintf(st->guard_why, sizeof(st->guard_why), "%s", why[0] ? why : strerror(-rc));
		return rc;
	}
	if (fstat(g.fd, sb) < 0) {
		rc = -errno;
		snprintf(st->guard_why, sizeof(st->guard_why), "cannot examine '%s': %s", name,
			 strerror(-rc));
		close(g.fd);
		return rc;
	}
	*fd = g.fd;
	return 0;
}

/* The -shm file beside the database a -wal belongs to. */
static int guard_shm(struct store *st, const char *wal)
{
	size_t n = strlen(wal);
	char shm[4200];
	struct stat sb;
	int fd;
	if (n < 4 || strcmp(wal + n - 4, "-wal") || n + 1 > sizeof(shm))
		return 0;
	snprintf(shm, sizeof(shm), "%.*s-shm", (int)(n - 4), wal);
	int rc = guard_file(st, shm, true, &fd, &sb);
	if (rc == 0)
		close(fd);
	return rc;
}

/* Is the file SQLite opened as name the inode the guard judged? */
static bool same_file(struct store *st, sqlite3_file *f, const char *name, const struct stat *g)
{
	struct stat now;
	int moved = 0;
	if (lstat(name, &now) < 0 || now.st_dev != g->st_dev || now.st_ino != g->st_ino ||
	    !S_ISREG(now.st_mode)) {
		snprintf(st->guard_why, sizeof(st->guard_why),
			 "'%s' was replaced while it was being opened", name);
		return false;
	}
	if (f->pMethods->xFileControl(f, SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved) {
		snprintf(st->guard_why, sizeof(st->guard_why),
			 "'%s' was replaced while it was being opened", name);
		return false;
	}
	return true;
}

static int guarded_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f, int flags,
			int *out_flags)
{
	struct store *st = vfs->pAppData;
	sqlite3_vfs *real = st->real;
	struct stat gst;
	int gfd = -1;

	/* temporary files have no name; reading harms nothing */
	if (name && (flags & SQLITE_OPEN_READWRITE)) {
		int grc = guard_file(st, name, flags & SQLITE_OPEN_CREATE, &gfd, &gst);
		/* a file we may not write: SQLite's own read-write open fails the
		 * same way and it falls back to reading, which the guard allows */
		if (grc < 0 && grc != -EACCES && grc != -EROFS)
			return SQLITE_CANTOPEN;
		if (grc < 0)
			gfd = -1;
		if (gfd >= 0 && (flags & SQLITE_OPEN_WAL) && guard_shm(st, name) < 0) {
			close(gfd);
			return SQLITE_CANTOPEN;
		}
	}
	int rc = real->xOpen(real, name, f, flags, out_flags);
	if (rc == SQLITE_OK && gfd >= 0 && !same_file(st, f, name, &gst)) {
		f->pMethods->xClose(f);
		f->pMethods = NULL;
		rc = SQLITE_CANTOPEN;
	}
	if (gfd >= 0)
		close(gfd);
	return rc;
}

/* Everything else is SQLite's own, called with its own VFS. */
#define REAL(vfs) (((struct store *)(vfs)->pAppData)->real)

static int v_delete(sqlite3_vfs *v, const char *name, int sync)
{
	return REAL(v)->xDelete(REAL(v), name, sync);
}
static int v_access(sqlite3_vfs *v, const char *name, int flags, int *out)
{
	return REAL(v)->xAccess(REAL(v), name, flags, out);
}
static int v_fullpath(sqlite3_vfs *v, const char *name, int n, char *out)
{
	return REAL(v)->xFullPathname(REAL(v), name, n, out);
}
static void *v_dlopen(sqlite3_vfs *v, const char *name)
{
	return REAL(v)->xDlOpen(REAL(v), name);
}
static void v_dlerror(sqlite3_vfs *v, int n, char *msg)
{
	REAL(v)->xDlError(REAL(v), n, msg);
}
static void (*v_dlsym(sqlite3_vfs *v, void *h, const char *sym))(void)
{
	return REAL(v)->xDlSym(REAL(v), h, sym);
}
static void v_dlclose(sqlite3_vfs *v, void *h)
{
	REAL(v)->xDlClose(REAL(v), h);
}
static int v_random(sqlite3_vfs *v, int n, char *out)
{
	return REAL(v)->xRandomness(REAL(v), n, out);
}
static int v_sleep(sqlite3_vfs *v, int us)
{
	return REAL(v)->xSleep(REAL(v), us);
}
static int v_time(sqlite3_vfs *v, double *t)
{
	return REAL(v)->xCurrentTime(REAL(v), t);
}
static int v_lasterror(sqlite3_vfs *v, int n, char *msg)
{
	return REAL(v)->xGetLastError(REAL(v), n, msg);
}
static int v_time64(sqlite3_vfs *v, sqlite3_int64 *t)
{
	return REAL(v)->xCurrentTimeInt64(REAL(v), t);
}

int store_vfs_register(struct store *st)
{
	st->real = sqlite3_vfs_find(NULL);
	if (!st->real || st->real->iVersion < 2)
		return -ENOSYS;
	snprintf(st->vfs_name, sizeof(st->vfs_name), "iobench-guard-%p", (void *)st);
	st->vfs = (sqlite3_vfs){
		.iVersion = 2,
		.szOsFile = st->real->szOsFile,
		.mxPathname = st->real->mxPathname,
		.zName = st->vfs_name,
		.pAppData = st,
		.xOpen = guarded_open,
		.xDelete = v_delete,
		.xAccess = v_access,
		.xFullPathname = v_fullpath,
		.xDlOpen = v_dlopen,
		.xDlError = v_dlerror,
		.xDlSym = v_dlsym,
		.xDlClose = v_dlclose,
		.xRandomness = v_random,
		.xSleep = v_sleep,
		.xCurrentTime = v_time,
		.xGetLastError = v_lasterror,
		.xCurrentTimeInt64 = v_time64,
	};
	if (sqlite3_vfs_register(&st->vfs, 0) != SQLITE_OK)
		return -ENOMEM;
	st->vfs_registered = true;
	return 0;
}

void store_vfs_unregister(struct store *st)
{
	if (st->vfs_registered)
		sqlite3_vfs_unregister(&st->vfs);
	st->vfs_registered = false;
}
