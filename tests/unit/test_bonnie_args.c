/*
 * bonnie++ 2.00a's flags: the studies' command lines, value syntax (MiB and
 * g/t suffixes, colon lists, -1/-2 links, attached and grouped letters,
 * -f's attached-only size), the 2×RAM default size, iobench's long
 * options, and one-line errors naming the bad value.
 */
#include "check.h"
#include "cmd/bonnie/bonnie_args_int.h"
#include "sys/sysmem.h"

#include <stdarg.h>
#include <string.h>

#define MIB (1024ull * 1024)

static char why[512];

/* Parse a NULL-terminated list of words after "bonnie". */
static int parse(struct bonnie_args *a, ...)
{
	char *argv[64] = { (char *)"bonnie" };
	int argc = 1;
	va_list ap;
	va_start(ap, a);
	for (char *w; (w = va_arg(ap, char *)) != NULL && argc < 63;)
		argv[argc++] = w;
	va_end(ap);
	why[0] = 0;
	return bonnie_args_parse(argc, argv, a, why, sizeof(why));
}

static void test_num(void)
{
	long long v;
	CHECK(bonnie_parse_num("12", "gt", &v) == 0 && v == 12, "plain");
	CHECK(bonnie_parse_num("12G", "gt", &v) == 0 && v == 12 * 1024, "12G is MiB x1024: %lld", v);
	CHECK(bonnie_parse_num("2t", "gt", &v) == 0 && v == 2ll * 1024 * 1024, "t");
	CHECK(bonnie_parse_num("4k", "kmg", &v) == 0 && v == 4096, "k");
	CHECK(bonnie_parse_num("3m", "kmg", &v) == 0 && v == 3 * MIB, "m");
	CHECK(bonnie_parse_num("1g", "kmg", &v) == 0 && v == 1024 * MIB, "g");
	CHECK(bonnie_parse_num("-1", "kmg", &v) == 0 && v == -1, "negative");
	CHECK(bonnie_parse_num("4x", "kmg", &v) < 0, "bad suffix");
	CHECK(bonnie_parse_num("4k", NULL, &v) < 0, "no suffix allowed");
	CHECK(bonnie_parse_num("", "k", &v) < 0, "empty");
	CHECK(bonnie_parse_num("k", "k", &v) < 0, "suffix alone");
	CHECK(bonnie_parse_num("4kk", "k", &v) < 0, "two suffixes");
}

/* An XFS RAID study's five command lines, and a filesystem comparison's. */
static void test_seeds(void)
{
	struct bonnie_args a;
	CHECK(parse(&a, "-m", "cfhat5", "-n", "0", "-u", "0", "-r", "4092", "-s", "20480", "-f",
		    "-b", "-d", "/mnt", NULL) == 0, "XFS study #1: %s", why);
	CHECK(!strcmp(a.spec.machine, "cfhat5"), "machine");
	CHECK(a.spec.num_files == 0, "-n 0");
	CHECK(!strcmp(a.user, "0") && !a.group, "-u 0");
	CHECK(a.spec.ram_mb == 4092, "-r");
	CHECK(a.spec.file_size == 20480 * MIB && a.size_given, "-s 20480");
	CHECK(a.spec.skip_putc, "bare -f skips per-char");
	CHECK(a.spec.sync_writes, "-b");
	CHECK(!strcmp(a.spec.dir, "/mnt"), "-d");
	bonnie_args_release(&a);

	CHECK(parse(&a, "-m", "cfhat5", "-n", "50:0:0:50", "-u", "0", "-r", "4092", "-s", "0", "-b",
		    "-d", "/mnt", NULL) == 0, "XFS study #2: %s", why);
	CHECK(a.spec.num_files == 50 && a.spec.max_size == 0 && a.spec.min_size == 0 &&
	      a.spec.num_dirs == 50, "-n 50:0:0:50");
	CHECK(a.spec.file_size == 0, "-s 0 skips the I/O tests");
	bonnie_args_release(&a);

	CHECK(parse(&a, "-n", "20:10:1:20", "-u", "0", "-s", "0", NULL) == 0, "XFS study #3");
	CHECK(a.spec.num_files == 20 && a.spec.max_size == 10 && a.spec.min_size == 1 &&
	      a.spec.num_dirs == 20, "-n 20:10:1:20");
	bonnie_args_release(&a);

	CHECK(parse(&a, "-n", "10:1000000:100000:10", "-u", "0", "-s", "0", NULL) == 0, "XFS study #4");
	CHECK(a.spec.max_size == 1000000 && a.spec.min_size == 100000, "byte sizes");
	bonnie_args_release(&a);

	CHECK(parse(&a, "-n", "1:17000000:17000000:10", "-u", "0", "-s", "0", NULL) == 0, "XFS study #5");
	CHECK(a.spec.num_files == 1 && a.spec.max_size == 17000000, "16 MB files");
	bonnie_args_release(&a);

	CHECK(parse(&a, "-n", "1", "-s", "12G", "-d", "/scratch", "-u", "apache", "-q", NULL) == 0,
	      "filesystem comparison: %s", why);
	CHECK(a.spec.file_size == 12ull * 1024 * MIB, "12G");
	CHECK(a.spec.quiet && !strcmp(a.user, "apache"), "-q -u apache");
	bonnie_args_release(&a);
}

