/*
 * Dropping one file's or block device's cached pages, so the next reads come
 * from the device: hdparm -t's BLKFLSBUF for a block device (it needs
 * CAP_SYS_ADMIN; without it, or for a regular file, fdatasync and
 * POSIX_FADV_DONTNEED, which drop every clean page of the file).
 */
#ifndef IOBENCH_SYS_PAGECACHE_H
#define IOBENCH_SYS_PAGECACHE_H

/* 0, or -errno when path cannot be opened. Anything else is not a file
 * with a page cache and is left alone (0). */
int pagecache_drop(const char *path);
/* The same for an open file or block device. */
int pagecache_drop_fd(int fd);

#endif
