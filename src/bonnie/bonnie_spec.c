/*
 * The bonnie++ suite's spec: bonnie++ 2.00a's defaults (bonnie_spec_init)
 * and its checks (bonnie_spec_validate), with one-line messages in
 * bonnie++'s own words where it has them ("File size should be double RAM
 * for good results, RAM is 24104M."; 2.00a prints only its usage for the
 * others), and the two figures the reporters derive from a phase.
 *
 * Defaults measured on bonnie++ 2.00a itself: per-char tests 3 MiB (the man
 * page says 20M, the program does 3145728 one-byte writes), chunk 8192,
 * 8192 seeks by 5 seekers, 16 ×1024 empty files in one directory, file
 * chunk 8192 bytes; chunks (-s :chunk and -n ::::chunk) must be powers of
 * two 256..1M as there.
 */
#include "bonnie/bonnie.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MIB (1024ull * 1024ull)

void bonnie_spec_init(struct bonnie_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->dir = ".";
	s->chunk_size = 8192;
	s->seeks = 8192;
	s->seekers = 5;
	s->putc_size = 3 * MIB;
	s->num_files = 16;
	s->max_size = 0;
	s->min_size = 0;
	s->num_dirs = 0;
	s->file_chunk_size = 8192;
	s->repeats = 1;
	s->concurrency = 1;
}

static bool pow2_in(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v >= lo && v <= hi && !(v & (v - 1));
}

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -EINVAL)

int bonnie_spec_validate(const struct bonnie_spec *s, char *why, size_t whylen)
{
	if (!s->dir || !*s->dir)
		return WHY("No scratch directory given.");
	if (s->concurrency < 1)
		return WHY("Can't have a concurrency of %u, it must be at least 1.", s->concurrency);
	if (s->file_size) {
		if (!pow2_in(s->chunk_size, 256, MIB))
			return WHY("Can't have a chunk size of %u, it must be a power of 2 between 256 and 1048576.",
				   s->chunk_size);
		if (s->file_size % s->chunk_size)
			return WHY("File size %llu is not a multiple of the chunk size %u.",
				   (unsigned long long)s->file_size, s->chunk_size);
		if (s->file_size / s->chunk_size > 0x7fffffffull)
			return WHY("File size %lluM too big for chunk size %u.",
				   (unsigned long long)(s->file_size / MIB), s->chunk_size);
		if (s->seekers < 1)
			return WHY("Can't have %u seek processes, there must be at least 1.", s->seekers);
		/* bonnie++ counts every copy's file against the RAM */
		if (s->ram_mb && s->file_size * (s->concurrency ? s->concurrency : 1) <
				 2 * s->ram_mb * MIB)
			return WHY("File size should be double RAM for good results, RAM is %lluM.",
				   (unsigned long long)s->ram_mb);
	}
	if (s->num_files) {
		if (s->max_size < BONNIE_SOFT_LINKS)
			return WHY("Can't have a maximum file size of %ld, it must be -1 (hard links), -2 (soft links) or at least 0.",
				   s->max_size);
		if (s->min_size < 0)
			return WHY("Can't have a minimum file size of %ld.", s->min_size);
		if (s->max_size >= 0 && s->min_size > s->max_size)
			return WHY("Minimum file size %ld is larger than the maximum %ld.",
				   s->min_size, s->max_size);
		if (s->num_dirs > 99999)
			return WHY("Can't have more than 99,999 directories.");
		if (!pow2_in(s->file_chunk_size, 256, MIB))
			return WHY("Can't have a file chunk size of %u, it must be a power of 2 between 256 and 1048576.",
				   s->file_chunk_size);
		if ((uint64_t)s->num_files * 1024 > 0x7fffffffull)
			return WHY("Can't have %u ×1024 files.", s->num_files);
	}
	return 0;
}

double bonnie_phase_cpu_pct(const struct bonnie_phase *p)
{
	if (!p->ran || !p->elapsed_ns)
		return 0.0;
	return 100.0 * (double)p->cpu_ns / (double)p->elapsed_ns;
}

double bonnie_phase_busy_pct(const struct bonnie_phase *p)
{
	if (!p->ran || !p->elapsed_ns)
		return 0.0;
	return 100.0 * (double)p->busy_ns / ((double)p->elapsed_ns * (p->threads ? p->threads : 1));
}

bool bonnie_phase_too_short(const struct bonnie_phase *p)
{
	return p->elapsed_ns < BONNIE_MIN_TIME_NS;
}
