/*
 * /proc/meminfo and /proc/vmstat parsers for procstat.h: both are one
 * "name value" pair a line, looked up in a table of the fields we keep.
 */
#include "sys/procstat.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct field {
	const char *name;
	size_t off;
	bool sum_zones; /* also add name_<zone> lines (old kernels) */
};

static const char *const zones[] = { "dma", "dma32", "normal", "high", "movable", "device", NULL };

static bool is_zone(const char *s, size_t len)
{
	for (const char *const *z = zones; *z; z++)
		if (strlen(*z) == len && !strncmp(*z, s, len))
			return true;
	return false;
}

/* Does key (klen bytes) name field f, directly or as a per-zone variant? */
static bool key_matches(const struct field *f, const char *key, size_t klen)
{
	size_t n = strlen(f->name);

	if (klen < n || strncmp(key, f->name, n))
		return false;
	if (klen == n)
		return true;
	return f->sum_zones && key[n] == '_' && is_zone(key + n + 1, klen - n - 1);
}

/* Walk "key<sep>value" lines and add each value to the field it names.
 * Returns the number of lines that matched a field. */
static unsigned parse_pairs(const char *text, char sep, const struct field *fields, void *out)
{
	unsigned matched = 0;

	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t klen = strcspn(p, sep == ':' ? ":\n" : " \n");

		if (!eol)
			eol = p + strlen(p);
		if (p[klen] == sep) {
			for (const struct field *f = fields; f->name; f++) {
				if (!key_matches(f, p, klen))
					continue;
				char *end;
				uint64_t v = strtoull(p + klen + 1, &end, 10);
				if (end != p + klen + 1) {
					*(uint64_t *)((char *)out + f->off) += v;
					matched++;
				}
				break;
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	return matched;
}

#define MI(name, member) { name, offsetof(struct proc_meminfo, member), false }
static const struct field meminfo_fields[] = {
	MI("MemTotal", total_kb), MI("MemFree", free_kb), MI("MemAvailable", available_kb),
	MI("Buffers", buffers_kb), MI("Cached", cached_kb), MI("SReclaimable", sreclaimable_kb),
	MI("Shmem", shmem_kb), MI("SwapTotal", swap_total_kb), MI("SwapFree", swap_free_kb),
	MI("Dirty", dirty_kb), MI("Writeback", writeback_kb),
	{ NULL, 0, false },
};

#define VM(name, member, zoned) { name, offsetof(struct proc_vmstat, member), zoned }
static const struct field vmstat_fields[] = {
	VM("pgpgin", pgpgin, false), VM("pgpgout", pgpgout, false),
	VM("pswpin", pswpin, false), VM("pswpout", pswpout, false),
	VM("pgfault", pgfault, false), VM("pgmajfault", pgmajfault, false),
	VM("pgscan_kswapd", pgscan_kswapd, true), VM("pgscan_direct", pgscan_direct, true),
	VM("pgsteal_kswapd", pgsteal_kswapd, true), VM("pgsteal_direct", pgsteal_direct, true),
	VM("allocstall", allocstall, true),
	VM("pgscan_anon", pgscan_anon, false), VM("pgscan_file", pgscan_file, false),
	VM("nr_dirty", nr_dirty, false), VM("nr_writeback", nr_writeback, false),
	VM("nr_dirty_threshold", nr_dirty_threshold, false),
	VM("nr_dirty_background_threshold", nr_dirty_background_threshold, false),
	{ NULL, 0, false },
};

int procstat_parse_meminfo(const char *text, struct proc_meminfo *out)
{
	memset(out, 0, sizeof(*out));
	parse_pairs(text, ':', meminfo_fields, out);
	return out->total_kb ? 0 : -EINVAL;
}

int procstat_parse_vmstat(const char *text, struct proc_vmstat *out)
{
	memset(out, 0, sizeof(*out));
	return parse_pairs(text, ' ', vmstat_fields, out) ? 0 : -EINVAL;
}
