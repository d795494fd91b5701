/*
 * The guarded open (sys/dev/guardopen.h) on what a test can make without a
 * device: creating only where nothing is (and never in /dev), truncating
 * only after the checks, read-only mode refusing data writes but not
 * iobench's own output, a planned regular file refused when it became a
 * symlink, a pipe or a character device, adopting a descriptor someone else
 * opened. As root, on a loop device made here and removed at the end: own
 * output refused on it (its bytes unchanged), a data write claimed O_EXCL
 * (shared, counted, released), and a claim refused while the device is
 * held exclusively by another open.
 */
#include "sys/dev/guardopen.h"

#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/iobench-guardopen-XXXXXX";

static void path_in(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", dir, name);
}

static int write_file(const char *path, const char *data)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, data, strlen(data));
	close(fd);
	return n == (ssize_t)strlen(data) ? 0 : -EIO;
}

static off_t size_of(const char *path)
{
	struct stat st;
	return stat(path, &st) ? -1 : st.st_size;
}

static void test_create_and_truncate(void)
{
	char p[256], why[2560];
	struct devguard_use own = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE };
	struct devguard_fd g;

	path_in(p, sizeof(p), "new");
	CHECK(devguard_open(p, O_WRONLY | O_CREAT, 0600, &own, &g, why, sizeof(why)) == 0 && g.created &&
	      S_ISREG(g.st.st_mode), "a missing file is created: %s", why);
	CHECK(write(g.fd, "abc", 3) == 3, "write");
	close(g.fd);
	CHECK(devguard_open(p, O_WRONLY | O_CREAT, 0600, &own, &g, why, sizeof(why)) == 0 && !g.created &&
	      g.st.st_size == 3, "an existing file is opened, not made again");
	close(g.fd);
	CHECK(devguard_open(p, O_WRONLY | O_CREAT | O_EXCL, 0600, &own, &g, why, sizeof(why)) == -EEXIST,
	      "O_CREAT|O_EXCL: an existing file is an error");
	CHECK(size_of(p) == 3, "and is left alone");
	FILE *fp;
	CHECK(devguard_fopen(p, false, NULL, &fp, why, sizeof(why)) == 0 && size_of(p) == 0,
	      "devguard_fopen truncates a regular file after the checks");
	if (fp) {
		fputs("report\n", fp);
		fclose(fp);
	}
	CHECK(devguard_fopen(p, true, NULL, &fp, why, sizeof(why)) == 0, "append");
	if (fp) {
		fputs("more\n", fp);
		fclose(fp);
	}
	CHECK(size_of(p) == 12, "append keeps what was there: %lld", (long long)size_of(p));

	path_in(p, sizeof(p), "nodir/x");
	CHECK(devguard_open(p, O_WRONLY | O_CREAT, 0600, &own, &g, why, sizeof(why)) == -ENOENT &&
	      strstr(why, "cannot create"), "a missing directory: %s", why);
	path_in(p, sizeof(p), "missing");
	CHECK(devguard_open(p, O_WRONLY, 0, &own, &g, why, sizeof(why)) == -ENOENT &&
	      strstr(why, "does not exist"), "no O_CREAT: a missing file is not made: %s", why);
	CHECK(access(p, F_OK) < 0, "and is not there");

	CHECK(devguard_fopen("/dev/null", false, NULL, &fp, why, sizeof(why)) == 0,
	      "own output to /dev/null (a character device) passes: %s", why);
	if (fp)
		fclose(fp);
}

static void test_dev_rule(void)
{
	char why[2560], name[128];
	struct devguard_use data = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE };
	struct devguard_fd g;
	struct stat dev, shm;

	snprintf(name, sizeof(name), "/dev/iobench-test-missing-%d", (int)getpid());
	CHECK(devguard_may_create(AT_FDCWD, name, why, sizeof(why)) == -ENOENT &&
	      strstr(why, "does not exist") && strstr(why, "does not create files in /dev"),
	      "a missing name in /dev is not created: %s", why);
	CHECK(devguard_open(name, O_RDWR | O_CREAT, 0644, &data, &g, why, sizeof(why)) == -ENOENT &&
	      access(name, F_OK) < 0, "devguard_open refuses it too and makes nothing: %s", why);
	CHECK(devguard_may_create(AT_FDCWD, "/tmp/iobench-anything", why, sizeof(why)) == 0,
	      "/tmp is fine");
	if (!stat("/dev", &dev) && !stat("/dev/shm", &shm) && dev.st_dev != shm.st_dev)
		CHECK(devguard_may_create(AT_FDCWD, "/dev/shm/iobench-x", why, sizeof(why)) == 0,
		      "/dev/shm, a filesystem of its own below /dev, is fine");
	int dfd = open("/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(dfd >= 0 && devguard_may_create(dfd, "iobench-x", why, sizeof(why)) == -ENOENT,
	      "relative to a descriptor of /dev");
	if (dfd >= 0)
		close(dfd);
}

