/*
 * sys/tracefs.c: tracefs's mount point read from mountinfo texts (the
 * preferred /sys/kernel/tracing, bind mounts of a sub-folder passed over,
 * escaped names, optional fields), and, as root, tracefs mounted at a
 * directory of the test's own when a mountinfo has none (then unmounted:
 * the test unmounts only that mount of its own), and the real
 * tracefs_find agreeing with tests/e2e/lib.sh's tracefs_dir. A mount of
 * /sys/kernel/tracing that tracefs_find makes is left, as perf leaves it
 * (e2e tests beside this one may be using it); the summary line says so.
 */
#include "check.h"
#include "sys/tracefs_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define SYSFS_LINE "22 26 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
#define DEBUG_TRACE "40 39 0:12 / /sys/kernel/debug/tracing rw,relatime shared:20 - tracefs tracefs rw\n"
#define MAIN_TRACE "41 22 0:12 / /sys/kernel/tracing rw,nosuid,nodev,noexec,relatime shared:21 - tracefs nodev rw\n"
#define SUB_TRACE "42 26 0:12 /instances /mnt/inst rw,relatime - tracefs nodev rw\n"

static int scan(const char *text, char *dir, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	if (!f)
		return -errno;
	int rc = tracefs_scan(f, dir, len);
	fclose(f);
	return rc;
}

static void test_scan(void)
{
	char dir[256];

	CHECK(scan(SYSFS_LINE, dir, sizeof dir) == -ENOENT, "no tracefs line: -ENOENT");
	CHECK(scan("", dir, sizeof dir) == -ENOENT, "empty mountinfo: -ENOENT");
	CHECK(scan(SYSFS_LINE DEBUG_TRACE, dir, sizeof dir) == 0 &&
		      !strcmp(dir, "/sys/kernel/debug/tracing"),
	      "the only tracefs: '%s'", dir);
	CHECK(scan(SYSFS_LINE DEBUG_TRACE MAIN_TRACE, dir, sizeof dir) == 0 &&
		      !strcmp(dir, "/sys/kernel/tracing"),
	      "/sys/kernel/tracing preferred over an earlier one: '%s'", dir);
	CHECK(scan(SUB_TRACE DEBUG_TRACE, dir, sizeof dir) == 0 &&
		      !strcmp(dir, "/sys/kernel/debug/tracing"),
	      "a bind mount of instances/ is not tracefs's top: '%s'", dir);
	CHECK(scan(SUB_TRACE, dir, sizeof dir) == -ENOENT, "only a sub-folder's mount: -ENOENT");
	CHECK(scan("50 1 0:12 / /tmp/a\\040b rw - tracefs nodev rw\n", dir, sizeof dir) == 0 &&
		      !strcmp(dir, "/tmp/a b"),
	      "octal escapes undone: '%s'", dir);
	CHECK(scan("50 1 0:12 / /t rw shared:1 master:2 unbindable - tracefs nodev rw\n", dir,
		   sizeof dir) == 0 && !strcmp(dir, "/t"),
	      "optional fields before '-': '%s'", dir);
	CHECK(scan("garbage\n" SYSFS_LINE "50 1 0:12 / /t rw - tracefs\n" MAIN_TRACE, dir,
		   sizeof dir) == 0 && !strcmp(dir, "/sys/kernel/tracing"),
	      "malformed lines passed over: '%s'", dir);
	CHECK(scan(MAIN_TRACE, dir, 8) == -ENAMETOOLONG, "a mount point longer than dir: -ENAMETOOLONG");
}

static bool is_tracefs(const char *d)
{
	struct statfs sf;
	return statfs(d, &sf) == 0 && sf.f_type == 0x74726163;
}

