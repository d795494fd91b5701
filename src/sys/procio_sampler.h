/*
 * A small privileged sampler for procio.h: when a command drops root for
 * its workload (bonnie -u USER), reading the other processes' /proc/PID/io
 * and open files at the end needs root it no longer has. So before it
 * drops, it forks this sampler, which stays root and does nothing but wait
 * on a socket: asked once at the end, it takes the end snapshot (leaving
 * out the command itself), diffs it with the start snapshot it inherited,
 * keeps the processes using the run's device and sends them back, then
 * exits. It ignores the terminal's signals (the command asks it or closes
 * the socket) and dies with the command.
 */
#ifndef IOBENCH_SYS_PROCIO_SAMPLER_H
#define IOBENCH_SYS_PROCIO_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sys/procio.h"

struct procio_sampler {
	pid_t pid; /* 0: not running */
	int fd;
};

/* Fork the sampler with the start snapshot `before`; at the end it keeps
 * processes whose I/O grew by min_bytes or more and, when have_dev, that
 * use device dev (procio_uses_dev). 0 or -errno. */
int procio_sampler_start(struct procio_sampler *ps, const struct procio_snapshot *before,
			 uint64_t min_bytes, bool have_dev, dev_t dev);
/* Ask for the other processes' I/O since the start (*out, *n as
 * procio_diff's; free() it) and reap the sampler. 0 or -errno (then *out is
 * NULL and *n 0). */
int procio_sampler_finish(struct procio_sampler *ps, struct procio_entry **out, size_t *n);
/* Stop the sampler without asking. */
void procio_sampler_stop(struct procio_sampler *ps);

#endif
