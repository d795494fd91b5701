/*
 * /proc/diskstats parsing: sample text with 14, 18 and 20 columns and an old
 * 7-column partition line, malformed input, the delta of two samples with a
 * wrapped 32-bit counter and a reset 64-bit one, and the real file holding
 * the device '/' is on.
 */
#include "sys/diskstats.h"

#include "check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char tmp_path[64];

static int parse_text(const char *text, struct diskstat **out, size_t *n)
{
	FILE *f = fopen(tmp_path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	fclose(f);
	return diskstats_read(tmp_path, out, n);
}

static void test_columns(void)
{
	const char *text =
		/* 14 columns: Linux 2.6.25 - 4.17 */
		"   8       0 sda 100 2 3000 40 50 6 7000 80 1 90 120\n"
		/* 18 columns: 4.18+, discards */
		"   8      16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"
		/* 20 columns: 5.5+, flushes */
		" 259       0 nvme0n1 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27\n"
		/* 7 columns: old kernels' partitions */
		"   3       1 hda1 35486 38030 38030 4864\n"
		"\n"
		/* a 64-bit counter past 2^32 */
		" 254       0 vda 18446744073709551615 0 5000000000 0 0 0 0 0 0 0 0\n";
	struct diskstat *d = NULL;
	size_t n = 0;
	int ret = parse_text(text, &d, &n);

	CHECK(ret == 0 && n == 5, "parse gave %d, %zu lines", ret, n);
	if (ret || n != 5)
		return;
	CHECK(!strcmp(d[0].name, "sda") && d[0].major == 8 && d[0].minor == 0, "sda identity");
	CHECK(d[0].rd_ios == 100 && d[0].rd_merges == 2 && d[0].rd_sectors == 3000 &&
	      d[0].rd_ticks == 40, "sda read fields");
	CHECK(d[0].wr_ios == 50 && d[0].wr_merges == 6 && d[0].wr_sectors == 7000 &&
	      d[0].wr_ticks == 80, "sda write fields");
	CHECK(d[0].in_flight == 1 && d[0].io_ticks == 90 && d[0].time_in_queue == 120, "sda queue fields");
	CHECK(d[0].dc_ios == 0 && d[0].fl_ios == 0 && d[0].fl_ticks == 0, "sda has no discard/flush");

	CHECK(!strcmp(d[1].name, "sdb") && d[1].minor == 16, "sdb identity");
	CHECK(d[1].time_in_queue == 11 && d[1].dc_ios == 12 && d[1].dc_merges == 13 &&
	      d[1].dc_sectors == 14 && d[1].dc_ticks == 15, "sdb discard fields");
	CHECK(d[1].fl_ios == 0 && d[1].fl_ticks == 0, "sdb has no flush fields");

	CHECK(!strcmp(d[2].name, "nvme0n1") && d[2].major == 259, "nvme identity");
	CHECK(d[2].rd_ios == 11 && d[2].dc_ticks == 25 && d[2].fl_ios == 26 && d[2].fl_ticks == 27,
	      "nvme 20-column fields");

	CHECK(!strcmp(d[3].name, "hda1") && d[3].rd_ios == 35486 && d[3].rd_sectors == 38030 &&
	      d[3].wr_ios == 38030 && d[3].wr_sectors == 4864 && d[3].rd_merges == 0 &&
	      d[3].rd_ticks == 0, "old partition line");
	CHECK(d[4].rd_ios == UINT64_MAX && d[4].rd_sectors == 5000000000ULL, "64-bit values");
	free(d);
}

static void test_malformed(void)
{
	struct diskstat *d = NULL;
	size_t n = 0;

	CHECK(parse_text("   8 0 sda 1 2 3\n", &d, &n) == -EINVAL, "too few columns");
	CHECK(parse_text("   8 0 sda 1 2 x 4 5 6 7 8 9 10 11\n", &d, &n) == -EINVAL, "not a number");
	CHECK(parse_text("garbage\n", &d, &n) == -EINVAL, "no major/minor");
	CHECK(parse_text("", &d, &n) == 0 && n == 0, "empty file");
	free(d);
	CHECK(diskstats_read("/nonexistent-iobench/diskstats", &d, &n) == -ENOENT, "missing file");
}

static void test_delta(void)
{
	struct diskstat a = { .name = "sda", .major = 8 }, b = a, d;

	a.rd_ios = 0xfffffff0u;     b.rd_ios = 0x10;       /* wrapped 32-bit */
	a.rd_sectors = 1000;        b.rd_sectors = 3000;
	a.wr_sectors = 5000000000ULL; b.wr_sectors = 100;  /* 64-bit reset */
	a.io_ticks = 0xffffffffu;   b.io_ticks = 9;        /* wrapped at the edge */
	a.in_flight = 7;            b.in_flight = 3;       /* gauge */
	a.fl_ios = 5;               b.fl_ios = 5;
	a.time_in_queue = 1ULL << 40; b.time_in_queue = (1ULL << 40) + 123;
	diskstat_delta(&a, &b, &d);
	CHECK(d.rd_ios == 0x20, "wrapped delta %llu", (unsigned long long)d.rd_ios);
	CHECK(d.rd_sectors == 2000, "plain delta");
	CHECK(d.wr_sectors == 0, "reset counter gives 0, got %llu", (unsigned long long)d.wr_sectors);
	CHECK(d.io_ticks == 10, "edge wrap %llu", (unsigned long long)d.io_ticks);
	CHECK(d.in_flight == 3, "in_flight is the later value");
	CHECK(d.fl_ios == 0, "unchanged counter");
	CHECK(d.time_in_queue == 123, "64-bit delta");
	CHECK(!strcmp(d.name, "sda") && d.major == 8, "identity kept");
	diskstat_delta(&a, &b, &b); /* aliasing */
	CHECK(b.rd_ios == 0x20 && b.in_flight == 3, "aliased delta");
}

static void test_real(void)
{
	struct diskstat *d = NULL, one;
	size_t n = 0;
	struct stat st;
	int ret = diskstats_read(NULL, &d, &n);

	CHECK(ret == 0 && n > 0, "/proc/diskstats gave %d, %zu lines", ret, n);
	if (ret)
		return;
	CHECK(stat("/", &st) == 0, "stat /");
	size_t i;
	for (i = 0; i < n; i++)
		if (d[i].major == major(st.st_dev) && d[i].minor == minor(st.st_dev))
			break;
	if (major(st.st_dev) == 0) {
		SKIP("the device of '/' in /proc/diskstats", "'/' has an anonymous device %u:%u here",
		     major(st.st_dev), minor(st.st_dev));
	} else {
		CHECK(i < n, "device %u:%u of '/' not in /proc/diskstats", major(st.st_dev),
		      minor(st.st_dev));
		if (i < n) {
			CHECK(diskstat_find(d[i].name, &one) == 0 && one.major == d[i].major &&
			      one.minor == d[i].minor && one.rd_ios >= d[i].rd_ios,
			      "diskstat_find('%s')", d[i].name);
		}
	}
	CHECK(diskstat_find("no-such-disk-iobench", &one) == -ENOENT, "find missing disk");
	free(d);
}

int main(void)
{
	snprintf(tmp_path, sizeof(tmp_path), "/tmp/iobench-diskstats-%d", (int)getpid());
	test_columns();
	test_malformed();
	test_delta();
	test_real();
	unlink(tmp_path);
	return check_done("test_diskstats");
}
