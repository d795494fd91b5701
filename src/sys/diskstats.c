/*
 * Parsing and differencing of /proc/diskstats for diskstats.h. A line is
 * "major minor name" and then 4 (old partitions), 11, 15 or 17 counters.
 */
#include "sys/diskstats.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DISKSTAT_NFIELDS 17

/* Offsets of the counters in the order the kernel prints them. */
static const size_t counter_off[DISKSTAT_NFIELDS] = {
	offsetof(struct diskstat, rd_ios), offsetof(struct diskstat, rd_merges),
	offsetof(struct diskstat, rd_sectors), offsetof(struct diskstat, rd_ticks),
	offsetof(struct diskstat, wr_ios), offsetof(struct diskstat, wr_merges),
	offsetof(struct diskstat, wr_sectors), offsetof(struct diskstat, wr_ticks),
	offsetof(struct diskstat, in_flight), offsetof(struct diskstat, io_ticks),
	offsetof(struct diskstat, time_in_queue),
	offsetof(struct diskstat, dc_ios), offsetof(struct diskstat, dc_merges),
	offsetof(struct diskstat, dc_sectors), offsetof(struct diskstat, dc_ticks),
	offsetof(struct diskstat, fl_ios), offsetof(struct diskstat, fl_ticks),
};

static uint64_t *field(struct diskstat *s, unsigned i)
{
	return (uint64_t *)((char *)s + counter_off[i]);
}

static uint64_t get_field(const struct diskstat *s, unsigned i)
{
	return *(const uint64_t *)((const char *)s + counter_off[i]);
}

int diskstat_parse_line(const char *line, struct diskstat *s)
{
	unsigned nfields = 0;
	int used = 0;
	const char *p;

	memset(s, 0, sizeof(*s));
	if (sscanf(line, " %u %u %63s%n", &s->major, &s->minor, s->name, &used) != 3)
		return -EINVAL;
	p = line + used;
	for (;;) {
		char *end;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || !*p)
			break;
		if (nfields == DISKSTAT_NFIELDS)
			break; /* a newer kernel's extra columns */
		errno = 0;
		unsigned long long v = strtoull(p, &end, 10);
		if (end == p || errno)
			return -EINVAL;
		*field(s, nfields++) = v;
		p = end;
	}
	/* Linux 2.6.25 and older printed only 4 counters for partitions:
	 * reads, sectors read, writes, sectors written. */
	if (nfields == 4) {
		uint64_t r = s->rd_ios, rs = s->rd_merges, w = s->rd_sectors, ws = s->rd_ticks;
		for (unsigned i = 0; i < 4; i++)
			*field(s, i) = 0;
		s->rd_ios = r;
		s->rd_sectors = rs;
		s->wr_ios = w;
		s->wr_sectors = ws;
		return 0;
	}
	return nfields >= 11 ? 0 : -EINVAL;
}

int diskstats_read(const char *proc_path, struct diskstat **out, size_t *n)
{
	struct diskstat *arr = NULL;
	size_t nr = 0, alloc = 0, cap = 0;
	char *line = NULL;
	int ret = 0;
	FILE *f;

	f = fopen(proc_path ? proc_path : "/proc/diskstats", "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		struct diskstat s;
		if (strspn(line, " \t\n") == strlen(line))
			continue;
		ret = diskstat_parse_line(line, &s);
		if (ret)
			break;
		arr = xgrow(arr, &alloc, nr, sizeof(*arr));
		arr[nr++] = s;
	}
	if (!ret && ferror(f))
		ret = -EIO;
	free(line);
	fclose(f);
	if (ret) {
		free(arr);
		return ret;
	}
	*out = arr;
	*n = nr;
	return 0;
}

int diskstat_find(const char *name, struct diskstat *out)
{
	struct diskstat *all;
	size_t n;
	int ret = diskstats_read(NULL, &all, &n);

	if (ret)
		return ret;
	ret = -ENOENT;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(all[i].name, name)) {
			*out = all[i];
			ret = 0;
			break;
		}
	}
	free(all);
	return ret;
}

static uint64_t counter_delta(uint64_t a, uint64_t b)
{
	if (b >= a)
		return b - a;
	if (a <= 0xffffffffULL)
		return (b - a) & 0xffffffffULL; /* 32-bit counter wrapped */
	return 0; /* reset (device re-created) */
}

void diskstat_delta(const struct diskstat *a, const struct diskstat *b, struct diskstat *d)
{
	struct diskstat r = *b;

	for (unsigned i = 0; i < DISKSTAT_NFIELDS; i++)
		*field(&r, i) = counter_delta(get_field(a, i), get_field(b, i));
	r.in_flight = b->in_flight;
	*d = r;
}

void diskstat_accumulate(struct diskstat *acc, const struct diskstat *a, const struct diskstat *b)
{
	for (unsigned i = 0; i < DISKSTAT_NFIELDS; i++)
		*field(acc, i) += counter_delta(get_field(a, i), get_field(b, i));
	acc->in_flight = b->in_flight;
}