/* tracefs mounted at a directory of the test's own, from a mountinfo without it */
static void test_mount_private(void)
{
	char tmp[] = "/tmp/iobench-tracefs.XXXXXX", none[300], dir[300], trace[320];
	bool now = true;

	if (!mkdtemp(tmp)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(none, sizeof none, "%s/mountinfo", tmp);
	FILE *f = fopen(none, "w");
	CHECK(f && fputs(SYSFS_LINE, f) >= 0 && fclose(f) == 0, "a mountinfo without tracefs");
	char target[300];
	snprintf(target, sizeof target, "%s/mnt", tmp);
	CHECK(mkdir(target, 0755) == 0, "mkdir %s", target);

	int rc = tracefs_find_at(none, target, dir, sizeof dir, &now);
	CHECK(rc == 0 && now && !strcmp(dir, target), "mounted at the test's own directory: %d %d '%s'",
	      rc, now, dir);
	snprintf(trace, sizeof trace, "%s/trace", target);
	CHECK(is_tracefs(target) && access(trace, F_OK) == 0, "%s is tracefs, with its trace file",
	      target);
	rc = tracefs_find_at(none, target, dir, sizeof dir, &now);
	CHECK(rc == 0 && !now && !strcmp(dir, target),
	      "called again on the mounted directory: not mounted twice (%d %d)", rc, now);
	if (is_tracefs(target))
		CHECK(umount2(target, 0) == 0, "the test's own tracefs mount unmounted: %s",
		      strerror(errno));
	CHECK(!is_tracefs(target), "no tracefs left at %s", target);

	rc = tracefs_find_at(none, "/tmp/iobench-tracefs-no-such-dir", dir, sizeof dir, &now);
	CHECK(rc == -ENOENT && !now, "a mount point that does not exist: -ENOENT (%d)", rc);
	rc = tracefs_find_at("/proc/no-such-mountinfo", target, dir, sizeof dir, &now);
	CHECK(rc == -ENOENT && !now && !is_tracefs(target),
	      "an unreadable mountinfo is an error, nothing mounted (%d)", rc);
	rc = tracefs_find_at(none, target, dir, 4, &now);
	CHECK(rc == -ENAMETOOLONG && !now && !is_tracefs(target),
	      "a mount point longer than dir: refused before mounting (%d)", rc);
	unlink(none);
	rmdir(target);
	rmdir(tmp);
}

/* the real one, and lib.sh's tracefs_dir agreeing with it */
static bool test_real(void)
{
	char before[300] = "", dir[300] = "", sh[320] = "", cmd[600];
	bool now = false;
	FILE *f = fopen(TRACEFS_MOUNTINFO, "re");
	int had = f ? tracefs_scan(f, before, sizeof before) : -errno;
	if (f)
		fclose(f);

	int rc = tracefs_find(dir, sizeof dir, &now);
	CHECK(rc == 0, "tracefs_find: %d", rc);
	CHECK(is_tracefs(dir), "'%s' is tracefs", dir);
	if (had == 0)
		CHECK(!now && !strcmp(dir, before), "already mounted at '%s': found there ('%s'), not mounted",
		      before, dir);
	else
		CHECK(!strcmp(dir, TRACEFS_DEFAULT), "absent: mounted at %s ('%s')", TRACEFS_DEFAULT, dir);

	snprintf(cmd, sizeof cmd, "bash -c '. \"%s/e2e/lib.sh\" && tracefs_dir'", TESTS_DIR);
	FILE *p = popen(cmd, "r");
	if (p && fgets(sh, sizeof sh, p))
		sh[strcspn(sh, "\n")] = '\0';
	int st = p ? pclose(p) : -1;
	CHECK(st == 0 && !strcmp(sh, dir), "lib.sh's tracefs_dir says '%s' (exit %d), tracefs_find '%s'",
	      sh, st, dir);
	return now;
}

int main(void)
{
	test_scan();
	bool left = false;
	if (geteuid() == 0) {
		test_mount_private();
		left = test_real();
	} else {
		printf("# not root: mounting tracefs not tried\n");
	}
	if (left)
		printf("# tracefs was not mounted: tracefs_find mounted it at %s and it stays\n",
		       TRACEFS_DEFAULT);
	return check_done("test_tracefs");
}
