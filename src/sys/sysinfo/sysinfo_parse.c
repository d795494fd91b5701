/*
 * Pure text parsers for the system capture (sysinfo.h): os-release values,
 * /proc/meminfo and /proc/cpuinfo fields, sysfs's "a [b] c" choice lists,
 * /proc/swaps, and the names of btrfs block-group flags. They take text and
 * return owned strings, so unit tests can feed them sample texts; reading
 * the files is the callers' job (sysinfo_read_file).
 */
#include "sys/sysinfo/sysinfo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "util/array.h"
#include "util/xmalloc.h"

int sysinfo_read_file(const char *path, char **out)
{
	size_t len = 0, cap = 4096;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*out = NULL;
	if (fd < 0)
		return -errno;
	buf = xmalloc(cap);
	for (;;) {
		ssize_t got = read(fd, buf + len, cap - len - 1);
		if (got < 0) {
			int err = -errno;
			close(fd);
			free(buf);
			return err;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (len + 1 == cap) {
			if (cap >= (1u << 24))
				break; /* no file we read is this big */
			buf = xgrow(buf, &cap, cap * 2 - 1, 1);
		}
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/* The start of the line that begins with key followed by one of seps, and
 * the value after the separator in *val; NULL if no line does. */
static const char *find_line(const char *text, const char *key, const char *seps, const char **val)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen))
			continue;
		const char *p = l + klen;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || !strchr(seps, *p))
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		*val = p;
		return l;
	}
	return NULL;
}

static char *dup_line(const char *p)
{
	size_t n = strcspn(p, "\n");

	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	return xstrndup(p, n);
}

char *sysinfo_os_release_value(const char *text, const char *key)
{
	const char *v;
	char *s, *d;

	if (!text || !find_line(text, key, "=", &v))
		return NULL;
	s = dup_line(v);
	/* shell-style quoting: '...' or "..." with \" \\ \$ \` escapes */
	if (s[0] == '"' || s[0] == '\'') {
		char q = s[0];
		const char *r = s + 1;
		for (d = s; *r && *r != q; r++) {
			if (q == '"' && r[0] == '\\' && r[1] && strchr("\"\\$`", r[1]))
				r++;
			*d++ = *r;
		}
		*d = '\0';
	}
	if (!s[0]) {
		free(s);
		return NULL;
	}
	return s;
}

int64_t sysinfo_meminfo_bytes(const char *text, const char *key)
{
	const char *v;
	char *end;
	long long kb;

	if (!text || !find_line(text, key, ":", &v))
		return SYSINFO_UNSET;
	kb = strtoll(v, &end, 10);
	if (end == v || kb < 0)
		return SYSINFO_UNSET;
	return (int64_t)kb * 1024;
}

char *sysinfo_cpuinfo_model(const char *text)
{
	/* x86 "model name"; arm64 has none, older ARM "Processor", POWER "cpu",
	 * s390 "processor 0: version = ...": take the first that is there */
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu" };
	const char *v;

	for (size_t i = 0; text && i < ARRAY_SIZE(keys); i++)
		if (find_line(text, keys[i], ":", &v) && *v && *v != '\n')
			return dup_line(v);
	return NULL;
}

char *sysinfo_bracketed(const char *text)
{
	const char *open, *close;

	if (!text || !(open = strchr(text, '[')) || !(close = strchr(open, ']')) || close == open + 1)
		return NULL;
	return xstrndup(open + 1, (size_t)(close - open - 1));
}

void sysinfo_parse_swaps(const char *text, struct sysinfo_swap **out, size_t *n)
{
	size_t alloc = 0;
	const char *l = text ? strchr(text, '\n') : NULL; /* skip the header */

	*out = NULL;
	*n = 0;
	while (l && *++l) {
		char name[4096], type[64];
		long long size, used, prio;
		if (sscanf(l, "%4095s %63s %lld %lld %lld", name, type, &size, &used, &prio) == 5) {
			*out = xgrow(*out, &alloc, *n, sizeof(**out));
			struct sysinfo_swap *s = &(*out)[(*n)++];
			devres_unescape(name);
			s->name = xstrdup(name);
			s->type = xstrdup(type);
			s->size_bytes = (int64_t)size * 1024;
			s->used_bytes = (int64_t)used * 1024;
			s->priority = prio;
		}
		l = strchr(l, '\n');
	}
}

const char *sysinfo_btrfs_profile(uint64_t flags)
{
	static const struct { uint64_t bit; const char *name; } profiles[] = {
		{ BTRFS_BLOCK_GROUP_RAID0, "RAID0" },
		{ BTRFS_BLOCK_GROUP_RAID1, "RAID1" },
		{ BTRFS_BLOCK_GROUP_DUP, "DUP" },
		{ BTRFS_BLOCK_GROUP_RAID10, "RAID10" },
		{ BTRFS_BLOCK_GROUP_RAID5, "RAID5" },
		{ BTRFS_BLOCK_GROUP_RAID6, "RAID6" },
		{ BTRFS_BLOCK_GROUP_RAID1C3, "RAID1C3" },
		{ BTRFS_BLOCK_GROUP_RAID1C4, "RAID1C4" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++)
		if (flags & profiles[i].bit)
			return profiles[i].name;
	return "single";
}

const char *sysinfo_btrfs_space_type(uint64_t flags)
{
	uint64_t dm = BTRFS_BLOCK_GROUP_DATA | BTRFS_BLOCK_GROUP_METADATA;

	if (flags & BTRFS_SPACE_INFO_GLOBAL_RSV)
		return "GlobalReserve";
	if ((flags & dm) == dm)
		return "Data+Metadata";
	if (flags & BTRFS_BLOCK_GROUP_DATA)
		return "Data";
	if (flags & BTRFS_BLOCK_GROUP_SYSTEM)
		return "System";
	if (flags & BTRFS_BLOCK_GROUP_METADATA)
		return "Metadata";
	return "unknown";
}
