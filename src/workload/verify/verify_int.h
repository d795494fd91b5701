/*
 * Inside workload/verify/: verify_dump's writer of a failed chunk.
 */
#ifndef IOBENCH_WORKLOAD_VERIFY_VERIFY_INT_H
#define IOBENCH_WORKLOAD_VERIFY_VERIFY_INT_H

#include <stdint.h>

#include "verify/verify.h"

/* verify_dump=1: write a failed chunk as read and as expected to
 * BASENAME.OFFSET.received/.expected in dir (--aux-path; NULL: the current
 * directory), through the device guard (verify_dump.c). */
void verify_dump_chunk(const struct verify_cfg *cfg, const char *dir, const char *path,
		       const struct vexpect *e, const struct vresult *r, const uint8_t *received);

#endif
