/*
 * Reporters: a synthetic run_result with two groups (one entry standing for
 * 5 merged clones, two separate randrw jobs) and one disk is rendered in
 * every format; the figures that matter are checked in the text (bandwidth,
 * IOPS, KiB, runtime, group aggregates, percentiles, disk util, terse field
 * counts), and python3 checks that the JSON parses and carries fio's keys
 * in fio's order with the right values.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "report/report_int.h"
#include "report/report.h"
#include "stats/hist.h"
#include "stats/runstat.h"
#include "util/json.h"

#define MiB (1024ull * 1024)

static struct job_kv global_kv[] = {
	{ (char *)"ioengine", (char *)"psync" },
	{ (char *)"size", (char *)"8m" },
	{ (char *)"time_based", NULL },
};

static struct job_kv seqw_kv[] = {
	{ (char *)"ioengine", (char *)"psync" },
	{ (char *)"size", (char *)"8m" },
	{ (char *)"time_based", NULL },
	{ (char *)"rw", (char *)"write" },
	{ (char *)"bs", (char *)"8k" },
	{ (char *)"numjobs", (char *)"5" },
	{ (char *)"group_reporting", NULL },
};

static struct job_kv mix_kv[] = {
	{ (char *)"ioengine", (char *)"psync" },
	{ (char *)"size", (char *)"8m" },
	{ (char *)"time_based", NULL },
	{ (char *)"rw", (char *)"randrw" },
	{ (char *)"name", (char *)"we\"ird\\name\n" },
};

static void spec_init(struct job_spec *s, const char *name, unsigned rw, uint64_t bs,
		      struct job_kv *kv, size_t nkv)
{
	s->name = (char *)name;
	s->rw = rw;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		s->bs[d] = s->min_bs[d] = s->max_bs[d] = bs;
	s->ioengine = (char *)"psync";
	s->iodepth = 1;
	s->clat_percentiles = true;
	s->kb_base = 1024;
	s->latency_percentile = 100.0; /* the default, as job_spec_defaults() */
	s->opts = kv;
	s->nr_opts = nkv;
}

static void dir_fill(struct dir_result *d, uint64_t bytes, uint64_t ios, uint64_t runtime_ns)
{
	d->io_bytes = bytes;
	d->total_ios = ios;
	d->runtime_ns = runtime_ns;
	runstat_init(&d->slat);
	runstat_init(&d->clat);
	runstat_init(&d->lat);
	runstat_init(&d->bw);
	runstat_init(&d->iops);
	hist_init(&d->slat_hist);
	hist_init(&d->clat_hist);
	hist_init(&d->lat_hist);
	/* 1000 latencies: 1 us, 2 us, ... 1 ms */
	for (uint64_t i = 1; ios && i <= 1000; i++) {
		runstat_add(&d->clat, (double)(i * 1000));
		hist_add(&d->clat_hist, i * 1000);
		runstat_add(&d->lat, (double)(i * 1000 + 200));
		hist_add(&d->lat_hist, i * 1000 + 200);
	}
}

static struct run_result *make_result(void)
{
	struct run_result *r = calloc(1, sizeof(*r));
	struct job_result *j;

	r->version = RESULTS_VERSION;
	r->timestamp = 1700000000;
	r->timestamp_ms = 1700000000123ull;
	snprintf(r->time_str, sizeof(r->time_str), "Tue Nov 14 22:13:20 2023");
	r->global_opts = global_kv;
	r->nr_global_opts = 3;
	r->nr_jobs = 3;
	r->jobs = calloc(3, sizeof(*r->jobs));

