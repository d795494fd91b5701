/*
 * The bonnie++ suite: what the user asked (bonnie_spec, filled from
 * bonnie++ 2.00a's flags by cmd/bonnie/bonnie_args.c), how to run one test
 * (bonnie_run: the I/O tests on a file set of -s MiB, then the file tests
 * on -n ×1024 files, in bonnie++'s order and with its semantics) and what
 * happened (bonnie_result, read by the text, CSV and JSON reporters).
 *
 * -c N runs N copies at once, each in its own working directory; each copy
 * has its own figures and the aggregate of a phase is the sum of the copies'
 * rates. --precise repeats a phase that finished in under 0.5 s until its
 * repeats together last at least 0.5 s, so no figure is "+++++".
 */
#ifndef IOBENCH_BONNIE_BONNIE_H
#define IOBENCH_BONNIE_BONNIE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"
#include "sys/dev/devguard.h"
#include "results/results.h"

#define BONNIE_CSV_FORMAT "1.98"
#define BONNIE_VERSION "2.00a"   /* the bonnie++ whose semantics we follow */
#define BONNIE_MIN_TIME_NS 500000000ull /* under this a figure is "+++++" */

/* In CSV order; bonnie++ runs them in this order too. */
enum bonnie_io_test {
	BON_PUTC,      /* Sequential Output, Per Chr: write(fd, &c, 1) per byte */
	BON_PUT_BLOCK, /* Sequential Output, Block: write() of chunk_size */
	BON_REWRITE,   /* read a chunk, change it, lseek back, write it */
	BON_GETC,      /* Sequential Input, Per Chr: read(fd, &c, 1) */
	BON_GET_BLOCK, /* Sequential Input, Block: read() of chunk_size */
	BON_SEEKS,     /* Random Seeks: seekers threads, ~10% write back */
	BON_IO_TESTS
};

enum bonnie_file_test {
	BON_SEQ_CREATE, BON_SEQ_STAT, BON_SEQ_DEL,
	BON_RAN_CREATE, BON_RAN_STAT, BON_RAN_DEL,
	BON_FILE_TESTS
};

/* -n max values that mean links instead of files */
#define BONNIE_HARD_LINKS (-1)
#define BONNIE_SOFT_LINKS (-2)

struct bonnie_spec {
	const char *dir;          /* -d, default "." */
	uint64_t file_size;       /* -s, bytes; 0 skips the I/O tests */
	unsigned chunk_size;      /* -s :chunk, bytes, power of two 256..1 MiB, default 8192 */
	unsigned seeks;           /* -s ::seeks, default 8192 */
	unsigned seekers;         /* -s :::seekers, default 5 */
	uint64_t putc_size;       /* -f N: bytes for the per-char tests, default 3 MiB
				     (what 2.00a does; its man page says 20M);
				     clamped to file_size */
	bool skip_putc;           /* bare -f */
	unsigned num_files;       /* -n, in units of 1024 files, default 16; 0 skips
				     the file tests */
	long max_size;            /* -n :max, bytes, or BONNIE_HARD/SOFT_LINKS */
	long min_size;            /* -n ::min, bytes */
	unsigned num_dirs;        /* -n :::dirs, 0 = all in one directory */
	unsigned file_chunk_size; /* -n ::::chunk, bytes per write/read in file tests */
	const char *machine;      /* -m, default the host name */
	uint64_t ram_mb;          /* -r (or detected); 0 disables the size checks */
	unsigned repeats;         /* -x, default 1 */
	unsigned concurrency;     /* -c, default 1 */
	bool quiet;               /* -q */
	bool sync_writes;         /* -b: as 2.00a does: fsync() after each seek-test
				     write-back, fsync() of each created file and of
				     its directory after each create and delete;
				     the sequential bulk phases are unchanged */
	bool direct;              /* -D: O_DIRECT for every bulk phase */
	bool have_seed;           /* -z given */
	uint64_t seed;            /* -z, else chosen and reported */
	const char *random_file;  /* -Z: random numbers (network byte order) */
	bool precise;             /* --precise */
	bool random_data;         /* --random-data: incompressible bulk data */
	struct devguard_allow guard; /* --allow-destroy / --readonly */
	/* Called by one thread before each phase that runs, before its clock
	 * starts (progress lines; -y: wait for the other processes or for
	 * Enter), once per phase: the further cycles of --precise file tests,
	 * whose number differs from process to process, are not announced.
	 * phase is an enum bonnie_io_test, or BON_IO_TESTS + an enum
	 * bonnie_file_test. NULL = none. */
	void (*before_phase)(void *arg, unsigned phase);
	/* Called (with before_phase_arg) by one thread as each phase ends,
	 * its disk deltas taken. NULL = none. */
	void (*after_phase)(void *arg, unsigned phase);
	void *before_phase_arg;
};

