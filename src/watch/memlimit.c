/*
 * The workload's memory cgroup around a run (memlimit.h).
 */
#include "watch/memlimit.h"

#include <limits.h>
#include <string.h>

#include "sys/pagecache.h"
#include "sys/sysmem.h"
#include "util/error.h"
#include "util/units.h"

int memlimit_begin(struct memlimit *ml, uint64_t limit, const char *const *paths, size_t n)
{
	memset(ml, 0, sizeof(*ml));
	if (!limit)
		return 0;
	char why[PATH_MAX * 2 + 512], a[16], b[16];
	if (memcg_create(&ml->cg, limit, why, sizeof(why)) < 0)
		return error("--memory-limit=%s: %s", fmt_iec(limit, a, sizeof(a)), why);
	if (memcg_enter(&ml->cg, why, sizeof(why)) < 0) {
		error("--memory-limit=%s: %s", fmt_iec(limit, a, sizeof(a)), why);
		char why2[PATH_MAX + 256];
		if (memcg_remove(&ml->cg, why2, sizeof(why2)) < 0)
			warning("%s", why2);
		return -1;
	}
	ml->on = true;
	uint64_t ram = sys_mem_bytes();
	if (ram && limit >= ram)
		warning("--memory-limit=%s is not below the machine's RAM (%s): it limits nothing",
			fmt_iec(limit, a, sizeof(a)), fmt_iec(ram, b, sizeof(b)));
	for (size_t i = 0; i < n; i++)
		pagecache_drop(paths[i]); /* a file that does not exist yet has no cache */
	return 0;
}

void memlimit_end(struct memlimit *ml, struct run_env *env)
{
	if (!ml->on)
		return;
	if (env && memcg_read(&ml->cg, &env->memcg) == 0)
		env->have_memcg = true;
	char why[PATH_MAX + 256];
	if (memcg_remove(&ml->cg, why, sizeof(why)) < 0)
		warning("%s", why);
	ml->on = false;
}
