/*
 * Fuzz target: the value parsers of util/units.h. Input: one selector byte
 * (which function; its high bit picks kb_base 1000 instead of 1024, and the
 * default time unit), then the text. Besides "no crash", each success is
 * checked against what the header promises (ranges ordered, percentages
 * within 0..100, per-direction parts inside the input) and each failure
 * must return -EINVAL or -ERANGE with a reason.
 */
#include "common.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

static const uint64_t time_units[] = { 1, NS_PER_US, NS_PER_MS, NS_PER_SEC };

static void check_fail(int ret, const char *why)
{
	if (ret)
		REQUIRE((ret == -EINVAL || ret == -ERANGE) && why && *why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	unsigned sel = data[0] & 0x0f;
	unsigned kb = data[0] & 0x80 ? 1000 : 1024;
	uint64_t tunit = time_units[(data[0] >> 4) & 3];
	char *s = fuzz_strndup(data + 1, size - 1);
	const char *why = NULL;
	uint64_t u = 0, lo = 0, hi = 0;
	int64_t i64 = 0;
	unsigned pct = 0;
	double d = 0;
	bool b;
	int ret;

	switch (sel) {
	case 0:
		ret = parse_size(s, kb, &u, &why);
		break;
	case 1:
		ret = parse_size_pct(s, kb, &u, &pct, &why);
		if (!ret)
			REQUIRE(pct <= 100);
		break;
	case 2:
		ret = parse_ssize(s, kb, &i64, &why);
		break;
	case 3:
		ret = parse_size_range(s, kb, &lo, &hi, &why);
		if (!ret)
			REQUIRE(lo <= hi);
		break;
	case 4:
		ret = parse_time(s, tunit, &u, &why);
		break;
	case 5:
		ret = parse_time_range(s, tunit, &lo, &hi, &why);
		if (!ret)
			REQUIRE(lo <= hi);
		break;
	case 6:
		ret = parse_uint(s, kb, &u, &why);
		break;
	case 7:
		ret = parse_double(s, &d, &why);
		if (!ret)
			REQUIRE(isfinite(d));
		break;
	case 8:
		ret = parse_percent(s, &d, &why);
		if (!ret)
			REQUIRE(d >= 0 && d <= 100);
		break;
	case 9:
		ret = parse_bool(s, &b, &why);
		break;
	case 10: {
		struct dir_parts p;
		size_t len = strlen(s);
		ret = split_per_dir(s, &p, &why);
		for (int k = 0; !ret && k < 3; k++)
			if (p.set[k])
				REQUIRE(p.part[k] >= s && p.part[k] + p.len[k] <= s + len);
		break;
	}
	default: {
		uint64_t out[3] = { 1, 2, 3 };
		ret = parse_size_per_dir(s, kb, out, &why);
		break;
	}
	}
	check_fail(ret, why);
	free(s);
	return 0;
}
