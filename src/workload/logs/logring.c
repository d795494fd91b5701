/*
 * Making and freeing a log ring (logring.h); the ring's operations are
 * inline there.
 */
#include "workload/logs/logring_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/assert.h"
#include "util/xmalloc.h"

void logring_init(struct logring *r, size_t esize, uint32_t cap)
{
	IOB_ASSERT(esize > 0 && cap > 0 && cap <= (1u << 30));
	uint32_t c = 1;
	while (c < cap)
		c <<= 1;
	memset(r, 0, sizeof(*r));
	r->esize = esize;
	r->cap = c;
	r->mask = c - 1;
	r->buf = xcalloc(c, esize);
}

void logring_release(struct logring *r)
{
	free(r->buf);
	r->buf = NULL;
}
