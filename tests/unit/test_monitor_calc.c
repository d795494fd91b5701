/*
 * The monitor's figures on hand-made samples with hand-computed results:
 * iostat -x of a diskstats delta, vmstat (guest taken out of us, irq and
 * softirq in sy), an interval's reclaim rates, PSI stall percentages and
 * slab growth, a series summary (whole window and worst full interval,
 * a short last interval left out), and the JSON line and text outputs.
 */
#include "report/monitor_report.h"
#include "sys/monitor/monitor_calc.h"

#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int NEAR(double a, double b)
{
	return fabs(a - b) < 1e-9 * (1 + fabs(b));
}

static void test_iostat(void)
{
	struct diskstat d = {
		.rd_ios = 200, .rd_merges = 50, .rd_sectors = 3200, .rd_ticks = 500,
		.wr_ios = 100, .wr_merges = 0, .wr_sectors = 1600, .wr_ticks = 300,
		.io_ticks = 800, .time_in_queue = 1500,
		.dc_ios = 10, .dc_sectors = 2048, .dc_ticks = 20,
		.fl_ios = 5, .fl_ticks = 10,
	};
	struct iostat_x x;

	iostat_x_compute(&d, 2000000000ULL, &x);
	CHECK(NEAR(x.r_s, 100) && NEAR(x.w_s, 50) && NEAR(x.d_s, 5) && NEAR(x.f_s, 2.5),
	      "ops/s %f %f %f %f", x.r_s, x.w_s, x.d_s, x.f_s);
	CHECK(NEAR(x.rkb_s, 800) && NEAR(x.wkb_s, 400) && NEAR(x.dkb_s, 512), "kB/s");
	CHECK(NEAR(x.rrqm_s, 25) && NEAR(x.rrqm_pct, 20) && NEAR(x.wrqm_pct, 0), "merges %f", x.rrqm_pct);
	CHECK(NEAR(x.r_await, 2.5) && NEAR(x.w_await, 3) && NEAR(x.d_await, 2) && NEAR(x.f_await, 2),
	      "awaits %f %f %f %f", x.r_await, x.w_await, x.d_await, x.f_await);
	CHECK(NEAR(x.rareq_sz, 8) && NEAR(x.wareq_sz, 8) && NEAR(x.dareq_sz, 102.4), "request sizes");
	CHECK(NEAR(x.aqu_sz, 0.75) && NEAR(x.util_pct, 40), "aqu-sz %f util %f", x.aqu_sz, x.util_pct);

	struct diskstat idle = { .in_flight = 3 };
	iostat_x_compute(&idle, 1000000000ULL, &x);
	CHECK(x.r_await == 0 && x.rareq_sz == 0 && x.rrqm_pct == 0 && x.util_pct == 0,
	      "no I/O: ratios are 0, as in iostat");
	iostat_x_compute(&d, 0, &x);
	CHECK(x.r_s == 0 && x.util_pct == 0, "zero interval gives zeros");
}

/* Two samples 2 s apart; b's counters are a's plus the deltas below. */
static void make_samples(struct monitor_sample *a, struct monitor_sample *b)
{
	memset(a, 0, sizeof(*a));
	a->t_ns = 5000000000ULL;
	a->stat.cpu = (struct cpu_ticks){ 1000, 100, 500, 9000, 300, 10, 20, 5, 40, 0 };
	a->stat.intr = 100000;
	a->stat.ctxt = 200000;
	a->vm.pgpgin = 1000;
	a->vm.pgpgout = 2000;
	a->vm.pswpin = 50;
	a->vm.pgscan_direct = 10;
	a->vm.allocstall = 1;
	a->slab.have = true;
	a->slab.buffer_head_bytes = 1000000;
	for (unsigned r = 0; r < PSI_NR; r++) {
		a->psi[r].have = true;
		a->psi[r].some.total_us = 1000;
		a->psi[r].full.total_us = 500;
	}
	*b = *a;
	b->t_ns = a->t_ns + 2000000000ULL;
	b->stat.cpu.user += 150;  /* includes guest 20 */
	b->stat.cpu.nice += 10;
	b->stat.cpu.system += 60;
	b->stat.cpu.irq += 5;
	b->stat.cpu.softirq += 15;
	b->stat.cpu.idle += 500;
	b->stat.cpu.iowait += 50;
	b->stat.cpu.steal += 10;
	b->stat.cpu.guest += 20;
	b->stat.intr += 2000;
	b->stat.ctxt += 5000;
	b->stat.procs_running = 3;
	b->stat.procs_blocked = 2;
	b->vm.pgpgin += 4096;
	b->vm.pgpgout += 1000;
	b->vm.pswpin += 10;
	b->vm.pgscan_direct += 400;
	b->vm.allocstall += 6;
	b->vm.nr_dirty = 777;
	b->mem = (struct proc_meminfo){ .total_kb = 8000, .free_kb = 1234, .buffers_kb = 55,
		.cached_kb = 3000, .sreclaimable_kb = 500, .swap_total_kb = 1000, .swap_free_kb = 400,
		.dirty_kb = 3108 };
	b->slab.buffer_head_bytes = 1500000;
	b->psi[PSI_IO].some.total_us += 500000;  /* 25% of 2 s */
	b->psi[PSI_IO].full.total_us += 100000;  /* 5% */
	b->psi[PSI_CPU].have = false;
	b->load.avg1 = 2.5;
}

