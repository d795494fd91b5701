/*
 * The /proc parsers of procstat.h on sample texts: /proc/stat with 10 and
 * 4 cpu fields, loadavg, meminfo, vmstat of a new kernel and per-zone
 * counters of an old one, pressure files with and without "full", slabinfo,
 * malformed input, and the whole-file reader on a temp file.
 */
#include "sys/procstat.h"

#include "check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_stat(void)
{
	const char *text =
		"cpu  680400 2 417265 819567 53539 0 16947 7 11 3\n"
		"cpu0 340000 1 200000 400000 26000 0 8000 3 5 1\n"
		"intr 114930548 113199788 3 0 5 263\n"
		"ctxt 1990473\n"
		"btime 1062191376\n"
		"processes 2915\n"
		"procs_running 4\n"
		"procs_blocked 2\n"
		"softirq 183433 0 21755 12 39 1137 231 21459 2263\n";
	struct proc_stat s;

	CHECK(procstat_parse_stat(text, &s) == 0, "parse /proc/stat");
	CHECK(s.cpu.user == 680400 && s.cpu.nice == 2 && s.cpu.system == 417265 &&
	      s.cpu.idle == 819567 && s.cpu.iowait == 53539 && s.cpu.irq == 0 &&
	      s.cpu.softirq == 16947 && s.cpu.steal == 7 && s.cpu.guest == 11 &&
	      s.cpu.guest_nice == 3, "cpu line from the summary, not cpu0 (user %llu)",
	      (unsigned long long)s.cpu.user);
	CHECK(s.intr == 114930548 && s.ctxt == 1990473 && s.forks == 2915, "intr ctxt processes");
	CHECK(s.procs_running == 4 && s.procs_blocked == 2, "procs gauges");

	CHECK(procstat_parse_stat("cpu 1 2 3 4\nintr 5\nctxt 6\n", &s) == 0 && s.cpu.idle == 4 &&
	      s.cpu.iowait == 0 && s.cpu.steal == 0 && s.procs_running == 0, "old 4-field cpu line");
	CHECK(procstat_parse_stat("cpu0 1 2 3 4\nintr 5\nctxt 6\n", &s) == -EINVAL, "no summary line");
	CHECK(procstat_parse_stat("cpu 1 2 3 4\nctxt 6\n", &s) == -EINVAL, "no intr line");
	CHECK(procstat_parse_stat("cpu 1 2\nintr 5\nctxt 6\n", &s) == -EINVAL, "short cpu line");
}

static void test_loadavg(void)
{
	struct proc_loadavg l;

	CHECK(procstat_parse_loadavg("1.11 0.94 1.85 2/93 23128\n", &l) == 0, "parse loadavg");
	CHECK(l.avg1 == 1.11 && l.avg5 == 0.94 && l.avg15 == 1.85 && l.running == 2 &&
	      l.threads == 93, "loadavg fields");
	CHECK(procstat_parse_loadavg("1.0 2.0\n", &l) == -EINVAL, "short loadavg");
}

static void test_meminfo(void)
{
	const char *text =
		"MemTotal:       32768000 kB\n"
		"MemFree:        24124284 kB\n"
		"MemAvailable:   30000000 kB\n"
		"Buffers:           13572 kB\n"
		"Cached:           400000 kB\n"
		"SwapCached:            5 kB\n"
		"Shmem:              1000 kB\n"
		"SReclaimable:      38408 kB\n"
		"SwapTotal:       2097148 kB\n"
		"SwapFree:        2000000 kB\n"
		"Dirty:               178 kB\n"
		"Writeback:            12 kB\n"
		"WritebackTmp:        999 kB\n";
	struct proc_meminfo m;

	CHECK(procstat_parse_meminfo(text, &m) == 0, "parse meminfo");
	CHECK(m.total_kb == 32768000 && m.free_kb == 24124284 && m.available_kb == 30000000,
	      "totals");
	CHECK(m.buffers_kb == 13572 && m.cached_kb == 400000 && m.sreclaimable_kb == 38408 &&
	      m.shmem_kb == 1000, "cache fields (SwapCached is not Cached)");
	CHECK(m.swap_total_kb == 2097148 && m.swap_free_kb == 2000000, "swap");
	CHECK(m.dirty_kb == 178 && m.writeback_kb == 12, "dirty and writeback (not WritebackTmp: %llu)",
	      (unsigned long long)m.writeback_kb);
	CHECK(procstat_parse_meminfo("Foo: 1 kB\n", &m) == -EINVAL, "no MemTotal");
}

