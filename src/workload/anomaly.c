/*
 * The anomaly checks (anomaly.h). Each check reads the workload summary and
 * the run environment and appends at most one warning with its evidence and
 * advice. Thresholds are deliberately coarse: a warning must mean something
 * is clearly off, so a clean direct-I/O run on an idle machine raises none.
 * Checks that need the monitor are skipped when it did not run.
 */
#include "workload/anomaly.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys/sysmem.h"
#include "util/units.h"
#include "util/xmalloc.h"

#define B(v, buf) fmt_iec((v), (buf), sizeof(buf))

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void check_page_cache(const struct anomaly_input *in, struct run_env *e)
{
	char a[16], b[16], c[16];
	uint64_t avail = e->have_sysinfo && e->si.host.mem_available_bytes > 0 ?
		(uint64_t)e->si.host.mem_available_bytes : 0;
	if (in->buffered_read_bytes >= ANOMALY_MIN_CACHE_BYTES &&
	    (!in->device || in->dev_read_bytes < in->buffered_read_bytes / 2)) {
		char *ev = in->device ?
			xasprintf("the jobs read %s through the page cache; %s read %s (%.1f%%)",
				  B(in->buffered_read_bytes, a), in->device, B(in->dev_read_bytes, b),
				  pct(in->dev_read_bytes, in->buffered_read_bytes)) :
			xasprintf("the jobs read %s through the page cache and no block device "
				  "lies under the files", B(in->buffered_read_bytes, a));
		run_env_warn(e, "page-cache-read",
			     xstrdup("the read figures come from the page cache, not the device"), ev,
			     xasprintf("use direct I/O (direct=1; bonnie -D), or a working set larger than the "
				       "available "
				       "memory (%s)", avail ? B(avail, c) : "see sysinfo"));
	} else if (in->cached_working_set && avail && in->cached_working_set <= avail) {
		run_env_warn(e, "page-cache-read",
			     xstrdup("buffered reads with invalidate=0 may have come from data "
				     "cached before the run"),
			     xasprintf("the %s working set fits in %s of available memory",
				       B(in->cached_working_set, a), B(avail, b)),
			     xstrdup("keep invalidate=1 (the default) or use direct=1"));
	}
	if (in->buffered_unsynced_write_bytes >= ANOMALY_MIN_CACHE_BYTES &&
	    (!in->device || in->dev_write_bytes < in->buffered_unsynced_write_bytes / 2))
		run_env_warn(e, "page-cache-write",
			     xstrdup("the write figures are the page cache absorbing writes, not "
				     "the device writing them"),
			     in->device ?
			     xasprintf("the jobs wrote %s through the page cache with no fsync; %s "
				       "wrote %s (%.1f%%) during the run",
				       B(in->buffered_unsynced_write_bytes, a), in->device,
				       B(in->dev_write_bytes, b),
				       pct(in->dev_write_bytes, in->buffered_unsynced_write_bytes)) :
			     xasprintf("the jobs wrote %s through the page cache and no block "
				       "device lies under the files",
				       B(in->buffered_unsynced_write_bytes, a)),
			     xstrdup("add end_fsync=1 (or fsync=N), or use direct=1"));
}

static void check_cpu_bound(const struct anomaly_input *in, struct run_env *e)
{
	if (in->max_job_cpu_pct < ANOMALY_CPU_BOUND_PCT &&
	    in->max_job_cpu_busy_pct < ANOMALY_CPU_BUSY_PCT)
		return;
	run_env_warn(e, "cpu-bound",
		     xstrdup("a job thread was CPU-bound: the figure measures the CPU, not the "
			     "storage"),
		     xasprintf("job '%s' used %.0f%% of a core (user + system) and was running or "
			       "waiting for a CPU %.0f%% of its runtime", in->max_cpu_job,
			       in->max_job_cpu_pct, in->max_job_cpu_busy_pct),
		     xstrdup("use more jobs or a deeper queue with an async engine, larger blocks, "
			     "or fewer measurements (gtod_reduce=1)"));
}

static void check_write_cache(const struct anomaly_input *in, struct run_env *e)
{
	if (!in->unsynced_write_bytes || !e->have_sysinfo || !in->device)
		return;
	for (size_t i = 0; i < e->si.nr_bdevs; i++) {
		const struct sysinfo_bdev *b = &e->si.bdevs[i];
		if (!b->name || strcmp(b->name, in->device) || !b->write_cache ||
		    strcmp(b->write_cache, "write back"))
			continue;
		char a[16];
		run_env_warn(e, "write-cache",
			     xasprintf("%s has a volatile write cache and the writes were never "
				       "flushed: they may still sit in it", b->name),
			     xasprintf("%s written with no fsync, fdatasync or O_SYNC; "
				       "/sys/block/%s/queue/write_cache is \"write back\"",
				       B(in->unsynced_write_bytes, a), b->name),
			     xstrdup("add end_fsync=1 (or fsync=N) so the figure includes the flush"));
		return;
	}
}