static void test_vmstat(void)
{
	struct monitor_sample a, b;
	struct vmstat_x v;
	double page_kb = (double)sysconf(_SC_PAGESIZE) / 1024;

	make_samples(&a, &b);
	vmstat_x_compute(&a, &b, &v);
	/* Div = (160) + (60+5+15) + 500 + 50 + 10 = 800; us = (160 - 20) / 800 */
	CHECK(NEAR(v.us, 17.5) && NEAR(v.sy, 10) && NEAR(v.id, 62.5) && NEAR(v.wa, 6.25) &&
	      NEAR(v.st, 1.25) && NEAR(v.gu, 2.5), "cpu %f %f %f %f %f %f", v.us, v.sy, v.id, v.wa,
	      v.st, v.gu);
	CHECK(NEAR(v.in, 1000) && NEAR(v.cs, 2500), "in %f cs %f", v.in, v.cs);
	CHECK(NEAR(v.bi, 2048) && NEAR(v.bo, 500), "bi %f bo %f", v.bi, v.bo);
	CHECK(NEAR(v.si, 10 * page_kb / 2) && v.so == 0, "si %f", v.si);
	CHECK(v.r == 3 && v.b == 2, "r b");
	CHECK(v.swpd_kb == 600 && v.free_kb == 1234 && v.buff_kb == 55 && v.cache_kb == 3500,
	      "memory columns (cache = Cached + SReclaimable)");

	struct monitor_sample c = a;
	c.t_ns = a.t_ns + 1;
	vmstat_x_compute(&a, &c, &v);
	CHECK(v.id == 100 && v.us == 0, "no ticks: idle");
}

static void test_interval(void)
{
	struct monitor_sample a, b;
	struct diskstat da[2] = { { .rd_ios = 10, .io_ticks = 100 }, { .major = 0 } };
	struct diskstat db[2] = { { .rd_ios = 30, .rd_sectors = 80, .io_ticks = 1100, .in_flight = 1 }, { .major = 0 } };
	const char names[2][64] = { "sda", "sdb" };
	struct monitor_dev_interval devs[2];
	struct monitor_interval iv = { .devs = devs };

	make_samples(&a, &b);
	monitor_interval_compute(&a, da, &b, db, names, 2, a.t_ns - 1000000000ULL, &iv);
	CHECK(NEAR(iv.t_s, 3) && NEAR(iv.dt_s, 2), "times %f %f", iv.t_s, iv.dt_s);
	CHECK(iv.dvm.pgscan_direct == 400 && NEAR(iv.pgscan_direct_s, 200) &&
	      NEAR(iv.allocstall_s, 3) && NEAR(iv.pswpin_s, 5), "reclaim and swap rates");
	CHECK(iv.dvm.nr_dirty == 777, "gauges keep the later value");
	CHECK(iv.psi_have[PSI_IO] && NEAR(iv.psi_some_pct[PSI_IO], 25) &&
	      NEAR(iv.psi_full_pct[PSI_IO], 5), "psi io %f %f", iv.psi_some_pct[PSI_IO],
	      iv.psi_full_pct[PSI_IO]);
	CHECK(iv.psi_have[PSI_MEMORY] && iv.psi_some_pct[PSI_MEMORY] == 0, "psi memory idle");
	CHECK(!iv.psi_have[PSI_CPU], "psi missing in one sample");
	CHECK(iv.buffer_head_growth == 500000, "slab growth");
	CHECK(iv.load.avg1 == 2.5 && iv.mem.dirty_kb == 3108, "gauges from the later sample");
	CHECK(!strcmp(devs[0].name, "sda") && devs[0].active && devs[0].delta.rd_ios == 20 &&
	      NEAR(devs[0].x.r_s, 10) && NEAR(devs[0].x.util_pct, 50) && NEAR(devs[0].x.rareq_sz, 2),
	      "device figures r/s %f util %f", devs[0].x.r_s, devs[0].x.util_pct);
	CHECK(!devs[1].active, "a device that never did I/O is not active");
}