struct bonnie_phase {
	bool ran;             /* false: skipped, printed empty */
	uint64_t work;        /* bytes (I/O tests), seeks, or files */
	uint64_t elapsed_ns;  /* wall time of all repeats, fsync + close included
				 (aggregate: the longest copy's) */
	uint64_t cpu_ns;      /* user + system time of the process during it */
	uint64_t busy_ns;     /* time its threads ran or waited for a CPU (schedstat;
				 0 when unknown), summed over threads (aggregate: copies) */
	unsigned threads;     /* threads that did its work: 1, or the seekers */
	unsigned repeats;     /* 1, or more when --precise lengthened the phase */
	struct hist lat;      /* per operation, ns; bonnie++'s Latency is its max */
	uint64_t max_lat_ns;
	double rate;          /* work per second: work / elapsed for one copy, the
				 sum of the copies' rates for the aggregate */
	struct disk_result *disks; /* devices under -d over this phase */
	size_t nr_disks;
};

/* One copy's (or the aggregate's) figures for one test run. */
struct bonnie_figures {
	struct bonnie_phase io[BON_IO_TESTS];
	struct bonnie_phase file[BON_FILE_TESTS];
};

struct bonnie_result {
	unsigned version;           /* RESULTS_VERSION */
	uint64_t seed;              /* the seed used (reported as bonnie++ does) */
	struct bonnie_figures total; /* aggregate: rates are the sum of the copies' */
	struct bonnie_figures *copies; /* concurrency entries */
	unsigned nr_copies;
	bool interrupted;           /* stopped by a signal: figures so far */
	int error;                  /* first error as a positive errno, 0 if none */
	char *error_msg;            /* "path: what failed: text", or NULL */
};

void bonnie_spec_init(struct bonnie_spec *s);
/* Check the spec the way bonnie++ does (chunk a power of two in range, the
 * 2×RAM rule unless ram_mb is 0 or -r lowered it, ...). On failure returns
 * -EINVAL with bonnie++'s one-line message in why. */
int bonnie_spec_validate(const struct bonnie_spec *s, char *why, size_t whylen);

/* Run one test (one of -x's repeats) into *res (release with
 * bonnie_result_release). stop is polled between and inside phases.
 * Returns 0, -EINTR when stopped, or the first error's -errno; *res holds
 * what was measured in every case. */
int bonnie_run(const struct bonnie_spec *s, volatile sig_atomic_t *stop,
	       struct bonnie_result *res);
void bonnie_result_release(struct bonnie_result *res);

struct anomaly_input;
/* The workload summary of tests runs[nr] for the anomaly checks. */
void bonnie_anomaly_input(const struct bonnie_spec *s, const struct bonnie_result *runs,
			  size_t nr, struct anomaly_input *in);

/* CPU percent = cpu_ns / elapsed_ns × 100 (for the aggregate, the whole
 * process's CPU over the longest copy's time); 0 if the phase did not run. */
double bonnie_phase_cpu_pct(const struct bonnie_phase *p);
/* busy_ns / (elapsed_ns × threads) × 100: the share of its runtime each
 * of the phase's threads spent running or waiting for a CPU (near 100:
 * CPU-bound); 0 if the phase did not run or the kernel has no schedstats. */
double bonnie_phase_busy_pct(const struct bonnie_phase *p);
/* true when the phase ran for under BONNIE_MIN_TIME_NS: "+++++". */
bool bonnie_phase_too_short(const struct bonnie_phase *p);
/* Add one copy's phase q into the aggregate tot, as the concurrent copies
 * add up: work, busy time, threads and rates summed, the longest copy's
 * time and CPU, the most repeats, histograms merged. A phase that did not
 * run adds nothing. */
void bonnie_phase_add(struct bonnie_phase *tot, const struct bonnie_phase *q);

#endif
