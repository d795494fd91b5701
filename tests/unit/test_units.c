/*
 * fio's value rules in util/units.c: sizes with the inverted KiB rule and
 * kb_base=1000, fractions, hex, overflow and negative sizes; percentages;
 * times and their units; booleans; ranges with '-' and ':'; per-direction
 * lists with fio's trailing-comma rule; plus strutil's distance, suggestion
 * and escaped split.
 */
#include "check.h"
#include "util/array.h"
#include "util/strutil.h"
#include "util/units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t sz(const char *s, unsigned kb)
{
	uint64_t v = 12345;
	int ret = parse_size(s, kb, &v, NULL);
	return ret ? (uint64_t)-1 : v;
}

static uint64_t tm(const char *s, uint64_t unit)
{
	uint64_t v = 0;
	return parse_time(s, unit, &v, NULL) ? (uint64_t)-1 : v;
}

static void test_sizes(void)
{
	const char *k4[] = { "4k", "4K", "4kb", "4KB", "4kB", "4ki", "4Ki", "4096", "4096b", "4096B" };
	for (size_t i = 0; i < ARRAY_SIZE(k4); i++)
		CHECK(sz(k4[i], 1024) == 4096, "%s = %llu", k4[i], (unsigned long long)sz(k4[i], 1024));
	CHECK(sz("4KiB", 1024) == 4000, "inverted KiB: %llu", (unsigned long long)sz("4KiB", 1024));
	CHECK(sz("4kib", 1024) == 4000, "inverted kib");
	CHECK(sz("4KIB", 1024) == 4000, "inverted KIB");
	CHECK(sz("4k", 1000) == 4000, "kb_base=1000 k");
	CHECK(sz("4KB", 1000) == 4000, "kb_base=1000 KB");
	CHECK(sz("4ki", 1000) == 4000, "kb_base=1000 ki");
	CHECK(sz("4KiB", 1000) == 4096, "kb_base=1000 KiB");
	CHECK(sz("1m", 1024) == 1048576, "1m");
	CHECK(sz("1MiB", 1024) == 1000000, "1MiB inverted");
	CHECK(sz("1g", 1024) == 1073741824ULL, "1g");
	CHECK(sz("5G", 1024) == 5368709120ULL, "5G");
	CHECK(sz("1t", 1024) == 1099511627776ULL, "1t");
	CHECK(sz("1TiB", 1024) == 1000000000000ULL, "1TiB");
	CHECK(sz("2p", 1024) == 2251799813685248ULL, "2p");
	CHECK(sz("1.5m", 1024) == 1572864, "fraction 1.5m");
	CHECK(sz("0.5k", 1024) == 512, "fraction 0.5k");
	CHECK(sz("1.5k", 1000) == 1500, "fraction kb_base 1000");
	CHECK(sz("0x10", 1024) == 16, "hex");
	CHECK(sz(" 8k ", 1024) == 8192, "blanks trimmed");
	CHECK(sz("0", 1024) == 0, "zero");
	const char *why = NULL;
	uint64_t v;
	CHECK(parse_size("-4k", 1024, &v, &why) == -ERANGE && why && strstr(why, "negative"), "negative size");
	CHECK(parse_size("abc", 1024, &v, &why) == -EINVAL, "abc");
	CHECK(parse_size("4x", 1024, &v, &why) == -EINVAL && strstr(why, "suffix"), "bad suffix");
	CHECK(parse_size("4kk", 1024, &v, NULL) == -EINVAL, "4kk");
	CHECK(parse_size("4 k", 1024, &v, NULL) == -EINVAL, "4 k");
	/* fio 3.33's number parser ignores what follows from a punctuation mark */
	CHECK(parse_size("65536)", 1024, &v, NULL) == 0 && v == 65536, "65536) as fio");
	CHECK(parse_size("12k)", 1024, &v, NULL) == 0 && v == 12288, "12k) as fio");
	CHECK(parse_size("512/25", 1024, &v, NULL) == 0 && v == 512, "512/25 as fio");
	CHECK(parse_size("x12", 1024, &v, NULL) == -EINVAL, "x12 refused as by fio");
	CHECK(parse_size(")", 1024, &v, NULL) == -EINVAL, "junk alone refused");
	CHECK(parse_size("", 1024, &v, NULL) == -EINVAL, "empty");
	CHECK(parse_size(NULL, 1024, &v, NULL) == -EINVAL, "NULL");
	CHECK(parse_size("50%", 1024, &v, NULL) == -EINVAL, "percent not allowed");
	CHECK(parse_size("16e", 1024, &v, NULL) == -ERANGE, "16 EiB overflows");
	CHECK(parse_size("99999999999999999999", 1024, &v, NULL) == -ERANGE, "huge overflows");
	CHECK(parse_size("1.", 1024, &v, NULL) == 0 && v == 1, "1.");
	CHECK(parse_size(".", 1024, &v, NULL) == -EINVAL, "lone dot");

	unsigned pct = 9;
	CHECK(parse_size_pct("50%", 1024, &v, &pct, NULL) == 0 && pct == 50 && v == 0, "50%%");
	CHECK(parse_size_pct("8k", 1024, &v, &pct, NULL) == 0 && pct == 0 && v == 8192, "8k no pct");
	CHECK(parse_size_pct("0%", 1024, &v, &pct, NULL) == -ERANGE, "0%%");
	CHECK(parse_size_pct("101%", 1024, &v, &pct, NULL) == -ERANGE, "101%%");

	int64_t sv;
	CHECK(parse_ssize("-8k", 1024, &sv, NULL) == 0 && sv == -8192, "signed -8k");
	CHECK(parse_ssize("8k", 1024, &sv, NULL) == 0 && sv == 8192, "signed 8k");
}

