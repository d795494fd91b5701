/*
 * The I/O engine interface: one ops table per engine, like SQLite's
 * sqlite3_io_methods. A job owns an engine context and a pool of io_units.
 * The runner preps an io_unit, queues it, commits queued ones and reaps
 * completions. Synchronous engines complete inside queue() and return
 * ENGINE_Q_COMPLETED; asynchronous engines return ENGINE_Q_QUEUED and hand
 * units back from reap(). Engines never touch statistics, reports or the
 * store: they move bytes and set io_unit.result.
 *
 * An engine owns its options as it owns its methods (fio's .options and
 * .option_struct_size): its ops table points at its option rows (util/
 * optdef.h, each row's offset into the engine's own options struct), the
 * struct's size and a const instance holding the defaults. The job option
 * parser finds them through the engine that `ioengine` names. What an engine
 * may know of the job is engine_params, filled by the runner; nothing above
 * this layer is visible here.
 */
#ifndef IOBENCH_ENGINES_ENGINE_H
#define IOBENCH_ENGINES_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <signal.h>
#include <time.h>

#include "engines/ddir.h"
#include "sys/dev/guardopen.h"
#include "util/optdef.h"

/* A file (or block device) a job does I/O to. */
struct job_file {
	char *path;
	int fd;               /* -1 when closed */
	int open_flags;       /* flags the runner wants: O_RDONLY/O_RDWR|O_DIRECT|... */
	bool is_bdev;
	uint64_t real_size;   /* size of the file or device */
	uint64_t io_offset;   /* first byte this job uses */
	uint64_t io_size;     /* bytes from io_offset this job uses */
	uint64_t last_pos[DDIR_RWDIR_CNT]; /* sequential position per direction */
	bool laid_out_here;   /* created by this run (unlink may remove it) */
	struct stat made_st;  /* when laid_out_here: its inode as created (removed only
				 while the name has it: devguard_unlink_created) */
	bool sfr_dirty;       /* sync_file_range=: written since the last call, */
	uint64_t sfr_lo, sfr_hi; /* over [sfr_lo, sfr_hi) */
	void *engine_data;
};

/* One I/O in flight. */
struct io_unit {
	enum ddir ddir;       /* READ/WRITE/TRIM, or SYNC/DATASYNC */
	struct job_file *file;
	uint64_t offset;
	uint64_t buflen;
	void *buf;
	int64_t result;       /* bytes done, or -errno; set by the engine */
	uint64_t start_ns;    /* when prepared (lat starts) */
	uint64_t issue_ns;    /* when submitted (slat ends, clat starts) */
	unsigned index;       /* position in the job's pool */
	/* ENGINE_META engines set it in queue(): this unit did the engine's
	 * operation on its file (its clat is that operation's time); false
	 * for the stand-in units after it, which count bytes and I/Os only */
	bool meta_op;
	/* Lost before this unit, as the engine saw it (net's UDP sequence
	 * numbers): added to the direction's drop_ios. Engines that cannot
	 * tell leave it 0. */
	uint32_t dropped;
	/* the I/O priority it ran with (class << 13 | level), set by an engine
	 * whose ctx->per_prio is true (cmdprio options) for reads and writes */
	uint16_t ioprio;
	void *engine_data;
};

enum engine_flags {
	ENGINE_SYNC = 1 << 0,        /* completes inside queue() */
	ENGINE_ASYNC = 1 << 1,       /* needs commit()/reap() */
	ENGINE_NEEDS_ALIGN = 1 << 2, /* buffers must be aligned even without O_DIRECT */
	ENGINE_NO_FILE = 1 << 3,     /* does no real file I/O (null) */
	/* A metadata engine (filecreate, filestat, filedelete...): the first
	 * unit of each open file does one operation on the file's name and
	 * the others stand in for the rest of its size, as fio's; open_file
	 * opens nothing, and the runner counts as latency only the clat of
	 * the units that did the operation (io_unit.meta_op), with no lat,
	 * slat or latency buckets (fio's FIO_NOSTATS engines). */
	ENGINE_META = 1 << 4,
	ENGINE_NO_LAYOUT = 1 << 5,   /* the runner lays out no file: the engine makes them */
	/* No I/O at all (fio's FIO_NOIO: cpuio, exec): implies ENGINE_NO_FILE;
	 * its units count as I/Os with no bytes, and without size= the job
	 * runs until its runtime, as fio's. */
	ENGINE_NO_IO = 1 << 6,
	/* Completes inside queue(), but reports slat from iodepth 2 up, as
	 * fio's null engine there queues and commits its units (from the
	 * unit's preparation to its issue), so slat + clat = lat. */
	ENGINE_SLAT_AT_DEPTH = 1 << 7,
};

enum engine_queue_status {
	ENGINE_Q_COMPLETED = 0,
	ENGINE_Q_QUEUED = 1,
	ENGINE_Q_BUSY = 2, /* try again after reaping */
	ENGINE_Q_DONE = 3, /* sync engines: the job is over, this unit was not done */
};

/* What an engine's options imply for the job, as fio's engines set job
 * options in their init (cpuio's think time between its bursts). */
struct engine_job_hints {
	bool thinktime_set;
	uint64_t thinktime_ns;   /* a stall of this long after every unit */
};

