/*
 * The system capture's text parsers on sample texts: os-release quoting,
 * /proc/meminfo and /proc/cpuinfo fields (x86 and ARM), sysfs "[choice]"
 * lists, /proc/swaps with an escaped name, btrfs flag names, an ext4
 * journal superblock built by hand, and mountinfo's mount and superblock
 * options as devres_parse_mountinfo splits them.
 */
#include <errno.h>
#include <linux/btrfs_tree.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sys/dev/devres.h"
#include "sys/sysinfo/sysinfo.h"

static void check_str(char *got, const char *want, const char *what)
{
	CHECK(want ? got && !strcmp(got, want) : !got, "%s: got '%s' want '%s'", what, got ? got : "(null)",
	      want ? want : "(null)");
	free(got);
}

static void test_os_release(void)
{
	const char *t = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
			"NAME=\"Debian GNU/Linux\"\n"
			"VERSION_ID=\"12\"\n"
			"ID=debian\n"
			"HOME_URL='https://www.debian.org/'\n"
			"ESCAPED=\"a \\\"b\\\" \\$c\"\n"
			"EMPTY=\n";
	check_str(sysinfo_os_release_value(t, "PRETTY_NAME"), "Debian GNU/Linux 12 (bookworm)", "pretty name");
	check_str(sysinfo_os_release_value(t, "ID"), "debian", "unquoted id");
	check_str(sysinfo_os_release_value(t, "VERSION_ID"), "12", "version id");
	check_str(sysinfo_os_release_value(t, "HOME_URL"), "https://www.debian.org/", "single quotes");
	check_str(sysinfo_os_release_value(t, "ESCAPED"), "a \"b\" $c", "escapes");
	check_str(sysinfo_os_release_value(t, "EMPTY"), NULL, "empty value");
	check_str(sysinfo_os_release_value(t, "NAM"), NULL, "prefix of a key");
	check_str(sysinfo_os_release_value(t, "VERSION"), NULL, "absent key");
	check_str(sysinfo_os_release_value(NULL, "ID"), NULL, "no text");
}

static void test_meminfo(void)
{
	const char *t = "MemTotal:       24683620 kB\n"
			"MemFree:        23020440 kB\n"
			"MemAvailable:   24231276 kB\n"
			"SwapTotal:             0 kB\n"
			"SwapFree:        1048572 kB\n";
	CHECK(sysinfo_meminfo_bytes(t, "MemTotal") == 24683620LL * 1024, "MemTotal");
	CHECK(sysinfo_meminfo_bytes(t, "MemAvailable") == 24231276LL * 1024, "MemAvailable");
	CHECK(sysinfo_meminfo_bytes(t, "SwapTotal") == 0, "zero swap");
	CHECK(sysinfo_meminfo_bytes(t, "SwapFree") == 1048572LL * 1024, "SwapFree");
	CHECK(sysinfo_meminfo_bytes(t, "Mem") == SYSINFO_UNSET, "prefix");
	CHECK(sysinfo_meminfo_bytes(t, "Hugepagesize") == SYSINFO_UNSET, "absent");
	CHECK(sysinfo_meminfo_bytes("MemTotal: x kB\n", "MemTotal") == SYSINFO_UNSET, "not a number");
}

static void test_cpuinfo(void)
{
	const char *x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
			  "model\t\t: 1\nmodel name\t: AMD EPYC 7763 64-Core Processor\ncpu MHz\t\t: 2445.406\n";
	const char *arm = "Processor\t: AArch64 Processor rev 4 (aarch64)\nprocessor\t: 0\nBogoMIPS\t: 38.40\n";
	const char *power = "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\nclock\t\t: 2166.000000MHz\n";
	check_str(sysinfo_cpuinfo_model(x86), "AMD EPYC 7763 64-Core Processor", "x86");
	check_str(sysinfo_cpuinfo_model(arm), "AArch64 Processor rev 4 (aarch64)", "arm");
	check_str(sysinfo_cpuinfo_model(power), "POWER9 (architected), altivec supported", "power");
	check_str(sysinfo_cpuinfo_model("processor\t: 0\ncpu MHz\t: 1000\n"), NULL, "no model; cpu MHz is not cpu");
}

static void test_bracketed(void)
{
	check_str(sysinfo_bracketed("[mq-deadline] kyber bfq none"), "mq-deadline", "first");
	check_str(sysinfo_bracketed("always [madvise] never"), "madvise", "middle");
	check_str(sysinfo_bracketed("none"), NULL, "no choice");
	check_str(sysinfo_bracketed("a [] b"), NULL, "empty brackets");
	check_str(sysinfo_bracketed("a [b"), NULL, "unclosed");
}

static void test_swaps(void)
{
	const char *t = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
			"/dev/sda2                               partition\t8388604\t\t1024\t\t-2\n"
			"/swap\\040file                           file\t\t1048572\t\t0\t\t-3\n";
	struct sysinfo_swap *s;
	size_t n;

	sysinfo_parse_swaps(t, &s, &n);
	CHECK(n == 2, "two swaps, got %zu", n);
	if (n == 2) {
		CHECK(!strcmp(s[0].name, "/dev/sda2") && !strcmp(s[0].type, "partition"), "first");
		CHECK(s[0].size_bytes == 8388604LL * 1024 && s[0].used_bytes == 1024 * 1024 && s[0].priority == -2,
		      "first numbers");
		CHECK(!strcmp(s[1].name, "/swap file") && !strcmp(s[1].type, "file"), "escaped name '%s'", s[1].name);
	}
	for (size_t i = 0; i < n; i++) {
		free(s[i].name);
		free(s[i].type);
	}
	free(s);
	sysinfo_parse_swaps("Filename\tType\tSize\tUsed\tPriority\n", &s, &n);
	CHECK(n == 0 && !s, "header only");
	sysinfo_parse_swaps(NULL, &s, &n);
	CHECK(n == 0 && !s, "no text");
}

