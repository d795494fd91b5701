/*
 * The whole machine's page cache dropped, the way benchmark scripts do it
 * between runs: sync(2), then "3" written to /proc/sys/vm/drop_caches (the
 * clean page cache, dentries and inodes; dirty pages are written by the
 * sync first). Needs root; the caller checks that before anything runs.
 */
#ifndef IOBENCH_SYS_DROPCACHE_H
#define IOBENCH_SYS_DROPCACHE_H

#include <stddef.h>

#define DROPCACHE_PATH "/proc/sys/vm/drop_caches"

/* 0, or -errno with a one-line message in why. */
int dropcache_all(char *why, size_t len);

/* Only what lies under one filesystem, leaving the rest of the machine's
 * cache (other users', other tests') alone: syncfs(2) of the filesystem
 * holding dir, then each regular file's clean pages under dir (not
 * crossing into other mounts) dropped with POSIX_FADV_DONTNEED, and each
 * of the block devices devs[0..ndev) flushed and its buffer cache
 * invalidated (BLKFLSBUF: the metadata mkfs and mount read through it).
 * Files that cannot be opened are passed over. 0, or -errno with why. */
int dropcache_under(const char *dir, char *const *devs, size_t ndev, char *why, size_t len);

#endif
