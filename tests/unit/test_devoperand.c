/*
 * The operand check (sys/dev/devoperand.h) on a block device of this
 * machine (only stat()ed): it is found as a word, after '=' (--opt=DEV,
 * opt=DEV), in a comma list, through a symbolic link, in a shell line
 * after ; | > and inside quotes, and passes when the caller allows it or
 * --allow-destroy names it; words naming no device pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "sys/dev/devoperand.h"
#include "util/array.h"

/* A block device node of this machine, or "". */
static void find_bdev(char *out, size_t len)
{
	out[0] = '\0';
	FILE *f = fopen("/proc/partitions", "r");
	char line[256], name[128];
	unsigned ma, mi;
	unsigned long long blocks;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %u %llu %127s", &ma, &mi, &blocks, name) != 4)
			continue;
		char path[200];
		struct stat st;
		snprintf(path, sizeof(path), "/dev/%s", name);
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
			snprintf(out, len, "%s", path);
			break;
		}
	}
	if (f)
		fclose(f);
}

int main(void)
{
	char dev[200];
	find_bdev(dev, sizeof(dev));
	if (!dev[0]) {
		printf("test_devoperand: no block device node on this machine\n");
		return 1;
	}
	char dir[] = "/tmp/iobench-test-devoperand.XXXXXX", link[300], text[600], why[1024];
	if (!mkdtemp(dir))
		return 1;
	snprintf(link, sizeof(link), "%s/by-id-like", dir);
	CHECK(symlink(dev, link) == 0, "a symbolic link to %s", dev);
	struct devoperand_allow none = { 0 };
	const char *words[] = { "%s", "--device=%s", "of=%s", "compress=zstd,device=%s",
				"-o,noatime,logdev=%s" };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		snprintf(text, sizeof(text), words[i], dev);
		CHECK(devoperand_check(text, false, &none, NULL, why, sizeof(why)) < 0 &&
		      strstr(why, dev), "'%s' is refused (%s)", text, why);
	}
	CHECK(devoperand_check(link, false, &none, NULL, why, sizeof(why)) < 0 && strstr(why, dev),
	      "a symbolic link to it is refused, naming the device (%s)", why);
	size_t off = 0;
	snprintf(text, sizeof(text), "true;dd if=/dev/zero of='%s'|cat", dev);
	CHECK(devoperand_check(text, true, &none, &off, why, sizeof(why)) < 0 && off == 21,
	      "in a shell line after ';', quoted: refused at its word (offset %zu)", off);
	snprintf(text, sizeof(text), "echo x >%s", link);
	CHECK(devoperand_check(text, true, &none, NULL, why, sizeof(why)) < 0,
	      "a redirection to it is refused");
	CHECK(devoperand_check("mkfs.ext4 -F -q -E lazy_itable_init=0 /tmp/x /dev/null", true, &none,
			       NULL, why, sizeof(why)) == 0,
	      "words that name no block device pass (a character device too)");
	const char *own[] = { link };
	struct devoperand_allow mine = { .devs = own, .ndev = 1 };
	snprintf(text, sizeof(text), "--device=%s", dev);
	CHECK(devoperand_check(text, false, &mine, NULL, why, sizeof(why)) == 0,
	      "the caller's own device passes (compared by device number)");
	const char *ad[] = { dev };
	struct devguard_allow allow = { .devices = ad, .nr_devices = 1 };
	struct devoperand_allow offered = { .allow = &allow };
	CHECK(devoperand_check(link, false, &offered, NULL, why, sizeof(why)) == 0,
	      "a device --allow-destroy names passes");
	unlink(link);
	rmdir(dir);
	return check_done("test_devoperand");
}