static void test_times(void)
{
	CHECK(tm("10", NS_PER_SEC) == 10 * NS_PER_SEC, "bare seconds");
	CHECK(tm("10", NS_PER_MS) == 10 * NS_PER_MS, "bare with ms default");
	CHECK(tm("10s", NS_PER_MS) == 10 * NS_PER_SEC, "10s");
	CHECK(tm("2m", NS_PER_SEC) == 120 * NS_PER_SEC, "2m is minutes");
	CHECK(tm("1h", NS_PER_SEC) == 3600 * NS_PER_SEC, "1h");
	CHECK(tm("1d", NS_PER_SEC) == 86400 * NS_PER_SEC, "1d");
	CHECK(tm("250ms", NS_PER_SEC) == 250 * NS_PER_MS, "250ms");
	CHECK(tm("250msec", NS_PER_SEC) == 250 * NS_PER_MS, "250msec");
	CHECK(tm("7us", NS_PER_SEC) == 7 * NS_PER_US, "7us");
	CHECK(tm("7usec", NS_PER_SEC) == 7 * NS_PER_US, "7usec");
	CHECK(tm("1.5s", NS_PER_SEC) == 1500 * NS_PER_MS, "1.5s");
	CHECK(tm("10MS", NS_PER_SEC) == 10 * NS_PER_MS, "case-insensitive");
	uint64_t v;
	const char *why = NULL;
	CHECK(parse_time("10x", NS_PER_SEC, &v, &why) == -EINVAL && why && strstr(why, "time unit"), "bad time unit");
	CHECK(parse_time("-1", NS_PER_SEC, &v, NULL) == -ERANGE, "negative time");
	uint64_t lo, hi;
	CHECK(parse_time_range("1-5", NS_PER_SEC, &lo, &hi, NULL) == 0 && lo == NS_PER_SEC && hi == 5 * NS_PER_SEC, "time range");
	CHECK(parse_time_range("5s:100ms", NS_PER_SEC, &lo, &hi, NULL) == 0 && lo == 100 * NS_PER_MS && hi == 5 * NS_PER_SEC, "swapped time range");
}

static void test_misc_values(void)
{
	bool b;
	const char *t[] = { "1", "true", "TRUE", "yes", "on", "On" };
	const char *f[] = { "0", "false", "no", "off", "OFF" };
	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		CHECK(parse_bool(t[i], &b, NULL) == 0 && b, "true: %s", t[i]);
	for (size_t i = 0; i < ARRAY_SIZE(f); i++)
		CHECK(parse_bool(f[i], &b, NULL) == 0 && !b, "false: %s", f[i]);
	CHECK(parse_bool("2", &b, NULL) == -EINVAL, "bool 2");
	CHECK(parse_bool("maybe", &b, NULL) == -EINVAL, "bool maybe");

	double d;
	CHECK(parse_percent("50%", &d, NULL) == 0 && d == 50, "50%%");
	CHECK(parse_percent("12.5", &d, NULL) == 0 && d == 12.5, "12.5");
	CHECK(parse_percent("101", &d, NULL) == -ERANGE, "101");
	CHECK(parse_double("1.2", &d, NULL) == 0 && d == 1.2, "double");
	CHECK(parse_double("1.2x", &d, NULL) == -EINVAL, "double junk");
	CHECK(parse_double("inf", &d, NULL) == -ERANGE, "inf");

	uint64_t v;
	CHECK(parse_uint("12", 1024, &v, NULL) == 0 && v == 12, "uint");
	CHECK(parse_uint("0x1f", 1024, &v, NULL) == 0 && v == 31, "uint hex");
	CHECK(parse_uint("1k", 1000, &v, NULL) == 0 && v == 1000, "uint 1k");

	uint64_t lo, hi;
	CHECK(parse_size_range("4k-64k", 1024, &lo, &hi, NULL) == 0 && lo == 4096 && hi == 65536, "range -");
	CHECK(parse_size_range("1k:4k", 1024, &lo, &hi, NULL) == 0 && lo == 1024 && hi == 4096, "range :");
	CHECK(parse_size_range("64k-4k", 1024, &lo, &hi, NULL) == 0 && lo == 4096 && hi == 65536, "range swapped");
	/* a bssplit-shaped bsrange: fio 3.33 reads the range 512-1k from it */
	CHECK(parse_size_range("512/25:1k:25:2k:25:4k/25", 1024, &lo, &hi, NULL) == 0 && lo == 512 &&
	      hi == 1024, "bssplit-shaped range as fio");
	CHECK(parse_size_range("8k", 1024, &lo, &hi, NULL) == 0 && lo == 8192 && hi == 8192, "range single");
	CHECK(parse_size_range("-4k", 1024, &lo, &hi, NULL) == -ERANGE, "range negative");
	CHECK(parse_size_range("4k-", 1024, &lo, &hi, NULL) == -EINVAL, "range open");
}