	/* group 0: 5 clones merged, sequential writes, 500 MiB in 2 s */
	j = &r->jobs[0];
	j->name = (char *)"seqw";
	j->groupid = 0;
	j->nr_jobs = 5;
	j->spec = calloc(1, sizeof(*j->spec));
	spec_init(j->spec, "seqw", RW_WRITE, 8192, seqw_kv, 7);
	j->spec->groupid = 0;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		dir_fill(&j->dir[d], 0, 0, 0);
	dir_fill(&j->dir[DDIR_WRITE], 500 * MiB, 64000, 2000000000ull);
	runstat_add(&j->dir[DDIR_WRITE].bw, 240000.0 * 1024);
	runstat_add(&j->dir[DDIR_WRITE].bw, 250000.0 * 1024);
	runstat_add(&j->dir[DDIR_WRITE].bw, 260000.0 * 1024);
	runstat_add(&j->dir[DDIR_WRITE].iops, 31000);
	runstat_add(&j->dir[DDIR_WRITE].iops, 32000);
	runstat_add(&j->dir[DDIR_WRITE].iops, 33000);
	j->elapsed_s = 3;
	j->runtime_ns = 2000000000ull;
	j->usr_cpu = 10.5;
	j->sys_cpu = 20.25;
	j->ctx = 1000;
	j->minf = 50;
	j->iodepth_level[0] = 64000;
	j->iodepth_submit[1] = 64000;
	j->iodepth_complete[1] = 64000;
	j->lat_us[2] = 32000;
	j->lat_us[6] = 31995;
	j->lat_ms[0] = 5;
	j->lat_total = 64000;
	runstat_init(&j->sync.lat);
	hist_init(&j->sync.lat_hist);

	/* group 1: two randrw jobs, 1 s and 2 s */
	for (int k = 1; k <= 2; k++) {
		j = &r->jobs[k];
		j->name = (char *)"mix";
		j->groupid = 1;
		j->nr_jobs = 1;
		j->spec = calloc(1, sizeof(*j->spec));
		spec_init(j->spec, "mix", RW_READ | RW_WRITE | RW_RAND, 4096, mix_kv, 5);
		j->spec->jobnum = (unsigned)(k - 1);
		j->spec->groupid = 1;
		dir_fill(&j->dir[DDIR_TRIM], 0, 0, 0);
		runstat_init(&j->sync.lat);
		hist_init(&j->sync.lat_hist);
		j->iodepth_level[0] = 1;
		j->lat_us[3] = 1;
		j->lat_total = 1;
	}
	dir_fill(&r->jobs[1].dir[DDIR_READ], 40 * MiB, 10240, 1000000000ull);
	dir_fill(&r->jobs[1].dir[DDIR_WRITE], 20 * MiB, 5120, 1000000000ull);
	dir_fill(&r->jobs[2].dir[DDIR_READ], 60 * MiB, 15360, 2000000000ull);
	dir_fill(&r->jobs[2].dir[DDIR_WRITE], 10 * MiB, 2560, 2000000000ull);
	r->jobs[2].error = EIO;
	r->jobs[2].error_msg = (char *)"mix.1.0:4096: input/output error";
	r->jobs[2].total_err = 3;

	r->nr_disks = 1;
	r->disks = calloc(1, sizeof(*r->disks));
	snprintf(r->disks[0].name, sizeof(r->disks[0].name), "vdz");
	r->disks[0].read_ios = 100;
	r->disks[0].write_ios = 200;
	r->disks[0].read_merges = 1;
	r->disks[0].write_merges = 2;
	r->disks[0].read_ticks = 30;
	r->disks[0].write_ticks = 40;
	r->disks[0].in_queue = 70;
	r->disks[0].util = 42.5;
	return r;
}

static char *render(const struct run_result *r, unsigned formats, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = report_write(r, formats, f);
	fclose(f);
	return buf;
}