/* The device under the job saw clearly more I/O than this process did, and
 * other processes did storage I/O meanwhile. */
static void check_foreign_io(const struct anomaly_input *in, struct run_env *e)
{
	const struct monitor_dev_summary *d = in->device ? run_env_device(e, in->device) : NULL;
	if (!d || !e->have_self_io || !e->nr_others)
		return;
	uint64_t dev = (d->delta.rd_sectors + d->delta.wr_sectors) * 512;
	uint64_t self = e->self_read_bytes + e->self_write_bytes;
	uint64_t excess = dev > self ? dev - self : 0;
	if (excess < (16ull << 20) || excess < self / 4)
		return;
	char a[16], b[16], c[16], list[256] = "";
	size_t off = 0;
	for (size_t i = 0; i < e->nr_others && i < 3 && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s[%d] %s", i ? ", " : "",
					e->others[i].comm, e->others[i].pid,
					B(e->others[i].read_bytes + e->others[i].write_bytes, c));
	run_env_warn(e, "foreign-io",
		     xasprintf("other processes did I/O while the run measured %s", in->device),
		     xasprintf("%s transferred %s, this process %s; storage I/O by processes with "
			       "files on its filesystem: %s",
			       in->device, B(dev, a), B(self, b), list),
		     xstrdup("stop the other I/O (or run on an idle device) and repeat the run"));
}

static void check_device_saturated(const struct anomaly_input *in, struct run_env *e)
{
	const struct monitor_dev_summary *d = in->device ? run_env_device(e, in->device) : NULL;
	if (!d || d->whole.util_pct < ANOMALY_SATURATED_UTIL || d->whole.aqu_sz < ANOMALY_SATURATED_AQU)
		return;
	run_env_warn(e, "device-saturated",
		     xasprintf("%s was saturated: the figure is the device's limit and deeper "
			       "queues only add latency", in->device),
		     xasprintf("%%util %.0f, aqu-sz %.1f, r_await %.2f ms, w_await %.2f ms over the run",
			       d->whole.util_pct, d->whole.aqu_sz, d->whole.r_await, d->whole.w_await),
		     xstrdup("compare with a lower iodepth: if throughput holds, report that depth's "
			     "latency"));
}

