/*
 * The logs written by a real run (workload_run on the null engine, in a
 * temporary directory): one line per I/O with log_avg_msec=0 (every block
 * once, its offset and size, IOPS 1), fio's file names with per_job_logs
 * and without, the empty slat log of a synchronous engine, histogram lines
 * that add up to the I/O count but the last partial window's, and the
 * --bandwidth-log files (run_config.bandwidth_log): empty without JSON, one
 * line at the end with it.
 */
#include "check.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spec/options.h"
#include "workload/run.h"

static struct job_spec *add_job(struct job_list *l, const char *const *opts)
{
	struct job_spec *s = job_list_add(l);
	char why[256];
	for (; *opts; opts += 2) {
		int rc = option_set(s, opts[0], opts[1], why, sizeof(why));
		CHECK(rc == 0, "%s=%s: %s", opts[0], opts[1] ? opts[1] : "(flag)", why);
	}
	job_spec_finalize(s);
	return s;
}

/* bwlog: --bandwidth-log; json: the report has JSON (its last line) */
static int run(struct job_list *l, bool bwlog, bool json)
{
	static volatile sig_atomic_t stop;
	struct run_config cfg = { .notes = NULL, .stop = &stop, .bandwidth_log = bwlog,
				  .bandwidth_log_json = json };
	struct run_result res;
	int rc = workload_run(l, &cfg, &res);
	run_result_release(&res);
	job_list_release(l);
	return rc;
}

/* Lines of path, each split at ", " into at most 8 numbers. */
static unsigned read_lines(const char *path, unsigned long long (*v)[8], unsigned max,
			   unsigned *fields)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[65536];
	unsigned n = 0;
	*fields = 0;
	while (fgets(line, sizeof(line), f) && n < max) {
		unsigned k = 0;
		for (char *p = line; *p && *p != '\n';) {
			unsigned long long x = strtoull(p, &p, 0);
			if (k < 8)
				v[n][k] = x;
			k++;
			if (*p == ',')
				p += 2;
		}
		*fields = k;
		n++;
	}
	fclose(f);
	return n;
}

static off_t size_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_size : -1;
}

