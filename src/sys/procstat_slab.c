/*
 * /proc/slabinfo parser for procstat.h (format 2.x, readable by root):
 *   name <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : ...
 * Only the caches that file I/O grows are kept: buffer_head, dentry and
 * the inode caches.
 */
#include "sys/procstat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && !memcmp(s + len - n, suffix, n);
}

int procstat_parse_slabinfo(const char *text, struct proc_slabs *out)
{
	memset(out, 0, sizeof(*out));
	if (strncmp(text, "slabinfo - version: 2.", 22))
		return -EINVAL;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		size_t nlen = strcspn(p, " \n");
		uint64_t active, num, size;

		if (p[nlen] == ' ' && *p != '#' &&
		    sscanf(p + nlen, " %" SCNu64 " %" SCNu64 " %" SCNu64, &active, &num, &size) == 3) {
			uint64_t *objs = NULL, *bytes = NULL;
			if (nlen == 11 && !memcmp(p, "buffer_head", 11)) {
				objs = &out->buffer_head_objs;
				bytes = &out->buffer_head_bytes;
			} else if (nlen == 6 && !memcmp(p, "dentry", 6)) {
				objs = &out->dentry_objs;
				bytes = &out->dentry_bytes;
			} else if (ends_with(p, nlen, "inode_cache") || ends_with(p, nlen, "_inode")) {
				objs = &out->inode_objs;
				bytes = &out->inode_bytes;
			}
			if (objs) {
				*objs += num;
				*bytes += num * size;
			}
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	out->have = true;
	return 0;
}
