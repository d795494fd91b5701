/*
 * /proc/diskstats reader: one struct per line with every counter the kernel
 * prints (14, 18 or 20 columns depending on its age; missing ones are 0),
 * and the delta of two samples with sysstat's rule for 32-bit wrap. Times
 * are milliseconds, sectors are 512 bytes. Sampling is off the hot path.
 */
#ifndef IOBENCH_SYS_DISKSTATS_H
#define IOBENCH_SYS_DISKSTATS_H

#include <stddef.h>
#include <stdint.h>

struct diskstat {
	char name[64];
	unsigned major, minor;
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t in_flight, io_ticks, time_in_queue;
	uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks; /* discards, 4.18+ */
	uint64_t fl_ios, fl_ticks;                         /* flushes, 5.5+ */
};

/* Read every line of proc_path (NULL = /proc/diskstats) into a new array
 * (*out, *n; free() it). Returns 0, -errno, or -EINVAL for a malformed line. */
int diskstats_read(const char *proc_path, struct diskstat **out, size_t *n);
/* Parse one /proc/diskstats line (no allocation, for samplers that read the
 * file into their own buffer); 0 or -EINVAL. */
int diskstat_parse_line(const char *line, struct diskstat *s);
/* The current /proc/diskstats line of device `name`; -ENOENT if absent. */
int diskstat_find(const char *name, struct diskstat *out);
/* d = b - a (a is the earlier sample). A counter that went backwards from a
 * value that fits in 32 bits wrapped (sysstat's rule); one that went
 * backwards from a larger value was reset and gives 0. in_flight is a gauge:
 * d gets b's value. d may alias a or b. */
void diskstat_delta(const struct diskstat *a, const struct diskstat *b, struct diskstat *d);
/* acc += diskstat_delta(a, b) counter by counter (in_flight: b's), so a
 * series of readings becomes one whose counters never go back. */
void diskstat_accumulate(struct diskstat *acc, const struct diskstat *a, const struct diskstat *b);

#endif