static void test_readonly(void)
{
	char p[256], why[2560];
	struct devguard_allow ro = { .readonly_by = "--readonly" };
	struct devguard_use data = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE, .allow = &ro };
	struct devguard_use own = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE, .allow = &ro };
	struct devguard_use rd = { .kind = DEVGUARD_DATA, .allow = &ro };
	struct devguard_fd g;

	path_in(p, sizeof(p), "ro");
	CHECK(devguard_open(p, O_RDWR | O_CREAT, 0644, &data, &g, why, sizeof(why)) == -EROFS &&
	      strstr(why, "read-only mode (--readonly)") && access(p, F_OK) < 0,
	      "read-only mode: a data write is refused before anything is made: %s", why);
	CHECK(write_file(p, "x") == 0, "file");
	CHECK(devguard_open(p, O_RDONLY, 0, &rd, &g, why, sizeof(why)) == 0,
	      "read-only mode: reading passes");
	close(g.fd);
	CHECK(devguard_open(p, O_WRONLY | O_TRUNC, 0, &own, &g, why, sizeof(why)) == 0,
	      "read-only mode: iobench's own output to a regular file passes: %s", why);
	close(g.fd);
	int fd = open(p, O_RDWR | O_CLOEXEC);
	CHECK(devguard_adopt(fd, p, &data, &g, why, sizeof(why)) == -EROFS,
	      "read-only mode: an adopted descriptor for a data write is refused");
	close(fd);
}

static void test_seen(void)
{
	char p[256], link[256], fifo[256], why[2560];
	struct devguard_seen reg = { .type = S_IFREG };
	struct devguard_seen reg_link = { .type = S_IFREG, .symlink = true };
	struct devguard_seen blk = { .type = S_IFBLK, .rdev = 0x0703 };
	struct devguard_use u = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE, .seen = &reg };
	struct devguard_fd g;

	path_in(p, sizeof(p), "target");
	path_in(link, sizeof(link), "link");
	CHECK(write_file(p, "data") == 0 && symlink(p, link) == 0, "a file and a symlink to it");
	CHECK(devguard_open(link, O_RDWR, 0, &u, &g, why, sizeof(why)) == -ELOOP &&
	      strstr(why, "was a regular file when the run was set up and is now a symbolic link to") &&
	      strstr(why, "refusing to follow it"), "planned regular, now a symlink: %s", why);
	u.seen = &reg_link;
	CHECK(devguard_open(link, O_RDWR, 0, &u, &g, why, sizeof(why)) == 0,
	      "planned through a symlink, still reaching a regular file: passes: %s", why);
	close(g.fd);
	CHECK(unlink(link) == 0 && symlink("/dev/null", link) == 0, "the symlink now leads to /dev/null");
	CHECK(devguard_open(link, O_RDWR, 0, &u, &g, why, sizeof(why)) == -EINVAL &&
	      strstr(why, "is now character device /dev/null"), "and is refused, naming it: %s", why);
	u.seen = &reg;
	CHECK(devguard_open(link, O_RDWR, 0, &u, &g, why, sizeof(why)) == -ELOOP &&
	      strstr(why, "a symbolic link to '/dev/null', character device"), "O_NOFOLLOW names it: %s",
	      why);

	/* planned as missing, but made by somebody else before the layout */
	struct devguard_seen none = { 0 };
	struct devguard_use u0 = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE, .seen = &none };
	CHECK(devguard_open(p, O_RDWR | O_CREAT, 0644, &u0, &g, why, sizeof(why)) == 0 && !g.created &&
	      g.st.st_size == 4, "planned missing, found a regular file: opened, not truncated: %s", why);
	close(g.fd);
	CHECK(devguard_open(link, O_RDWR | O_CREAT, 0644, &u0, &g, why, sizeof(why)) == -ELOOP &&
	      strstr(why, "did not exist when the run was set up and is now a symbolic link to '/dev/null'"),
	      "planned missing, found a symlink: refused: %s", why);

	path_in(fifo, sizeof(fifo), "fifo");
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
	CHECK(devguard_open(fifo, O_RDWR, 0, &u, &g, why, sizeof(why)) == -EINVAL &&
	      strstr(why, "is now a named pipe"), "planned regular, now a pipe: %s", why);

	int fd = open(p, O_RDWR | O_CLOEXEC);
	u.seen = &blk;
	CHECK(devguard_adopt(fd, p, &u, &g, why, sizeof(why)) == -EINVAL &&
	      strstr(why, "was block device 7:3 when the run was set up and is now a regular file"),
	      "planned a device, now a regular file: %s", why);
	u.seen = &reg;
	CHECK(devguard_adopt(fd, p, &u, &g, why, sizeof(why)) == 0 && g.fd == fd && !g.claimed,
	      "adopting the planned regular file passes");
	close(fd);
	struct devguard_use rd = { .kind = DEVGUARD_DATA, .seen = &blk };
	fd = open(p, O_RDONLY | O_CLOEXEC);
	CHECK(devguard_adopt(fd, p, &rd, &g, why, sizeof(why)) == 0, "reads are never refused");
	close(fd);
}

