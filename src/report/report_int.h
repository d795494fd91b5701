/*
 * Helpers shared by the reporters and nothing else: fio's human number
 * formatting (numfmt.c), per-group aggregates (groups.c) and the figures
 * every format derives from a result the same way (figures.c): bandwidth,
 * IOPS, percentile lists, the bucket distributions. Keeping one definition
 * of each keeps normal, JSON and terse output in agreement.
 */
#ifndef IOBENCH_REPORT_REPORT_INT_H
#define IOBENCH_REPORT_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

/* ---- numfmt.c ---- */

#define NUMFMT_LEN 48

enum numfmt_unit {
	NUMFMT_NONE = 0,   /* 12.7k */
	NUMFMT_PERSEC,     /* 12.7k/s */
	NUMFMT_BYTE,       /* 3976KiB, 4071kB */
	NUMFMT_BYTEPERSEC, /* 49.8MiB/s, 52.2MB/s */
	NUMFMT_BITPERSEC,  /* 24.0Mibit/s, 25.2Mbit/s (unit_base=1: num is bits) */
};

/*
 * fio's num2str(): print num in at most maxlen digits, dividing by 1000
 * (k M G T P) or 1024 (Ki Mi Gi Ti Pi) until it fits and using the digits
 * left over for decimals ("49.8MiB/s", "3976KiB", "12.7k"). buf must hold
 * NUMFMT_LEN bytes; returns buf.
 */
const char *numfmt(char *buf, uint64_t num, unsigned maxlen, bool pow2, enum numfmt_unit unit);

/*
 * fio's choice of latency unit for a min/max/mean/stddev line: usec when
 * min > 2000 ns, max > 99999 ns and stddev > 1000 ns (msec likewise with
 * 1000x larger bounds). Scales the four values and returns "nsec", "usec"
 * or "msec".
 */
const char *lat_unit_scale(uint64_t *min, uint64_t *max, double *mean, double *dev);

/* ---- groups.c ---- */

struct report_group {
	unsigned groupid;
	unsigned nr_entries;             /* job entries in the group */
	unsigned kb_base;                /* 1024 or 1000, from the first entry */
	unsigned sig_figs;               /* significant_figures, from the first entry */
	bool unit_bits;                  /* unit_base=1, from the first entry */
	uint64_t io_bytes[DDIR_RWDIR_CNT];
	uint64_t aggrb[DDIR_RWDIR_CNT];  /* B/s: group bytes over the longest runtime */
	uint64_t minb[DDIR_RWDIR_CNT];   /* B/s of the slowest entry */
	uint64_t maxb[DDIR_RWDIR_CNT];   /* B/s of the fastest entry */
	uint64_t mint_ns[DDIR_RWDIR_CNT];/* shortest entry runtime */
	uint64_t maxt_ns[DDIR_RWDIR_CNT];/* longest entry runtime; 0 = direction unused */
};

/* Aggregate the entries of r that have this groupid. */
void report_group_compute(const struct run_result *r, unsigned groupid, struct report_group *g);
/* Highest groupid among the entries (0 if none). */
unsigned report_max_groupid(const struct run_result *r);

/* ---- figures.c ---- */

#define REPORT_TERSE_PERCENTILES 20 /* fio's FIO_IO_U_LIST_MAX_LEN */

struct dir_figures {
	uint64_t io_bytes;
	uint64_t io_kbytes;   /* io_bytes >> 10 */
	uint64_t bw_bytes;    /* B/s over the direction's runtime */
	uint64_t bw_kib;      /* bw_bytes / 1024 */
	double iops;
	uint64_t runtime_ms;  /* truncated, as fio's */
};

void dir_figures(const struct dir_result *d, struct dir_figures *f);
/* Bytes per second of bytes over ns nanoseconds, 0 if ns is 0. */
uint64_t rate_per_sec(uint64_t bytes, uint64_t ns);

/* Interval bandwidth samples in units of `unit` bytes/s (1024 for KiB/s),
 * and their share of the group's aggregate bandwidth. */
struct bw_figures {
	uint64_t samples;
	uint64_t min, max;
	double mean, dev;
	double agg_pct;
};
void bw_figures(const struct runstat *bw, uint64_t group_aggrb, unsigned unit, struct bw_figures *f);

/* min/max/mean/stddev of a runstat as fio prints them (all 0 when empty). */
struct stat_figures {
	uint64_t n;
	uint64_t min, max;
	double mean, dev;
};
void stat_figures(const struct runstat *s, struct stat_figures *f);

/* The job's percentile list, sorted, or fio's default list; returns the count. */
unsigned report_percentile_list(const struct job_spec *s, double list[MAX_PERCENTILES]);
/* fio's per-priority entries of a direction (cmdprio): the indexes into
 * dr->prios of those with samples, the job's own priority first, the
 * others in order of first use; returns how many, 0 when fewer than two
 * (fio then reports none). order has room for dr->nr_prios. */
unsigned report_prio_order(const struct dir_result *dr, const struct job_spec *s, unsigned *order);
/* Decimals needed to print every entry of the list (at least 0, at most 6). */
unsigned report_percentile_precision(const double *list, unsigned n);

/* fio's depth distributions (percent; a non-zero bucket shows at least 0.1). */
void report_depth_dist(const uint64_t map[NR_IODEPTH_BUCKETS], double out[NR_IODEPTH_BUCKETS]);
/* I/Os counted in the latency buckets (lat_total, or the bucket sum). */
uint64_t report_lat_total(const struct job_result *j);
/* fio's latency distributions (percent of I/Os; non-zero shows at least 0.01). */
void report_lat_dist(const struct job_result *j, double ns[NR_LAT_NS_BUCKETS],
		     double us[NR_LAT_NS_BUCKETS], double ms[NR_LAT_MS_BUCKETS]);
extern const char *const report_lat_ns_keys[NR_LAT_NS_BUCKETS];
extern const char *const report_lat_ms_keys[NR_LAT_MS_BUCKETS];

/* True if the entry did any I/O in this direction. */
bool dir_used(const struct dir_result *d);
/* The entry's kb_base (1024 unless the job set 1000). */
unsigned entry_kb_base(const struct job_result *j);
/* fio's "rw=" name for the spec's rw bits ("randrw", "trimwrite", ...). */
const char *rw_mode_name(unsigned rw);
/* Disk utilisation in percent, clamped to 100. */
double disk_util_pct(const struct disk_result *d);
/* A job's error message: error_msg, or strerror(error). */
const char *entry_error_text(const struct job_result *j);

#ifndef IOBENCH_VERSION
#define IOBENCH_VERSION "unknown"
#endif
#define REPORT_VERSION_STRING "iobench-" IOBENCH_VERSION
/* The version iobench's reports name: fio's when it runs as `fio`. */
#define report_version_string(r) ((r)->as_fio ? REPORT_FIO_VERSION : REPORT_VERSION_STRING)

#endif
