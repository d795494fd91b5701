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

#endif
