/*
 * Device resolution: '/' maps to a disk in /proc/diskstats, a path that does
 * not exist yet maps through its parent. As root, on loop devices made here
 * (and only those): a file on an ext4 loop maps to that loop first and then
 * to the disk holding the image; a file on a partition of a loop maps to the
 * whole loop; a file on btrfs (anonymous st_dev) maps through the mount
 * table. Loops, mounts and images are removed even when a check fails or the
 * test is killed. Not root: the loop cases are skipped (a "skip -" line);
 * losetup, mkfs.ext4 or mkfs.btrfs missing is a failure (scripts/deps.sh
 * installs them).
 */
#include "sys/dev/devres.h"
#include "sys/diskstats.h"

#include "check.h"
#include "util/array.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/blkpg.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAXDEV 16
#define MIB (1024 * 1024)

/* Everything one scenario created, so cleanup can undo exactly that. */
struct rig {
	char img[64];
	char loopdev[64]; /* /dev/loopN */
	char loopname[64]; /* loopN */
	char mnt[64];
	bool mounted;
	int part_added; /* partition number added by BLKPG, or 0 */
};

static struct rig rigs[4];

/* A loop whose backing file is our image, when a kill came between
 * losetup attaching it and us reading its name. System calls only. */
static void find_loop_of(struct rig *r)
{
	for (int i = 0; i < 64 && !r->loopdev[0]; i++) {
		char file[64], back[80];
		ssize_t len;
		snprintf(file, sizeof(file), "/sys/block/loop%d/loop/backing_file", i);
		int fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, back, sizeof(back) - 1);
		close(fd);
		if (len <= 0)
			continue;
		back[len] = '\0';
		back[strcspn(back, "\n")] = '\0';
		if (!strcmp(back, r->img))
			snprintf(r->loopdev, sizeof(r->loopdev), "/dev/loop%d", i);
	}
}

/* Only system calls, so it can also run from a signal handler. */
static void rig_release(struct rig *r)
{
	if (r->mounted && umount2(r->mnt, 0))
		umount2(r->mnt, MNT_DETACH);
	if (r->mnt[0])
		rmdir(r->mnt);
	if (r->img[0] && !r->loopdev[0])
		find_loop_of(r);
	if (r->loopdev[0]) {
		int fd = open(r->loopdev, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (r->part_added) {
				struct blkpg_partition p = { .pno = r->part_added };
				struct blkpg_ioctl_arg a = { .op = BLKPG_DEL_PARTITION,
							     .datalen = sizeof(p), .data = &p };
				ioctl(fd, BLKPG, &a);
			}
			ioctl(fd, LOOP_CLR_FD, 0);
			close(fd);
		}
	}
	if (r->img[0])
		unlink(r->img);
	memset(r, 0, sizeof(*r));
}

static void release_all(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(rigs); i++)
		rig_release(&rigs[i]);
}

static void on_signal(int sig)
{
	release_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

static bool have_tool(const char *name)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

static bool run_quiet(const char *fmt, const char *arg)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), fmt, arg);
	return system(cmd) == 0;
}

