/*
 * Parse callback of mem= (alias iomem=): the kind of memory the I/O
 * buffers are (malloc, shm, shmhuge, mmap, mmaphuge, mmapshared), with the
 * file the mmap kinds may map. The allocation itself is workload/buffers.c's.
 */
#include "spec/options_cb_int.h"
#include "util/array.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int opt_cb_mem(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	const struct opt_posval *kind = optdef_word_n(c->opt, val, n); /* the row's words */
	if (!kind)
		return optdef_word_fail(c->opt, val, c);
	if (kind->value < 0)
		return opt_failf(c, -ENOTSUP, "value 'cudamalloc' of option '%s' is not implemented yet "
				 "(no CUDA here)", c->key);
	if (colon && (!kind->arg || !colon[1])) { /* the kinds with an arg take a file */
		char takes[160];
		size_t w = 0, k = 0, nr = 0;
		for (const struct opt_posval *p = c->opt->posval; p->word; p++)
			nr += p->arg != NULL;
		for (const struct opt_posval *p = c->opt->posval; p->word && w < sizeof(takes); p++)
			if (p->arg)
				w += (size_t)snprintf(takes + w, sizeof(takes) - w, "%s%s",
						      !k++ ? "only " : k == nr ? " and " : ", ", p->word);
		if (w < sizeof(takes))
			snprintf(takes + w, sizeof(takes) - w, " take a file");
		return opt_fail(c, -EINVAL, "memory kind", val, kind->arg ? "the file name is empty" : takes);
	}
	free(s->mem_file);
	s->mem_file = colon ? xstrdup(colon + 1) : NULL;
	s->mem = (enum mem_type)kind->value;
	return 0;
}
