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

static bool under_roots(const char *file)
{
	return (!strncmp(file, QUEUE_ROOT, strlen(QUEUE_ROOT)) && strstr(file, "/queue/")) ||
	       !strncmp(file, VM_ROOT, strlen(VM_ROOT));
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
	if (!under_roots(file) || strstr(file, "..")) {
		snprintf(why, whylen, "'%s' is not a queue knob or vm sysctl", file);
		return -EPERM;
	}
	if (is_scheduler(file))
		return iosched_set(file, val, why, whylen);
	int fd = open(file, O_WRONLY | O_CLOEXEC);
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
