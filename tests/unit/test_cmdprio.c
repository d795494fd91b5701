/*
 * The cmdprio options of io_uring and libaio (engines/cmdprio_int.h): each
 * option's syntax and ranges as fio 3.33's (one value for both directions
 * or R,W, a third for trims ignored; classes 1..3, levels 0..7,
 * percentages 0..100), cmdprio_bssplit's two entry forms, the mutual
 * exclusion, and the choice: the share of picked I/Os per direction, the
 * default class (realtime) and level (0), the bssplit entries of a block
 * size taken in order, each its share, other block sizes never picked.
 */
#include "engines/cmdprio_int.h"

#include "check.h"
#include "util/array.h"

#include <errno.h>
#include <string.h>

struct holder {
	int pad;
	struct cmdprio_opts cp;
};
static const struct option_def rows[] = { CMDPRIO_ROWS(struct holder, cp) };

static int set(struct holder *h, const char *key, const char *val)
{
	char why[256] = "";
	const struct option_def *o = optdef_find(rows, ARRAY_SIZE(rows), key);
	struct opt_ctx c = { .opt = o, .key = key, .kb_base = 1024, .why = why, .whylen = sizeof(why) };
	return o ? optdef_set(o, h, val, &c) : -ENOENT;
}

/* How many of n picks of (d, bs) give prio v (v = -1: none). */
static unsigned count(struct cmdprio *cp, enum ddir d, uint64_t bs, int v, unsigned n)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n; i++)
		k += cmdprio_pick(cp, d, bs) == v;
	return k;
}

int main(void)
{
	struct engine_params p = { .randrepeat = true };
	struct holder h;
	struct cmdprio cp;

	memset(&h, 0, sizeof(h));
	CHECK(set(&h, "cmdprio_percentage", "101") == -ERANGE, "percentage over 100");
	CHECK(set(&h, "cmdprio_class", "0") == -ERANGE && set(&h, "cmdprio_class", "4") == -ERANGE, "class range");
	CHECK(set(&h, "cmdprio", "8") == -ERANGE, "level range");
	CHECK(set(&h, "cmdprio_bssplit", "4k/50/2") == -EINVAL, "three fields");
	CHECK(set(&h, "cmdprio_bssplit", "4k/101") == -ERANGE, "entry percentage range");
	CHECK(set(&h, "cmdprio_bssplit", "4k/50/4/1") == -ERANGE, "entry class range");

	memset(&h, 0, sizeof(h));
	CHECK(set(&h, "cmdprio_percentage", "0") == 0 && !h.cp.pct_set, "0 is no percentage");
	CHECK(set(&h, "cmdprio_percentage", "0,100,7") == 0 && h.cp.pct_set && h.cp.pct[0] == 0 &&
	      h.cp.pct[1] == 100, "R,W,T: trims ignored");
	CHECK(cmdprio_init(&cp, &h.cp, &p, "t") == 0 && cp.on, "init");
	CHECK(count(&cp, DDIR_READ, 4096, -1, 1000) == 1000, "0%% of reads");
	CHECK(count(&cp, DDIR_WRITE, 4096, cmdprio_value(1, 0), 1000) == 1000, "100%% of writes, realtime/0 by default");
	CHECK(cmdprio_pick(&cp, DDIR_TRIM, 4096) == -1, "never a trim");
	CHECK(set(&h, "cmdprio_class", "2,3") == 0 && set(&h, "cmdprio", "5") == 0 &&
	      set(&h, "cmdprio_percentage", "30") == 0, "class R,W and level");
	cmdprio_init(&cp, &h.cp, &p, "t");
	unsigned r = count(&cp, DDIR_READ, 4096, cmdprio_value(2, 5), 10000);
	unsigned w = count(&cp, DDIR_WRITE, 4096, cmdprio_value(3, 5), 10000);
	CHECK(r > 2700 && r < 3300 && w > 2700 && w < 3300, "30%%: %u reads, %u writes", r, w);
	CHECK(set(&h, "cmdprio_bssplit", "4k/50") == 0 && cmdprio_init(&cp, &h.cp, &p, "t") == -EINVAL,
	      "cmdprio_percentage and cmdprio_bssplit exclude each other");

	memset(&h, 0, sizeof(h));
	CHECK(set(&h, "cmdprio_bssplit", "4k/50/2/3:4k/20:8k/100,8k/0") == 0, "bssplit, two forms");
	CHECK(h.cp.nr_bss[0] == 3 && h.cp.nr_bss[1] == 1, "entries per direction");
	CHECK(cmdprio_init(&cp, &h.cp, &p, "t") == 0 && cp.on, "init bssplit");
	unsigned a = 0, b = 0, none = 0;
	for (int i = 0; i < 10000; i++) {
		int v = cmdprio_pick(&cp, DDIR_READ, 4096);
		a += v == cmdprio_value(2, 3);
		b += v == cmdprio_value(1, 0);
		none += v == -1;
	}
	CHECK(a > 4700 && a < 5300 && b > 1700 && b < 2300 && a + b + none == 10000,
	      "4k: 50%% 2/3, then 20%% the default class: %u %u %u", a, b, none);
	CHECK(count(&cp, DDIR_READ, 8192, cmdprio_value(1, 0), 1000) == 1000, "8k reads: 100%%");
	CHECK(count(&cp, DDIR_READ, 16384, -1, 1000) == 1000, "a block size not listed: none");
	CHECK(count(&cp, DDIR_WRITE, 8192, -1, 1000) == 1000, "8k writes: 0%%");

	memset(&h, 0, sizeof(h));
	CHECK(set(&h, "cmdprio_bssplit", "64k/25/1/1:64k/75/3/2") == 0, "one value: both directions");
	CHECK(h.cp.nr_bss[1] == 2 && h.cp.bss[1][1].cls == 3 && h.cp.bss[1][1].level == 2 &&
	      h.cp.bss[1][0].bs == 65536, "writes got the reads' entries");
	return check_done("test_cmdprio");
}