static void test_forms(void)
{
	struct bonnie_args a;
	CHECK(parse(&a, "-s64:4k:1000:3", "-qbD", "-f4", "-c2", "-x", "3", "-z", "12345", NULL) == 0,
	      "attached and grouped: %s", why);
	CHECK(a.spec.file_size == 64 * MIB && a.spec.chunk_size == 4096 && a.spec.seeks == 1000 &&
	      a.spec.seekers == 3, "-s size:chunk:seeks:seekers");
	CHECK(a.spec.quiet && a.spec.sync_writes && a.spec.direct, "-qbD");
	CHECK(a.spec.putc_size == 4 * MIB && !a.spec.skip_putc, "-f4 is 4 MiB");
	CHECK(a.spec.concurrency == 2, "-c2");
	CHECK(a.spec.repeats == 3 && a.repeats_given, "-x 3");
	CHECK(a.spec.have_seed && a.spec.seed == 12345, "-z");
	bonnie_args_release(&a);

	CHECK(parse(&a, "-s", "64::2000", "-n", "1:-1", NULL) == 0, "empty part keeps default");
	CHECK(a.spec.seeks == 2000, "seeks after an empty chunk");
	CHECK(a.spec.max_size == BONNIE_HARD_LINKS, "-1 hard links");
	bonnie_args_release(&a);
	CHECK(parse(&a, "-n", "2m:-2:0:3:512", NULL) == 0, "symlinks");
	CHECK(a.spec.num_files == 2048 && a.spec.max_size == BONNIE_SOFT_LINKS && a.spec.num_dirs == 3 &&
	      a.spec.file_chunk_size == 512, "-n 2m:-2:0:3:512");
	bonnie_args_release(&a);

	CHECK(parse(&a, "-u", "nobody:nogroup", NULL) == 0 && !strcmp(a.user, "nobody") &&
	      !strcmp(a.group, "nogroup"), "-u user:group");
	bonnie_args_release(&a);
	CHECK(parse(&a, "-g", "33", "-u", "www-data", NULL) == 0 && !strcmp(a.group, "33"), "-g");
	bonnie_args_release(&a);

	CHECK(parse(&a, "-p", "3", NULL) == 0 && a.sem_procs == 3, "-p 3");
	bonnie_args_release(&a);
	CHECK(parse(&a, "-p", "-1", NULL) == 0 && a.sem_procs == -1, "-p -1");
	bonnie_args_release(&a);
	CHECK(parse(&a, "-ys", NULL) == 0 && a.sync == BONNIE_SYNC_SEM, "-y s");
	bonnie_args_release(&a);
	CHECK(parse(&a, "-y", "P", NULL) == 0 && a.sync == BONNIE_SYNC_PROMPT, "-y p");
	bonnie_args_release(&a);

	CHECK(parse(&a, "--precise", "--random-data", "--output-format=json", "--allow-destroy",
		    "/dev/loop9", "--readonly", NULL) == 0, "long options: %s", why);
	CHECK(a.precise == 1 && a.spec.random_data && a.output == BONNIE_OUT_JSON, "long flags");
	CHECK(a.spec.guard.nr_devices == 1 && !strcmp(a.spec.guard.devices[0], "/dev/loop9"),
	      "--allow-destroy reaches the guard");
	CHECK(a.spec.guard.readonly_by != NULL, "--readonly");
	bonnie_args_release(&a);
	CHECK(parse(&a, "--precise", "--no-precise", NULL) == 0 && a.precise == 0, "last one wins");
	bonnie_args_release(&a);
	CHECK(parse(&a, NULL) == 0 && a.precise == -1 && a.output == BONNIE_OUT_NORMAL, "defaults");
	bonnie_args_release(&a);
}

