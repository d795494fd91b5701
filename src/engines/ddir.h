/*
 * Data directions, fio's vocabulary: read, write and trim are the three
 * directions results are kept for; sync and datasync are I/O kinds that carry
 * no data. rw_mode bits describe what a job's `rw=` asks for.
 */
#ifndef IOBENCH_WORKLOAD_DDIR_H
#define IOBENCH_WORKLOAD_DDIR_H

enum ddir {
	DDIR_READ = 0,
	DDIR_WRITE = 1,
	DDIR_TRIM = 2,
	DDIR_RWDIR_CNT = 3, /* directions that have results */
	DDIR_SYNC = 3,
	DDIR_DATASYNC = 4,
	DDIR_INVAL = 5,
};

enum rw_mode {
	RW_READ = 1 << 0,
	RW_WRITE = 1 << 1,
	RW_TRIM = 1 << 2,
	RW_RAND = 1 << 3,
};

static inline const char *ddir_name(enum ddir d)
{
	static const char *const names[] = { "read", "write", "trim", "sync", "datasync", "invalid" };
	return names[d <= DDIR_INVAL ? d : DDIR_INVAL];
}

#endif