static void test_vmstat(void)
{
	const char *now =
		"nr_dirty 178\nnr_writeback 3\nnr_dirty_threshold 1213004\n"
		"nr_dirty_background_threshold 605761\npgpgin 371083597\npgpgout 206252971\n"
		"pswpin 7\npswpout 9\npgfault 1000\npgmajfault 10\n"
		"allocstall_dma 0\nallocstall_dma32 1\nallocstall_normal 4\nallocstall_movable 2\n"
		"pgsteal_kswapd 50\npgsteal_direct 60\npgsteal_khugepaged 1000\n"
		"pgscan_kswapd 70\npgscan_direct 80\npgscan_khugepaged 1000\n"
		"pgscan_direct_throttle 5000\npgscan_anon 1\npgscan_file 2\n";
	/* Linux < 4.8: per-zone reclaim counters and a single allocstall */
	const char *old =
		"nr_dirty 1\npgpgin 2\npgpgout 3\npswpin 0\npswpout 0\n"
		"pgsteal_kswapd_dma32 5\npgsteal_kswapd_normal 6\npgsteal_direct_normal 7\n"
		"pgscan_kswapd_dma 1\npgscan_kswapd_normal 10\npgscan_direct_normal 11\n"
		"pgscan_direct_throttle 100\nallocstall 3\n";
	struct proc_vmstat v;

	CHECK(procstat_parse_vmstat(now, &v) == 0, "parse vmstat");
	CHECK(v.nr_dirty == 178 && v.nr_writeback == 3 && v.nr_dirty_threshold == 1213004 &&
	      v.nr_dirty_background_threshold == 605761, "dirty gauges");
	CHECK(v.pgpgin == 371083597 && v.pgpgout == 206252971 && v.pswpin == 7 && v.pswpout == 9,
	      "paging and swap");
	CHECK(v.pgfault == 1000 && v.pgmajfault == 10, "faults");
	CHECK(v.allocstall == 7, "allocstall sums the zones: %llu", (unsigned long long)v.allocstall);
	CHECK(v.pgscan_kswapd == 70 && v.pgscan_direct == 80, "pgscan without khugepaged and throttle: %llu %llu",
	      (unsigned long long)v.pgscan_kswapd, (unsigned long long)v.pgscan_direct);
	CHECK(v.pgsteal_kswapd == 50 && v.pgsteal_direct == 60, "pgsteal");

	CHECK(procstat_parse_vmstat(old, &v) == 0, "parse old vmstat");
	CHECK(v.pgsteal_kswapd == 11 && v.pgsteal_direct == 7 && v.pgscan_kswapd == 11 &&
	      v.pgscan_direct == 11 && v.allocstall == 3, "per-zone counters summed: %llu %llu %llu %llu",
	      (unsigned long long)v.pgsteal_kswapd, (unsigned long long)v.pgsteal_direct,
	      (unsigned long long)v.pgscan_kswapd, (unsigned long long)v.pgscan_direct);
	CHECK(procstat_parse_vmstat("nothing 1\n", &v) == -EINVAL, "no known field");
}

