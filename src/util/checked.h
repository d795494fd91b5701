/*
 * Overflow-checked arithmetic on sizes, offsets and counts. A job's byte
 * figures come from the user (size=, offset=, offset_increment=, filesize=)
 * and from the device, and are added and multiplied by numjobs and nrfiles:
 * a wrap-around turns an absurd request into a plausible one (a region that
 * "ends" at byte 3, a rate that never throttles), so every such sum and
 * product goes through these. ck_add/ck_mul return false on overflow (and
 * leave *r alone); mul_div is a*b/c without the intermediate overflow,
 * saturating at UINT64_MAX; OFFSET_MAX is the largest byte offset a file
 * can have (off_t is signed), which bounds every position and length.
 */
#ifndef IOBENCH_UTIL_CHECKED_H
#define IOBENCH_UTIL_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

#define OFFSET_MAX ((uint64_t)INT64_MAX)

static inline bool ck_add(uint64_t a, uint64_t b, uint64_t *r)
{
	uint64_t v;
	if (__builtin_add_overflow(a, b, &v))
		return false;
	*r = v;
	return true;
}

static inline bool ck_mul(uint64_t a, uint64_t b, uint64_t *r)
{
	uint64_t v;
	if (__builtin_mul_overflow(a, b, &v))
		return false;
	*r = v;
	return true;
}

/* *end = off + len when that is a valid file position (<= OFFSET_MAX). */
static inline bool ck_region_end(uint64_t off, uint64_t len, uint64_t *end)
{
	uint64_t v;
	if (!ck_add(off, len, &v) || v > OFFSET_MAX)
		return false;
	*end = v;
	return true;
}

/* a * b / c with a 128-bit product; c == 0 or a result above UINT64_MAX
 * gives UINT64_MAX. */
static inline uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	if (!c)
		return UINT64_MAX;
	unsigned __int128 v = (unsigned __int128)a * b / c;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

#endif