static void test_numfmt(void)
{
	char b[NUMFMT_LEN];

	CHECK(!strcmp(numfmt(b, 4071424, 4, true, NUMFMT_BYTE), "3976KiB"), "%s", b);
	CHECK(!strcmp(numfmt(b, 4071424, 4, false, NUMFMT_BYTE), "4071kB"), "%s", b);
	CHECK(!strcmp(numfmt(b, 52197743, 4, true, NUMFMT_BYTEPERSEC), "49.8MiB/s"), "%s", b);
	CHECK(!strcmp(numfmt(b, 52197743, 4, false, NUMFMT_BYTEPERSEC), "52.2MB/s"), "%s", b);
	CHECK(!strcmp(numfmt(b, 12743, 4, false, NUMFMT_NONE), "12.7k"), "%s", b);
	CHECK(!strcmp(numfmt(b, 4238000, 4, false, NUMFMT_NONE), "4238k"), "%s", b);
	CHECK(!strcmp(numfmt(b, 7951, 4, false, NUMFMT_NONE), "7951"), "%s", b);
	CHECK(!strcmp(numfmt(b, 61407000, 6, false, NUMFMT_NONE), "61407k"), "%s", b);
	CHECK(!strcmp(numfmt(b, 4066900, 6, false, NUMFMT_NONE), "4066.9k"), "%s", b);
	CHECK(!strcmp(numfmt(b, 65536, 4, true, NUMFMT_BYTE), "64.0KiB"), "%s", b);
	/* a fraction that rounds to a whole unit carries */
	CHECK(!strcmp(numfmt(b, 20971520, 4, false, NUMFMT_BYTEPERSEC), "21.0MB/s"), "%s", b);

	uint64_t mn = 2585, mx = 43613;
	double mean = 3300.85, dev = 2448.73;
	CHECK(!strcmp(lat_unit_scale(&mn, &mx, &mean, &dev), "nsec"), "small max stays nsec");
	mn = 32000, mx = 461000, mean = 73400, dev = 24250;
	CHECK(!strcmp(lat_unit_scale(&mn, &mx, &mean, &dev), "usec") && mn == 32 && mx == 461,
	      "usec scaling %llu %llu", (unsigned long long)mn, (unsigned long long)mx);
}

static void test_parse(void)
{
	unsigned f = 0;

	CHECK(report_parse_formats("normal", &f) == 0 && f == REPORT_NORMAL, "normal");
	CHECK(report_parse_formats("normal,json", &f) == 0 && f == (REPORT_NORMAL | REPORT_JSON),
	      "normal,json %u", f);
	CHECK(report_parse_formats("json+,terse", &f) == 0 && f == (REPORT_JSONPLUS | REPORT_TERSE),
	      "json+,terse %u", f);
	CHECK(report_parse_formats("xml", &f) == -EINVAL, "unknown name");
	CHECK(report_parse_formats("normal,", &f) == -EINVAL, "empty name");
	CHECK(report_parse_formats("", &f) == -EINVAL, "empty string");
}

static void test_groups(const struct run_result *r)
{
	struct report_group g;

	report_group_compute(r, 1, &g);
	CHECK(g.nr_entries == 2, "entries %u", g.nr_entries);
	CHECK(g.io_bytes[DDIR_READ] == 100 * MiB, "read io");
	CHECK(g.aggrb[DDIR_READ] == 50 * MiB, "aggrb %llu", (unsigned long long)g.aggrb[0]);
	CHECK(g.minb[DDIR_READ] == 30 * MiB, "minb %llu", (unsigned long long)g.minb[0]);
	CHECK(g.maxb[DDIR_READ] == 40 * MiB, "maxb %llu", (unsigned long long)g.maxb[0]);
	CHECK(g.mint_ns[DDIR_READ] == 1000000000ull && g.maxt_ns[DDIR_READ] == 2000000000ull,
	      "mint/maxt");
	CHECK(g.maxt_ns[DDIR_TRIM] == 0, "trim unused");
	report_group_compute(r, 0, &g);
	CHECK(g.aggrb[DDIR_WRITE] == 250 * MiB && g.maxt_ns[DDIR_READ] == 0, "group 0");
	CHECK(report_max_groupid(r) == 1, "max groupid");
}

