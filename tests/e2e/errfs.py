#!/usr/bin/python3
"""A FUSE filesystem for fault tests: one file, bad.dat, of SIZE bytes whose
reads and writes succeed below BAD_OFFSET and fail with EIO at or past it.
Mounted with direct_io so every request reaches us at the job's own offsets.

usage: errfs.py MOUNTPOINT SIZE BAD_OFFSET   (runs in the foreground)
"""
import errno
import stat
import sys
import time

try:
    from fuse import FUSE, FuseOSError, Operations
except ImportError:  # Debian names the module fusepy
    from fusepy import FUSE, FuseOSError, Operations


class ErrFS(Operations):
    def __init__(self, size, bad):
        self.size, self.bad, self.now = size, bad, time.time()

    def getattr(self, path, fh=None):
        if path == "/":
            return dict(st_mode=stat.S_IFDIR | 0o755, st_nlink=2, st_ctime=self.now,
                        st_mtime=self.now, st_atime=self.now)
        if path == "/bad.dat":
            return dict(st_mode=stat.S_IFREG | 0o644, st_nlink=1, st_size=self.size,
                        st_ctime=self.now, st_mtime=self.now, st_atime=self.now)
        raise FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return [".", "..", "bad.dat"]

    def open(self, path, flags):
        if path != "/bad.dat":
            raise FuseOSError(errno.ENOENT)
        return 0

    def read(self, path, size, offset, fh):
        if offset + size > self.bad:
            raise FuseOSError(errno.EIO)
        return bytes(min(size, max(0, self.size - offset)))

    def write(self, path, data, offset, fh):
        if offset + len(data) > self.bad:
            raise FuseOSError(errno.EIO)
        return len(data)

    def truncate(self, path, length, fh=None):
        return 0

    def fsync(self, path, datasync, fh):
        return 0

    def flush(self, path, fh):
        return 0


if __name__ == "__main__":
    mnt, size, bad = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    FUSE(ErrFS(size, bad), mnt, foreground=True, direct_io=True, nothreads=True)