/* bonnie++: without -s the file is 2×RAM, rounded up to a GiB when more
 * than 512 MiB over; -f is cut to the file size. */
static void test_default_size(void)
{
	struct bonnie_args a;
	CHECK(parse(&a, "-r", "4092", NULL) == 0, "-r alone");
	CHECK(a.spec.file_size == 8192 * MIB, "2x4092 = 8184 rounds to 8192 MiB: %llu",
	      (unsigned long long)(a.spec.file_size / MIB));
	bonnie_args_release(&a);
	CHECK(parse(&a, "-r", "2300", NULL) == 0, "-r 2300");
	CHECK(a.spec.file_size == 4600 * MIB, "4600 %% 1024 = 504 stays: %llu",
	      (unsigned long long)(a.spec.file_size / MIB));
	bonnie_args_release(&a);
	CHECK(parse(&a, NULL) == 0, "no -s, no -r");
	uint64_t ram = sys_mem_bytes() / MIB;
	CHECK(a.spec.ram_mb == ram, "RAM detected: %llu", (unsigned long long)a.spec.ram_mb);
	CHECK(a.spec.file_size >= 2 * ram * MIB && a.spec.file_size < (2 * ram + 1024) * MIB,
	      "file size twice the RAM: %llu MiB", (unsigned long long)(a.spec.file_size / MIB));
	bonnie_args_release(&a);
	CHECK(parse(&a, "-r", "0", NULL) == 0 && a.spec.ram_mb == 0, "-r 0 turns the checks off");
	bonnie_args_release(&a);
	CHECK(parse(&a, "-r", "8", "-s", "2", "-f100", NULL) == 0, "-f above -s");
	CHECK(a.spec.putc_size == 2 * MIB, "per-char size cut to the file size");
	bonnie_args_release(&a);
}

static void bad(const char *what, const char *needle, ...)
{
	char *argv[16] = { (char *)"bonnie" };
	int argc = 1;
	va_list ap;
	va_start(ap, needle);
	for (char *w; (w = va_arg(ap, char *)) != NULL && argc < 15;)
		argv[argc++] = w;
	va_end(ap);
	struct bonnie_args a;
	why[0] = 0;
	int rc = bonnie_args_parse(argc, argv, &a, why, sizeof(why));
	CHECK(rc < 0, "%s is refused", what);
	CHECK(strstr(why, needle) != NULL, "%s: message '%s' names '%s'", what, why, needle);
	CHECK(!strchr(why, '\n'), "%s: one line", what);
	bonnie_args_release(&a);
}

static void test_errors(void)
{
	bad("six -n parts", "1:2:3:4:5:6", "-n", "1:2:3:4:5:6", NULL);
	bad("five -s parts", "1:2:3:4:5", "-s", "1:2:3:4:5", NULL);
	bad("bad size", "abc", "-s", "abc", NULL);
	bad("bad chunk", "3x", "-s", "10:3x", NULL);
	bad("negative size", "-5", "-s", "-5", NULL);
	bad("max -3", "-3", "-n", "1:-3", NULL);
	bad("concurrency 0", "'0'", "-c", "0", NULL);
	bad("concurrency 201", "201", "-c", "201", NULL);
	bad("-x 0", "'0'", "-x", "0", NULL);
	bad("-y x", "'x'", "-y", "x", NULL);
	bad("-p 0", "'0'", "-p", "0", NULL);
	bad("-p with -y", "-p", "-p", "2", "-y", "s", NULL);
	bad("-u twice", "-u", "-u", "a", "-u", "b", NULL);
	bad("-g and -u:group", "x:y", "-g", "z", "-u", "x:y", NULL);
	bad("detached -f size", "'4'", "-f", "4", NULL);
	bad("unknown letter", "-k", "-k", NULL);
	bad("unknown long option", "--frobnicate", "--frobnicate", NULL);
	bad("missing value", "-d", "-d", NULL);
	bad("bad format", "xml", "--output-format=xml", NULL);
	bad("bad seed", "12a", "-z", "12a", NULL);
}

int main(void)
{
	test_num();
	test_seeds();
	test_forms();
	test_default_size();
	test_errors();
	return check_done("test_bonnie_args");
}
