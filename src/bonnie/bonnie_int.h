/*
 * Private to the bonnie++ suite's runner (bonnie_*.c): the state shared by
 * the concurrent copies of one run (bon_shared), one copy's state
 * (bon_copy), the phase timer, the failure and stop helpers, and the entry
 * points of the files that run the phases.
 *
 * Layout under -d: each copy works in its own directory it creates,
 * "Bonnie.PID" (with -c N: "Bonnie.PID.0" ... "Bonnie.PID.N-1"). The I/O
 * tests use one file "Bonnie.PID" in it (bonnie++ 2.00a on 64-bit Linux keeps
 * even a file over 1 GiB in one file); the file tests create their files,
 * and their "00000"... subdirectories with -n :::dirs, in it. Everything is
 * removed at the end, after an error or a stop too.
 */
#ifndef IOBENCH_BONNIE_BONNIE_INT_H
#define IOBENCH_BONNIE_BONNIE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/clock.h"
#include "util/rand.h"
#include "bonnie/bonnie.h"
#include "watch/diskres.h"

#define BON_NR_PHASES (BON_IO_TESTS + BON_FILE_TESTS) /* disks[] index: io, then file */

/* Devices under -d over one phase, accumulated over --precise cycles. */
struct bon_phase_disks {
	struct disk_result *d;
	size_t n;
	uint64_t t0_ns;
};

struct bon_shared {
	const struct bonnie_spec *spec;
	struct clock clk;
	volatile sig_atomic_t *stop;
	atomic_int abort;          /* a copy failed: the others stop too */
	atomic_int vote;           /* vote() (bonnie_copy.c): some copy wants another cycle */
	pthread_barrier_t barrier; /* every copy starts each phase together */
	pthread_mutex_t gate_lock; /* copies wait here until all threads exist */
	pthread_cond_t gate_cond;
	int gate;                  /* 0 wait, 1 go, -1 cancelled */
	struct diskres disks;
	struct bon_phase_disks pd[BON_NR_PHASES];
	uint64_t seed;
	unsigned pid;
	unsigned nr_copies;
};

struct bon_copy {
	struct bon_shared *sh;
	const struct bonnie_spec *spec;
	unsigned index;
	char *workdir;           /* <-d>/Bonnie.PID[.i] */
	bool workdir_made;       /* this run made it: cleanup may remove it */
	int wfd;                 /* workdir, O_DIRECTORY; -1 before it exists */
	char *iofile;            /* workdir/Bonnie.PID */
	char *iofile_rel;        /* "Bonnie.PID", relative to wfd */
	bool iofile_exists;
	struct rng rng;
	unsigned char *buf;      /* chunk_size bytes, 4096-aligned (O_DIRECT) */
	struct bonnie_figures *fig;
	int error;               /* first error, positive errno */
	char *error_msg;
	pthread_t thread;
};

/* Stopped by the user, or another copy failed. */
static inline bool bon_stopped(const struct bon_copy *c)
{
	return *c->sh->stop || atomic_load_explicit(&c->sh->abort, memory_order_relaxed);
}

/* Record the copy's first error ("path: what: strerror") and make every copy
 * stop; returns err (a negative errno). */
int bon_fail(struct bon_copy *c, int err, const char *path, const char *what);
/* Open the copy's test file (Bonnie.PID in its working directory) with
 * flags through the guarded open (sys/dev/guardopen.h): it must be the regular
 * file the copy made, never a symlink or a device swapped in; the copy's
 * error is recorded on failure. Returns the descriptor or a negative errno. */
int bon_open_iofile(struct bon_copy *c, int flags);
/* The same with a free-form message after "path: ". */
int bon_failf(struct bon_copy *c, int err, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A 4096-aligned buffer (O_DIRECT) of len bytes, sized by the user (-s, -n
 * chunk sizes, one per seeker): NULL when out of memory, with the copy's
 * error set ("WORKDIR: cannot allocate WHAT of LEN bytes: ..."), -ENOMEM. */
unsigned char *bon_alloc_buf(struct bon_copy *c, size_t len, const char *what);

/* Process CPU (user + system) in ns, getrusage(RUSAGE_SELF): bonnie++'s %CP. */
uint64_t bon_process_cpu_ns(void);

/* The calling thread's time running or waiting for a CPU (schedstat), ns. */
uint64_t bon_thread_busy_ns(void);

/* Times one pass of a phase: start after the file is open, stop after its
 * fsync + close; adds wall time, process CPU and the calling thread's
 * scheduler time to the phase. */
struct bon_timer {
	uint64_t t0, cpu0, busy0;
};
static inline void bon_timer_start(const struct bon_copy *c, struct bon_timer *t)
{
	t->busy0 = bon_thread_busy_ns();
	t->cpu0 = bon_process_cpu_ns();
	t->t0 = clock_ns(&c->sh->clk);
}
void bon_timer_stop(const struct bon_copy *c, const struct bon_timer *t, struct bonnie_phase *p);

/* Fill buf with bonnie++'s kind of data, or PRNG data with --random-data. */
void bon_fill(struct bon_copy *c, unsigned char *buf, size_t len);

/* One pass of each I/O test (bonnie_iotests.c, bonnie_seeks.c): adds work,
 * time, CPU and latencies to p. 0, -EINTR when stopped, or -errno (the
 * copy's error is set). */
int bon_putc(struct bon_copy *c, struct bonnie_phase *p);
int bon_put_block(struct bon_copy *c, struct bonnie_phase *p);
int bon_rewrite(struct bon_copy *c, struct bonnie_phase *p);
int bon_getc(struct bon_copy *c, struct bonnie_phase *p);
int bon_get_block(struct bon_copy *c, struct bonnie_phase *p);
int bon_seeks(struct bon_copy *c, struct bonnie_phase *p);

/* The file tests (bonnie_files.c): one create/stat/delete cycle of the
 * sequential (random = false) or random test, as three phases that the
 * caller brackets with bon_phase_begin/end. */
struct bon_files;
/* The subdirectory of file i of n with -n :::ndirs (0 when ndirs is 0): as
 * bonnie++ 2.00a, the files go in order, n/ndirs + 1 to a directory, so the
 * last directories may get fewer files or none. */
static inline uint32_t bon_file_dir(uint64_t i, uint64_t n, unsigned ndirs)
{
	return ndirs ? (uint32_t)(i / (n / ndirs + 1)) : 0;
}
struct bon_files *bon_files_new(struct bon_copy *c, bool random);
void bon_files_free(struct bon_files *f);
int bon_files_create(struct bon_files *f, struct bonnie_phase *p);
int bon_files_stat(struct bon_files *f, struct bonnie_phase *p);
int bon_files_delete(struct bon_files *f, struct bonnie_phase *p);

/* The phases of one copy, in bonnie++'s order, each started together with
 * the other copies' (bonnie_copy.c); the copy thread's body. */
void *bon_copy_main(void *arg);

/* Remove everything under the copy's working directory and the directory
 * itself (bonnie_cleanup.c); 0 or the first -errno (a warning is printed). */
int bon_cleanup(struct bon_copy *c);

#endif
