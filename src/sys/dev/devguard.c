/*
 * The device guard (devguard.h). A block device is examined together with
 * its relatives: its partitions (for a whole disk) or its whole disk (for a
 * partition). Each is looked up by device number in the mount table and in
 * /proc/swaps, its holders are listed from sysfs (and theirs, to say where
 * the stack ends up mounted), and libblkid (devsig_int.h) looks for data on the
 * device and its partitions. Storage shared through loop devices (the table
 * of bound loop devices is read once, devres.h) leads to other devices,
 * each examined the same way with the chain that led there as the subject
 * of what is found: "/dev/loop5 shares its storage with /dev/loop6 (...),
 * which is mounted at /mnt/y". Findings are gathered into one message; "in
 * use" findings refuse even an allowed device, data findings only refuse a
 * device --allow-destroy does not name.
 *
 * This file holds the checks the callers ask for (devguard.h); the message
 * is built in devguard_findings.c, the sysfs and mount-table lookups are in
 * devguard_topo.c and the in-use scan in devguard_inuse.c.
 */
#include "sys/dev/devguard.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sys/dev/devguard_int.h"
#include "sys/dev/devres.h"
#include "sys/dev/devsig_int.h"

const char *devguard_verb(unsigned what)
{
	if (what & DEVGUARD_FORMAT)
		return "format";
	if (what & DEVGUARD_WRITE)
		return "write to";
	return "trim";
}

/* Signatures on the device and on each of its partitions. */
static int check_data(struct findings *f, const char *real, const struct member *m, size_t n)
{
	char sig[512];

	for (size_t i = 0; i < n; i++) {
		char node[PATH_MAX];
		if (!strcmp(m[i].role, "whole disk "))
			continue; /* its partition table is what made the partition */
		if (i == 0)
			snprintf(node, sizeof(node), "%s", real);
		else
			snprintf(node, sizeof(node), "/dev/%s", m[i].name);
		int rc = devsig_describe(node, sig, sizeof(sig));
		if (rc < 0 && i == 0)
			return rc;
		if (rc < 0) {
			dg_add(f, "partition /dev/%s cannot be probed for signatures: %s", m[i].name,
			    strerror(-rc));
			f->data++;
		} else if (rc > 0) {
			if (i == 0)
				dg_add(f, "%s", sig);
			else
				dg_add(f, "partition /dev/%s: %s", m[i].name, sig);
			f->data++;
		}
	}
	return 0;
}

/* Does allow name the device dev (by device number, after symlinks)? */
static bool allowed(const struct devguard_allow *allow, dev_t dev)
{
	for (size_t i = 0; allow && i < allow->nr_devices; i++) {
		struct stat st;
		if (!stat(allow->devices[i], &st) && S_ISBLK(st.st_mode) && st.st_rdev == dev)
			return true;
	}
	return false;
}

/* The checks on block device rdev. node is a path that opens it (probed
 * with libblkid and, unless excl_held, with O_EXCL); shown is the name the
 * messages use; path is what the caller named. */
