/*
 * Helpers the file-descriptor engines share beyond the ones engine.h
 * declares: the non-data units (sync, datasync, trim) and, for engines that
 * use the descriptor's file position (sync, vsync), a per-file record of
 * where that position is, so lseek is only called when it must move.
 */
#ifndef IOBENCH_ENGINES_FILEIO_INT_H
#define IOBENCH_ENGINES_FILEIO_INT_H

#include <stdbool.h>

#include "engines/engine.h"

/* Trim a range: hole punch on a file, BLKDISCARD on a device; sets result. */
void engine_do_trim(struct io_unit *u);
/* Any unit that is not a read or write: sync, datasync, trim, invalid. */
void engine_do_other(struct io_unit *u);

/* True (and u->result set) when u is not a plain read or write. */
static inline bool engine_handle_other(struct io_unit *u)
{
	if (u->ddir == DDIR_READ || u->ddir == DDIR_WRITE)
		return false;
	engine_do_other(u);
	return true;
}

/* File-position engines: open/close also keep the position record. */
int engine_posfile_open(struct engine_ctx *ctx, struct job_file *f);
int engine_posfile_close(struct engine_ctx *ctx, struct job_file *f);
/* prep hook: seek to u->offset if the descriptor is not already there.
 * Never fails; a failed seek is retried (and reported) by the queue side. */
int engine_posfile_prep(struct engine_ctx *ctx, struct io_unit *u);
/* Make sure the position is u->offset; returns 0 or -errno. */
int engine_posfile_seek(struct io_unit *u);
/* Record a transfer's outcome: advance by result, or forget on error. */
void engine_posfile_done(struct io_unit *u);

#endif
