/*
 * fio 3.33's log formats, as measured (doc/logs.md):
 * the text line of the bw/iops/lat/clat/slat logs, the histogram log line,
 * and the binary sample of a compressed log (.log.fz: concatenated zlib
 * streams of little-endian samples, 32 bytes each, 40 with an offset).
 * What writes these files while jobs run is joblog.h; this file only knows
 * how one sample looks, and reads a .fz file back (fiolog_inflate, what
 * `--inflate-log` prints).
 */
#ifndef IOBENCH_WORKLOAD_LOGS_FIOLOG_H
#define IOBENCH_WORKLOAD_LOGS_FIOLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* fio's latency histogram: 29 groups of 64 bins; with 6 sub-bits its
 * buckets are iobench's (stats/hist.h), so a bin index is hist_index(). */
#define FIOLOG_HIST_BINS 1856
#define FIOLOG_HIST_MAX_COARSE 6

/* One line of a bw/iops/lat log. prio is the full ioprio (class << 13 |
 * level); the text shows it as 0x%04x with log_prio, else 1 for the
 * realtime class and 0 otherwise. */
struct fiolog_sample {
	uint64_t time_ms;
	uint64_t value;
	uint32_t ddir;   /* 0 read, 1 write, 2 trim */
	uint16_t prio;
	uint64_t bs;     /* the I/O's size; 0 on averaged lines */
	uint64_t offset; /* printed with log_offset */
};

/* Flags of the binary sample's ddir word (fio's): an offset follows, and
 * the priority prints in full. */
#define FIOLOG_F_OFFSET (1u << 31)
#define FIOLOG_F_PRIO (1u << 30)
#define FIOLOG_BIN_SIZE 32
#define FIOLOG_BIN_SIZE_OFFSET 40

/* "time, value, ddir, bs[, offset], prio\n" into buf (at least
 * FIOLOG_LINE_MAX bytes); returns its length. */
#define FIOLOG_LINE_MAX 128
size_t fiolog_format(char *buf, const struct fiolog_sample *s, bool offset, bool log_prio);

/* Decimal digits of v at p (no terminator); returns the end. */
char *fiolog_put_u64(char *p, uint64_t v);

/* The binary sample (FIOLOG_BIN_SIZE or _OFFSET bytes) into out; returns
 * its size. */
size_t fiolog_encode(unsigned char *out, const struct fiolog_sample *s, bool offset,
		     bool log_prio);

/* Bins per histogram line at coarseness c (0..6). */
static inline unsigned fiolog_hist_bins(unsigned c)
{
	return FIOLOG_HIST_BINS >> c;
}

/*
 * Read the compressed log at path (fio's or iobench's .log.fz) and print
 * its samples as text lines, as `fio --inflate-log` does. 0, or -errno with
 * an error message printed (a file that is not zlib data, a truncated
 * stream or sample: -EINVAL).
 */
int fiolog_inflate(const char *path, FILE *out);

#endif
