/*
 * Where tracefs (the kernel's tracing files: instances/, events/, trace)
 * is mounted, mounting it when it is not, as perf and trace-cmd do: a new
 * machine has /sys/kernel/tracing as an empty directory until something
 * mounts tracefs there. The mount point is the first tracefs entry of
 * /proc/self/mountinfo whose root is the filesystem's top ("/"), the one at
 * /sys/kernel/tracing preferred when there are several. Absent, tracefs is
 * mounted at /sys/kernel/tracing (nosuid,nodev,noexec, as systemd's unit
 * does) under an flock of that directory, so that two processes mounting
 * at once do not stack two mounts, and a note says so. tests/e2e/lib.sh's
 * tracefs_dir follows the same rules; the unit test checks they agree.
 */
#ifndef IOBENCH_SYS_TRACEFS_INT_H
#define IOBENCH_SYS_TRACEFS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define TRACEFS_DEFAULT "/sys/kernel/tracing"
#define TRACEFS_MOUNTINFO "/proc/self/mountinfo"

/* tracefs's mount point into dir (len bytes), mounting it at
 * TRACEFS_DEFAULT when no tracefs is mounted; *mounted_now says whether
 * this call mounted it (the caller may leave it mounted, as perf does).
 * 0, or -errno with a message (error_errno) saying what failed. */
int tracefs_find(char *dir, size_t len, bool *mounted_now);

/* The same with another mountinfo file and mount point (for tests: a
 * mountinfo without tracefs and a directory of the test's own). */
int tracefs_find_at(const char *mountinfo, const char *target, char *dir, size_t len,
		    bool *mounted_now);

/* The mount point of tracefs in the mountinfo text read from f, by the
 * rules above: 0, -ENOENT when there is none, -ENAMETOOLONG past len. */
int tracefs_scan(FILE *f, char *dir, size_t len);

#endif
