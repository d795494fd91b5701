/*
 * The "null" engine: no file, no system call; every unit completes at once
 * with all its bytes done. It measures the tool's own per-I/O overhead, so
 * queue() does nothing else.
 */
#include "engines/engine.h"

static int null_open(struct engine_ctx *ctx, struct job_file *f)
{
	return 0;
}

static int null_close(struct engine_ctx *ctx, struct job_file *f)
{
	return 0;
}

static int null_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	u->result = (int64_t)u->buflen;
	return ENGINE_Q_COMPLETED;
}

const struct engine_ops engine_null = {
	.name = "null",
	.summary = "no file and no system call: every I/O completes at once (the tool's own overhead)",
	.flags = ENGINE_SYNC | ENGINE_NO_FILE | ENGINE_SLAT_AT_DEPTH,
	.open_file = null_open,
	.close_file = null_close,
	.queue = null_queue,
};