/* What an engine may know of the job it serves, set by the runner. */
struct engine_params {
	unsigned iodepth;     /* I/Os in flight at most, at least 1 */
	bool direct;          /* the job asked for O_DIRECT (direct=1) */
	bool fadvise;         /* hint the access pattern to the kernel (fadvise_hint) */
	bool random;          /* the job's offsets are random (for those hints) */
	uint64_t seed;        /* the job's randseed=, when seed_set */
	bool seed_set;
	bool randrepeat;      /* randrepeat=: the same draws every run (without a seed) */
	unsigned clone;       /* the job's clone number (numjobs), 0 for the first */
	uint16_t ioprio;      /* the job's prio/prioclass as the kernel encodes it, 0 unset */
	/* The run's device guard (read-only mode, --allow-destroy) and block
	 * device claims, for an engine that creates, writes or deletes files
	 * by itself (the file engines): set before init(), NULL in tests that
	 * run an engine alone (no read-only mode, nothing allowed). */
	const struct devguard_allow *guard;
	struct devguard_claims *claims;
	/* Jobs of the run (this one's group and later ones) whose engine does
	 * I/O and that have not finished: cpuio's exit_on_io_done. NULL when
	 * the engine runs alone. */
	const _Atomic unsigned *io_jobs_left;
	const char *job_name; /* the job's name (exec's %n, its output files) */
	bool reads, writes;   /* the job's rw= reads, writes (net: one of them) */
	bool verify;          /* verify= is set (the buffers carry its headers) */
	const char *directory; /* the job's directory=, NULL when unset (e4defrag's donor) */
	bool unlink;          /* unlink=1: the job removes the files it made (e4defrag's donor) */
	/* Set when the run is told to stop (a signal): an engine that may wait
	 * on someone else (net's accept and receive) looks at it while it
	 * waits. NULL when the engine runs alone. */
	const volatile sig_atomic_t *stop;
	uint64_t runtime_ns;  /* the job's runtime=, 0 when unset (exec's %r) */
};

struct engine_ctx {
	const struct engine_ops *ops;
	struct engine_params params;
	/* the engine's options (ops->options_size bytes), NULL = its defaults;
	 * read them through engine_options() */
	const void *opts;
	void *priv;       /* ops->priv_size bytes, zeroed, owned by the runner */
	/* set by init(): the engine gives reads and writes a priority of their
	 * own (io_unit.ioprio), so the runner keeps per-priority latencies */
	bool per_prio;
};

struct engine_ops {
	const char *name;
	const char *summary;  /* one line for help and the man page, lowercase */
	unsigned flags;
	size_t priv_size;
	/* The engine's own options: rows whose offsets are into a struct of
	 * options_size bytes that holds plain values only (it is copied with
	 * memcpy, so no pointers and no OPT_STR rows). The rows' defs are the
	 * defaults (engine_options_init). NULL/0 for an engine without options. */
	const struct option_def *options;
	size_t nr_options;
	size_t options_size;
	/* All return 0 or -errno unless said otherwise. */
	int (*init)(struct engine_ctx *ctx);
	int (*open_file)(struct engine_ctx *ctx, struct job_file *f);
	int (*close_file)(struct engine_ctx *ctx, struct job_file *f);
	int (*prep)(struct engine_ctx *ctx, struct io_unit *u);       /* optional */
	/* Returns enum engine_queue_status, or -errno if it could not queue. */
	int (*queue)(struct engine_ctx *ctx, struct io_unit *u);
	int (*commit)(struct engine_ctx *ctx);                         /* optional */
	/* Wait for at least min completions (up to max), fill done[]; returns
	 * the number reaped or -errno. Optional for ENGINE_SYNC engines. */
	int (*reap)(struct engine_ctx *ctx, unsigned min, unsigned max,
		    const struct timespec *timeout, struct io_unit **done);
	void (*cleanup)(struct engine_ctx *ctx);                       /* optional */
	/* Optional: fill h with what the options opts (the engine's struct)
	 * imply for the job; the spec applies it once every option is in. */
	void (*job_hints)(const void *opts, struct engine_job_hints *h);
	/* Optional: called once, after init() and before any file is opened,
	 * with the job's unit buffers (units[i].buf, buf_size bytes each), so
	 * an engine can register them with the kernel (io_uring fixedbufs). */
	int (*register_buffers)(struct engine_ctx *ctx, struct io_unit *units, unsigned n,
				uint64_t buf_size);
	/* Optional: what the engine set up that its options leave to it
	 * (io_uring: registered files and buffers), one line into buf, for
	 * the job's results (job_result.engine_setup). After the job ran. */
	void (*describe)(const struct engine_ctx *ctx, char *buf, size_t len);
};

/* The options an engine runs with: its options struct, which the job's
 * spec holds (the engine's defaults where the job set none); NULL for an
 * engine without options. */
static inline const void *engine_options(const struct engine_ctx *ctx)
{
	return ctx->opts;
}

/* Store e's defaults, every row's def as if given, into opts (options_size
 * bytes, zeroed here first); sizes read kb_base. 0, or -errno with why set
 * (a default its row refuses: the table is wrong, which engines_validate
 * reports). */
int engine_options_init(const struct engine_ops *e, void *opts, unsigned kb_base, char *why,
			size_t whylen);

/* Look an engine up by name; NULL if there is none. */
const struct engine_ops *engine_find(const char *name);
/* The i-th engine of the registry, NULL past the last one. */
const struct engine_ops *engine_at(size_t i);
/* Names of all engines, NULL-terminated, for help and suggestions. */
const char *const *engine_names(void);
/* Engine e's option row named key (name or alias); NULL if e has none. */
const struct option_def *engine_option_find(const struct engine_ops *e, const char *key);
/* Check every table is complete, its option rows within its options
 * struct and unique; returns 0 or -EINVAL naming the bad one. */
int engines_validate(void);

/* Shared helpers for engines that use plain file descriptors. */
int engine_file_open(struct engine_ctx *ctx, struct job_file *f);
int engine_file_close(struct engine_ctx *ctx, struct job_file *f);
/* Do a sync/datasync io_unit on a descriptor, setting u->result. */
void engine_do_sync(struct io_unit *u);

#endif