static void test_per_dir(void)
{
	uint64_t v[3] = { 1, 2, 3 };
	CHECK(parse_size_per_dir("256k", 1024, v, NULL) == 0 && v[0] == 262144 && v[1] == 262144 && v[2] == 262144, "one value for all");
	uint64_t w[3] = { 1, 2, 3 };
	CHECK(parse_size_per_dir("8k,32k", 1024, w, NULL) == 0 && w[0] == 8192 && w[1] == 32768 && w[2] == 32768, "8k,32k: trim inherits");
	uint64_t x[3] = { 1, 2, 3 };
	CHECK(parse_size_per_dir("8k,32k,", 1024, x, NULL) == 0 && x[0] == 8192 && x[1] == 32768 && x[2] == 3, "8k,32k,: trim default");
	uint64_t y[3] = { 1, 2, 3 };
	CHECK(parse_size_per_dir(",8k", 1024, y, NULL) == 0 && y[0] == 1 && y[1] == 8192 && y[2] == 8192, ",8k");
	uint64_t z[3] = { 1, 2, 3 };
	CHECK(parse_size_per_dir(",8k,", 1024, z, NULL) == 0 && z[0] == 1 && z[1] == 8192 && z[2] == 3, ",8k,");
	uint64_t a[3] = { 1, 2, 3 };
	CHECK(parse_size_per_dir("1k,2k,3k", 1024, a, NULL) == 0 && a[0] == 1024 && a[1] == 2048 && a[2] == 3072, "three");
	CHECK(parse_size_per_dir("1k,2k,3k,4k", 1024, a, NULL) == -EINVAL, "four is too many");
	CHECK(parse_size_per_dir(",", 1024, a, NULL) == -EINVAL, "all empty");
	uint64_t b[3] = { 1, 2, 3 };
	CHECK(parse_size_per_dir("4k,bad", 1024, b, NULL) == -EINVAL && b[0] == 1, "bad part leaves all untouched");
}

static void test_strutil(void)
{
	CHECK(str_distance("kitten", "sitting") == 3, "kitten/sitting");
	CHECK(str_distance("ab", "ba") == 1, "transposition counts 1");
	CHECK(str_distance("", "abc") == 3, "empty");
	CHECK(str_distance("BS", "bs") == 0, "case-insensitive");
	const char *cands[] = { "bs", "blocksize", "size", "iodepth", "iodepth_batch_complete_max" };
	CHECK(suggest_nearest("blocksiz", cands, 5) && !strcmp(suggest_nearest("blocksiz", cands, 5), "blocksize"), "blocksiz");
	CHECK(suggest_nearest("iodpeth", cands, 5) && !strcmp(suggest_nearest("iodpeth", cands, 5), "iodepth"), "iodpeth");
	CHECK(suggest_nearest("zzzzzzzz", cands, 5) == NULL, "nothing close");
	CHECK(suggest_nearest("iodepth_batch_comp", cands, 5) != NULL, "prefix");
	char buf[] = "  a b \t";
	CHECK(!strcmp(str_trim(buf), "a b"), "trim");
	char **l;
	size_t n = str_split_escaped("a:b\\:c::d", ':', &l);
	CHECK(n == 4 && !strcmp(l[0], "a") && !strcmp(l[1], "b:c") && !strcmp(l[2], "") && !strcmp(l[3], "d") && !l[4], "split escaped");
	str_list_free(l);
	n = str_split_escaped("", ':', &l);
	CHECK(n == 1 && !strcmp(l[0], ""), "split empty");
	str_list_free(l);
}

int main(void)
{
	test_sizes();
	test_times();
	test_misc_values();
	test_per_dir();
	test_strutil();
	return check_done("test_units");
}
