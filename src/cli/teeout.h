/*
 * A FILE that writes through to another one and keeps a copy of every
 * byte in memory: how bonnie's text report, printed piece by piece while
 * the tests run, is kept exactly as printed for the results store, and
 * fio's notes ("Laying out IO file") in run's normal report.
 */
#ifndef IOBENCH_CLI_TEEOUT_H
#define IOBENCH_CLI_TEEOUT_H

#include <stddef.h>
#include <stdio.h>

struct teeout;

/* A stream writing to `to` (flushed with each write, so its errors show
 * on the tee) and to memory; NULL when out of memory. */
FILE *teeout_open(FILE *to, struct teeout **t);
/* What was written so far (*len bytes; owned by t, valid until the next
 * write): fflush the stream first. */
const char *teeout_peek(const struct teeout *t, size_t *len);
/* After fclose of the stream: what was written (*len bytes, NUL
 * terminated; the caller frees it), and t is freed. */
char *teeout_take(struct teeout *t, size_t *len);

#endif
