/*
 * The text formats the memory cgroup code reads (memcg.h): /proc/self/cgroup
 * lines, "key value" files (memory.stat, memory.events, memory.oom_control)
 * and space-separated controller lists. Pure functions, unit-tested.
 */
#include "sys/memcg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does the comma-separated v1 controller list [s, s+n) hold name? */
static bool csv_has(const char *s, size_t n, const char *name)
{
	size_t k = strlen(name);
	while (n) {
		const char *c = memchr(s, ',', n);
		size_t len = c ? (size_t)(c - s) : n;
		if (len == k && !memcmp(s, name, k))
			return true;
		if (!c)
			break;
		n -= len + 1;
		s = c + 1;
	}
	return false;
}

int memcg_parse_self(const char *text, const char *controller, char *out, size_t len)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n');
		if (!end)
			end = l + strlen(l);
		const char *c1 = memchr(l, ':', (size_t)(end - l));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
		if (!c2)
			continue;
		size_t nlist = (size_t)(c2 - c1 - 1);
		bool hit = controller ? csv_has(c1 + 1, nlist, controller)
				      : nlist == 0 && c1 - l == 1 && l[0] == '0';
		if (!hit)
			continue;
		size_t plen = (size_t)(end - c2 - 1);
		if (!plen || c2[1] != '/' || plen >= len)
			return -ENOENT;
		memcpy(out, c2 + 1, plen);
		out[plen] = 0;
		return 0;
	}
	return -ENOENT;
}

int memcg_parse_kv(const char *text, const char *key, uint64_t *val)
{
	size_t k = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, k) || l[k] != ' ')
			continue;
		char *end;
		errno = 0;
		unsigned long long v = strtoull(l + k + 1, &end, 10);
		if (errno || end == l + k + 1)
			return -ENOENT;
		*val = v;
		return 0;
	}
	return -ENOENT;
}

bool memcg_list_has(const char *list, const char *word)
{
	size_t k = strlen(word);
	for (const char *p = list; p && *p;) {
		p += strspn(p, " \t\n");
		size_t n = strcspn(p, " \t\n");
		if (n == k && !strncmp(p, word, k))
			return true;
		p += n;
	}
	return false;
}
