/*
 * verify_async=N (fio's): the checks of the blocks read back run in N
 * threads of the job's instead of in the job thread, which goes on issuing
 * reads meanwhile. Each completed read is copied into a bounded queue of
 * tickets; a worker checks its chunks (pure: verify_check_chunk and the
 * trimmed-zero check) and keeps the failures; the job thread retires the
 * tickets in the order the reads completed and records their failures as
 * the inline check would, so the counts, the first error and the messages
 * are the same. A ticket retired after a failure that stops the job is
 * dropped: inline, that read would not have been issued.
 */
#ifndef IOBENCH_WORKLOAD_VERIFY_VERIFY_ASYNC_INT_H
#define IOBENCH_WORKLOAD_VERIFY_VERIFY_ASYNC_INT_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "verify/verify.h"

struct job_file;

struct vafail {
	struct vexpect e;
	struct vresult r;
	uint8_t *keep;         /* verify_dump: the chunk as read, else NULL */
};

struct vaitem {
	struct job_file *f;
	uint64_t off, len;
	int64_t result;
	struct vexpect e;      /* what the read expects (offset and len set per chunk) */
	bool trimmed, check_zero;
	uint8_t *buf;
	uint64_t cap;
	struct vafail *fails;
	unsigned nfails, capf;
	unsigned lost;         /* failures beyond what memory could keep (counted) */
	uint64_t chunks;
	bool done;
};

struct vasync;

/* Start n workers checking with cfg, on the CPUs cpus (NULL: any);
 * bufsize is the largest read. NULL (with errno) when the threads or
 * their memory cannot be had. */
struct vasync *vasync_start(unsigned n, const struct verify_cfg *cfg, uint64_t bufsize,
			    bool fatal, bool dump, const cpu_set_t *cpus);
/* Queue a completed read (its buffer is copied); retire(arg, item) is called
 * for every ticket finished before it, in order, when the queue is full. */
int vasync_submit(struct vasync *va, struct job_file *f, uint64_t off, uint64_t len,
		  int64_t result, const void *buf, const struct vexpect *e, bool trimmed,
		  bool check_zero, void (*retire)(void *arg, struct vaitem *it), void *arg);
/* Retire every ticket queued, waiting for the workers. */
void vasync_drain(struct vasync *va, void (*retire)(void *arg, struct vaitem *it), void *arg);
/* Drain, stop and free the workers. */
void vasync_stop(struct vasync *va, void (*retire)(void *arg, struct vaitem *it), void *arg);

#endif
