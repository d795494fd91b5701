/*
 * The I/O engine interface: one ops table per engine, like SQLite's
 * sqlite3_io_methods. A job owns an engine context and a pool of io_units.
 * The runner preps an io_unit, queues it, commits queued ones and reaps
 * completions. Synchronous engines complete inside queue() and return
 * ENGINE_Q_COMPLETED; asynchronous engines return ENGINE_Q_QUEUED and hand
 * units back from reap(). Engines never touch statistics, reports or the
 * store: they move bytes and set io_unit.result.
 */
#ifndef IOBENCH_ENGINES_ENGINE_H
#define IOBENCH_ENGINES_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "engines/ddir.h"

struct job_spec;

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
	void *engine_data;
};

enum engine_flags {
	ENGINE_SYNC = 1 << 0,        /* completes inside queue() */
	ENGINE_ASYNC = 1 << 1,       /* needs commit()/reap() */
	ENGINE_NEEDS_ALIGN = 1 << 2, /* buffers must be aligned even without O_DIRECT */
	ENGINE_NO_FILE = 1 << 3,     /* does no real file I/O (null) */
};

enum engine_queue_status {
	ENGINE_Q_COMPLETED = 0,
	ENGINE_Q_QUEUED = 1,
	ENGINE_Q_BUSY = 2, /* try again after reaping */
};

struct engine_ctx {
	const struct engine_ops *ops;
	const struct job_spec *spec;
	void *priv;       /* ops->priv_size bytes, zeroed, owned by the runner */
	unsigned iodepth;
};

struct engine_ops {
	const char *name;
	unsigned flags;
	size_t priv_size;
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
	/* Optional: called once, after init() and before any file is opened,
	 * with the job's unit buffers (units[i].buf, buf_size bytes each), so
	 * an engine can register them with the kernel (io_uring fixedbufs). */
	int (*register_buffers)(struct engine_ctx *ctx, struct io_unit *units, unsigned n,
				uint64_t buf_size);
};

/* Look an engine up by name; NULL if there is none. */
const struct engine_ops *engine_find(const char *name);
/* Names of all engines, NULL-terminated, for help and suggestions. */
const char *const *engine_names(void);
/* Check every table is complete; returns 0 or -EINVAL naming the bad one. */
int engines_validate(void);

/* Shared helpers for engines that use plain file descriptors. */
int engine_file_open(struct engine_ctx *ctx, struct job_file *f);
int engine_file_close(struct engine_ctx *ctx, struct job_file *f);
/* Do a sync/datasync io_unit on a descriptor, setting u->result. */
void engine_do_sync(struct io_unit *u);

#endif
