/*
 * The anomaly checks on hand-made evidence: a quiet run raises nothing;
 * each condition (page cache, reclaim, swap, dirty limit, load, saturation,
 * CPU-bound, foreign I/O, slab growth, write cache, a --memory-limit that
 * squeezed the run itself) raises its warning and only it, with the figures in the evidence; and the run summary built from
 * a run_result counts buffered, direct and unflushed bytes correctly.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sys/sysmem.h"
#include "util/xmalloc.h"
#include "watch/anomaly.h"

#define MiB (1ull << 20)

/* Two samples one second apart on one device "vdx"; the caller edits the
 * second sample and the device delta before calling finish(). */
struct fixture {
	struct run_env env;
	struct monitor_sample s[2];
	struct diskstat d[2];
};

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < 2; i++) {
		f->s[i].t_ns = (uint64_t)(i + 1) * 1000000000ull;
		f->s[i].mem.total_kb = 16ull << 20;
		f->s[i].mem.available_kb = 8ull << 20;
		f->s[i].vm.nr_dirty_threshold = 100000;
		f->s[i].stat.procs_running = 2;
		f->s[i].slab.have = true;
		f->s[i].slab.buffer_head_bytes = 10 * MiB;
		snprintf(f->d[i].name, sizeof(f->d[i].name), "vdx");
	}
	f->env.warn_slab_bytes = ANOMALY_DEFAULT_SLAB_BYTES;
}

static void fixture_finish(struct fixture *f)
{
	struct monitor_series *s = &f->env.series;
	s->interval_ns = 1000000000ull;
	s->ndev = 1;
	s->names = xcalloc(1, sizeof(*s->names));
	snprintf(s->names[0], sizeof(s->names[0]), "vdx");
	for (int i = 0; i < 2; i++) {
		s->samples = xrealloc(s->samples, (s->n + 1) * sizeof(*s->samples));
		s->disks = xrealloc(s->disks, (s->n + 1) * sizeof(*s->disks));
		s->samples[s->n] = f->s[i];
		s->disks[s->n] = f->d[i];
		s->n++;
	}
	f->env.have_monitor = true;
	monitor_summarize(s, &f->env.summary);
}

static void quiet_input(struct anomaly_input *in)
{
	memset(in, 0, sizeof(*in));
	in->nr_jobs = 1;
	in->any_device_io = true;
	in->device = "vdx";
	in->max_job_cpu_pct = 20;
	snprintf(in->max_cpu_job, sizeof(in->max_cpu_job), "j");
}

static const struct run_warning *find(const struct run_env *e, const char *id)
{
	for (size_t i = 0; i < e->nr_warnings; i++)
		if (!strcmp(e->warnings[i].id, id))
			return &e->warnings[i];
	return NULL;
}

/* Run the checks as a command does (runner.c, bonnie.c): anomaly_check on
 * the batch, then, once for the run, the --memory-limit check; CHECK that
 * exactly `id` (or nothing, id NULL) was raised and that its evidence
 * contains `needle`. */
static void expect(struct fixture *f, const struct anomaly_input *in, const char *id,
		   const char *needle, const char *what)
{
	anomaly_check(in, &f->env);
	anomaly_check_memory_limit(&f->env);
	if (!id) {
		CHECK(f->env.nr_warnings == 0, "%s: no warning (got %zu, first '%s')", what,
		      f->env.nr_warnings, f->env.nr_warnings ? f->env.warnings[0].id : "");
	} else {
		const struct run_warning *w = find(&f->env, id);
		CHECK(w && f->env.nr_warnings == 1, "%s: only '%s' (got %zu)", what, id,
		      f->env.nr_warnings);
		CHECK(w && strstr(w->evidence, needle), "%s: evidence has '%s': '%s'", what, needle,
		      w ? w->evidence : "");
		CHECK(w && w->message[0] && w->advice[0], "%s: message and advice", what);
	}
	run_env_release(&f->env);
}