static void test_normal(const struct run_result *r)
{
	int ret;
	char *s = render(r, REPORT_NORMAL, &ret);

	CHECK(ret == 0, "normal ret %d", ret);
	CHECK(strstr(s, "seqw: (groupid=0, jobs=5): err= 0: Tue Nov 14 22:13:20 2023\n") != NULL,
	      "header");
	CHECK(strstr(s, "  write: IOPS=32.0k, BW=250MiB/s (262MB/s)(500MiB/2000msec); 0 zone resets\n")
	      != NULL, "seqw write line");
	CHECK(strstr(s, "    clat (nsec): min=1000, max=1000.0k, avg=500500.00, stdev=288819.44\n") != NULL,
	      "clat line");
	CHECK(strstr(s, "    clat percentiles (usec):\n     |  1.00th=[   11],  5.00th=[   50],")
	      != NULL, "percentile block");
	CHECK(strstr(s, " 50.00th=[  502],") != NULL, "p50 usec");
	CHECK(strstr(s, "   bw (  KiB/s): min=240000, max=260000, per=97.66%, avg=250000.00, stdev=10000.00, samples=3\n")
	      != NULL, "bw line");
	CHECK(strstr(s, "   iops        : min=31000, max=33000, avg=32000.00, stdev=1000.00, samples=3\n")
	      != NULL, "iops line");
	CHECK(strstr(s, "  lat (usec)   : 10=50.00%, 250=49.99%\n  lat (msec)   : 2=0.01%\n") != NULL,
	      "latency distribution");
	CHECK(strstr(s, "  cpu          : usr=10.50%, sys=20.25%, ctx=1000, majf=0, minf=50\n") != NULL,
	      "cpu");
	CHECK(strstr(s, "  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%\n")
	      != NULL, "depths");
	CHECK(strstr(s, "     issued rwts: total=0,64000,0,0 short=0,0,0,0 dropped=0,0,0,0\n") != NULL,
	      "issued");
	CHECK(strstr(s, "  read: IOPS=10.2k, BW=40.0MiB/s (41.9MB/s)(40.0MiB/1000msec)\n") != NULL,
	      "mix read line");
	CHECK(strstr(s, "mix: (groupid=1, jobs=1): err= 5 (mix.1.0:4096: input/output error): ") != NULL,
	      "error header");
	CHECK(strstr(s, "     errors    : total=3, first_error=5/<mix.1.0:4096: input/output error>\n")
	      != NULL, "error line");
	CHECK(strstr(s, "\nRun status group 0 (all jobs):\n  WRITE: bw=250MiB/s (262MB/s), "
		     "250MiB/s-250MiB/s (262MB/s-262MB/s), io=500MiB (524MB), run=2000-2000msec\n")
	      != NULL, "group 0");
	CHECK(strstr(s, "\nRun status group 1 (all jobs):\n   READ: bw=50.0MiB/s (52.4MB/s), "
		     "30.0MiB/s-40.0MiB/s (31.5MB/s-41.9MB/s), io=100MiB (105MB), run=1000-2000msec\n"
		     "  WRITE: bw=15.0MiB/s (15.7MB/s), 5120KiB/s-20.0MiB/s (5243kB/s-21.0MB/s), "
		     "io=30.0MiB (31.5MB), run=1000-2000msec\n") != NULL, "group 1");
	CHECK(strstr(s, "\nDisk stats (read/write):\n  vdz: ios=100/200, merge=1/2, ticks=30/40, "
		     "in_queue=70, util=42.50%\n") != NULL, "disk line");
	CHECK(strstr(s, "interrupted") == NULL, "not interrupted");
	free(s);

	struct run_result copy = *r;
	copy.interrupted = true;
	s = render(&copy, REPORT_NORMAL, &ret);
	char *intr = strstr(s, "run interrupted");
	char *grp = strstr(s, "Run status group 0");
	CHECK(intr && grp && intr < grp, "interrupted noted above the run status");
	free(s);

	/* past 1 GiB/s the bw sample line switches to MiB/s */
	struct job_result *jobs = malloc(r->nr_jobs * sizeof(*jobs));
	memcpy(jobs, r->jobs, r->nr_jobs * sizeof(*jobs));
	copy.interrupted = false;
	copy.jobs = jobs;
	runstat_init(&jobs[0].dir[DDIR_WRITE].bw);
	runstat_add(&jobs[0].dir[DDIR_WRITE].bw, 2048.0 * MiB);
	runstat_add(&jobs[0].dir[DDIR_WRITE].bw, 2048.0 * MiB);
	s = render(&copy, REPORT_NORMAL, &ret);
	CHECK(strstr(s, "   bw (  MiB/s): min= 2048, max= 2048, per=100.00%, avg=2048.00, "
		     "stdev= 0.00, samples=2\n") != NULL, "bw line in MiB/s");
	free(s);
	free(jobs);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	report_job_lines(r, f);
	fclose(f);
	CHECK(!strcmp(buf, "seqw: (g=0): rw=write, bs=(R) 8192B-8192B, (W) 8192B-8192B, "
		      "(T) 8192B-8192B, ioengine=psync, iodepth=1\n...\n"
		      "mix: (g=1): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, "
		      "(T) 4096B-4096B, ioengine=psync, iodepth=1\n...\n"), "job lines:\n%s", buf);
	free(buf);
}

