/*
 * The anomaly checks (anomaly.h). Each check reads the workload summary and
 * its part of the run environment (a batch's window, or the whole run) and
 * appends at most one warning with its evidence and advice, naming the
 * groups and jobs it is about. Thresholds are deliberately coarse: a
 * warning must mean something is clearly off, so a clean direct-I/O run on
 * an idle machine raises none. Checks that need the monitor are skipped
 * when it did not run.
 */
#include "watch/anomaly.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys/sysmem.h"
#include "util/units.h"
#include "util/xmalloc.h"

#define B(v, buf) fmt_iec((v), (buf), sizeof(buf))

/* The part of the run environment a check reads. */
struct view {
	const struct monitor_summary *sum;   /* NULL without monitor samples */
	const struct monitor_sample *samples;
	size_t n;
	bool have_self_io;
	uint64_t self_rd, self_wr;
	const struct procio_entry *others;
	size_t nr_others;
	const char *during;                  /* "during the run", "during the group" */
};

static void view_of(const struct run_env *e, const struct anomaly_input *in, struct view *v)
{
	memset(v, 0, sizeof(*v));
	const struct run_window *w = in->window;
	if (!w) {
		v->sum = e->have_monitor ? &e->summary : NULL;
		v->samples = e->series.samples;
		v->n = e->have_monitor ? e->series.n : 0;
		v->have_self_io = e->have_self_io;
		v->self_rd = e->self_read_bytes;
		v->self_wr = e->self_write_bytes;
		v->others = e->others;
		v->nr_others = e->nr_others;
		v->during = "during the run";
		return;
	}
	if (e->have_monitor && w->have_samples && w->sample_last < e->series.n) {
		v->sum = &w->summary;
		v->samples = e->series.samples + w->sample_first;
		v->n = w->sample_last - w->sample_first + 1;
	}
	v->have_self_io = w->have_self_io;
	v->self_rd = w->self_read_bytes;
	v->self_wr = w->self_write_bytes;
	v->others = w->others;
	v->nr_others = w->nr_others;
	v->during = w->group_first == w->group_last ? "during the group" : "during the groups";
}