int main(void)
{
	char dir[] = "/tmp/test_joblog.XXXXXX";
	if (!mkdtemp(dir) || chdir(dir) != 0) {
		printf("not ok: a temporary directory %s: %s\n", dir, strerror(errno));
		return 1;
	}
	static unsigned long long v[4096][8];
	unsigned nf;

	struct job_list l = { 0 };
	add_job(&l, (const char *const[]){ "name", "a", "ioengine", "null", "rw", "randread",
		"size", "1m", "write_lat_log", "L", "write_bw_log", NULL, "write_iops_log", "",
		"log_offset", "1", "write_hist_log", "H", "log_hist_msec", "10", "rate_iops", "2000",
		NULL });
	CHECK(run(&l, true, false) == 0, "the run");
	unsigned n = read_lines("L_clat.1.log", v, 4096, &nf);
	CHECK(n == 256 && nf == 6, "one clat line per I/O with the offset column: %u lines, %u fields", n, nf);
	bool ok = true;
	static unsigned char seen[256];
	for (unsigned i = 0; i < n; i++) {
		ok &= v[i][2] == 0 && v[i][3] == 4096 && v[i][4] % 4096 == 0 && v[i][4] < (1 << 20);
		if (v[i][4] < (1 << 20))
			seen[v[i][4] / 4096]++;
	}
	for (unsigned b = 0; b < 256; b++)
		ok &= seen[b] == 1;
	CHECK(ok, "read, 4096 bytes, every block's offset once");
	n = read_lines("a_iops.1.log", v, 4096, &nf);
	ok = n == 256;
	for (unsigned i = 0; i < n; i++)
		ok &= v[i][1] == 1;
	CHECK(ok, "a bare write_iops_log is named after the job; IOPS 1 per I/O (%u lines)", n);
	CHECK(read_lines("a_bw.1.log", v, 4096, &nf) == 256, "an empty write_bw_log too");
	CHECK(read_lines("L_lat.1.log", v, 4096, &nf) == 256, "lat: one line per I/O");
	CHECK(size_of("L_slat.1.log") == 0, "slat log created and empty for a synchronous engine");
	n = read_lines("H_clat_hist.1.log", v, 4096, &nf);
	/* 256 I/Os at 2000/s: about 128 ms, a line per 10 ms window */
	CHECK(n >= 5 && nf == 3 + 1856, "histogram lines of 1859 fields: %u lines, %u fields", n, nf);
	unsigned long long sum = 0, last_t = 0;
	FILE *f = fopen("H_clat_hist.1.log", "r");
	char *line = NULL;
	size_t cap = 0;
	while (f && getline(&line, &cap, f) > 0) {
		char *p = line;
		for (unsigned k = 0; *p && *p != '\n'; k++) {
			unsigned long long x = strtoull(p, &p, 10);
			if (k == 0)
				last_t = x;
			if (k >= 3)
				sum += x;
			if (*p == ',')
				p += 2;
		}
	}
	free(line);
	if (f)
		fclose(f);
	/* as fio, no line for the last partial window: the lines count the
	 * I/Os done by the last line's time, which the per-I/O clat log above
	 * (stamped in whole ms) says to within a ms either side, however the
	 * rate limiter bunched them on a loaded machine */
	unsigned before = 0, by = 0;
	n = read_lines("L_clat.1.log", v, 4096, &nf);
	for (unsigned i = 0; i < n; i++) {
		before += v[i][0] + 1 < last_t;
		by += v[i][0] <= last_t + 1;
	}
	CHECK(sum <= 256 && sum >= before && sum <= by,
	      "histogram counts add up to the I/Os done by the last line at %llu ms: %llu (the clat "
	      "log: %u before %llu ms, %u by %llu ms)",
	      last_t, sum, before, last_t - 1, by, last_t + 1);
	static const char *const agg[] = { "agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log" };
	/* no progress shown, no JSON: fio 3.33 takes no --bandwidth-log sample */
	for (int d = 0; d < 3; d++)
		CHECK(size_of(agg[d]) == 0, "%s: created and empty without JSON", agg[d]);
	/* with JSON: one line at the end, more than bwavgtime after the start */
	l = (struct job_list){ 0 };
	add_job(&l, (const char *const[]){ "name", "g", "ioengine", "null", "size", "1m",
		"time_based", "1", "runtime", "200ms", "bwavgtime", "50", NULL });
	CHECK(run(&l, true, true) == 0, "the --bandwidth-log run with JSON");
	for (int d = 0; d < 3; d++) {
		n = read_lines(agg[d], v, 4096, &nf);
		CHECK(n == 1 && nf == 5 && v[0][0] >= 200 && v[0][2] == (unsigned)d && v[0][3] == 0,
		      "%s: one final 'time, KiB/s, %d, 0, 0' line (%u lines, %u fields)", agg[d], d, n,
		      nf);
	}

	/* numjobs=2, per_job_logs=0: one shared file with both jobs' lines */
	l = (struct job_list){ 0 };
	add_job(&l, (const char *const[]){ "name", "pj", "ioengine", "null", "size", "256k",
		"numjobs", "2", "per_job_logs", "0", "write_iops_log", "S", NULL });
	CHECK(run(&l, false, false) == 0, "the per_job_logs=0 run");
	CHECK(read_lines("S_iops.log", v, 4096, &nf) == 128 && nf == 5,
	      "S_iops.log holds both clones' 64 lines");
	CHECK(size_of("S_iops.1.log") < 0 && size_of("agg-read_bw.log") >= 0, "no .N file");

	/* a refused clock id fails before anything runs */
	l = (struct job_list){ 0 };
	add_job(&l, (const char *const[]){ "name", "c", "ioengine", "null", "size", "64k",
		"write_iops_log", "C", "log_alternate_epoch", "1", "log_alternate_epoch_clock_id", "77", NULL });
	CHECK(run(&l, false, false) < 0, "log_alternate_epoch_clock_id=77 is refused");

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(chdir("/") == 0 && system(cmd) == 0, "cleanup");
	return check_done("test_joblog");
}