static unsigned count_fields(const char *line, size_t len)
{
	unsigned n = 1;
	for (size_t i = 0; i < len; i++)
		n += line[i] == ';';
	return n;
}

static void test_terse(const struct run_result *r)
{
	int ret;
	char *s = render(r, REPORT_TERSE, &ret);
	unsigned lines = 0;

	CHECK(ret == 0, "terse ret");
	for (char *p = s; *p; lines++) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		CHECK(count_fields(p, len) == 121 + 9, "line %u has %u fields", lines,
		      count_fields(p, len));
		p += len + (nl != NULL);
	}
	CHECK(lines == 3, "terse lines %u", lines);
	CHECK(!strncmp(s, "3;iobench-", 10), "terse version");
	/* seqw: no reads, then writes: 512000 KiB, 256000 KiB/s, 32000 iops, 2000 ms */
	CHECK(strstr(s, ";seqw;0;0;0;0;0;0;") != NULL, "seqw read zeros");
	CHECK(strstr(s, ";0%=0;0%=0;0%=0;") != NULL, "unused percentile slots");
	CHECK(strstr(s, ";512000;256000;32000;2000;0;0;0.000000;0.000000;1;1000;500.500000;") != NULL,
	      "seqw write fields");
	CHECK(strstr(s, ";50.000000%=501;") != NULL, "terse p50");
	CHECK(strstr(s, ";240000;260000;97.656250%;250000.000000;10000.000000;") != NULL, "terse bw");
	CHECK(strstr(s, ";vdz;100;200;1;2;30;40;70;42.50%\n") != NULL, "terse disk");
	CHECK(strstr(s, ";10.500000%;20.250000%;1000;0;50;100.0%;0.0%;") != NULL, "terse cpu+depth");
	free(s);
}

