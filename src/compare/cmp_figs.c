/*
 * The figures `compare` puts side by side (the headline figures a reader
 * of fio's, bonnie++'s and mdtest's output looks at), the order of directions in its
 * table, and how each figure is printed with its unit.
 */
#include "compare/cmp_engine.h"
#include "util/array.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct cmp_figdef defs[] = {
	{ "bw_bytes", "bw", CMP_UNIT_BYTES_S, CMP_FIO_DIR, true },
	{ "iops", "iops", CMP_UNIT_PER_S, CMP_FIO_DIR, true },
	{ "clat_ns.p50", "clat p50", CMP_UNIT_NS, CMP_FIO_DIR, false },
	{ "clat_ns.p99", "clat p99", CMP_UNIT_NS, CMP_FIO_DIR, false },
	{ "clat_ns.p99.9", "clat p99.9", CMP_UNIT_NS, CMP_FIO_DIR, false },
	{ "usr_cpu", "cpu usr", CMP_UNIT_PCT, CMP_FIO_JOB, false },
	{ "sys_cpu", "cpu sys", CMP_UNIT_PCT, CMP_FIO_JOB, false },
	{ "rate", "rate", CMP_UNIT_BONNIE, CMP_BONNIE, true },
	{ "cpu_pct", "cpu", CMP_UNIT_PCT, CMP_BONNIE, false },
	{ "latency_us.p50", "latency p50", CMP_UNIT_US, CMP_BONNIE, false },
	{ "latency_us.p99", "latency p99", CMP_UNIT_US, CMP_BONNIE, false },
	{ "latency_us.max", "latency max", CMP_UNIT_US, CMP_BONNIE, false },
	{ "rate", "rate", CMP_UNIT_OPS, CMP_META, true },
	{ "time_s", "time", CMP_UNIT_S, CMP_META, false },
};

static const char *const fio_dirs[] = { "read", "write", "trim", "mixed", "job" };
static const char *const bonnie_dirs[] = { "putc", "put_block", "rewrite", "getc", "get_block",
					   "seeks", "seq_create", "seq_stat", "seq_del",
					   "ran_create", "ran_stat", "ran_del" };


bool cmp_dir_is_bonnie(const char *dir)
{
	for (size_t i = 0; i < ARRAY_SIZE(bonnie_dirs); i++)
		if (!strcmp(dir, bonnie_dirs[i]))
			return true;
	return false;
}

int cmp_dir_rank(const char *dir)
{
	for (size_t i = 0; i < ARRAY_SIZE(fio_dirs); i++)
		if (!strcmp(dir, fio_dirs[i]))
			return (int)i;
	for (size_t i = 0; i < ARRAY_SIZE(bonnie_dirs); i++)
		if (!strcmp(dir, bonnie_dirs[i]))
			return (int)(ARRAY_SIZE(fio_dirs) + i);
	if (!strcmp(dir, "meta"))
		return (int)(ARRAY_SIZE(fio_dirs) + ARRAY_SIZE(bonnie_dirs));
	return -1;
}

static enum cmp_where where_of(const char *dir)
{
	if (!strcmp(dir, "job"))
		return CMP_FIO_JOB;
	if (cmp_dir_is_bonnie(dir))
		return CMP_BONNIE;
	if (!strcmp(dir, "meta"))
		return CMP_META;
	return CMP_FIO_DIR;
}

const struct cmp_figdef *cmp_figdef_find(const char *dir, const char *name)
{
	if (cmp_dir_rank(dir) < 0)
		return NULL;
	enum cmp_where w = where_of(dir);
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++)
		if (defs[i].where == w && !strcmp(defs[i].name, name))
			return &defs[i];
	return NULL;
}

static void scaled(char *buf, size_t len, double v, const char *const *units, double step,
		   size_t nunits)
{
	size_t u = 0;
	while (u + 1 < nunits && fabs(v) >= step) {
		v /= step;
		u++;
	}
	snprintf(buf, len, fabs(v) >= 100 ? "%.0f %s" : fabs(v) >= 10 ? "%.1f %s" : "%.2f %s", v,
		 units[u]);
}

void cmp_format_value(char *buf, size_t len, const struct cmp_figdef *d, const char *dir, double v)
{
	static const char *const bytes[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" };
	static const char *const count[] = { "/s", "k/s", "M/s" };
	static const char *const ns[] = { "ns", "us", "ms", "s" };
	static const char *const kib[] = { "KiB/s", "MiB/s", "GiB/s" };
	static const char *const ops[] = { "ops/s", "k ops/s", "M ops/s" };
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (d->unit) {
	case CMP_UNIT_BYTES_S:
		scaled(buf, len, v, bytes, 1024.0, ARRAY_SIZE(bytes));
		break;
	case CMP_UNIT_PER_S:
		scaled(buf, len, v, count, 1000.0, ARRAY_SIZE(count));
		break;
	case CMP_UNIT_NS:
		scaled(buf, len, v, ns, 1000.0, ARRAY_SIZE(ns));
		break;
	case CMP_UNIT_US:
		scaled(buf, len, v, ns + 1, 1000.0, ARRAY_SIZE(ns) - 1);
		break;
	case CMP_UNIT_PCT:
		snprintf(buf, len, "%.1f%%", v);
		break;
	case CMP_UNIT_BONNIE:
		if (!strcmp(dir, "seeks"))
			snprintf(buf, len, "%.1f seeks/s", v);
		else if (!strncmp(dir, "seq_", 4) || !strncmp(dir, "ran_", 4))
			snprintf(buf, len, "%.0f files/s", v);
		else
			scaled(buf, len, v, kib, 1024.0, ARRAY_SIZE(kib));
		break;
	case CMP_UNIT_OPS:
		scaled(buf, len, v, ops, 1000.0, ARRAY_SIZE(ops));
		break;
	case CMP_UNIT_S:
		snprintf(buf, len, fabs(v) >= 100 ? "%.0f s" : fabs(v) >= 10 ? "%.1f s" : "%.3f s", v);
		break;
	}
}
