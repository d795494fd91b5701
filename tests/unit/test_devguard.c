/*
 * The device guard's parts that need no block device (tests/e2e/
 * test_guard.sh covers real loop devices): nothing to do, regular files and
 * missing paths pass; read-only mode refuses any path with -EROFS and says
 * who set it; --allow-destroy values must be block devices; libblkid
 * signature descriptions on image files (blank, a dos partition table, an
 * ext4 filesystem with a label, where mkfs.ext4 exists); the mount-table
 * line parser (device number, escaped mount point, source); and the loop
 * device table (devres_loop_info): what is not a bound loop device is
 * -ENXIO, and, as root with losetup, an image attached twice (once at an
 * offset) reports its inode and offsets, a loop over a loop reports its
 * backing device, and a deleted image is marked deleted.
 */
#include "sys/dev/devguard.h"
#include "sys/dev/devres.h"
#include "sys/dev/devsig_int.h"

#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char dir[] = "/tmp/iobench-devguard-XXXXXX";

static void path_in(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

static int make_image(const char *path, uint64_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	int rc = ftruncate(fd, (off_t)size) ? -errno : 0;
	close(fd);
	return rc;
}

static void test_files(void)
{
	char file[256], why[512];
	struct devguard_allow none = { 0 };
	struct devguard_allow ro = { .readonly_by = "--readonly" };

	path_in(file, sizeof(file), "plain");
	CHECK(make_image(file, 4096) == 0, "create '%s'", file);
	CHECK(devguard_check(file, 0, &ro, why, sizeof(why)) == 0, "a read always passes");
	CHECK(devguard_check(file, DEVGUARD_WRITE, &none, why, sizeof(why)) == 0 && !why[0],
	      "a regular file passes: '%s'", why);
	CHECK(devguard_check(file, DEVGUARD_WRITE, NULL, why, sizeof(why)) == 0, "NULL allow");
	CHECK(devguard_check("/dev/null", DEVGUARD_WRITE | DEVGUARD_TRIM, &none, why, sizeof(why)) == 0,
	      "a character device is not a block device: passes: '%s'", why);
	CHECK(devguard_check("/nonexistent/x", DEVGUARD_WRITE | DEVGUARD_TRIM, &none, why,
			     sizeof(why)) == 0, "a path that does not exist yet passes");
	CHECK(devguard_check(file, DEVGUARD_TRIM, &ro, why, sizeof(why)) == -EROFS &&
	      strstr(why, "read-only mode (--readonly)"), "read-only: %s", why);
	CHECK(devguard_check("/nonexistent/x", DEVGUARD_WRITE, &ro, why, sizeof(why)) == -EROFS,
	      "read-only refuses new files too");
	CHECK(!strcmp(devguard_verb(DEVGUARD_WRITE), "write to") &&
	      !strcmp(devguard_verb(DEVGUARD_TRIM), "trim") &&
	      !strcmp(devguard_verb(DEVGUARD_FORMAT | DEVGUARD_WRITE), "format"), "verbs");
}

static void test_allow_validate(void)
{
	char file[256], why[512];
	path_in(file, sizeof(file), "plain");
	const char *bad1[] = { "/nonexistent/dev" };
	const char *bad2[] = { file };
	struct devguard_allow a1 = { .devices = bad1, .nr_devices = 1 };
	struct devguard_allow a2 = { .devices = bad2, .nr_devices = 1 };
	struct devguard_allow a0 = { 0 };

	CHECK(devguard_allow_validate(&a0, why, sizeof(why)) == 0, "empty list");
	CHECK(devguard_allow_validate(&a1, why, sizeof(why)) == -ENOENT &&
	      strstr(why, "--allow-destroy='/nonexistent/dev'"), "missing: %s", why);
	CHECK(devguard_allow_validate(&a2, why, sizeof(why)) == -ENOTBLK &&
	      strstr(why, "is not a block device"), "regular file: %s", why);
}

static void test_signatures(void)
{
	char img[256], out[512], cmd[400];
	int rc;

	path_in(img, sizeof(img), "blank.img");
	CHECK(make_image(img, 8 << 20) == 0, "blank image");
	rc = devsig_describe(img, out, sizeof(out));
	CHECK(rc == 0 && !out[0], "blank: %d '%s'", rc, out);

	/* a dos partition table: one Linux partition from sector 2048 */
	unsigned char mbr[512] = { 0 };
	uint32_t start = 2048, len = 8 * 2048 - 2048;
	mbr[446 + 4] = 0x83;
	memcpy(mbr + 446 + 8, &start, 4);
	memcpy(mbr + 446 + 12, &len, 4);
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	int fd = open(img, O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0 && pwrite(fd, mbr, sizeof(mbr), 0) == (ssize_t)sizeof(mbr), "write mbr");
	if (fd >= 0)
		close(fd);
	rc = devsig_describe(img, out, sizeof(out));
	CHECK(rc == 1 && !strcmp(out, "partition table (dos) found"), "dos: %d '%s'", rc, out);

	CHECK(devsig_describe("/nonexistent/img", out, sizeof(out)) < 0, "missing file");

	if (system("command -v mkfs.ext4 >/dev/null 2>&1")) {
		CHECK(0, "needs mkfs.ext4 (e2fsprogs): install it with scripts/deps.sh");
		return;
	}
	path_in(img, sizeof(img), "ext4.img");
	CHECK(make_image(img, 16 << 20) == 0, "ext4 image");
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F -L data '%s' >/dev/null 2>&1", img);
	CHECK(system(cmd) == 0, "mkfs.ext4");
	rc = devsig_describe(img, out, sizeof(out));
	CHECK(rc == 1 && !strcmp(out, "ext4 signature found, label 'data'"), "ext4: %d '%s'", rc, out);
	/* a tiny buffer is cut, never overrun */
	char tiny[8];
	memset(tiny, 'x', sizeof(tiny));
	rc = devsig_describe(img, tiny, sizeof(tiny));
	CHECK(rc == 1 && strlen(tiny) == sizeof(tiny) - 1, "cut: '%s'", tiny);
}

static void test_mountinfo(void)
{
	char line[] = "36 35 98:0 /mnt1 /mnt/with\\040space rw,noatime master:1 - ext3 /dev/root rw\n";
	char bad[] = "36 35 98:0 /mnt1\n";
	struct devres_mount m;

	CHECK(devres_parse_mountinfo(line, &m) == 0, "parse");
	CHECK(major(m.dev) == 98 && minor(m.dev) == 0, "dev %u:%u", major(m.dev), minor(m.dev));
	CHECK(!strcmp(m.mountpoint, "/mnt/with space"), "mount point '%s'", m.mountpoint);
	CHECK(!strcmp(m.fstype, "ext3") && !strcmp(m.source, "/dev/root"), "type and source");
	CHECK(devres_parse_mountinfo(bad, &m) == -EINVAL, "malformed line");
}

/* losetup ARGS: the new device's name ("loop7") into name, or -1 */
static int attach(const char *args, char name[64])
{
	char cmd[512], line[128] = "";
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>/dev/null", args);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	int rc = pclose(p);
	line[strcspn(line, "\n")] = '\0';
	if (rc || strncmp(line, "/dev/loop", 9))
		return -1;
	snprintf(name, 64, "%.63s", line + 5);
	return 0;
}

static void detach(const char *name)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "losetup -d /dev/%s 2>/dev/null", name);
	if (system(cmd))
		printf("# could not detach /dev/%s\n", name);
}

