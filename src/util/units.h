/*
 * Parsing of fio-style values, without printing anything: sizes with fio's
 * unit rules, percentages, times, integers, floats, booleans, ranges ("4k-64k"
 * or "4k:64k") and per-direction lists ("4k,64k[,trim]").
 *
 * Size suffixes are case-insensitive. With kb_base=1024 (fio's default) k, kb,
 * ki mean 1024 and kib means 1000 (inverted on purpose, as fio does for old
 * scripts); kb_base=1000 flips both. m g t p e scale the same way, b is bytes,
 * fractions are allowed (1.5m). Times default to the unit the caller gives
 * and take d h m s sec ms msec us usec ns nsec.
 *
 * Every function returns 0, -EINVAL (malformed) or -ERANGE (out of range),
 * and when `why` is not NULL stores a static lowercase explanation in it.
 */
#ifndef IOBENCH_UTIL_UNITS_H
#define IOBENCH_UTIL_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_SEC 1000000000ULL

/* A byte count; negative values and a '%' are errors. */
int parse_size(const char *s, unsigned kb_base, uint64_t *out, const char **why);
/* A byte count or "N%" (1..100): *pct is 0 for a byte count. */
int parse_size_pct(const char *s, unsigned kb_base, uint64_t *out, unsigned *pct,
		   const char **why);
/* A signed byte count ("-8k" allowed). */
int parse_ssize(const char *s, unsigned kb_base, int64_t *out, const char **why);
/* "lo-hi" or "lo:hi" or a single value (lo = hi); swapped when lo > hi. */
int parse_size_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi,
		     const char **why);

/* A time; a bare number is in units of default_unit_ns. Result in ns. */
int parse_time(const char *s, uint64_t default_unit_ns, uint64_t *ns, const char **why);
int parse_time_range(const char *s, uint64_t default_unit_ns, uint64_t *lo, uint64_t *hi,
		     const char **why);

/* Unsigned integer: decimal or 0x hex, or a size with a unit suffix (1k). */
int parse_uint(const char *s, unsigned kb_base, uint64_t *out, const char **why);
/* A finite floating-point number. */
int parse_double(const char *s, double *out, const char **why);
/* "50%" or "50", 0..100. */
int parse_percent(const char *s, double *out, const char **why);
/* 1/0/true/false/yes/no/on/off, case-insensitive. */
int parse_bool(const char *s, bool *out, const char **why);

/*
 * Split a per-direction list "read,write,trim". part[i]/len[i] point into s;
 * set[i] tells whether direction i got a value. fio's rules: an empty part
 * keeps the previous value; a list that does not end in a comma hands its
 * last value on to the remaining directions ("8k,32k" sets trim to 32k,
 * "8k,32k," keeps trim).
 */
struct dir_parts {
	const char *part[3];
	unsigned len[3];
	bool set[3];
};
int split_per_dir(const char *s, struct dir_parts *out, const char **why);
/* Per-direction sizes: directions without a value keep out[i]. */
int parse_size_per_dir(const char *s, unsigned kb_base, uint64_t out[3], const char **why);

/* bytes as a short binary-prefixed figure ("512B", "1.5MiB", "23.5GiB") in buf. */
const char *fmt_iec(uint64_t bytes, char *buf, size_t len);

#endif
