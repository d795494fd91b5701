/*
 * The system monitor: what the machine did while a workload ran. A sample
 * is one reading of /proc/diskstats (for a fixed set of devices), /proc/stat,
 * /proc/loadavg, /proc/meminfo, /proc/vmstat, /proc/pressure/{io,memory,cpu} and the slab
 * caches, stamped with CLOCK_MONOTONIC. A probe holds the open files and the
 * read buffer, so taking a sample allocates nothing. A series is the samples
 * of one run; the sampler is one thread that appends to a series every
 * interval on absolute monotonic deadlines (no drift), from monitor_start()
 * until monitor_stop(), which takes a last sample at the stop time.
 * The figures (iostat -x, vmstat) come from two samples: monitor_calc.h.
 */
#ifndef IOBENCH_SYS_MONITOR_MONITOR_H
#define IOBENCH_SYS_MONITOR_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys/diskstats.h"
#include "sys/procstat.h"

#define MONITOR_MAX_DEVS 64
#define MONITOR_DEFAULT_INTERVAL_NS 1000000000ULL

struct monitor_sample {
	uint64_t t_ns; /* CLOCK_MONOTONIC, taken just before /proc/diskstats is read */
	struct proc_stat stat;
	struct proc_loadavg load;
	struct proc_meminfo mem;
	struct proc_vmstat vm;
	struct proc_psi psi[PSI_NR];
	struct proc_slabs slab;
};

/* The open /proc files and the device set of a monitor. */
struct monitor_probe {
	unsigned ndev;
	bool all_disks;             /* no devices named: every whole disk */
	char (*names)[64];          /* as in /proc/diskstats */
	struct diskstat *last;      /* the last values seen, kept for a device that vanishes */
	int fd_diskstats, fd_stat, fd_loadavg, fd_meminfo, fd_vmstat, fd_slab;
	int fd_psi[PSI_NR];         /* -1 when the kernel has no PSI */
	char *buf;
	size_t bufsize;
};

/*
 * Open the files. devs names the devices to watch (as /proc/diskstats does,
 * or /dev/NAME, or any path to a block device node such as /dev/mapper/x);
 * ndev 0 watches every whole disk (each /sys/block entry). Unknown device:
 * -ENODEV with an error message. Returns 0 or -errno.
 */
int monitor_probe_open(struct monitor_probe *p, const char *const *devs, unsigned ndev);
/* Read everything once: s, and disks[0..ndev) in the probe's device order.
 * Returns 0 or -errno (a file that vanished or no longer parses). */
int monitor_probe_take(struct monitor_probe *p, struct monitor_sample *s, struct diskstat *disks);
void monitor_probe_close(struct monitor_probe *p);

/* The /proc/diskstats name of a device argument ("sda", "/dev/sda",
 * "/dev/mapper/vg-lv" → "dm-0"); -ENODEV when /proc/diskstats lacks it. */
int monitor_resolve_device(const char *arg, char name[64]);

/* The samples of one run. disks[i * ndev + d] is device d in sample i. */
struct monitor_series {
	uint64_t interval_ns;
	unsigned ndev;
	bool all_disks;             /* show only disks that did I/O, as iostat does */
	char (*names)[64];
	size_t n, alloc;
	struct monitor_sample *samples;
	struct diskstat *disks;
};

void monitor_series_init(struct monitor_series *s, const struct monitor_probe *p,
			 uint64_t interval_ns);
/* Append a sample (copying ndev disk entries). */
void monitor_series_add(struct monitor_series *s, const struct monitor_sample *smp,
			const struct diskstat *disks);
static inline const struct diskstat *monitor_series_disks(const struct monitor_series *s, size_t i)
{
	return s->disks + i * s->ndev;
}
void monitor_series_release(struct monitor_series *s);

/* The sampler thread. */
struct monitor;

/* Open a probe for devs (see monitor_probe_open), take the first sample and
 * start the thread. interval_ns 0 means the default (1 s). */
int monitor_start(struct monitor **out, const char *const *devs, unsigned ndev,
		  uint64_t interval_ns);
/* Stop the thread, take a last sample, move the series into *series (to be
 * released with monitor_series_release) and free the monitor. Returns 0, or
 * the first error the thread met (the series holds what was read until then). */
int monitor_stop(struct monitor *m, struct monitor_series *series);
/* Have the thread take a sample now (the workload starts or ends a
 * phase) and return the index it will have in the series, at once, or -1
 * when the thread has stopped; it is read after this call, and may be
 * past the series' end if the thread fails first. The regular samples
 * keep their schedule. */
long monitor_mark(struct monitor *m);
/* Copy the newest sample and its disks (ndev entries) while running; returns
 * the number of samples so far. For progress displays. */
size_t monitor_latest(struct monitor *m, struct monitor_sample *s, struct diskstat *disks);
unsigned monitor_ndev(const struct monitor *m);

#endif
