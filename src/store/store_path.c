/*
 * Where the results database lives (store_path_resolve): --db, IOBENCH_DB,
 * the XDG data directory, ~/.local/share; and making the directories above
 * the default one.
 */
#include "store/store.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/xmalloc.h"

/* mkdir -p of the directory part of path. */
static int make_parents(const char *path, mode_t mode)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int rc = 0;
	if (!slash || slash == dir) {
		free(dir);
		return 0;
	}
	*slash = '\0';
	for (char *p = dir + 1;; p++) {
		bool end = *p == '\0';
		if (*p != '/' && !end)
			continue;
		*p = '\0';
		struct stat sb;
		if (stat(dir, &sb) < 0) {
			if (errno != ENOENT || (mkdir(dir, mode) < 0 && errno != EEXIST)) {
				rc = error_errno(-errno, "cannot create the directory '%s' for the results "
						 "database", dir);
				break;
			}
		} else if (!S_ISDIR(sb.st_mode)) {
			rc = error("cannot put the results database under '%s': not a directory", dir);
			break;
		}
		if (end)
			break;
		*p = '/';
	}
	free(dir);
	return rc;
}

static const char *home_dir(void)
{
	const char *h = getenv("HOME");
	if (h && *h)
		return h;
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

int store_path_resolve(const char *db_opt, bool make_dirs, char **path)
{
	const char *env = getenv("IOBENCH_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	bool named = true;

	*path = NULL;
	if (db_opt && !*db_opt)
		return error("--db needs a file name");
	if (db_opt) {
		*path = xstrdup(db_opt);
	} else if (env && *env) {
		*path = xstrdup(env);
	} else {
		named = false;
		if (xdg && xdg[0] == '/') {
			*path = xasprintf("%s/iobench/results.db", xdg);
		} else {
			const char *home = home_dir();
			if (!home) {
				error("no place for the results database: HOME is not set (give --db "
				      "PATH or IOBENCH_DB)");
				return -ENOENT;
			}
			*path = xasprintf("%s/.local/share/iobench/results.db", home);
		}
	}
	/* only the default location's directories: a path the user named
	 * is taken as named, in a directory that exists */
	if (make_dirs && !named) {
		int rc = make_parents(*path, 0700);
		if (rc < 0) {
			free(*path);
			*path = NULL;
			return rc;
		}
	}
	return 0;
}
