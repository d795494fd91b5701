/*
 * The tunables a sweep turns (sweep/): a block queue's sysfs files
 * (/sys/block/DISK/queue/read_ahead_kb, nr_requests, max_sectors_kb,
 * rq_affinity, nomerges, wbt_lat_usec, iosched/NAME; the scheduler itself
 * is iosched.h's), an md array's run-time knobs (/sys/block/mdN/md/NAME:
 * stripe_cache_size, ...) and the VM sysctls (/proc/sys/vm/NAME). Only
 * files under those roots, named without "..", can be read or written here, and
 * never created: the caller (the sweep) has the device itself through the
 * device guard before it turns the device's knobs, and journals every old
 * value before the write. The whole queue saved and put back in order:
 * sysknob_snap.h; one iobench per device at a time: sysknob_lock.h.
 */
#ifndef IOBENCH_SYS_SYSKNOB_H
#define IOBENCH_SYS_SYSKNOB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The file of queue knob `knob` ("read_ahead_kb", "iosched/fifo_batch") of
 * whole disk `disk` ("loop3") into file: 0, or -EINVAL with why for a name
 * that is no knob of a queue. */
int sysknob_queue_path(const char *disk, const char *knob, char file[PATH_MAX], char *why,
		       size_t whylen);
/* The file of sysctl `name` ("vm.dirty_ratio") into file: 0, or -EINVAL
 * with why for a name outside vm. */
int sysknob_vm_path(const char *name, char file[PATH_MAX], char *why, size_t whylen);
/* The md knobs that change while the array runs (md(4)'s sysfs files);
 * the chunk size is not one: it needs the array made again. */
extern const char *const sysknob_md_knobs[];
/* The file of md knob `knob` ("stripe_cache_size") of array `disk`
 * ("md3") under sysfs (NULL: "/sys"; a test's fake tree otherwise) into
 * file: 0, or -EINVAL with why for a name that is not one of
 * sysknob_md_knobs. */
int sysknob_md_path(const char *sysfs, const char *disk, const char *knob, char file[PATH_MAX],
		    char *why, size_t whylen);
/* Is disk an md array (SYSFS/block/DISK/md is a directory)? */
bool sysknob_is_md(const char *sysfs, const char *disk);
/* The value of knob file into val (its first line; a scheduler file gives
 * the scheduler in use): 0, or -errno with why. */
int sysknob_read(const char *file, char *val, size_t len, char *why, size_t whylen);
/* Write val to knob file (no O_CREAT; a path outside the roots is refused)
 * and, for a scheduler, check it took: 0, or -errno with why naming the
 * file and the value the kernel refused. */
int sysknob_write(const char *file, const char *val, char *why, size_t whylen);
/* The same with the block roots under sysfs instead of /sys (NULL: /sys). */
int sysknob_write_in(const char *sysfs, const char *file, const char *val, char *why,
		     size_t whylen);

#endif