static void test_btrfs_names(void)
{
	CHECK(!strcmp(sysinfo_btrfs_profile(BTRFS_BLOCK_GROUP_DATA), "single"), "single");
	CHECK(!strcmp(sysinfo_btrfs_profile(BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_RAID1), "RAID1"), "raid1");
	CHECK(!strcmp(sysinfo_btrfs_profile(BTRFS_BLOCK_GROUP_METADATA | BTRFS_BLOCK_GROUP_DUP), "DUP"), "dup");
	CHECK(!strcmp(sysinfo_btrfs_profile(BTRFS_BLOCK_GROUP_RAID10), "RAID10"), "raid10");
	CHECK(!strcmp(sysinfo_btrfs_profile(BTRFS_BLOCK_GROUP_RAID1C3), "RAID1C3"), "raid1c3");
	CHECK(!strcmp(sysinfo_btrfs_space_type(BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_RAID1), "Data"), "data");
	CHECK(!strcmp(sysinfo_btrfs_space_type(BTRFS_BLOCK_GROUP_METADATA), "Metadata"), "metadata");
	CHECK(!strcmp(sysinfo_btrfs_space_type(BTRFS_BLOCK_GROUP_SYSTEM), "System"), "system");
	CHECK(!strcmp(sysinfo_btrfs_space_type(BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_METADATA), "Data+Metadata"),
	      "mixed");
	CHECK(!strcmp(sysinfo_btrfs_space_type(BTRFS_SPACE_INFO_GLOBAL_RSV | BTRFS_BLOCK_GROUP_METADATA),
		      "GlobalReserve"), "global reserve");
}

static void put_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void test_journal_sb(void)
{
	unsigned char sb[1024] = { 0 };
	int64_t blocks, bs;
	char *features = NULL;

	CHECK(sysinfo_ext_journal_sb(sb, sizeof(sb), &blocks, &bs, &features) == -EINVAL, "no magic");
	put_be32(sb, 0xC03B3998);
	put_be32(sb + 4, 4);     /* superblock v2 */
	put_be32(sb + 12, 4096); /* s_blocksize */
	put_be32(sb + 16, 4096); /* s_maxlen */
	put_be32(sb + 36, 0x1);  /* compat: checksum */
	put_be32(sb + 40, 0x2 | 0x10); /* incompat: 64bit, csum v3 */
	CHECK(sysinfo_ext_journal_sb(sb, sizeof(sb), &blocks, &bs, &features) == 0, "parses");
	CHECK(blocks == 4096 && bs == 4096, "blocks %lld size %lld", (long long)blocks, (long long)bs);
	check_str(features, "journal_checksum journal_64bit journal_checksum_v3", "features in dumpe2fs order");
	put_be32(sb + 4, 3); /* v1: no feature words */
	CHECK(sysinfo_ext_journal_sb(sb, sizeof(sb), &blocks, &bs, &features) == 0, "v1 parses");
	check_str(features, NULL, "v1 has no features");
	CHECK(sysinfo_ext_journal_sb(sb, 512, &blocks, &bs, &features) == -EINVAL, "short buffer");
}

static void test_mountinfo_options(void)
{
	char line[] = "36 35 98:0 /mnt1 /mnt/my\\040disk rw,noatime master:1 - xfs /dev/sdb1 rw,inode64,sunit=128\n";
	char bare[] = "22 1 0:21 / /proc rw,nosuid - proc proc rw";
	char nosuper[] = "22 1 0:21 / /proc rw,nosuid - proc proc";
	struct devres_mount m;

	CHECK(devres_parse_mountinfo(line, &m) == 0, "parses");
	CHECK(!strcmp(m.mountpoint, "/mnt/my disk") && !strcmp(m.root, "/mnt1"), "mountpoint and root");
	CHECK(!strcmp(m.options, "rw,noatime"), "mount options '%s'", m.options);
	CHECK(!strcmp(m.fstype, "xfs") && !strcmp(m.source, "/dev/sdb1"), "type and source");
	CHECK(m.super_options && !strcmp(m.super_options, "rw,inode64,sunit=128"), "super options");
	CHECK(devres_parse_mountinfo(bare, &m) == 0 && !strcmp(m.options, "rw,nosuid") &&
	      !strcmp(m.super_options, "rw"), "no optional fields");
	CHECK(devres_parse_mountinfo(nosuper, &m) == 0 && !m.super_options, "super options missing");
}

int main(void)
{
	test_os_release();
	test_meminfo();
	test_cpuinfo();
	test_bracketed();
	test_swaps();
	test_btrfs_names();
	test_journal_sb();
	test_mountinfo_options();
	return check_done("test_sysinfo_parse");
}
