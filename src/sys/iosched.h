/*
 * The I/O scheduler of a block device's queue (/sys/block/DISK/queue/
 * scheduler), for fio's ioscheduler= option: find the queue under a path
 * (a block device, or a file on one: a partition's queue is its disk's),
 * read the scheduler in use, switch it and check the switch took.
 */
#ifndef IOBENCH_SYS_IOSCHED_H
#define IOBENCH_SYS_IOSCHED_H

#include <limits.h>
#include <stddef.h>

/* The scheduler file of the queue under path into file[PATH_MAX] and the
 * disk's name into disk[64]: 0, or -errno with why ("'/dev/shm/f' is not
 * on a block device", "loop3 has no I/O scheduler to set"). */
int iosched_find(const char *path, char file[PATH_MAX], char disk[64], char *why, size_t whylen);
/* The scheduler in use (the bracketed one) into cur: 0 or -errno. */
int iosched_get(const char *file, char *cur, size_t len);
/* Switch to name and read it back: 0, or -errno with why naming the
 * schedulers the queue offers when it has no such one. */
int iosched_set(const char *file, const char *name, char *why, size_t whylen);

#endif