static const char *py_check =
	"import json, sys\n"
	"d = json.load(open(sys.argv[1]))\n"
	"plus = sys.argv[2] == '1'\n"
	"p50 = int(sys.argv[3])\n"
	"def ok(c, m):\n"
	"    if not c:\n"
	"        print('json check failed:', m); sys.exit(1)\n"
	"ok(list(d) == ['fio version', 'timestamp', 'timestamp_ms', 'time', 'global options',"
	" 'jobs', 'disk_util', 'iobench'], list(d))\n"
	"ok(d['fio version'].startswith('iobench-'), 'version')\n"
	"ok(d['timestamp_ms'] == 1700000000123, 'timestamp_ms')\n"
	"ok(d['global options'] == {'ioengine': 'psync', 'size': '8m'}, d['global options'])\n"
	"j = d['jobs'][0]\n"
	"ok(list(j) == ['jobname', 'groupid', 'error', 'eta', 'elapsed', 'job options', 'read',"
	" 'write', 'trim', 'sync', 'job_runtime', 'usr_cpu', 'sys_cpu', 'ctx', 'majf', 'minf',"
	" 'iodepth_level', 'iodepth_submit', 'iodepth_complete', 'latency_ns', 'latency_us',"
	" 'latency_ms', 'latency_depth', 'latency_target', 'latency_percentile',"
	" 'latency_window'], list(j))\n"
	"ok(j['job options'] == {'rw': 'write', 'bs': '8k', 'numjobs': '5'}, j['job options'])\n"
	"w = j['write']\n"
	"ok(list(w) == ['io_bytes', 'io_kbytes', 'bw_bytes', 'bw', 'iops', 'runtime', 'total_ios',"
	" 'short_ios', 'drop_ios', 'slat_ns', 'clat_ns', 'lat_ns', 'bw_min', 'bw_max', 'bw_agg',"
	" 'bw_mean', 'bw_dev', 'bw_samples', 'iops_min', 'iops_max', 'iops_mean', 'iops_stddev',"
	" 'iops_samples'], list(w))\n"
	"ok(w['io_bytes'] == 524288000 and w['io_kbytes'] == 512000, 'io')\n"
	"ok(w['bw_bytes'] == 262144000 and w['bw'] == 256000, 'bw')\n"
	"ok(w['iops'] == 32000.0 and w['runtime'] == 2000 and w['total_ios'] == 64000, 'iops')\n"
	"ok(abs(w['bw_agg'] - 97.65625) < 1e-6 and w['bw_min'] == 240000 and w['bw_max'] == 260000,"
	" 'bw samples')\n"
	"ok(w['bw_mean'] == 250000.0 and w['bw_samples'] == 3, 'bw mean')\n"
	"ok(w['iops_min'] == 31000 and w['iops_mean'] == 32000.0 and w['iops_stddev'] == 1000.0,"
	" 'iops samples')\n"
	"c = w['clat_ns']\n"
	"ok(c['min'] == 1000 and c['max'] == 1000000 and c['N'] == 1000, 'clat stats')\n"
	"ok(list(c['percentile'])[0] == '1.000000' and len(c['percentile']) == 17, 'percentile keys')\n"
	"ok(c['percentile']['50.000000'] == p50, ('p50', c['percentile']['50.000000'], p50))\n"
	"ok(c['percentile']['99.990000'] == 1000000, 'p99.99 clamps to max')\n"
	"ok('percentile' not in w['slat_ns'] and 'percentile' not in w['lat_ns'], 'only clat')\n"
	"ok(('bins' in c) == plus, 'bins only in json+')\n"
	"if plus:\n"
	"    ok(sum(c['bins'].values()) == 1000, 'bins sum')\n"
	"    ok(all(int(k) > 0 for k in c['bins']), 'bins keys')\n"
	"ok(j['read']['iops'] == 0.0 and j['read']['bw_agg'] == 0.0, 'unused read')\n"
	"ok('percentile' not in j['read']['clat_ns'] and j['read']['clat_ns']['N'] == 0, 'no samples')\n"
	"ok(j['latency_ms']['2'] == 0.01 and j['latency_us']['10'] == 50.0, 'latency dist')\n"
	"ok(j['iodepth_level']['1'] == 100.0 and j['iodepth_submit']['4'] == 100.0, 'depths')\n"
	"ok(j['job_runtime'] == 2000 and j['usr_cpu'] == 10.5 and j['minf'] == 50, 'cpu')\n"
	"ok(j['latency_depth'] == 1 and j['latency_percentile'] == 100.0, 'latency target')\n"
	"m = d['jobs'][2]\n"
	"ok(m['error'] == 5 and m['job options'] == {'rw': 'randrw', 'name': 'we\"ird\\\\name\\n'},"
	" m['job options'])\n"
	"ok(m['read']['bw_bytes'] == 31457280 and m['write']['bw'] == 5120, 'mix bw')\n"
	"du = d['disk_util'][0]\n"
	"ok(list(du) == ['name', 'read_ios', 'write_ios', 'read_merges', 'write_merges',"
	" 'read_ticks', 'write_ticks', 'in_queue', 'util'], list(du))\n"
	"ok(du['name'] == 'vdz' and du['util'] == 42.5, 'disk util')\n"
	"ib = d['iobench']\n"
	"ok(ib['interrupted'] is False and ib['results_version'] == 2 and 'warnings' not in ib, 'iobench key')\n"
	"ok(ib['jobs'][0]['jobs'] == 5 and ib['jobs'][2]['error_msg'].startswith('mix.1.0'),"
	" 'iobench jobs')\n";

static int python_ok(void)
{
	return system("python3 -c 'import json' >/dev/null 2>&1") == 0;
}