static void check_memory(const struct anomaly_input *in, struct run_env *e)
{
	(void)in;
	const struct monitor_interval *w = &e->summary.whole;
	const struct proc_vmstat *v = &w->dvm;
	if (v->allocstall || v->pgscan_direct)
		run_env_warn(e, "reclaim",
			     xstrdup("direct reclaim: allocations stalled to free memory during the run"),
			     xasprintf("allocstall +%" PRIu64 ", pgscan_direct +%" PRIu64
				       ", pgsteal_direct +%" PRIu64 " pages (max %.0f pages/s)",
				       v->allocstall, v->pgscan_direct, v->pgsteal_direct,
				       e->summary.max.pgscan_direct_s),
			     xstrdup("free memory before the run (other processes, drop_caches) or use "
				     "direct=1; figures measured under reclaim are not the device's"));
	else {
		uint64_t ram_pages = w->mem.total_kb / (sys_pagesize() / 1024);
		/* memory-cgroup limits reclaim without moving the kswapd or
		 * direct counters; pgscan_anon/file (5.8+) count all reclaim */
		uint64_t all = v->pgscan_anon + v->pgscan_file;
		uint64_t known = v->pgscan_kswapd + v->pgscan_direct;
		uint64_t limit_scan = all > known ? all - known : 0;
		if (ram_pages && limit_scan > ram_pages / 100)
			run_env_warn(e, "reclaim",
				     xstrdup("memory-cgroup limit reclaim during the run: a cgroup's "
					     "memory limit made its tasks reclaim"),
				     xasprintf("pgscan_anon + pgscan_file +%" PRIu64 " pages beyond "
					       "kswapd and direct reclaim (%.1f%% of RAM)",
					       limit_scan, pct(limit_scan, ram_pages)),
				     xstrdup("raise the memory limit of the benchmark's cgroup (or of "
					     "the busy one) or use direct=1"));
		else if (ram_pages && v->pgscan_kswapd > ram_pages / 10)
			run_env_warn(e, "reclaim",
				     xstrdup("kswapd reclaim storm during the run"),
				     xasprintf("kswapd scanned %" PRIu64 " pages (%.0f%% of RAM), stole %"
					       PRIu64, v->pgscan_kswapd,
					       pct(v->pgscan_kswapd, ram_pages), v->pgsteal_kswapd),
				     xstrdup("reduce the buffered working set or use direct=1"));
	}
	if (v->pswpin + v->pswpout >= 64)
		run_env_warn(e, "swap", xstrdup("the system swapped during the run"),
			     xasprintf("pswpin +%" PRIu64 ", pswpout +%" PRIu64 " pages",
				       v->pswpin, v->pswpout),
			     xstrdup("free memory (or lower the job's memory use) and repeat; swap I/O "
				     "competes with the benchmark"));
	/* dirty limit: the largest nr_dirty against the threshold of its sample */
	double worst = 0;
	uint64_t dirty = 0, thr = 0;
	for (size_t i = 0; i < e->series.n; i++) {
		const struct proc_vmstat *s = &e->series.samples[i].vm;
		if (!s->nr_dirty_threshold)
			continue;
		/* the kernel holds dirty + writeback pages against the limit */
		double f = (double)(s->nr_dirty + s->nr_writeback) / (double)s->nr_dirty_threshold;
		if (f > worst) {
			worst = f;
			dirty = s->nr_dirty + s->nr_writeback;
			thr = s->nr_dirty_threshold;
		}
	}
	if (worst >= 0.9)
		run_env_warn(e, "dirty-limit",
			     xstrdup("writers hit the dirty page limit: writes were throttled by "
				     "writeback"),
			     xasprintf("nr_dirty + nr_writeback reached %" PRIu64 " pages, %.0f%% of "
				       "nr_dirty_threshold %" PRIu64 " (vm.dirty_ratio/dirty_bytes)",
				       dirty, worst * 100, thr),
			     xstrdup("the figure mixes page-cache and writeback speed: use direct=1 or "
				     "fsync, or state the dirty settings with the result"));
	if (w->slab.have && e->series.n && e->series.samples[0].slab.have &&
	    w->buffer_head_growth > 0 && (uint64_t)w->buffer_head_growth > e->warn_slab_bytes) {
		char a[16], b[16], c[16];
		run_env_warn(e, "slab-growth",
			     xstrdup("the buffer_head slab grew a lot during the run"),
			     xasprintf("buffer_head grew by %s to %s (threshold %s)",
				       B((uint64_t)w->buffer_head_growth, a),
				       B(w->slab.buffer_head_bytes, b), B(e->warn_slab_bytes, c)),
			     xstrdup("buffer heads pin memory on large buffered I/O through a block "
				     "device or small-block filesystems: use direct=1 or watch "
				     "memory (slabtop)"));
	}
}

static void check_load(const struct anomaly_input *in, struct run_env *e)
{
	uint64_t busiest = 0, blocked = 0;
	for (size_t i = 0; i < e->series.n; i++) {
		const struct proc_stat *s = &e->series.samples[i].stat;
		if (s->procs_running + s->procs_blocked > busiest)
			busiest = s->procs_running + s->procs_blocked;
		if (s->procs_blocked > blocked)
			blocked = s->procs_blocked;
	}
	unsigned jobs = in->nr_jobs ? in->nr_jobs : 1;
	/* +1: the monitor itself is running when it reads /proc/stat */
	uint64_t limit = 2ull * (jobs + sys_ncpus()) + 1;
	if (busiest <= limit && blocked <= 2ull * jobs + 2)
		return;
	run_env_warn(e, "load",
		     xasprintf("the system was busier than the run's %u job%s can explain", jobs,
			       jobs == 1 ? "" : "s"),
		     xasprintf("up to %" PRIu64 " tasks running or blocked, %" PRIu64
			       " blocked on I/O at once; load average up to %.1f; iowait up to %.0f%%",
			       busiest, blocked, e->summary.max.load.avg1, e->summary.max.vm.wa),
		     xstrdup("find the other work (top, iotop) and repeat on a quiet system"));
}

void anomaly_check(const struct anomaly_input *in, struct run_env *e)
{
	if (in->any_device_io) {
		check_page_cache(in, e);
		check_write_cache(in, e);
	}
	check_cpu_bound(in, e);
	if (!e->have_monitor || e->series.n < 2)
		return;
	if (in->any_device_io) {
		check_device_saturated(in, e);
		check_foreign_io(in, e);
	}
	check_memory(in, e);
	check_load(in, e);
}
