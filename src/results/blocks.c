/*
 * block_error_percentiles' report (fio's "block lifetime percentiles"):
 * the job's trim-blocks ranked by their kind of state (unwritten first,
 * then written or trimmed, failures last), then by the trims they took,
 * then by state; each percentile names the trims of the block that far
 * into the blocks that are not unwritten, so the top percentiles are the
 * trims the failed blocks had when they failed.
 */
#include "results/results.h"

#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

const char *const block_state_names[BLOCK_STATE_CNT] = {
	[BLOCK_UNWRITTEN] = "unwritten",
	[BLOCK_TRIMMED] = "trimmed",
	[BLOCK_WRITTEN] = "written",
	[BLOCK_TRIM_FAILURE] = "trim failure",
	[BLOCK_WRITE_FAILURE] = "write failure",
};

static int kind(uint8_t state)
{
	if (state == BLOCK_UNWRITTEN)
		return 0;
	return state == BLOCK_TRIMMED || state == BLOCK_WRITTEN ? 1 : 2;
}

static int cmp_block(const void *pa, const void *pb)
{
	const struct block_info *a = pa, *b = pb;
	int ka = kind(a->state), kb = kind(b->state);
	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (a->trims != b->trims)
		return a->trims < b->trims ? -1 : 1;
	return (a->state > b->state) - (a->state < b->state);
}

unsigned block_percentiles(const struct block_info *b, unsigned n, const double *plist,
			   unsigned np, uint32_t *out, unsigned counts[BLOCK_STATE_CNT])
{
	memset(counts, 0, sizeof(*counts) * BLOCK_STATE_CNT);
	for (unsigned i = 0; i < n; i++)
		counts[b[i].state < BLOCK_STATE_CNT ? b[i].state : BLOCK_UNWRITTEN]++;
	unsigned unwritten = counts[BLOCK_UNWRITTEN];
	if (!np || unwritten == n)
		return 0;
	struct block_info *s = xmalloc(n * sizeof(*s));
	memcpy(s, b, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_block);
	for (unsigned i = 0; i < np; i++) {
		unsigned idx = unwritten + (unsigned)(plist[i] * (double)(n - unwritten) / 100.0);
		if (idx >= n)
			idx = n - 1; /* the 100th: the last block */
		out[i] = s[idx].trims;
	}
	free(s);
	return np;
}