static int check_bdev(const char *path, const char *node, const char *shown, dev_t rdev,
		      bool excl_held, unsigned what, const struct devguard_allow *allow,
		      char *why, size_t whylen)
{
	char sysdir[PATH_MAX];
	struct member *m;
	size_t n;
	int rc;

	rc = devres_sysdir_of_dev(rdev, sysdir);
	if (rc) {
		dg_say(why, whylen, "%s: cannot find block device %u:%u in sysfs to check it: %s", shown,
		    major(rdev), minor(rdev), strerror(-rc));
		return rc;
	}
	m = calloc(MAX_MEMBERS, sizeof(*m));
	if (!m)
		return -ENOMEM;
	rc = dg_collect_members(sysdir, rdev, m, &n);
	if (rc) {
		dg_say(why, whylen, "%s: cannot list its partitions in '%s': %s", shown, sysdir, strerror(-rc));
		free(m);
		return rc;
	}

	char found[2048] = "", err[256] = "";
	struct findings f = { .buf = found, .len = sizeof(found), .excl_held = excl_held };
	rc = dg_check_in_use(&f, node, m, n, err, sizeof(err));
	if (rc) {
		dg_say(why, whylen, "%s: cannot check whether it is in use: %s", shown, err);
		free(m);
		return rc;
	}
	rc = check_data(&f, node, m, n);
	free(m);
	if (rc) {
		dg_say(why, whylen, "%s: cannot probe it for signatures: %s", shown, strerror(-rc));
		return rc;
	}
	/* name the device when the caller's path does not */
	char dev_intro[PATH_MAX + 16] = "";
	if (strcmp(path, shown))
		snprintf(dev_intro, sizeof(dev_intro), "it is %s: ", shown);
	if (what & DEVGUARD_DESCRIBE) {
		if (f.in_use || f.data)
			dg_say(why, whylen, "%s%s", dev_intro, found);
		else
			dg_say(why, whylen, "%sno signature found, not in use", dev_intro);
		return (f.in_use || f.data) ? 1 : 0;
	}
	if (f.in_use) {
		char remedy[512];
		dg_remedies(f.uses, remedy, sizeof(remedy));
		dg_say(why, whylen, "%s%s; a device in use is never written to, even with "
			"--allow-destroy: first %s", dev_intro, found, remedy);
		return -EBUSY;
	}
	if (f.data && !allowed(allow, rdev)) {
		dg_say(why, whylen, "%s%s; to destroy its contents anyway, add --allow-destroy=%s",
		    dev_intro, found, shown);
		return -EPERM;
	}
	return 0;
}

/* Read-only mode refuses before anything is looked at. */
static int readonly_refusal(unsigned what, const struct devguard_allow *allow, char *why,
			    size_t whylen)
{
	if (!(what & DEVGUARD_DESCRIBE) && allow && allow->readonly_by) {
		dg_say(why, whylen, "read-only mode (%s) forbids every write, trim and format",
		    allow->readonly_by);
		return -EROFS;
	}
	return 0;
}

int devguard_check(const char *path, unsigned what, const struct devguard_allow *allow,
		   char *why, size_t whylen)
{
	char real[PATH_MAX];
	struct stat st;

	if (whylen)
		why[0] = '\0';
	if (!what)
		return 0;
	int rc = readonly_refusal(what, allow, why, whylen);
	if (rc)
		return rc;
	if (!realpath(path, real) || stat(real, &st) || !S_ISBLK(st.st_mode))
		return 0; /* not there yet, or not a block device */
	return check_bdev(path, real, real, st.st_rdev, false, what, allow, why, whylen);
}

int devguard_check_fd(int fd, const char *path, unsigned what, const struct devguard_allow *allow,
		      bool excl_held, char *why, size_t whylen)
{
	char node[64], shown[PATH_MAX];
	struct stat st;

	if (whylen)
		why[0] = '\0';
	if (!what)
		return 0;
	int rc = readonly_refusal(what, allow, why, whylen);
	if (rc)
		return rc;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return 0;
	/* the descriptor's own inode, whatever its name has become since */
	snprintf(node, sizeof(node), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(node, shown, sizeof(shown) - 1);
	if (n <= 0 || shown[0] != '/')
		n = snprintf(shown, sizeof(shown), "block device %u:%u", major(st.st_rdev),
			     minor(st.st_rdev));
	shown[n < (ssize_t)sizeof(shown) ? n : (ssize_t)sizeof(shown) - 1] = '\0';
	return check_bdev(path, node, shown, st.st_rdev, excl_held, what, allow, why, whylen);
}

int devguard_allow_validate(const struct devguard_allow *allow, char *why, size_t whylen)
{
	for (size_t i = 0; allow && i < allow->nr_devices; i++) {
		struct stat st;
		const char *d = allow->devices[i];
		if (stat(d, &st)) {
			int rc = -errno;
			dg_say(why, whylen, "--allow-destroy='%s': %s", d, strerror(-rc));
			return rc;
		}
		if (!S_ISBLK(st.st_mode)) {
			dg_say(why, whylen, "--allow-destroy='%s' is not a block device", d);
			return -ENOTBLK;
		}
	}
	return 0;
}
