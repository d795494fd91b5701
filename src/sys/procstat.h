/*
 * Readers of the /proc files the monitor samples besides /proc/diskstats
 * (diskstats.h): /proc/stat, /proc/loadavg, /proc/meminfo, /proc/vmstat,
 * /proc/pressure/{io,memory,cpu} and /proc/slabinfo. Each parser takes the
 * whole text of its file (NUL-terminated) and fills a plain struct without
 * allocating, so a sampler can read a file with pread() into a buffer it
 * owns and parse it in place. Fields the kernel does not print are 0.
 * Counters are raw (cumulative since boot); the monitor differences them.
 */
#ifndef IOBENCH_SYS_PROCSTAT_H
#define IOBENCH_SYS_PROCSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The "cpu" line of /proc/stat, in USER_HZ ticks. user includes guest and
 * nice includes guest_nice (the kernel counts them twice). */
struct cpu_ticks {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
};

struct proc_stat {
	struct cpu_ticks cpu;
	uint64_t intr;          /* interrupts since boot (first number of "intr") */
	uint64_t ctxt;          /* context switches */
	uint64_t forks;         /* "processes" */
	uint64_t procs_running; /* gauge, counts the reader itself */
	uint64_t procs_blocked; /* gauge: tasks in uninterruptible I/O wait */
};

struct proc_loadavg {
	double avg1, avg5, avg15;
	uint64_t running, threads; /* "2/93": runnable and total scheduling entities */
};

/* /proc/meminfo, in KiB. */
struct proc_meminfo {
	uint64_t total_kb, free_kb, available_kb, buffers_kb, cached_kb;
	uint64_t sreclaimable_kb, shmem_kb, swap_total_kb, swap_free_kb;
	uint64_t dirty_kb, writeback_kb;
};

/* /proc/vmstat. Counters, except the nr_* gauges (pages). Per-zone
 * variants of old kernels (pgscan_kswapd_normal, allocstall_dma32...) are
 * summed into the one field. */
struct proc_vmstat {
	uint64_t pgpgin, pgpgout;       /* KiB read from / written to block devices */
	uint64_t pswpin, pswpout;       /* pages swapped in / out */
	uint64_t pgfault, pgmajfault;
	uint64_t pgscan_kswapd, pgscan_direct, pgsteal_kswapd, pgsteal_direct;
	uint64_t pgscan_anon, pgscan_file; /* 5.8+: all reclaim, memory-cgroup limits included
					      (those move neither kswapd nor direct counts) */
	uint64_t allocstall;            /* direct reclaim entries, all zones */
	uint64_t nr_dirty, nr_writeback;
	uint64_t nr_dirty_threshold, nr_dirty_background_threshold;
};

/* One line of a /proc/pressure file: averages in percent, total in µs. */
struct psi_line {
	double avg10, avg60, avg300;
	uint64_t total_us;
};

enum psi_resource { PSI_IO, PSI_MEMORY, PSI_CPU, PSI_NR };

struct proc_psi {
	bool have;               /* the file exists (CONFIG_PSI and psi=1) */
	struct psi_line some, full;
};

/* The slab caches that grow with file I/O. bytes = num_objs * objsize;
 * inode sums every cache named *inode_cache or *_inode (ext4, xfs,
 * btrfs, proc, shmem...). */
struct proc_slabs {
	bool have;               /* /proc/slabinfo was readable (root) */
	uint64_t buffer_head_objs, buffer_head_bytes;
	uint64_t dentry_objs, dentry_bytes;
	uint64_t inode_objs, inode_bytes;
};

/* Parsers: 0, or -EINVAL when a line they need is missing or malformed. */
int procstat_parse_stat(const char *text, struct proc_stat *out);
int procstat_parse_loadavg(const char *text, struct proc_loadavg *out);
int procstat_parse_meminfo(const char *text, struct proc_meminfo *out);
int procstat_parse_vmstat(const char *text, struct proc_vmstat *out);
int procstat_parse_psi(const char *text, struct proc_psi *out);
int procstat_parse_slabinfo(const char *text, struct proc_slabs *out);

/* The name of a PSI resource as its file is called ("io", "memory", "cpu"). */
const char *psi_resource_name(enum psi_resource r);

/*
 * Read the whole of an open /proc file from offset 0 into buf (size bytes,
 * NUL-terminated) with pread(), so one descriptor serves every sample.
 * Returns the length, -EFBIG when the file does not fit, or -errno.
 */
long procfile_pread(int fd, char *buf, size_t size);
/* The same for a path: open, read, close. */
long procfile_read(const char *path, char *buf, size_t size);

#endif