static const struct monitor_dev_summary *view_device(const struct view *v, const char *name)
{
	for (unsigned i = 0; v->sum && name && i < v->sum->ndev; i++)
		if (!strcmp(v->sum->devs[i].name, name))
			return &v->sum->devs[i];
	return NULL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static const struct anomaly_words *words(const struct anomaly_input *in)
{
	return in->words ? in->words : &anomaly_words_fio;
}

/* "job 'a'", "jobs 'a', 'b' and 3 more"; "the jobs" for none. */
static void subject(char *buf, size_t len, const struct anomaly_names *who, const char *word)
{
	if (!who || !who->n) {
		snprintf(buf, len, "the %ss", word);
		return;
	}
	size_t off = (size_t)snprintf(buf, len, "%s%s ", word, who->n > 1 ? "s" : "");
	for (unsigned i = 0; i < who->n && i < ANOMALY_MAX_NAMES && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s'%s'", i ? ", " : "", who->v[i]);
	if (who->n > ANOMALY_MAX_NAMES && off < len)
		snprintf(buf + off, len - off, " and %u more", who->n - ANOMALY_MAX_NAMES);
}

/* Append a warning about the jobs `who` of in's groups (NULL: all of them). */
static void warn(struct run_env *e, const struct anomaly_input *in, const struct anomaly_names *who,
		 const char *id, char *message, char *evidence, char *advice)
{
	struct run_warning *w = run_env_warn(e, id, message, evidence, advice);
	if (!who && in->group_first >= 0)
		who = &in->all;
	char groups[64] = "", names[512] = "";
	w->group_first = in->group_first;
	w->group_last = in->group_last;
	if (in->group_first >= 0) {
		if (in->group_first == in->group_last)
			snprintf(groups, sizeof(groups), "group %d", in->group_first);
		else
			snprintf(groups, sizeof(groups), "groups %d-%d", in->group_first, in->group_last);
	}
	if (who && who->n) {
		unsigned n = who->n < ANOMALY_MAX_NAMES ? who->n : ANOMALY_MAX_NAMES;
		w->jobs = xcalloc(n, sizeof(*w->jobs));
		for (unsigned i = 0; i < n; i++)
			w->jobs[w->nr_jobs++] = xstrdup(who->v[i]);
		subject(names, sizeof(names), who, words(in)->job);
	}
	if (groups[0] || names[0])
		w->scope = xasprintf("%s%s%s", groups, groups[0] && names[0] ? ", " : "", names);
}

/* The device's bytes left for the buffered jobs once the direct ones' are
 * taken off. */
static uint64_t left(uint64_t dev, uint64_t direct)
{
	return dev > direct ? dev - direct : 0;
}

static void check_page_cache(const struct anomaly_input *in, struct run_env *e, const struct view *v)
{
	const struct anomaly_words *wd = words(in);
	char a[16], b[16], c[16], d[16], who[512];
	uint64_t avail = e->have_sysinfo && e->si.host.mem_available_bytes > 0 ?
		(uint64_t)e->si.host.mem_available_bytes : 0;
	uint64_t dev_rd = left(in->dev_read_bytes, in->direct_read_bytes);
	if (in->buffered_read_bytes >= ANOMALY_MIN_CACHE_BYTES &&
	    (!in->device || dev_rd < in->buffered_read_bytes / 2)) {
		subject(who, sizeof(who), &in->readers, wd->job);
		char *ev;
		if (!in->device)
			ev = xasprintf("%s read %s through the page cache and no block device lies "
				       "under the files", who, B(in->buffered_read_bytes, a));
		else if (in->direct_read_bytes)
			ev = xasprintf("%s read %s through the page cache; %s read %s %s, %s of it "
				       "direct reads, leaving %s (%.1f%%) for the buffered ones",
				       who, B(in->buffered_read_bytes, a), in->device,
				       B(in->dev_read_bytes, b), v->during, B(in->direct_read_bytes, c),
				       B(dev_rd, d), pct(dev_rd, in->buffered_read_bytes));
		else
			ev = xasprintf("%s read %s through the page cache; %s read %s (%.1f%%) %s",
				       who, B(in->buffered_read_bytes, a), in->device, B(dev_rd, b),
				       pct(dev_rd, in->buffered_read_bytes), v->during);
		warn(e, in, &in->readers, "page-cache-read",
		     xstrdup("the read figures come from the page cache, not the device"), ev,
		     xasprintf("use %s, or %s larger than the available memory (%s)", wd->direct,
			       wd->bigger, avail ? B(avail, c) : "see sysinfo"));
	} else if (in->cached_working_set && avail && in->cached_working_set <= avail) {
		warn(e, in, &in->cachers, "page-cache-read",
		     xstrdup("buffered reads with invalidate=0 may have come from data cached "
			     "before the run"),
		     xasprintf("the %s working set fits in %s of available memory",
			       B(in->cached_working_set, a), B(avail, b)),
		     xstrdup("keep invalidate=1 (the default) or use direct=1"));
	}
	/* writes: what was still in memory when the jobs ended (cachestat)
	 * says it for their own files; without it, what the device wrote
	 * beyond the direct jobs' bytes */
	uint64_t wrote = in->buffered_unsynced_write_bytes;
	uint64_t dev_wr = left(in->dev_write_bytes, in->direct_write_bytes);
	if (wrote < ANOMALY_MIN_CACHE_BYTES)
		return;
	if (in->have_unwritten ? in->buffered_unwritten_bytes < wrote / 2
			       : in->device && dev_wr >= wrote / 2)
		return;
	subject(who, sizeof(who), &in->writers, wd->job);
	char *ev, dev[160] = "";
	if (in->device && in->direct_write_bytes)
		snprintf(dev, sizeof(dev), "%s wrote %s %s, %s of it direct writes, leaving %s "
			 "(%.1f%%) for the buffered ones", in->device, B(in->dev_write_bytes, b),
			 v->during, B(in->direct_write_bytes, c), B(dev_wr, d), pct(dev_wr, wrote));
	else if (in->device)
		snprintf(dev, sizeof(dev), "%s wrote %s (%.1f%%) %s", in->device, B(dev_wr, b),
			 pct(dev_wr, wrote), v->during);
	else
		snprintf(dev, sizeof(dev), "no block device lies under the files");
	if (in->have_unwritten)
		ev = xasprintf("%s wrote %s through the page cache with no fsync; %s (%.1f%%) of it "
			       "was still in memory, unwritten, when %s ended; %s", who, B(wrote, a),
			       B(in->buffered_unwritten_bytes, c), pct(in->buffered_unwritten_bytes, wrote),
			       in->writers.n == 1 ? "it" : "they", dev);
	else
		ev = xasprintf("%s wrote %s through the page cache with no fsync; %s", who, B(wrote, a),
			       dev);
	warn(e, in, &in->writers, "page-cache-write",
	     xstrdup("the write figures are the page cache absorbing writes, not the device "
		     "writing them"), ev,
	     wd->flush ? xasprintf("%s, or use %s", wd->flush, wd->direct)
		       : xasprintf("use %s", wd->direct));
}

static void check_cpu_bound(const struct anomaly_input *in, struct run_env *e)
{
	if (in->max_job_cpu_pct < ANOMALY_CPU_BOUND_PCT &&
	    in->max_job_cpu_busy_pct < ANOMALY_CPU_BUSY_PCT)
		return;
	const struct anomaly_words *wd = words(in);
	struct anomaly_names who = { 0 };
	anomaly_names_add(&who, in->max_cpu_job);
	warn(e, in, &who, "cpu-bound",
	     xasprintf("a %s thread was CPU-bound: the figure measures the CPU, not the storage",
		       wd->job),
	     xasprintf("%s '%s' used %.0f%% of a core (user + system) and was running or waiting "
		       "for a CPU %.0f%% of its runtime", wd->job, in->max_cpu_job,
		       in->max_job_cpu_pct, in->max_job_cpu_busy_pct),
	     xstrdup(wd->cpu));
}

static void check_write_cache(const struct anomaly_input *in, struct run_env *e)
{
	if (!in->unsynced_write_bytes || !e->have_sysinfo || !in->device)
		return;
	const struct anomaly_words *wd = words(in);
	for (size_t i = 0; i < e->si.nr_bdevs; i++) {
		const struct sysinfo_bdev *b = &e->si.bdevs[i];
		if (!b->name || strcmp(b->name, in->device) || !b->write_cache ||
		    strcmp(b->write_cache, "write back"))
			continue;
		char a[16];
		warn(e, in, &in->unflushed, "write-cache",
		     xasprintf("%s has a volatile write cache and the writes were never flushed: "
			       "they may still sit in it", b->name),
		     xasprintf("%s written with no fsync, fdatasync or O_SYNC; "
			       "/sys/block/%s/queue/write_cache is \"write back\"",
			       B(in->unsynced_write_bytes, a), b->name),
		     wd->flush ? xasprintf("%s so the figure includes the flush", wd->flush)
			       : xstrdup("flush the writes so the figure includes the flush"));
		return;
	}
}

/* The device under the job saw clearly more I/O than this process did, and
 * other processes did storage I/O meanwhile. */
static void check_foreign_io(const struct anomaly_input *in, struct run_env *e, const struct view *v)
{
	const struct monitor_dev_summary *d = view_device(v, in->device);
	if (!d || !v->have_self_io || !v->nr_others)
		return;
	uint64_t dev = (d->delta.rd_sectors + d->delta.wr_sectors) * 512;
	uint64_t self = v->self_rd + v->self_wr;
	uint64_t excess = dev > self ? dev - self : 0;
	if (excess < (16ull << 20) || excess < self / 4)
		return;
	char a[16], b[16], c[16], list[256] = "";
	size_t off = 0;
	for (size_t i = 0; i < v->nr_others && i < 3 && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s[%d] %s", i ? ", " : "",
					v->others[i].comm, v->others[i].pid,
					B(v->others[i].read_bytes + v->others[i].write_bytes, c));
	warn(e, in, NULL, "foreign-io",
	     xasprintf("other processes did I/O while the run measured %s", in->device),
	     xasprintf("%s transferred %s, this process %s %s; storage I/O by processes with "
		       "files on its filesystem: %s",
		       in->device, B(dev, a), B(self, b), v->during, list),
	     xstrdup("stop the other I/O (or run on an idle device) and repeat the run"));
}

static void check_device_saturated(const struct anomaly_input *in, struct run_env *e,
				   const struct view *v)
{
	const struct monitor_dev_summary *d = view_device(v, in->device);
	if (!d || d->whole.util_pct < ANOMALY_SATURATED_UTIL || d->whole.aqu_sz < ANOMALY_SATURATED_AQU)
		return;
	warn(e, in, NULL, "device-saturated",
	     xasprintf("%s was saturated: the figure is the device's limit and deeper queues only "
		       "add latency", in->device),
	     xasprintf("%%util %.0f, aqu-sz %.1f, r_await %.2f ms, w_await %.2f ms %s",
		       d->whole.util_pct, d->whole.aqu_sz, d->whole.r_await, d->whole.w_await,
		       v->during),
	     xstrdup(words(in)->depth));
}

static void check_reclaim(const struct anomaly_input *in, struct run_env *e, const struct view *v)
{
	const char *direct = words(in)->direct;
	const struct monitor_interval *w = &v->sum->whole;
	const struct proc_vmstat *vm = &w->dvm;
	if (vm->allocstall || vm->pgscan_direct) {
		warn(e, in, NULL, "reclaim",
		     xstrdup("direct reclaim: allocations stalled to free memory during the run"),
		     xasprintf("allocstall +%" PRIu64 ", pgscan_direct +%" PRIu64 ", pgsteal_direct +%"
			       PRIu64 " pages (max %.0f pages/s)", vm->allocstall, vm->pgscan_direct,
			       vm->pgsteal_direct, v->sum->max.pgscan_direct_s),
		     xasprintf("free memory before the run (other processes, drop_caches) or use %s; "
			       "figures measured under reclaim are not the device's", direct));
		return;
	}
	uint64_t ram_pages = w->mem.total_kb / (sys_pagesize() / 1024);
	/* memory-cgroup limits reclaim without moving the kswapd or direct
	 * counters; pgscan_anon/file (5.8+) count all reclaim */
	uint64_t all = vm->pgscan_anon + vm->pgscan_file;
	uint64_t known = vm->pgscan_kswapd + vm->pgscan_direct;
	uint64_t limit_scan = all > known ? all - known : 0;
	/* --memory-limit's own reclaim is the point of it; v1 does not count
	 * scans per cgroup, so while its limit was reclaiming no other
	 * cgroup's limit reclaim can be told apart (the cgroup's figures are
	 * the whole run's, so per batch this is approximate) */
	if (e->have_memcg) {
		uint64_t own = e->memcg.have_scan ? e->memcg.scan_pages :
			       e->memcg.limit_hits ? limit_scan : 0;
		limit_scan = limit_scan > own ? limit_scan - own : 0;
	}
	if (ram_pages && limit_scan > ram_pages / 100)
		warn(e, in, NULL, "reclaim",
		     xstrdup("memory-cgroup limit reclaim during the run: a cgroup's memory limit "
			     "made its tasks reclaim"),
		     xasprintf("pgscan_anon + pgscan_file +%" PRIu64 " pages beyond kswapd and direct "
			       "reclaim (%.1f%% of RAM)%s", limit_scan, pct(limit_scan, ram_pages),
			       e->have_memcg ? ", not counting --memory-limit's own cgroup" : ""),
		     xasprintf("raise the memory limit of the benchmark's cgroup (or of the busy one) "
			       "or use %s", direct));
	else if (ram_pages && vm->pgscan_kswapd > ram_pages / 10)
		warn(e, in, NULL, "reclaim", xstrdup("kswapd reclaim storm during the run"),
		     xasprintf("kswapd scanned %" PRIu64 " pages (%.0f%% of RAM), stole %" PRIu64,
			       vm->pgscan_kswapd, pct(vm->pgscan_kswapd, ram_pages),
			       vm->pgsteal_kswapd),
		     xasprintf("reduce the buffered working set or use %s", direct));
}

static void check_memory(const struct anomaly_input *in, struct run_env *e, const struct view *v)
{
	const struct anomaly_words *wd = words(in);
	const struct monitor_interval *w = &v->sum->whole;
	const struct proc_vmstat *vm = &w->dvm;
	check_reclaim(in, e, v);
	if (vm->pswpin + vm->pswpout >= 64)
		warn(e, in, NULL, "swap", xstrdup("the system swapped during the run"),
		     xasprintf("pswpin +%" PRIu64 ", pswpout +%" PRIu64 " pages", vm->pswpin,
			       vm->pswpout),
		     xstrdup("free memory (or lower the job's memory use) and repeat; swap I/O "
			     "competes with the benchmark"));
	/* dirty limit: the largest nr_dirty against the threshold of its sample */
	double worst = 0;
	uint64_t dirty = 0, thr = 0;
	for (size_t i = 0; i < v->n; i++) {
		const struct proc_vmstat *s = &v->samples[i].vm;
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
		warn(e, in, NULL, "dirty-limit",
		     xstrdup("writers hit the dirty page limit: writes were throttled by writeback"),
		     xasprintf("nr_dirty + nr_writeback reached %" PRIu64 " pages, %.0f%% of "
			       "nr_dirty_threshold %" PRIu64 " (vm.dirty_ratio/dirty_bytes)",
			       dirty, worst * 100, thr),
		     wd->flush ? xasprintf("the figure mixes page-cache and writeback speed: use %s, "
					   "or %s, or state the dirty settings with the result",
					   wd->direct, wd->flush)
			       : xasprintf("the figure mixes page-cache and writeback speed: use %s, "
					   "or state the dirty settings with the result", wd->direct));
	/* slab growth: the peak over the window (bonnie removes its files
	 * at the end, and their buffer heads go with them) */
	uint64_t bh0 = v->n && v->samples[0].slab.have ? v->samples[0].slab.buffer_head_bytes : 0;
	uint64_t peak = bh0;
	for (size_t i = 1; bh0 && i < v->n; i++)
		if (v->samples[i].slab.have && v->samples[i].slab.buffer_head_bytes > peak)
			peak = v->samples[i].slab.buffer_head_bytes;
	if (peak - bh0 > e->warn_slab_bytes) {
		char a[16], b[16], c[16];
		warn(e, in, NULL, "slab-growth",
		     xstrdup("the buffer_head slab grew a lot during the run"),
		     xasprintf("buffer_head grew by %s to %s (threshold %s)", B(peak - bh0, a),
			       B(peak, b), B(e->warn_slab_bytes, c)),
		     xasprintf("buffer heads pin memory on large buffered I/O through a block device "
			       "or small-block filesystems: use %s or watch memory (slabtop)",
			       wd->direct));
	}
}

static void check_load(const struct anomaly_input *in, struct run_env *e, const struct view *v)
{
	uint64_t busiest = 0, blocked = 0;
	for (size_t i = 0; i < v->n; i++) {
		const struct proc_stat *s = &v->samples[i].stat;
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
	warn(e, in, NULL, "load",
	     xasprintf("the system was busier than the workload's %u I/O thread%s can explain",
		       jobs, jobs == 1 ? "" : "s"),
	     xasprintf("up to %" PRIu64 " tasks running or blocked, %" PRIu64 " blocked on I/O at "
		       "once; load average up to %.1f; iowait up to %.0f%%",
		       busiest, blocked, v->sum->max.load.avg1, v->sum->max.vm.wa),
	     xstrdup("find the other work (top, iotop) and repeat on a quiet system"));
}

/* Under --memory-limit the cgroup should squeeze the page cache only: OOM
 * kills, swap or the process's own memory refaulting mean it squeezed the
 * workload itself. */
void anomaly_check_memory_limit(struct run_env *e)
{
	const struct memcg_stats *m = &e->memcg;
	if (!e->have_memcg || (!m->oom_kills && !m->swap_bytes && m->refault_anon < 64))
		return;
	char a[16], b[16], c[16];
	run_env_warn(e, "reclaim",
		     xasprintf("the --memory-limit of %s squeezed the run's own memory, not only "
			       "its page cache", B(m->limit_bytes, a)),
		     xasprintf("cgroup v%u '%s': peak %s, limit reached %" PRIu64 " times, "
			       "workingset_refault_anon +%" PRIu64 " pages, swap %s, OOM kills %" PRIu64,
			       m->version, m->path, B(m->peak_bytes, b), m->limit_hits,
			       m->refault_anon, B(m->swap_bytes, c), m->oom_kills),
		     xstrdup("raise --memory-limit: it must hold the jobs' buffers and only the "
			     "page cache should be short of room"));
}

void anomaly_check(const struct anomaly_input *in, struct run_env *e)
{
	struct view v;
	view_of(e, in, &v);
	if (in->any_device_io) {
		check_page_cache(in, e, &v);
		check_write_cache(in, e);
	}
	check_cpu_bound(in, e);
	if (!v.sum || v.n < 2)
		return;
	if (in->any_device_io) {
		check_device_saturated(in, e, &v);
		check_foreign_io(in, e, &v);
	}
	check_memory(in, e, &v);
	check_load(in, e, &v);
}
