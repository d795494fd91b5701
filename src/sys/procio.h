/*
 * Who did storage I/O: /proc/PID/io's read_bytes and write_bytes (bytes
 * this process made the block layer read, and bytes it dirtied or wrote
 * directly) for the calling process and for every other user process.
 * Two snapshots around a run name the other processes that did I/O while
 * it ran (kernel threads are left out: their I/O is on someone's behalf),
 * and their open files tell which of them use the run's filesystem.
 */
#ifndef IOBENCH_SYS_PROCIO_H
#define IOBENCH_SYS_PROCIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>

struct procio_entry {
	int pid;
	uint64_t start_ticks;  /* /proc/PID/stat starttime: tells a reused pid apart */
	char comm[32];
	uint64_t read_bytes, write_bytes;
};

struct procio_snapshot {
	struct procio_entry *v;
	size_t n;
};

/* The calling process's read_bytes and write_bytes; 0 or -errno. */
int procio_self(uint64_t *read_bytes, uint64_t *write_bytes);
/* The same through fd, /proc/self/io opened earlier: a process that gave
 * up root cannot open its own io file any more (it is no longer dumpable,
 * so the file belongs to root), but reads it through an open one. */
int procio_self_fd(int fd, uint64_t *read_bytes, uint64_t *write_bytes);
/* Every readable user process but the caller and skip_pid (0: none);
 * processes that vanish while it reads are skipped. Returns 0 or -errno
 * when /proc cannot be listed. */
int procio_snapshot_take(struct procio_snapshot *s, int skip_pid);
void procio_snapshot_release(struct procio_snapshot *s);
/* The processes whose read_bytes + write_bytes grew by at least min_bytes
 * from a to b (one that started in between counts from zero), largest
 * first, as a new array (*out, *n; free() it); entries hold the growth. */
void procio_diff(const struct procio_snapshot *a, const struct procio_snapshot *b,
		 uint64_t min_bytes, struct procio_entry **out, size_t *n);
/* Does process pid have its cwd or an open file on the filesystem with
 * device number dev, or the block device dev itself open? */
bool procio_uses_dev(int pid, dev_t dev);
/* Keep only the entries (*v, *n) of processes that procio_uses_dev(dev). */
void procio_filter_dev(struct procio_entry *v, size_t *n, dev_t dev);
/* Parse the text of /proc/PID/io; -EINVAL if a field is missing. */
int procio_parse(const char *text, uint64_t *read_bytes, uint64_t *write_bytes);

#endif
