/*
 * Reading and writing queue knobs and VM sysctls (sysknob.h): paths are
 * built here from a disk name and a knob name and checked against the two
 * roots, so nothing else in /sys or /proc can be written through it.
 */
#include "sys/sysknob.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "sys/iosched.h"

#define QUEUE_ROOT "/sys/block/"
#define VM_ROOT "/proc/sys/vm/"

static bool name_ok(const char *s, bool slash)
{
	if (!*s || strstr(s, ".."))
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.' ||
		      (slash && *p == '/')))
			return false;
	return true;
}

int sysknob_queue_path(const char *disk, const char *knob, char file[PATH_MAX], char *why,
		       size_t whylen)
{
	if (!name_ok(disk, false) || !name_ok(knob, true) || knob[0] == '/' ||
	    (strchr(knob, '/') && strncmp(knob, "iosched/", 8))) {
		snprintf(why, whylen, "'%s' of disk '%s' is not a block queue knob", knob, disk);
		return -EINVAL;
	}
	snprintf(file, PATH_MAX, QUEUE_ROOT "%s/queue/%s", disk, knob);
	return 0;
}

int sysknob_vm_path(const char *name, char file[PATH_MAX], char *why, size_t whylen)
{
	if (strncmp(name, "vm.", 3) || !name_ok(name + 3, false) || strchr(name + 3, '.')) {
		snprintf(why, whylen, "'%s' is not a vm sysctl (vm.NAME)", name);
		return -EINVAL;
	}
	snprintf(file, PATH_MAX, VM_ROOT "%s", name + 3);
	return 0;
}

const char *const sysknob_md_knobs[] = { "stripe_cache_size", "group_thread_cnt",
					 "preread_bypass_threshold", "skip_copy",
					 "safe_mode_delay", "sync_speed_min", "sync_speed_max",
					 "sync_force_parallel", NULL };

int sysknob_md_path(const char *sysfs, const char *disk, const char *knob, char file[PATH_MAX],
		    char *why, size_t whylen)
{
	bool known = false;
	for (size_t i = 0; sysknob_md_knobs[i]; i++)
		known |= !strcmp(knob, sysknob_md_knobs[i]);
	if (!name_ok(disk, false) || !known) {
		snprintf(why, whylen, "'%s' of array '%s' is not an md knob that changes at run "
			 "time", knob, disk);
		return -EINVAL;
	}
	snprintf(file, PATH_MAX, "%s/block/%s/md/%s", sysfs ? sysfs : "/sys", disk, knob);
	return 0;
}

bool sysknob_is_md(const char *sysfs, const char *disk)
{
	char dir[PATH_MAX];
	struct stat st;
	if (!name_ok(disk, false))
		return false;
	snprintf(dir, sizeof(dir), "%s/block/%s/md", sysfs ? sysfs : "/sys", disk);
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* SYSFS/block/DISK/queue/... or .../md/..., or /proc/sys/vm/... */
static bool under_roots(const char *sysfs, const char *file)
{
	char root[PATH_MAX];
	snprintf(root, sizeof(root), "%s/block/", sysfs ? sysfs : "/sys");
	size_t n = strlen(root);
	if (!strncmp(file, root, n)) {
		const char *slash = strchr(file + n, '/'); /* after DISK */
		return slash && (!strncmp(slash, "/queue/", 7) || !strncmp(slash, "/md/", 4));
	}
	return !strncmp(file, VM_ROOT, strlen(VM_ROOT));
}

static bool is_scheduler(const char *file)
{
	size_t n = strlen(file);
	return n > 16 && !strcmp(file + n - 16, "/queue/scheduler");
}

int sysknob_read(const char *file, char *val, size_t len, char *why, size_t whylen)
{
	int rc = is_scheduler(file) ? iosched_get(file, val, len)
				    : devres_read_line(file, val, len);
	if (rc < 0)
		snprintf(why, whylen, "cannot read '%s': %s", file, strerror(-rc));
	return rc;
}

int sysknob_write(const char *file, const char *val, char *why, size_t whylen)
{
	return sysknob_write_in(NULL, file, val, why, whylen);
}

int sysknob_write_in(const char *sysfs, const char *file, const char *val, char *why,
		     size_t whylen)
{
	if (!under_roots(sysfs, file) || strstr(file, "..")) {
		snprintf(why, whylen, "'%s' is not a queue knob, md knob or vm sysctl", file);
		return -EPERM;
	}
	if (is_scheduler(file))
		return iosched_set(file, val, why, whylen);
	/* O_TRUNC as the shell's echo > does: sysfs and procfs ignore it, a
	 * plain file (a test's fake tree) is rewritten whole */
	int fd = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(why, whylen, "cannot open '%s': %s", file, strerror(e));
		return -e;
	}
	ssize_t n = write(fd, val, strlen(val));
	int e = n < 0 ? errno : 0;
	if (close(fd) < 0 && !e)
		e = errno;
	if (e) {
		snprintf(why, whylen, "cannot write '%s' to '%s': %s", val, file, strerror(e));
		return -e;
	}
	return 0;
}
