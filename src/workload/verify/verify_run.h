/*
 * Verify's hooks in the job runtime (verify_run.c): set up and finish a
 * job's verification, fill each write's buffer, check each read (the
 * job's vfy_io_done), and the read-back passes around and after the
 * writes. The job runtime (workload/) calls them; verify/ below holds the
 * headers, checks and state files they use.
 */
#ifndef IOBENCH_WORKLOAD_VERIFY_VERIFY_RUN_H
#define IOBENCH_WORKLOAD_VERIFY_VERIFY_RUN_H

#include "engines/ddir.h"

struct job;
struct io_unit;

/* Set up j->vfy when the spec asks for verification (after job_gens_init
 * and async_init); 0 or -errno, the error already reported. */
int verify_init(struct job *j);
/* Report a summary, save the state file, free j->vfy. */
void verify_finish(struct job *j);
/* Before each write: fill the buffer with headers and payload. */
void verify_fill_write(struct job *j, struct io_unit *u);
/* After each successful data I/O, from job_account through j->vfy_io_done:
 * check verify reads. */
void verify_io_done(struct job *j, struct io_unit *u);
/* After each I/O issued in the write pass: run a due backlog check, stop a
 * verify_fatal job. 0 or -errno. */
int verify_after_io(struct job *j, enum ddir d);
/* Around each loop of the job: remember the generators, then read back
 * what the loop wrote (do_verify). */
void verify_loop_start(struct job *j);
int verify_loop_end(struct job *j);
/* verify_only: the loop's I/O is replaced by this read-back. */
int verify_only_pass(struct job *j);

#endif