static void test_json(const struct run_result *r, bool plus)
{
	int ret;
	char *s = render(r, plus ? REPORT_JSONPLUS : REPORT_JSON, &ret);
	char jpath[] = "/tmp/iobench-test-report-XXXXXX";
	char ppath[] = "/tmp/iobench-test-report-py-XXXXXX";
	uint64_t p50 = hist_percentile(&r->jobs[0].dir[DDIR_WRITE].clat_hist, 50.0);
	char cmd[512];

	CHECK(ret == 0, "json ret %d", ret);
	CHECK(s[0] == '{' && s[strlen(s) - 2] == '}' && s[strlen(s) - 1] == '\n', "json only");
	CHECK(strstr(s, "{\n  \"fio version\" : \"iobench-") == s, "fio layout");
	CHECK(strstr(s, "\n        \"bw\" : 256000,\n") != NULL, "bw key layout");
	CHECK(strstr(s, "\"iops\" : 32000.000000,") != NULL, "float with 6 decimals");
	CHECK(fabs((double)p50 - 500000.0) <= 500000.0 / 128, "p50 %llu near 500us",
	      (unsigned long long)p50);
	CHECK(strstr(s, "\"time_based\"") == NULL && strstr(s, "\"group_reporting\"") == NULL,
	      "bare flags are not echoed");

	int jfd = mkstemp(jpath), pfd = mkstemp(ppath);
	CHECK(jfd >= 0 && pfd >= 0, "temp files");
	if (jfd < 0 || pfd < 0) {
		free(s);
		return;
	}
	CHECK(write(jfd, s, strlen(s)) == (ssize_t)strlen(s), "write json");
	CHECK(write(pfd, py_check, strlen(py_check)) == (ssize_t)strlen(py_check), "write py");
	close(jfd);
	close(pfd);
	if (python_ok()) {
		snprintf(cmd, sizeof(cmd), "python3 -m json.tool %s >/dev/null", jpath);
		CHECK(system(cmd) == 0, "python3 -m json.tool accepts the JSON");
		snprintf(cmd, sizeof(cmd), "python3 %s %s %d %llu", ppath, jpath, plus,
			 (unsigned long long)p50);
		CHECK(system(cmd) == 0, "JSON keys and values (plus=%d)", plus);
	} else {
		CHECK(0, "needs python3 (for the JSON parse checks): install it with scripts/deps.sh");
	}
	unlink(jpath);
	unlink(ppath);
	free(s);
}

static void test_json_writer(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer w;

	json_init(&w, f);
	json_object_begin(&w);
	json_kv_string(&w, "a\tb", "x\x01\"y");
	json_kv_array_begin(&w, "arr");
	json_int(&w, -3);
	json_bool(&w, true);
	json_double(&w, NAN);
	json_array_end(&w);
	json_kv_object_begin(&w, "empty");
	json_object_end(&w);
	json_object_end(&w);
	CHECK(json_finish(&w) == 0, "writer ok");
	fclose(f);
	CHECK(!strcmp(buf, "{\n  \"a\\tb\" : \"x\\u0001\\\"y\",\n  \"arr\" : [\n    -3,\n    true,\n"
		      "    null\n  ],\n  \"empty\" : {}\n}\n"), "writer layout:\n%s", buf);
	free(buf);

	f = open_memstream(&buf, &len);
	json_init(&w, f);
	json_object_begin(&w);
	json_int(&w, 1); /* value without a key */
	CHECK(json_finish(&w) == -EINVAL, "misuse is reported");
	fclose(f);
	free(buf);

	f = open_memstream(&buf, &len);
	json_init(&w, f);
	json_array_begin(&w);
	CHECK(json_finish(&w) == -EINVAL, "unclosed array is reported");
	fclose(f);
	free(buf);
}

static void test_combined(const struct run_result *r)
{
	int ret;
	char *s = render(r, REPORT_NORMAL | REPORT_JSON | REPORT_TERSE, &ret);
	char *t = strstr(s, "3;iobench-");
	char *j = strstr(s, "{\n  \"fio version\"");
	char *n = strstr(s, "seqw: (groupid=0");

	CHECK(ret == 0 && t == s && j && n && t < j && j < n, "order terse, json, normal");
	free(s);
	CHECK(report_write(r, 0, stdout) == -EINVAL, "empty mask");
}

int main(void)
{
	struct run_result *r = make_result();

	if (getenv("TEST_REPORT_DUMP")) { /* show what is checked, for debugging */
		report_job_lines(r, stdout);
		return report_write(r, REPORT_TERSE | REPORT_JSONPLUS | REPORT_NORMAL, stdout) ? 1 : 0;
	}
	test_numfmt();
	test_parse();
	test_json_writer();
	test_groups(r);
	test_normal(r);
	test_terse(r);
	test_json(r, false);
	test_json(r, true);
	test_combined(r);

	for (size_t i = 0; i < r->nr_jobs; i++) { /* names and specs are static */
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			hist_release(&r->jobs[i].dir[d].slat_hist);
			hist_release(&r->jobs[i].dir[d].clat_hist);
			hist_release(&r->jobs[i].dir[d].lat_hist);
		}
		hist_release(&r->jobs[i].sync.lat_hist);
		free(r->jobs[i].spec); /* its strings are static */
	}
	free(r->jobs);
	free(r->disks);
	free(r);
	return check_done("test_report");
}