int main(void)
{
	struct fixture f;
	struct anomaly_input in;

	/* a direct run whose device saw what the job did */
	fixture_init(&f);
	quiet_input(&in);
	f.d[1].rd_ios = 1000;
	f.d[1].rd_sectors = 8000;
	f.d[1].io_ticks = 500;
	f.d[1].time_in_queue = 500;
	fixture_finish(&f);
	f.env.have_self_io = true;
	f.env.self_read_bytes = 8000 * 512;
	expect(&f, &in, NULL, NULL, "quiet direct run");

	fixture_init(&f);
	quiet_input(&in);
	in.buffered_read_bytes = 512 * MiB;
	in.dev_read_bytes = 4 * MiB;
	fixture_finish(&f);
	expect(&f, &in, "page-cache-read", "512MiB", "cached reads");

	fixture_init(&f);
	quiet_input(&in);
	in.buffered_read_bytes = 4 * MiB; /* too little to judge */
	fixture_finish(&f);
	expect(&f, &in, NULL, NULL, "small buffered read");

	fixture_init(&f);
	quiet_input(&in);
	in.buffered_read_bytes = 64 * MiB;
	in.device = NULL; /* tmpfs */
	fixture_finish(&f);
	expect(&f, &in, "page-cache-read", "no block device", "reads on tmpfs");

	fixture_init(&f);
	quiet_input(&in);
	in.buffered_write_bytes = in.buffered_unsynced_write_bytes = 100 * MiB;
	in.dev_write_bytes = 10 * MiB;
	fixture_finish(&f);
	expect(&f, &in, "page-cache-write", "10.0MiB", "absorbed writes");

	/* cachestat's word wins over the device's: another file's writeback
	 * made the device busy, yet the job's data stayed in memory ... */
	fixture_init(&f);
	quiet_input(&in);
	in.buffered_write_bytes = in.buffered_unsynced_write_bytes = 100 * MiB;
	in.dev_write_bytes = 300 * MiB;
	in.have_unwritten = true;
	in.buffered_unwritten_bytes = 90 * MiB;
	fixture_finish(&f);
	expect(&f, &in, "page-cache-write", "90.0MiB (90.0%) of it was still in memory",
	       "absorbed writes beside another file's writeback");
	/* ... and a job whose data was written while it ran is not blamed */
	fixture_init(&f);
	quiet_input(&in);
	in.buffered_write_bytes = in.buffered_unsynced_write_bytes = 100 * MiB;
	in.dev_write_bytes = 0;
	in.have_unwritten = true;
	in.buffered_unwritten_bytes = 20 * MiB;
	fixture_finish(&f);
	expect(&f, &in, NULL, NULL, "buffered writes that reached the device");

	fixture_init(&f);
	quiet_input(&in);
	in.unsynced_write_bytes = 32 * MiB;
	in.dev_write_bytes = 32 * MiB;
	fixture_finish(&f);
	f.env.have_sysinfo = true;
	f.env.si.bdevs = xcalloc(1, sizeof(*f.env.si.bdevs));
	f.env.si.nr_bdevs = 1;
	f.env.si.bdevs[0].name = xstrdup("vdx");
	f.env.si.bdevs[0].write_cache = xstrdup("write back");
	expect(&f, &in, "write-cache", "write back", "unflushed writes to a write-back cache");

	fixture_init(&f);
	quiet_input(&in);
	in.max_job_cpu_pct = 99;
	fixture_finish(&f);
	expect(&f, &in, "cpu-bound", "99%", "cpu-bound job");

	fixture_init(&f);
	quiet_input(&in);
	in.max_job_cpu_pct = 35; /* a CPU-bound thread on a crowded CPU */
	in.max_job_cpu_busy_pct = 98;
	fixture_finish(&f);
	expect(&f, &in, "cpu-bound", "waiting for a CPU 98%", "cpu-bound job waiting for a CPU");

	fixture_init(&f);
	quiet_input(&in);
	f.d[1].rd_ios = 50000;
	f.d[1].rd_sectors = 400000;
	f.d[1].io_ticks = 1000;
	f.d[1].time_in_queue = 31000;
	fixture_finish(&f);
	f.env.have_self_io = true;
	f.env.self_read_bytes = 400000 * 512;
	expect(&f, &in, "device-saturated", "aqu-sz 31.0", "saturated device");

	fixture_init(&f);
	quiet_input(&in);
	f.d[1].wr_ios = 1000;
	f.d[1].wr_sectors = 200 * 2048; /* 200 MiB */
	f.d[1].io_ticks = 300;
	fixture_finish(&f);
	f.env.have_self_io = true;
	f.env.self_write_bytes = 20 * MiB;
	f.env.others = xcalloc(1, sizeof(*f.env.others));
	f.env.nr_others = 1;
	f.env.others[0] = (struct procio_entry){ .pid = 4242, .comm = "dd", .write_bytes = 180 * MiB };
	expect(&f, &in, "foreign-io", "dd[4242]", "another writer");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.allocstall = 12;
	f.s[1].vm.pgscan_direct = 5000;
	fixture_finish(&f);
	expect(&f, &in, "reclaim", "allocstall +12", "direct reclaim");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.pgscan_kswapd = (16ull << 20) / (sys_pagesize() / 1024) / 5; /* 20% of RAM */
	fixture_finish(&f);
	expect(&f, &in, "reclaim", "kswapd scanned", "kswapd storm");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.pgscan_file = 2000000; /* a memory cgroup at its limit */
	f.s[1].vm.pgscan_anon = 10000;
	fixture_finish(&f);
	expect(&f, &in, "reclaim", "beyond kswapd and direct", "memory-cgroup limit reclaim");

	/* --memory-limit's own cgroup reclaiming at its limit is intended:
	 * v1 counts no scans per cgroup, so none is blamed elsewhere ... */
	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.pgscan_file = 2000000;
	f.s[1].vm.pgscan_anon = 10000;
	fixture_finish(&f);
	f.env.have_memcg = true;
	f.env.memcg = (struct memcg_stats){ .version = 1, .limit_bytes = 512 * MiB,
					    .limit_hits = 5000, .refault_file = 300000 };
	expect(&f, &in, NULL, NULL, "v1: the run's own limit reclaim");
	/* ... v2 subtracts its own scans: what is left is another cgroup's */
	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.pgscan_file = 2000000;
	f.s[1].vm.pgscan_anon = 10000;
	fixture_finish(&f);
	f.env.have_memcg = true;
	f.env.memcg = (struct memcg_stats){ .version = 2, .limit_bytes = 512 * MiB,
					    .limit_hits = 5000, .have_scan = true,
					    .scan_pages = 2000000 };
	expect(&f, &in, NULL, NULL, "v2: the run's own scans");
	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.pgscan_file = 2000000;
	f.s[1].vm.pgscan_anon = 10000;
	fixture_finish(&f);
	f.env.have_memcg = true;
	f.env.memcg = (struct memcg_stats){ .version = 2, .limit_bytes = 512 * MiB,
					    .limit_hits = 50, .have_scan = true, .scan_pages = 10000 };
	expect(&f, &in, "reclaim", "+2000000 pages beyond", "v2: another cgroup's limit reclaim");
	/* the limit squeezed the run's own memory */
	fixture_init(&f);
	quiet_input(&in);
	fixture_finish(&f);
	f.env.have_memcg = true;
	f.env.memcg = (struct memcg_stats){ .version = 1, .limit_bytes = 32 * MiB,
					    .peak_bytes = 32 * MiB, .limit_hits = 90,
					    .refault_anon = 5000 };
	snprintf(f.env.memcg.path, sizeof(f.env.memcg.path), "/cg/iobench.1");
	expect(&f, &in, "reclaim", "workingset_refault_anon +5000 pages", "own memory refaulting");
	fixture_init(&f);
	quiet_input(&in);
	fixture_finish(&f);
	f.env.have_memcg = true;
	f.env.memcg = (struct memcg_stats){ .version = 2, .limit_bytes = 32 * MiB,
					    .oom_kills = 1 };
	expect(&f, &in, "reclaim", "OOM kills 1", "an OOM kill under the limit");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.pgscan_file = 3000; /* kswapd's own scanning, counted in both */
	f.s[1].vm.pgscan_kswapd = 3000;
	fixture_finish(&f);
	expect(&f, &in, NULL, NULL, "a little kswapd scanning");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.pswpout = 1000;
	fixture_finish(&f);
	expect(&f, &in, "swap", "pswpout +1000", "swapping");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.nr_dirty = 95000;
	fixture_finish(&f);
	expect(&f, &in, "dirty-limit", "95%", "dirty limit");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.nr_dirty = 40000; /* the limit counts pages under writeback too */
	f.s[1].vm.nr_writeback = 52000;
	fixture_finish(&f);
	expect(&f, &in, "dirty-limit", "92%", "dirty + writeback at the limit");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].vm.nr_dirty = 50000;
	f.s[1].vm.nr_writeback = 20000;
	fixture_finish(&f);
	expect(&f, &in, NULL, NULL, "dirty pages well under the limit");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].stat.procs_running = 4 * sys_ncpus() + 10;
	fixture_finish(&f);
	expect(&f, &in, "load", "tasks running or blocked", "busy machine");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].stat.procs_blocked = 5; /* one job: more than 2 x jobs + 2 blocked */
	fixture_finish(&f);
	expect(&f, &in, "load", "5 blocked on I/O", "tasks blocked on I/O");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].stat.procs_blocked = 3; /* the job, a flusher and the journal */
	fixture_finish(&f);
	expect(&f, &in, NULL, NULL, "a few blocked tasks");

	fixture_init(&f);
	quiet_input(&in);
	f.s[1].slab.buffer_head_bytes = 10 * MiB + 300 * MiB;
	fixture_finish(&f);
	expect(&f, &in, "slab-growth", "300MiB", "buffer_head growth");

	/* the summary of a run: buffered, direct, flushed and unflushed bytes */
	struct job_spec specs[3];
	struct run_result r = { 0 };
	struct job_result jobs[3];
	memset(jobs, 0, sizeof(jobs));
	for (int i = 0; i < 3; i++) {
		job_spec_defaults(&specs[i]);
		jobs[i].spec = &specs[i];
		jobs[i].nr_jobs = 1;
	}
	specs[0].direct = false; /* buffered reader */
	jobs[0].dir[DDIR_READ].io_bytes = 100;
	specs[1].direct = true; /* direct writer, no flush */
	jobs[1].dir[DDIR_WRITE].io_bytes = 1000;
	jobs[1].usr_cpu = 30;
	jobs[1].sys_cpu = 50;
	specs[2].direct = false; /* buffered writer with end_fsync */
	specs[2].end_fsync = true;
	jobs[2].dir[DDIR_WRITE].io_bytes = 10000;
	jobs[1].name = (char *)"dw";
	r.jobs = jobs;
	r.nr_jobs = 3;
	struct disk_result disk = { .name = "vdx", .read_sectors = 2, .write_sectors = 4 };
	r.disks = &disk;
	r.nr_disks = 1;
	anomaly_input_from_run(&r, &in);
	CHECK(in.nr_jobs == 3, "jobs %u", in.nr_jobs);
	CHECK(in.buffered_read_bytes == 100, "buffered reads %llu",
	      (unsigned long long)in.buffered_read_bytes);
	CHECK(in.buffered_write_bytes == 10000 && in.buffered_unsynced_write_bytes == 0,
	      "buffered writes %llu, unflushed %llu", (unsigned long long)in.buffered_write_bytes,
	      (unsigned long long)in.buffered_unsynced_write_bytes);
	CHECK(in.unsynced_write_bytes == 1000, "unflushed %llu",
	      (unsigned long long)in.unsynced_write_bytes);
	CHECK(in.max_job_cpu_pct == 80 && !strcmp(in.max_cpu_job, "dw"), "busiest %f '%s'",
	      in.max_job_cpu_pct, in.max_cpu_job);
	CHECK(in.device && !strcmp(in.device, "vdx") && in.dev_read_bytes == 1024 &&
	      in.dev_write_bytes == 2048, "device figures");
	for (int i = 0; i < 3; i++)
		job_spec_release(&specs[i]);

	/* per batch: tests/data/seed003's shape. Batch 0 (group 0) runs a direct and a
	 * buffered writer side by side; the device wrote what the direct one
	 * did, which is more than half of the buffered one's bytes, so only
	 * taking the direct bytes off catches the buffered job. Batch 1
	 * (group 1) is a direct writer alone: nothing to say about the cache. */
	struct job_spec bs[3];
	struct job_result bj[3];
	memset(bj, 0, sizeof(bj));
	for (int i = 0; i < 3; i++) {
		job_spec_defaults(&bs[i]);
		bj[i].spec = &bs[i];
		bj[i].nr_jobs = 1;
		bj[i].dir[DDIR_WRITE].io_bytes = 100 * MiB;
	}
	bs[0].direct = true;
	bj[0].name = (char *)"seq-direct";
	bj[1].name = (char *)"seq-buf";
	bs[2].direct = true;
	bj[2].name = (char *)"rand-direct";
	bj[2].groupid = 1;
	struct disk_result d0 = { .name = "vdx", .write_sectors = 100 * 2048 };
	struct disk_result d1 = { .name = "vdx", .write_sectors = 100 * 2048 };
	struct run_batch batches[2] = {
		{ .group_first = 0, .group_last = 0, .disks = &d0, .nr_disks = 1 },
		{ .group_first = 1, .group_last = 1, .disks = &d1, .nr_disks = 1 },
	};
	struct run_result br = { .jobs = bj, .nr_jobs = 3, .batches = batches, .nr_batches = 2 };
	struct anomaly_input *per;
	size_t nb = anomaly_inputs_from_run(&br, NULL, &per);
	CHECK(nb == 2 && per[0].group_first == 0 && per[1].group_first == 1 &&
	      per[0].direct_write_bytes == 100 * MiB && per[0].buffered_unsynced_write_bytes == 100 * MiB &&
	      per[1].buffered_unsynced_write_bytes == 0 && per[1].nr_jobs == 1,
	      "one input per batch with its own jobs");
	CHECK(per[0].writers.n == 1 && !strcmp(per[0].writers.v[0], "seq-buf"),
	      "the buffered writer is named");
	struct run_env be = { 0 };
	for (size_t i = 0; i < nb; i++)
		anomaly_check(&per[i], &be);
	const struct run_warning *pw = find(&be, "page-cache-write");
	CHECK(pw && pw->group_first == 0 && pw->group_last == 0 && pw->nr_jobs == 1 &&
	      !strcmp(pw->jobs[0], "seq-buf") && !strcmp(pw->scope, "group 0, job 'seq-buf'"),
	      "page-cache-write names group 0 and its buffered job: %s", pw && pw->scope ? pw->scope : "");
	CHECK(pw && strstr(pw->evidence, "100MiB of it direct writes, leaving 0B (0.0%) for the buffered"),
	      "the direct writes were taken off: %s", pw ? pw->evidence : "");
	size_t npcw = 0;
	for (size_t i = 0; i < be.nr_warnings; i++)
		npcw += !strcmp(be.warnings[i].id, "page-cache-write");
	CHECK(npcw == 1, "none for the direct group: %zu page-cache-write", npcw);
	run_env_release(&be);
	free(per);
	for (int i = 0; i < 3; i++)
		job_spec_release(&bs[i]);
	return check_done("test_anomaly");
}