static bool has_name(char (*names)[64], size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static void print_names(const char *what, char (*names)[64], size_t n)
{
	printf("# %s:", what);
	for (size_t i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
}

/* A sparse image with an optional one-partition MBR, attached to a loop. */
static bool rig_attach(struct rig *r, const char *tag, uint64_t size, bool partitioned)
{
	char cmd[160], line[64] = "";
	FILE *p;
	int fd;

	snprintf(r->img, sizeof(r->img), "/tmp/iobench-devres-%s-%d.img", tag, (int)getpid());
	fd = open(r->img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)size)) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	if (partitioned) {
		/* MBR: one Linux partition from sector 2048 to the end */
		unsigned char mbr[512] = { 0 };
		uint32_t start = 2048, len = (uint32_t)(size / 512) - 2048;
		unsigned char *e = mbr + 446;
		e[4] = 0x83;
		memcpy(e + 8, &start, 4);
		memcpy(e + 12, &len, 4);
		mbr[510] = 0x55;
		mbr[511] = 0xaa;
		if (pwrite(fd, mbr, sizeof(mbr), 0) != sizeof(mbr)) {
			close(fd);
			return false;
		}
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s %s 2>/dev/null", partitioned ? "-P" : "", r->img);
	p = popen(cmd, "r");
	if (!p)
		return false;
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	pclose(p);
	line[strcspn(line, "\n")] = '\0';
	if (strncmp(line, "/dev/loop", 9))
		return false;
	snprintf(r->loopdev, sizeof(r->loopdev), "%s", line);
	snprintf(r->loopname, sizeof(r->loopname), "%s", line + 5);
	return true;
}

static bool wait_for(const char *path)
{
	for (int i = 0; i < 40; i++) {
		if (!access(path, F_OK))
			return true;
		usleep(50000);
	}
	return false;
}

/* Make partition 1 appear: the kernel reads the MBR when it has a parser
 * for it; otherwise add the partition by hand (BLKPG), as partx would. */
static bool rig_partition(struct rig *r, uint64_t size, char *part, size_t len)
{
	char sys[192];

	snprintf(part, len, "%sp1", r->loopdev);
	snprintf(sys, sizeof(sys), "/sys/block/%s/%sp1", r->loopname, r->loopname);
	if (!wait_for(sys)) {
		struct blkpg_partition p = { .start = 2048 * 512, .length = (long long)size - 2048 * 512,
					     .pno = 1 };
		struct blkpg_ioctl_arg a = { .op = BLKPG_ADD_PARTITION, .datalen = sizeof(p), .data = &p };
		int fd = open(r->loopdev, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return false;
		r->part_added = 1; /* deleting a partition that is not there is harmless */
		if (ioctl(fd, BLKPG, &a))
			r->part_added = 0;
		close(fd);
	}
	return wait_for(part);
}

static bool rig_mount(struct rig *r, const char *dev, const char *fstype)
{
	char mkfs[128];

	snprintf(mkfs, sizeof(mkfs), "mkfs.%s -q %s %%s >/dev/null 2>&1", fstype,
		 !strcmp(fstype, "ext4") ? "-F" : "-f");
	if (!run_quiet(mkfs, dev))
		return false;
	snprintf(r->mnt, sizeof(r->mnt), "/tmp/iobench-devres-mnt-XXXXXX");
	if (!mkdtemp(r->mnt)) {
		r->mnt[0] = '\0';
		return false;
	}
	r->mounted = true; /* before the call: a signal may land during it */
	return mount(dev, r->mnt, fstype, 0, NULL) == 0;
}

static bool touch(const char *dir, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void test_root_device(void)
{
	char names[MAXDEV][64], again[MAXDEV][64];
	size_t n = 0, m = 0;
	struct diskstat ds;
	int ret = devres_devices_for_path("/", names, MAXDEV, &n);

	CHECK(ret == 0, "devres('/') gave %d", ret);
	print_names("/", names, n);
	if (n == 0) {
		SKIP("the disk under '/'", "'/' is on no block device here");
		return;
	}
	CHECK(diskstat_find(names[0], &ds) == 0, "'%s' not in /proc/diskstats", names[0]);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(names[i], names[j]), "'%s' listed twice", names[i]);

	/* a path that does not exist yet resolves through its parent */
	char path[128];
	snprintf(path, sizeof(path), "/tmp/iobench-devres-none-%d/a/b", (int)getpid());
	ret = devres_devices_for_path("/tmp", names, MAXDEV, &n);
	CHECK(ret == 0, "devres('/tmp') gave %d", ret);
	ret = devres_devices_for_path(path, again, MAXDEV, &m);
	CHECK(ret == 0 && m == n && (n == 0 || !strcmp(again[0], names[0])),
	      "missing path gave %d, %zu names", ret, m);
	ret = devres_devices_for_path("does-not-exist-iobench/x", again, MAXDEV, &m);
	CHECK(ret == 0, "relative missing path gave %d", ret);

	/* no room: -ENOSPC and nothing written */
	ret = devres_devices_for_path("/", names, 0, &n);
	CHECK(ret == -ENOSPC && n == 0, "max 0 gave %d, %zu", ret, n);

	CHECK(devres_is_block_device("/") == 0, "'/' is not a block device");
	CHECK(devres_is_block_device("/nonexistent-iobench") == -ENOENT, "missing path");
	CHECK(devres_is_block_device("/dev/null") == 0, "/dev/null is a char device");
}

static void test_loop_ext4(struct rig *r)
{
	char names[MAXDEV][64], img_names[MAXDEV][64], file[128], path[160];
	size_t n = 0, ni = 0;
	uint64_t bytes = 0;
	unsigned lbs = 0;
	int ret, fd;

	if (!rig_attach(r, "ext4", 64 * MIB, false) || !rig_mount(r, r->loopdev, "ext4")) {
		CHECK(0, "could not set up an ext4 loop ('%s')", r->loopdev);
		return;
	}
	CHECK(touch(r->mnt, "f", file, sizeof(file)), "create '%s'", file);
	ret = devres_devices_for_path(file, names, MAXDEV, &n);
	print_names(file, names, n);
	CHECK(ret == 0 && n >= 1 && !strcmp(names[0], r->loopname), "file on '%s' gave %d, first '%s'",
	      r->loopname, ret, n ? names[0] : "");
	ret = devres_devices_for_path(r->img, img_names, MAXDEV, &ni);
	CHECK(ret == 0, "devres(image) gave %d", ret);
	for (size_t i = 0; i < ni; i++)
		CHECK(has_name(names + 1, n - 1, img_names[i]), "backing device '%s' missing", img_names[i]);

	snprintf(path, sizeof(path), "%s/not/yet", r->mnt);
	ret = devres_devices_for_path(path, names, MAXDEV, &n);
	CHECK(ret == 0 && n >= 1 && !strcmp(names[0], r->loopname), "missing path on loop");

	ret = devres_devices_for_path(r->loopdev, names, MAXDEV, &n);
	CHECK(ret == 0 && n >= 1 && !strcmp(names[0], r->loopname), "the loop device itself");
	CHECK(devres_is_block_device(r->loopdev) == 1, "'%s' is a block device", r->loopdev);

	fd = open(r->loopdev, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open '%s'", r->loopdev);
	if (fd >= 0) {
		CHECK(devres_bdev_size(fd, &bytes) == 0 && bytes == 64 * MIB, "size %llu",
		      (unsigned long long)bytes);
		CHECK(devres_logical_block_size(fd, &lbs) == 0 && lbs == 512, "logical block %u", lbs);
		close(fd);
	}
	fd = open(file, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0 && devres_bdev_size(fd, &bytes) == -ENOTTY, "size of a regular file");
	if (fd >= 0)
		close(fd);
	struct diskstat ds;
	CHECK(diskstat_find(r->loopname, &ds) == 0, "'%s' in /proc/diskstats", r->loopname);
}

static void test_loop_partition(struct rig *r)
{
	char names[MAXDEV][64], part[80], file[128], pname[80];
	size_t n = 0;
	int ret;

	if (!rig_attach(r, "part", 64 * MIB, true) || !rig_partition(r, 64 * MIB, part, sizeof(part)) ||
	    !rig_mount(r, part, "ext4")) {
		CHECK(0, "could not set up a partitioned loop ('%s')", r->loopdev);
		return;
	}
	snprintf(pname, sizeof(pname), "%sp1", r->loopname);
	CHECK(touch(r->mnt, "f", file, sizeof(file)), "create '%s'", file);
	ret = devres_devices_for_path(file, names, MAXDEV, &n);
	print_names(file, names, n);
	CHECK(ret == 0 && n >= 1 && !strcmp(names[0], r->loopname), "file on '%s' gave %d, first '%s'",
	      pname, ret, n ? names[0] : "");
	CHECK(!has_name(names, n, pname), "partition '%s' listed (fio lists the whole disk only)", pname);
	ret = devres_devices_for_path(part, names, MAXDEV, &n);
	CHECK(ret == 0 && n >= 1 && !strcmp(names[0], r->loopname), "'%s' itself maps to '%s'", part,
	      r->loopname);
}

/* Two-device btrfs: st_dev is anonymous, so the mount table must be used,
 * and both members must be listed. */
static void test_loop_btrfs(struct rig *r, struct rig *r2)
{
	char names[MAXDEV][64], file[128], cmd[256];
	struct stat st;
	size_t n = 0;
	int ret;

	if (!have_tool("mkfs.btrfs")) {
		CHECK(0, "needs mkfs.btrfs (btrfs-progs): install it with scripts/deps.sh");
		return;
	}
	if (!rig_attach(r, "btrfs", 256 * MIB, false) || !rig_attach(r2, "btrfs2", 256 * MIB, false)) {
		CHECK(0, "could not attach two loops for btrfs");
		return;
	}
	snprintf(cmd, sizeof(cmd), "mkfs.btrfs -q -f %s %s >/dev/null 2>&1", r->loopdev, r2->loopdev);
	snprintf(r->mnt, sizeof(r->mnt), "/tmp/iobench-devres-mnt-XXXXXX");
	if (system(cmd) || !mkdtemp(r->mnt)) {
		CHECK(0, "mkfs.btrfs on %s and %s, and a mount point", r->loopdev, r2->loopdev);
		return;
	}
	r->mounted = true;
	if (mount(r->loopdev, r->mnt, "btrfs", 0, NULL)) {
		SKIP("a file on btrfs (anonymous st_dev)", "this kernel cannot mount btrfs: %s", strerror(errno));
		return;
	}
	CHECK(touch(r->mnt, "f", file, sizeof(file)) && stat(file, &st) == 0, "create '%s'", file);
	printf("# btrfs st_dev %u:%u\n", major(st.st_dev), minor(st.st_dev));
	ret = devres_devices_for_path(file, names, MAXDEV, &n);
	print_names(file, names, n);
	CHECK(ret == 0 && n >= 2, "file on btrfs gave %d, %zu names", ret, n);
	CHECK(n >= 1 && (!strcmp(names[0], r->loopname) || !strcmp(names[0], r2->loopname)),
	      "first name '%s' is not a btrfs member", n ? names[0] : "");
	CHECK(has_name(names, n, r->loopname) && has_name(names, n, r2->loopname),
	      "btrfs members '%s' and '%s' not both listed", r->loopname, r2->loopname);
}

int main(void)
{
	test_root_device();
	if (geteuid() != 0) {
		SKIP("loop device cases", "not root");
	} else if (!have_tool("losetup") || !have_tool("mkfs.ext4")) {
		CHECK(0, "needs losetup (mount) and mkfs.ext4 (e2fsprogs): install them with scripts/deps.sh");
	} else {
		signal(SIGTERM, on_signal);
		signal(SIGINT, on_signal);
		signal(SIGSEGV, on_signal);
		signal(SIGABRT, on_signal);
		test_loop_ext4(&rigs[0]);
		rig_release(&rigs[0]);
		test_loop_partition(&rigs[1]);
		rig_release(&rigs[1]);
		test_loop_btrfs(&rigs[2], &rigs[3]);
		rig_release(&rigs[2]);
		rig_release(&rigs[3]);
	}
	return check_done("test_devres");
}