/* A loop device over an 8 MiB image, or NULL (not root, no losetup). */
static char *make_loop(const char *img)
{
	char cmd[1024], out[300], *dev = NULL;
	snprintf(cmd, sizeof(cmd), "truncate -s 8M '%s' && losetup -f --show '%s' > '%s.dev' 2>/dev/null",
		 img, img, img);
	if (geteuid() != 0 || system(cmd))
		return NULL;
	snprintf(out, sizeof(out), "%s.dev", img);
	FILE *fp = fopen(out, "r");
	char line[128];
	if (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = 0;
		dev = strdup(line);
	}
	if (fp)
		fclose(fp);
	return dev;
}

static void test_block_device(void)
{
	char img[256], why[2560], cmd[512];
	path_in(img, sizeof(img), "disk.img");
	if (geteuid() != 0) {
		SKIP("block-device cases", "not root (tests/e2e/test_guard_open.sh has them too)");
		return;
	}
	char *dev = make_loop(img);
	if (!dev) {
		CHECK(0, "a loop device over %s (losetup, from mount)", img);
		return;
	}
	int fd = open(img, O_WRONLY | O_CLOEXEC);
	CHECK(fd >= 0 && pwrite(fd, "IOBENCH-MARK", 12, 4096) == 12, "mark the image");
	if (fd >= 0)
		close(fd);

	FILE *fp;
	CHECK(devguard_fopen(dev, false, NULL, &fp, why, sizeof(why)) == -EPERM &&
	      strstr(why, "never to a block device"), "own output onto a block device: %s", why);
	char buf[12] = "";
	fd = open(img, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0 && pread(fd, buf, 12, 4096) == 12 && !memcmp(buf, "IOBENCH-MARK", 12),
	      "the device's bytes are unchanged");
	if (fd >= 0)
		close(fd);

	struct devguard_claims claims;
	devguard_claims_init(&claims);
	struct devguard_seen seen;
	struct stat st;
	CHECK(stat(dev, &st) == 0, "stat the device");
	seen = (struct devguard_seen){ .type = S_IFBLK, .rdev = st.st_rdev };
	struct devguard_use u = { .kind = DEVGUARD_DATA, .what = DEVGUARD_WRITE, .seen = &seen };
	struct devguard_fd g1, g2;
	int a = open(dev, O_RDWR | O_CLOEXEC), b = open(dev, O_RDWR | O_CLOEXEC);
	CHECK(devguard_adopt(a, dev, &u, &g1, why, sizeof(why)) == -EPERM,
	      "a data write to a device without claims to hold it is refused");
	u.claims = &claims;
	CHECK(devguard_adopt(a, dev, &u, &g1, why, sizeof(why)) == 0 && g1.claimed == st.st_rdev,
	      "a blank device: passes and is claimed: %s", why);
	CHECK(devguard_adopt(b, dev, &u, &g2, why, sizeof(why)) == 0 && g2.claimed == st.st_rdev &&
	      claims.n == 1 && claims.v[0].refs == 2, "a second user shares the claim: %s", why);
	int x = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	CHECK(x < 0 && errno == EBUSY, "while claimed, nobody else can open it exclusively (mount it)");
	if (x >= 0)
		close(x);
	devguard_unclaim(&claims, g1.claimed);
	CHECK(claims.n == 1, "one user left: still claimed");
	devguard_unclaim(&claims, g2.claimed);
	x = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	CHECK(claims.n == 0 && x >= 0, "the last release frees it");
	CHECK(devguard_adopt(a, dev, &u, &g1, why, sizeof(why)) == -EBUSY && strstr(why, "busy"),
	      "held exclusively by another open: refused as busy: %s", why);
	if (x >= 0)
		close(x);
	struct devguard_seen other = { .type = S_IFBLK, .rdev = st.st_rdev + 1 };
	u.seen = &other;
	CHECK(devguard_adopt(a, dev, &u, &g1, why, sizeof(why)) == -EPERM && strstr(why, "is now block device"),
	      "another device than the one planned: refused: %s", why);
	close(a);
	close(b);
	devguard_claims_release(&claims);
	snprintf(cmd, sizeof(cmd), "losetup -d '%s'", dev);
	CHECK(system(cmd) == 0, "detach %s", dev);
	free(dev);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_create_and_truncate();
	test_dev_rule();
	test_readonly();
	test_seen();
	test_block_device();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return check_done("guardopen");
}