/* A series: samples at 0, 1, 2 and 2.1 s; device util 20%, 90%, 100%. */
static void test_summary(void)
{
	struct monitor_series s = { .interval_ns = 1000000000ULL, .ndev = 1 };
	char names[1][64] = { "vdb" };
	uint64_t t[] = { 0, 1000000000ULL, 2000000000ULL, 2100000000ULL };
	uint64_t ticks[] = { 0, 200, 1100, 1200 };
	uint64_t ios[] = { 0, 100, 300, 310 };
	double load[] = { 0.5, 3.0, 1.0, 1.0 };

	s.names = names;
	for (size_t i = 0; i < 4; i++) {
		struct monitor_sample smp = { .t_ns = 10 + t[i] };
		struct diskstat d = { .rd_ios = ios[i], .io_ticks = ticks[i], .rd_ticks = ios[i] * (i + 1) };
		smp.load.avg1 = load[i];
		smp.stat.cpu.idle = 100 * i;
		smp.stat.cpu.iowait = i == 2 ? 300 : 0;
		smp.mem.dirty_kb = i == 1 ? 4096 : 0;
		monitor_series_add(&s, &smp, &d);
	}
	struct monitor_summary sum;
	monitor_summarize(&s, &sum);
	CHECK(sum.nsamples == 4 && sum.nintervals == 2 && NEAR(sum.dt_s, 2.1), "counts %zu %f",
	      sum.nsamples, sum.dt_s);
	CHECK(NEAR(sum.devs[0].whole.r_s, 310 / 2.1) && NEAR(sum.devs[0].whole.util_pct, 1200 / 21.0),
	      "whole window r/s %f util %f", sum.devs[0].whole.r_s, sum.devs[0].whole.util_pct);
	CHECK(sum.nintervals == 2, "the 0.1 s tail merged into the interval before: %zu intervals",
	      sum.nintervals);
	CHECK(NEAR(sum.devs[0].max.util_pct, 1000 / 11.0) && NEAR(sum.devs[0].min.util_pct, 20),
	      "util extremes over [0,1] and [1,2.1]: %f %f", sum.devs[0].min.util_pct,
	      sum.devs[0].max.util_pct);
	CHECK(NEAR(sum.devs[0].max.r_await, (310 * 4 - 100 * 2) / 210.0), "r_await max %f",
	      sum.devs[0].max.r_await);
	CHECK(sum.max.load.avg1 == 3.0 && sum.min.load.avg1 == 0.5 && sum.max.mem.dirty_kb == 4096,
	      "gauge extremes over the samples");
	/* iowait went back from 300 to 0: that step counts 0, in the whole too */
	CHECK(NEAR(sum.max.vm.wa, 60) && NEAR(sum.whole.vm.wa, 50) && NEAR(sum.min.vm.wa, 0),
	      "wa min %f mean %f max %f", sum.min.vm.wa, sum.whole.vm.wa, sum.max.vm.wa);
	CHECK(sum.devs[0].active && !strcmp(sum.devs[0].name, "vdb"), "device identity");

	/* outputs */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct monitor_dev_interval devs[1];
	struct monitor_interval iv = { .devs = devs };
	monitor_series_interval(&s, 1, &iv);
	CHECK(monitor_json_line(f, &iv, false) == 0, "json line written");
	fclose(f);
	CHECK(len > 0 && text[len - 1] == '\n' && !memchr(text, '\n', len - 1), "exactly one line");
	CHECK(strstr(text, "\"name\":\"vdb\"") && strstr(text, "\"%util\":90.000000") &&
	      strstr(text, "\"wa\":75.000000") && strstr(text, "\"r/s\":200.000000"),
	      "line holds the figures: %s", text);
	int depth = 0, min_depth = 1;
	for (size_t i = 0; i < len; i++) {
		depth += text[i] == '{' || text[i] == '[';
		depth -= text[i] == '}' || text[i] == ']';
		if (i + 2 < len && depth < min_depth)
			min_depth = depth;
	}
	CHECK(depth == 0 && min_depth >= 1 && text[0] == '{', "one balanced object");
	free(text);

	f = open_memstream(&text, &len);
	monitor_text_summary(f, &sum, true);
	fclose(f);
	CHECK(strstr(text, "vdb: util=57.1% (max 90.9%)") != NULL, "text summary: %s", text);
	CHECK(strstr(text, "load max=3.00") != NULL, "text summary load");
	free(text);

	f = open_memstream(&text, &len);
	monitor_text_interval(f, &iv, false);
	fclose(f);
	CHECK(strstr(text, "Device            r/s     rkB/s") && strstr(text, "\nvdb           ") &&
	      strstr(text, " 90.00\n"), "text interval: %s", text);
	free(text);

	f = open_memstream(&text, &len);
	struct json_writer w;
	json_init(&w, f);
	monitor_json_series(&w, &s);
	CHECK(json_finish(&w) == 0, "series JSON is well formed");
	fclose(f);
	CHECK(strstr(text, "\"intervals\"") && strstr(text, "\"summary\"") &&
	      strstr(text, "\"%util\" : 90.909091"), "series JSON content");
	free(text);

	monitor_summary_release(&sum);
	free(s.samples);
	free(s.disks);
}

int main(void)
{
	test_iostat();
	test_vmstat();
	test_interval();
	test_summary();
	return check_done("test_monitor_calc");
}