static void test_psi(void)
{
	struct proc_psi p;

	CHECK(procstat_parse_psi("some avg10=3.16 avg60=1.09 avg300=1.72 total=610329075\n"
				 "full avg10=2.69 avg60=0.89 avg300=1.58 total=410061337\n", &p) == 0,
	      "parse pressure");
	CHECK(p.have && p.some.avg10 == 3.16 && p.some.avg60 == 1.09 && p.some.avg300 == 1.72 &&
	      p.some.total_us == 610329075, "some line");
	CHECK(p.full.avg10 == 2.69 && p.full.total_us == 410061337, "full line");
	CHECK(procstat_parse_psi("some avg10=0.50 avg60=0.00 avg300=0.00 total=42\n", &p) == 0 &&
	      p.some.total_us == 42 && p.full.total_us == 0, "cpu file without full (before 5.13)");
	CHECK(procstat_parse_psi("full avg10=0.50 avg60=0.00 avg300=0.00 total=42\n", &p) == -EINVAL,
	      "no some line");
	CHECK(procstat_parse_psi("some avg10=x\n", &p) == -EINVAL, "malformed");
	CHECK(!strcmp(psi_resource_name(PSI_IO), "io") && !strcmp(psi_resource_name(PSI_MEMORY), "memory") &&
	      !strcmp(psi_resource_name(PSI_CPU), "cpu"), "resource names");
}

static void test_slabinfo(void)
{
	const char *text =
		"slabinfo - version: 2.1\n"
		"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
		"ext4_inode_cache   65296  65296   1128   14    4 : tunables    0    0    0 : slabdata   4664   4664      0\n"
		"buffer_head        25000  25896    104   39    1 : tunables    0    0    0 : slabdata    664    664      0\n"
		"proc_inode_cache   13123  13593    696   23    4 : tunables    0    0    0 : slabdata    591    591      0\n"
		"xfs_inode              0      0   1024   16    4 : tunables    0    0    0 : slabdata      0      0      0\n"
		"inode_cache         2761   2782    624   13    2 : tunables    0    0    0 : slabdata    214    214      0\n"
		"dentry            118734 118776    192   21    1 : tunables    0    0    0 : slabdata   5656   5656      0\n"
		"inode_other          100    100    100   10    1 : tunables    0    0    0 : slabdata     10     10      0\n";
	struct proc_slabs s;

	CHECK(procstat_parse_slabinfo(text, &s) == 0 && s.have, "parse slabinfo");
	CHECK(s.buffer_head_objs == 25896 && s.buffer_head_bytes == 25896ULL * 104, "buffer_head");
	CHECK(s.dentry_objs == 118776 && s.dentry_bytes == 118776ULL * 192, "dentry");
	CHECK(s.inode_objs == 65296 + 13593 + 2782 &&
	      s.inode_bytes == 65296ULL * 1128 + 13593ULL * 696 + 2782ULL * 624,
	      "inode caches summed, other caches not: %llu", (unsigned long long)s.inode_bytes);
	CHECK(procstat_parse_slabinfo("slabinfo - version: 1.1\n", &s) == -EINVAL && !s.have,
	      "unknown version");
}

static void test_file(void)
{
	char path[64], buf[16];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/iobench-procstat-%d", (int)getpid());
	f = fopen(path, "w");
	CHECK(f != NULL, "create temp file");
	if (!f)
		return;
	fputs("0123456789", f);
	fclose(f);
	CHECK(procfile_read(path, buf, sizeof(buf)) == 10 && !strcmp(buf, "0123456789"), "read whole file");
	CHECK(procfile_read(path, buf, 8) == -EFBIG, "buffer too small");
	CHECK(procfile_read("/nonexistent-iobench/x", buf, sizeof(buf)) == -ENOENT, "missing file");
	unlink(path);

	char big[65536];
	struct proc_stat st;
	CHECK(procfile_read("/proc/stat", big, sizeof(big)) > 0 && procstat_parse_stat(big, &st) == 0 &&
	      st.ctxt > 0, "the real /proc/stat parses");
	struct proc_vmstat vm;
	CHECK(procfile_read("/proc/vmstat", big, sizeof(big)) > 0 && procstat_parse_vmstat(big, &vm) == 0,
	      "the real /proc/vmstat parses");
}

int main(void)
{
	test_stat();
	test_loadavg();
	test_meminfo();
	test_vmstat();
	test_psi();
	test_slabinfo();
	test_file();
	return check_done("test_procstat_parse");
}
