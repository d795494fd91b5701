/*
 * Checking that what a command wrote really got out: every report, table
 * and help text ends with output_check(), so a full disk (>/dev/full), a
 * closed pipe (| head -c1, with SIGPIPE ignored) or an I/O error on the
 * --output file is one message and exit status 1, not a silent success.
 */
#ifndef IOBENCH_CLI_OUTPUT_H
#define IOBENCH_CLI_OUTPUT_H

#include <stdio.h>

/* Flush out; if this or an earlier write to it failed, print "cannot write
 * WHAT to WHERE: REASON" (WHAT NULL: "cannot write to WHERE: ...") and
 * drop what is still buffered, so it is not tried and reported again.
 * where NULL means "standard output". Returns 0 or -errno. */
int output_check(FILE *out, const char *what, const char *where);
/* The same message for a write that already failed with err (< 0), e.g.
 * from report_write(); returns err. */
int output_failed(FILE *out, int err, const char *what, const char *where);

#endif
