/*
 * The per-I/O RWF_ flags that pvsync2, io_uring and libaio pass to the
 * kernel (preadv2/pwritev2 flags, an SQE's rw_flags, an iocb's
 * aio_rw_flags), with the values of linux/fs.h for C libraries that lack
 * them: RWF_DONTCACHE is Linux 6.14's, and a kernel without it refuses it.
 */
#ifndef IOBENCH_ENGINES_RWF_INT_H
#define IOBENCH_ENGINES_RWF_INT_H

#include <sys/uio.h>

#ifndef RWF_HIPRI
#define RWF_HIPRI 0x01
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x08
#endif
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x80
#endif

#endif