static void test_loops(void)
{
	struct devres_loop l, l2, l3;
	char img[256], args[400], a[64], b[64], c[64];
	struct stat st;

	CHECK(devres_loop_info("vda", &l) == -ENXIO, "not a loop device");
	CHECK(devres_loop_info("loop-none", &l) == -ENXIO, "no such loop device");
	if (geteuid() != 0) {
		SKIP("loop device cases", "not root");
		return;
	}
	if (system("command -v losetup >/dev/null 2>&1")) {
		CHECK(0, "needs losetup (mount): install it with scripts/deps.sh");
		return;
	}
	path_in(img, sizeof(img), "loop.img");
	CHECK(make_image(img, 8 << 20) == 0 && stat(img, &st) == 0, "loop image");
	snprintf(args, sizeof(args), "'%s'", img);
	if (attach(args, a)) {
		CHECK(0, "losetup %s failed: loop devices not attached", args);
		return;
	}
	snprintf(args, sizeof(args), "-o 4096 --sizelimit 1048576 '%s'", img);
	int have_b = attach(args, b) == 0;
	snprintf(args, sizeof(args), "/dev/%s", a);
	int have_c = attach(args, c) == 0;
	CHECK(have_b && have_c, "attach at an offset, and over the first loop device");

	CHECK(devres_loop_info(a, &l) == 0, "info of %s", a);
	CHECK(l.back_dev == st.st_dev && l.back_ino == (uint64_t)st.st_ino && l.back_rdev == 0,
	      "%s: backing inode %u:%u/%llu, want %u:%u/%llu", a, major(l.back_dev), minor(l.back_dev),
	      (unsigned long long)l.back_ino, major(st.st_dev), minor(st.st_dev),
	      (unsigned long long)st.st_ino);
	CHECK(l.offset == 0 && l.sizelimit == 0 && !strcmp(l.file, img) && !l.deleted && !strcmp(l.name, a),
	      "%s: offset %llu, file '%s'", a, (unsigned long long)l.offset, l.file);
	struct stat dst;
	char node[80];
	snprintf(node, sizeof(node), "/dev/%s", a);
	CHECK(stat(node, &dst) == 0 && l.dev == dst.st_rdev, "%s: its device number", a);
	if (have_b) {
		CHECK(devres_loop_info(b, &l2) == 0 && l2.back_dev == l.back_dev && l2.back_ino == l.back_ino &&
		      l2.offset == 4096 && l2.sizelimit == 1048576,
		      "%s: same inode, offset %llu, sizelimit %llu", b, (unsigned long long)l2.offset,
		      (unsigned long long)l2.sizelimit);
	}
	if (have_c) {
		CHECK(devres_loop_info(c, &l3) == 0 && l3.back_rdev == l.dev && !strcmp(l3.file, node),
		      "%s: backed by device %u:%u ('%s')", c, major(l3.back_rdev), minor(l3.back_rdev), l3.file);
	}
	struct devres_loop *all;
	size_t n, found = 0;
	CHECK(devres_loops(&all, &n, NULL) == 0, "the loop table");
	for (size_t i = 0; i < n; i++)
		found += !strcmp(all[i].name, a) || (have_b && !strcmp(all[i].name, b)) ||
			 (have_c && !strcmp(all[i].name, c));
	CHECK(found == 1u + have_b + have_c, "the table holds the devices attached here (%zu)", found);
	free(all);
	CHECK(unlink(img) == 0 && devres_loop_info(a, &l) == 0 && l.deleted && !strcmp(l.file, img) &&
	      l.back_ino == (uint64_t)st.st_ino, "deleted image: '%s' deleted=%d", l.file, l.deleted);
	if (have_c)
		detach(c);
	if (have_b)
		detach(b);
	detach(a);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_files();
	test_allow_validate();
	test_signatures();
	test_mountinfo();
	test_loops();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return check_done("devguard");
}
