/*
 * The vocabularies of the anomaly advice (anomaly.h): how `run` (fio's
 * job options), `quick` (its own few flags) and `bonnie` (bonnie++'s
 * flags) ask for what the advice recommends.
 */
#include "watch/anomaly.h"

const struct anomaly_words anomaly_words_fio = {
	.job = "job",
	.direct = "direct I/O (direct=1)",
	.flush = "add end_fsync=1 (or fsync=N)",
	.bigger = "a working set",
	.cpu = "use more jobs or a deeper queue with an async engine, larger blocks, or fewer "
	       "measurements (gtod_reduce=1)",
	.depth = "compare with a lower iodepth: if throughput holds, report that depth's latency",
};

const struct anomaly_words anomaly_words_quick = {
	.job = "job",
	.direct = "a filesystem that supports O_DIRECT (quick uses it wherever it can)",
	.flush = "leave out --no-flush (by default quick's write figures include the flush)",
	.bigger = "--size",
	.cpu = "read the row as the CPU's limit: quick's depths are fixed, and --engine=io_uring "
	       "(the default) costs the least CPU per I/O",
	.depth = "compare with the Q1 rows: if throughput holds, their latency is the device's",
};

const struct anomaly_words anomaly_words_bonnie = {
	.job = "phase",
	.direct = "-D (O_DIRECT)",
	.flush = 0, /* every bonnie++ phase ends with fsync */
	.bigger = "-s",
	.cpu = "read the figure as the CPU's limit: larger chunks (-s SIZE:CHUNK) need fewer "
	       "system calls",
	.depth = "the figure is the device's limit; fewer seekers (-s SIZE:CHUNK:SEEKS:SEEKERS) "
		 "show its latency",
};
