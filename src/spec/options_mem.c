/*
 * Parse callback of mem= (alias iomem=): the kind of memory the I/O
 * buffers are (malloc, shm, shmhuge, mmap, mmaphuge, mmapshared), with the
 * file the mmap kinds may map. The allocation itself is workload/buffers.c's.
 */
#include "spec/options_cb.h"
#include "util/array.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int opt_cb_mem(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	static const struct { const char *name; enum mem_type m; bool file; } kinds[] = {
		{ "malloc", MEM_MALLOC, false }, { "shm", MEM_SHM, false },
		{ "shmhuge", MEM_SHMHUGE, false }, { "mmap", MEM_MMAP, true },
		{ "mmaphuge", MEM_MMAPHUGE, true }, { "mmapshared", MEM_MMAPSHARED, true },
	};
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	if (n == 10 && !strncasecmp(val, "cudamalloc", n))
		return opt_failf(c, -ENOTSUP, "value 'cudamalloc' of option '%s' is not implemented yet "
				 "(no CUDA here)", c->key);
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		if (strlen(kinds[i].name) != n || strncasecmp(val, kinds[i].name, n))
			continue;
		if (colon && (!kinds[i].file || !colon[1]))
			return opt_fail(c, -EINVAL, "memory kind", val, kinds[i].file ? "the file name is empty"
							: "only mmap, mmaphuge and mmapshared take a file");
		free(s->mem_file);
		s->mem_file = colon ? xstrdup(colon + 1) : NULL;
		s->mem = kinds[i].m;
		return 0;
	}
	return opt_fail(c, -EINVAL, "memory kind", val,
			"use malloc, shm, shmhuge, mmap[:FILE], mmaphuge[:FILE] or mmapshared[:FILE]");
}
