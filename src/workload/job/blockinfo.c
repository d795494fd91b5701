/*
 * block_error_percentiles, fio's block error histogram: the job's one file
 * in trim-blocks (its trim block size), each with its state (unwritten,
 * written, trimmed, or the failure that hit it first: a failure stays) and
 * the trims that succeeded on it. A write or trim records its result in
 * every trim-block it covers (fio marks the first only; with one block
 * size, the default, that is the same block). The report ranks the blocks
 * (results/blocks.c) into percentiles of the trims they took, the failed
 * ones last: "how many trims it took to get to errors".
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdlib.h>

#include "util/error.h"
#include "util/xmalloc.h"

int job_blocks_init(struct job *j)
{
	const struct job_spec *s = j->spec;
	if (!s->block_error_hist)
		return 0;
	if (j->nr_files != 1)
		return error("job '%s': block_error_percentiles: the block error histogram is only "
			     "available with a single file per job, but %u files provided (as fio)",
			     s->name, j->nr_files);
	uint64_t bs = s->min_bs[DDIR_TRIM] ? s->min_bs[DDIR_TRIM] : s->bs[DDIR_TRIM];
	if (!bs)
		bs = 4096;
	uint64_t n = j->files[0].io_size / bs;
	if (n > BLOCK_INFOS_MAX)
		return error("job '%s': block_error_percentiles: cannot make the block histogram of "
			     "%llu trim blocks of %llu bytes in '%s', maximum %u (as fio): use a "
			     "smaller size= or a larger bs for trims", s->name, (unsigned long long)n,
			     (unsigned long long)bs, j->files[0].path, BLOCK_INFOS_MAX);
	free(j->res.blocks);
	j->res.blocks = xcalloc(n ? n : 1, sizeof(*j->res.blocks));
	j->res.nr_blocks = (unsigned)n;
	j->block_bs = bs;
	return 0;
}

void job_blocks_note(struct job *j, const struct io_unit *u, bool ok)
{
	if (u->ddir != DDIR_WRITE && u->ddir != DDIR_TRIM)
		return;
	const struct job_file *f = u->file;
	if (!f || f != &j->files[0] || u->offset < f->io_offset || !u->buflen)
		return;
	uint64_t first = (u->offset - f->io_offset) / j->block_bs;
	uint64_t last = (u->offset - f->io_offset + u->buflen - 1) / j->block_bs;
	for (uint64_t i = first; i <= last && i < j->res.nr_blocks; i++) {
		struct block_info *b = &j->res.blocks[i];
		if (b->state >= BLOCK_TRIM_FAILURE)
			continue; /* the first failure stays */
		if (!ok) {
			b->state = u->ddir == DDIR_TRIM ? BLOCK_TRIM_FAILURE : BLOCK_WRITE_FAILURE;
		} else if (u->ddir == DDIR_TRIM) {
			b->state = BLOCK_TRIMMED;
			b->trims++;
		} else {
			b->state = BLOCK_WRITTEN;
		}
	}
}
