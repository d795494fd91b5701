/*
 * util/checked.h: sums and products of sizes and counts that overflow are
 * refused at exactly the boundary (and the result is untouched then), file
 * regions end at most at 2^63-1, and mul_div keeps the 128-bit product
 * (rate schedules after 18 GB, 100% of an 8 EiB device) and saturates.
 */
#include "check.h"
#include "util/checked.h"

#include <stdint.h>

static void test_add(void)
{
	uint64_t r = 7;
	CHECK(ck_add(1, 2, &r) && r == 3, "1+2 = %llu", (unsigned long long)r);
	CHECK(ck_add(UINT64_MAX - 1, 1, &r) && r == UINT64_MAX, "max-1 + 1");
	r = 7;
	CHECK(!ck_add(UINT64_MAX, 1, &r) && r == 7, "max + 1 overflows, r untouched (%llu)",
	      (unsigned long long)r);
	CHECK(!ck_add(1ull << 63, 1ull << 63, &r), "2^63 + 2^63 overflows");
}

static void test_mul(void)
{
	uint64_t r = 7;
	CHECK(ck_mul(0, UINT64_MAX, &r) && r == 0, "0 * max");
	CHECK(ck_mul(UINT64_MAX, 1, &r) && r == UINT64_MAX, "max * 1");
	CHECK(ck_mul(1ull << 32, (1ull << 32) - 1, &r) && r == UINT64_MAX - (1ull << 32) + 1,
	      "2^32 * (2^32-1)");
	r = 7;
	CHECK(!ck_mul(1ull << 32, 1ull << 32, &r) && r == 7, "2^32 * 2^32 overflows");
	/* offset_increment=2^63-1 with numjobs=3: the third clone's offset */
	CHECK(ck_mul(OFFSET_MAX, 2, &r) && r == UINT64_MAX - 1 && r > OFFSET_MAX,
	      "2 * (2^63-1) = 2^64-2 fits 64 bits but is no file offset (%llu)", (unsigned long long)r);
	CHECK(!ck_mul(4096, 1ull << 53, &r), "4096 clones * 8 PiB overflows");
}

static void test_region(void)
{
	uint64_t e = 7;
	CHECK(ck_region_end(0, OFFSET_MAX, &e) && e == OFFSET_MAX, "0 + 2^63-1 ends at 2^63-1");
	CHECK(ck_region_end(OFFSET_MAX, 0, &e) && e == OFFSET_MAX, "2^63-1 + 0");
	e = 7;
	CHECK(!ck_region_end(OFFSET_MAX, 1, &e) && e == 7, "2^63-1 + 1 is beyond a file");
	CHECK(!ck_region_end(0, UINT64_MAX, &e), "size=18446744073709551615");
	CHECK(!ck_region_end(UINT64_MAX, UINT64_MAX, &e), "wraps to a small end");
}

static void test_mul_div(void)
{
	/* rate=100m after 20 GB: 2e10 * 1e9 overflows 64 bits */
	uint64_t bytes = 20000000000ull, ns = 1000000000ull, rate = 100000000ull;
	CHECK(mul_div(bytes, ns, rate) == 200000000000ull, "20 GB at 100 MB/s is due at 200 s: %llu",
	      (unsigned long long)mul_div(bytes, ns, rate));
	CHECK(mul_div(OFFSET_MAX, 100, 100) == OFFSET_MAX, "100%% of 2^63-1");
	CHECK(mul_div(OFFSET_MAX, 50, 100) == OFFSET_MAX / 2, "50%% of 2^63-1");
	CHECK(mul_div(UINT64_MAX, 2, 1) == UINT64_MAX, "saturates");
	CHECK(mul_div(5, 5, 0) == UINT64_MAX, "division by zero saturates");
	CHECK(mul_div(7, 3, 2) == 10, "rounds down");
}

int main(void)
{
	test_add();
	test_mul();
	test_region();
	test_mul_div();
	return check_done("test_checked");
}
