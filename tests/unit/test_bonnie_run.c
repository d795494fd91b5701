/*
 * The bonnie++ suite's runner on a real temporary directory with tiny
 * sizes: every phase runs and does exactly its work (bytes, seeks, files =
 * num_files×1024), skipped phases are not run, links and subdirectories,
 * -c 2 (two working sets, aggregate = sum of the copies), --precise (every
 * phase lasts 0.5 s, repeats counted, each phase announced once however
 * many cycles the file tests took), --random-data with a seed, a stop,
 * errors that name the path, and nothing is ever left in the directory.
 * Also the files per directory of -n :::dirs, as bonnie++ 2.00a's strace
 * shows them (n/dirs + 1 to each directory in order).
 */
#include "bonnie/bonnie.h"
#include "bonnie/bonnie_int.h"

#include "check.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024ull * 1024ull)

static char base[256];   /* a fresh directory, on tmpfs when there is one */
static char disk[256];   /* a fresh directory on a disk filesystem, for -D */

static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void small_spec(struct bonnie_spec *s)
{
	bonnie_spec_init(s);
	s->dir = base;
	s->file_size = 8 * MIB;
	s->putc_size = 64 * 1024;
	s->seeks = 300;
	s->seekers = 3;
	s->num_files = 1;
	s->max_size = 3000;
	s->min_size = 100;
	s->num_dirs = 3;
	s->file_chunk_size = 1024;
	s->quiet = true;
}

static void check_io_work(const struct bonnie_figures *f, const struct bonnie_spec *s,
			  const char *what)
{
	uint64_t want[BON_IO_TESTS] = { s->putc_size, s->file_size, s->file_size,
					s->putc_size, s->file_size, s->seeks };
	for (int t = 0; t < BON_IO_TESTS; t++) {
		const struct bonnie_phase *p = &f->io[t];
		CHECK(p->ran, "%s: io test %d ran", what, t);
		CHECK(p->work == want[t], "%s: io test %d did %llu, not %llu", what, t,
		      (unsigned long long)p->work, (unsigned long long)want[t]);
		CHECK(p->repeats >= 1 && p->elapsed_ns > 0, "%s: io test %d timed", what, t);
		CHECK(p->lat.count > 0 && p->max_lat_ns == p->lat.max, "%s: io test %d latencies", what, t);
		CHECK(p->rate > 0 && p->rate * (double)p->elapsed_ns / 1e9 > 0.99 * (double)p->work &&
		      p->rate * (double)p->elapsed_ns / 1e9 < 1.01 * (double)p->work,
		      "%s: io test %d rate = work / time", what, t);
	}
	/* one latency per operation: chunks (per-char ones too, as bonnie++), seeks */
	CHECK(f->io[BON_PUT_BLOCK].lat.count == s->file_size / s->chunk_size, "%s: a latency per chunk", what);
	CHECK(f->io[BON_REWRITE].lat.count == s->file_size / s->chunk_size, "%s: a latency per rewrite", what);
	CHECK(f->io[BON_PUTC].lat.count == (s->putc_size + s->chunk_size - 1) / s->chunk_size,
	      "%s: a latency per chunk of bytes", what);
	CHECK(f->io[BON_GETC].lat.count == f->io[BON_PUTC].lat.count, "%s: getc as putc", what);
	CHECK(f->io[BON_SEEKS].lat.count == s->seeks, "%s: a latency per seek", what);
}

static void check_file_work(const struct bonnie_figures *f, const struct bonnie_spec *s,
			    const char *what)
{
	for (int t = 0; t < BON_FILE_TESTS; t++) {
		const struct bonnie_phase *p = &f->file[t];
		CHECK(p->ran, "%s: file test %d ran", what, t);
		CHECK(p->work == (uint64_t)s->num_files * 1024 * p->repeats,
		      "%s: file test %d did %llu files in %u passes", what, t,
		      (unsigned long long)p->work, p->repeats);
		CHECK(p->lat.count == p->work, "%s: file test %d: a latency per file", what, t);
	}
}

static void test_basic(void)
{
	struct bonnie_spec s;
	struct bonnie_result r;
	volatile sig_atomic_t stop = 0;
	small_spec(&s);
	s.have_seed = true;
	s.seed = 1234;
	int rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == 0, "basic run: %d %s", rc, r.error_msg ? r.error_msg : "");
	CHECK(r.nr_copies == 1 && r.seed == 1234 && !r.interrupted && !r.error, "basic result");
	check_io_work(&r.copies[0], &s, "basic");
	check_file_work(&r.copies[0], &s, "basic");
	check_io_work(&r.total, &s, "basic total");
	CHECK(r.total.io[BON_SEEKS].rate == r.copies[0].io[BON_SEEKS].rate, "one copy: total = copy");
	CHECK(entries(base) == 0, "nothing left after a run: %d entries", entries(base));
	bonnie_result_release(&r);
}

static void test_skips_and_links(void)
{
	struct bonnie_spec s;
	struct bonnie_result r;
	volatile sig_atomic_t stop = 0;
	small_spec(&s);
	s.skip_putc = true;
	s.num_dirs = 0;
	s.max_size = BONNIE_HARD_LINKS;
	s.min_size = 0;
	s.sync_writes = false;
	int rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == 0, "hard links: %d %s", rc, r.error_msg ? r.error_msg : "");
	CHECK(!r.total.io[BON_PUTC].ran && !r.total.io[BON_GETC].ran, "bare -f skips per-char");
	CHECK(r.total.io[BON_PUT_BLOCK].ran && r.total.io[BON_PUT_BLOCK].work == s.file_size, "block output ran");
	check_file_work(&r.total, &s, "hard links");
	CHECK(entries(base) == 0, "nothing left after hard links");
	bonnie_result_release(&r);

	small_spec(&s);
	s.file_size = 0; /* -s 0: no I/O tests */
	s.max_size = BONNIE_SOFT_LINKS;
	s.min_size = 0;
	s.num_dirs = 2;
	s.sync_writes = true; /* -b: fsync of each file and directory */
	rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == 0, "soft links: %d %s", rc, r.error_msg ? r.error_msg : "");
	for (int t = 0; t < BON_IO_TESTS; t++)
		CHECK(!r.total.io[t].ran, "-s 0 skips io test %d", t);
	check_file_work(&r.total, &s, "soft links");
	CHECK(entries(base) == 0, "nothing left after soft links");
	bonnie_result_release(&r);

	small_spec(&s);
	s.dir = disk;
	s.num_files = 0; /* -n 0: no file tests */
	s.file_size = 2 * MIB;
	s.random_data = true;
	s.direct = true;
	s.chunk_size = 4096;
	rc = bonnie_run(&s, &stop, &r);
	if (rc == -EINVAL && r.error_msg && strstr(r.error_msg, "O_DIRECT")) {
		SKIP("-D (O_DIRECT)", "the filesystem under %s refuses it: %s", base, r.error_msg);
	} else {
		CHECK(rc == 0, "-D --random-data: %d %s", rc, r.error_msg ? r.error_msg : "");
		check_io_work(&r.total, &s, "direct");
	}
	for (int t = 0; t < BON_FILE_TESTS; t++)
		CHECK(!r.total.file[t].ran, "-n 0 skips file test %d", t);
	CHECK(entries(disk) == 0, "nothing left after -D");
	bonnie_result_release(&r);
}

static void test_copies(void)
{
	struct bonnie_spec s;
	struct bonnie_result r;
	volatile sig_atomic_t stop = 0;
	small_spec(&s);
	s.concurrency = 2;
	int rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == 0, "-c 2: %d %s", rc, r.error_msg ? r.error_msg : "");
	CHECK(r.nr_copies == 2, "two copies");
	for (unsigned i = 0; i < r.nr_copies; i++) {
		check_io_work(&r.copies[i], &s, "copy");
		check_file_work(&r.copies[i], &s, "copy");
	}
	for (int t = 0; t < BON_IO_TESTS; t++) {
		const struct bonnie_phase *a = &r.copies[0].io[t], *b = &r.copies[1].io[t], *tot = &r.total.io[t];
		CHECK(tot->work == a->work + b->work, "io %d: total work is the sum", t);
		CHECK(tot->rate == a->rate + b->rate, "io %d: total rate is the sum", t);
		CHECK(tot->elapsed_ns == (a->elapsed_ns > b->elapsed_ns ? a->elapsed_ns : b->elapsed_ns),
		      "io %d: total time is the longest copy's", t);
		CHECK(tot->lat.count == a->lat.count + b->lat.count, "io %d: histograms merged", t);
	}
	for (int t = 0; t < BON_FILE_TESTS; t++)
		CHECK(r.total.file[t].work == 2048 && r.total.file[t].rate ==
		      r.copies[0].file[t].rate + r.copies[1].file[t].rate, "file %d: total is the sum", t);
	CHECK(entries(base) == 0, "nothing left after -c 2");
	bonnie_result_release(&r);
}

static void count_phase(void *arg, unsigned phase)
{
	unsigned *seen = arg;
	if (phase < BON_IO_TESTS + BON_FILE_TESTS)
		seen[phase]++;
}

static void test_precise(void)
{
	unsigned seen[BON_IO_TESTS + BON_FILE_TESTS] = { 0 };
	struct bonnie_spec s;
	struct bonnie_result r;
	volatile sig_atomic_t stop = 0;
	small_spec(&s);
	s.file_size = 1 * MIB;
	s.putc_size = 16 * 1024;
	s.seeks = 50;
	s.max_size = 0;
	s.min_size = 0;
	s.num_dirs = 0;
	s.precise = true;
	s.before_phase = count_phase;
	s.before_phase_arg = seen;
	int rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == 0, "--precise: %d %s", rc, r.error_msg ? r.error_msg : "");
	/* however many cycles: each phase announced once (-y s counts on it) */
	for (int k = 0; k < BON_IO_TESTS + BON_FILE_TESTS; k++)
		CHECK(seen[k] == 1, "phase %d announced %u times", k, seen[k]);
	CHECK(r.total.file[BON_SEQ_CREATE].repeats > 1, "tiny file tests needed more than one cycle");
	unsigned more = 0;
	for (int t = 0; t < BON_IO_TESTS; t++) {
		const struct bonnie_phase *p = &r.total.io[t];
		uint64_t one[BON_IO_TESTS] = { s.putc_size, s.file_size, s.file_size, s.putc_size,
					       s.file_size, s.seeks };
		CHECK(p->ran && p->elapsed_ns >= BONNIE_MIN_TIME_NS && !bonnie_phase_too_short(p),
		      "--precise io %d lasted %llu ns", t, (unsigned long long)p->elapsed_ns);
		CHECK(p->work == one[t] * p->repeats, "io %d: %u repeats did %llu", t, p->repeats,
		      (unsigned long long)p->work);
		more += p->repeats > 1;
	}
	for (int t = 0; t < BON_FILE_TESTS; t++) {
		const struct bonnie_phase *p = &r.total.file[t];
		CHECK(p->ran && p->elapsed_ns >= BONNIE_MIN_TIME_NS, "--precise file %d lasted %llu ns", t,
		      (unsigned long long)p->elapsed_ns);
		unsigned cycles = r.total.file[t / 3 * 3].repeats;
		if (t % 3 == 1) /* stat repeats its pass inside a cycle too */
			CHECK(p->repeats >= cycles, "file %d: %u passes in %u cycles", t, p->repeats, cycles);
		else
			CHECK(p->repeats == cycles, "file %d: one pass per cycle", t);
	}
	check_file_work(&r.total, &s, "precise");
	CHECK(more > 0, "tiny phases were repeated");
	CHECK(entries(base) == 0, "nothing left after --precise");
	bonnie_result_release(&r);
}

/* Whether a file under DIR (or one folder down) has data yet. */
static bool data_written(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		char p[512];
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (lstat(p, &st) < 0)
			continue;
		if (S_ISREG(st.st_mode) && st.st_size > 0)
			found = true;
		else if (S_ISDIR(st.st_mode) && depth > 0)
			found = data_written(p, depth - 1);
	}
	closedir(d);
	return found;
}

/* Stops the run 100 ms into its per-char writes: not at a fixed time from
 * the start, which a slow (sanitizer, loaded) machine may spend before
 * the first phase begins. */
static void *stopper(void *arg)
{
	for (int i = 0; i < 6000 && !data_written(base, 2); i++)
		usleep(5000);
	usleep(100000);
	*(volatile sig_atomic_t *)arg = 1;
	return NULL;
}

static void test_stop_and_errors(void)
{
	struct bonnie_spec s;
	struct bonnie_result r;
	volatile sig_atomic_t stop = 0;
	pthread_t th;
	small_spec(&s);
	s.file_size = 64 * MIB;
	s.putc_size = 64 * MIB; /* long enough to be stopped in the middle */
	s.concurrency = 2;
	pthread_create(&th, NULL, stopper, (void *)&stop);
	int rc = bonnie_run(&s, &stop, &r);
	pthread_join(th, NULL);
	CHECK(rc == -EINTR && r.interrupted && !r.error, "stopped: %d", rc);
	CHECK(r.total.io[BON_PUTC].ran && r.total.io[BON_PUTC].work < 2 * s.putc_size,
	      "partial per-char figures kept");
	CHECK(!r.total.io[BON_SEEKS].ran && !r.total.file[BON_RAN_DEL].ran, "later phases skipped");
	CHECK(entries(base) == 0, "nothing left after a stop: %d", entries(base));
	bonnie_result_release(&r);

	small_spec(&s);
	stop = 0;
	char missing[300];
	snprintf(missing, sizeof(missing), "%s/no-such-dir", base);
	s.dir = missing;
	rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == -ENOENT && r.error == ENOENT, "missing dir: %d", rc);
	CHECK(r.error_msg && strstr(r.error_msg, missing) && strstr(r.error_msg, "No such file"),
	      "message names the path: %s", r.error_msg ? r.error_msg : "");
	bonnie_result_release(&r);

	char file[300];
	snprintf(file, sizeof(file), "%s/a-file", base);
	FILE *fp = fopen(file, "w");
	if (fp)
		fclose(fp);
	s.dir = file;
	rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == -ENOTDIR && r.error_msg && strstr(r.error_msg, file), "not a directory: %s",
	      r.error_msg ? r.error_msg : "");
	bonnie_result_release(&r);
	unlink(file);

	small_spec(&s);
	s.guard.readonly_by = "--readonly";
	rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == -EROFS && r.error_msg && strstr(r.error_msg, "--readonly"), "read-only: %s",
	      r.error_msg ? r.error_msg : "");
	bonnie_result_release(&r);

	/* -Z: the seed is the file's first four bytes, in network byte order */
	char seedfile[300];
	snprintf(seedfile, sizeof(seedfile), "%s/seed", base);
	fp = fopen(seedfile, "w");
	if (fp) {
		fwrite("\x01\x02\x03\x04\x05", 1, 5, fp);
		fclose(fp);
	}
	small_spec(&s);
	s.file_size = 0;
	s.num_files = 0;
	s.random_file = seedfile;
	rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == 0 && r.seed == 0x01020304, "-Z seed %llx", (unsigned long long)r.seed);
	bonnie_result_release(&r);
	unlink(seedfile);
	s.random_file = seedfile; /* gone now */
	rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == -ENOENT && r.error_msg && strstr(r.error_msg, seedfile), "-Z missing: %s",
	      r.error_msg ? r.error_msg : "");
	bonnie_result_release(&r);

	small_spec(&s);
	s.file_size = 10 * MIB;
	s.chunk_size = 3000;
	rc = bonnie_run(&s, &stop, &r);
	CHECK(rc == -EINVAL && r.error_msg && strstr(r.error_msg, "power of 2"), "bad spec: %s",
	      r.error_msg ? r.error_msg : "");
	bonnie_result_release(&r);
	CHECK(entries(base) == 0, "nothing left after the errors");
}

/* Count the files bon_file_dir puts in each directory, in order: runs[k]
 * is the k-th directory's count; returns the number of directories used. */
static unsigned dir_runs(uint64_t n, unsigned ndirs, unsigned *runs, unsigned max)
{
	unsigned used = 0;
	uint32_t prev = 0;
	bool in_range = true, in_order = true;
	for (uint64_t i = 0; i < n; i++) {
		uint32_t d = bon_file_dir(i, n, ndirs);
		in_range &= d < (ndirs ? ndirs : 1);
		in_order &= i == 0 || d == prev || d == prev + 1;
		if (i == 0 || d != prev)
			used++;
		if (d < max)
			runs[d]++;
		prev = d;
	}
	CHECK(in_range, "%llu files in %u directories: every one in an existing directory",
	      (unsigned long long)n, ndirs);
	CHECK(in_order, "%llu files in %u directories: filled in order", (unsigned long long)n, ndirs);
	return used;
}

/* Measured with strace on bonnie++ 2.00a (-n 1:0:0:dirs), both tests. */
static void test_dir_counts(void)
{
	unsigned r[2048] = { 0 };
	CHECK(dir_runs(1024, 4, r, 2048) == 4 && r[0] == 257 && r[1] == 257 && r[2] == 257 &&
	      r[3] == 253, "-n 1:0:0:4: %u %u %u %u", r[0], r[1], r[2], r[3]);
	memset(r, 0, sizeof(r));
	CHECK(dir_runs(1024, 3, r, 2048) == 3 && r[0] == 342 && r[1] == 342 && r[2] == 340,
	      "-n 1:0:0:3: %u %u %u", r[0], r[1], r[2]);
	memset(r, 0, sizeof(r));
	CHECK(dir_runs(1024, 2, r, 2048) == 2 && r[0] == 513 && r[1] == 511, "-n 1:0:0:2");
	memset(r, 0, sizeof(r));
	CHECK(dir_runs(1024, 50, r, 2048) == 49 && r[0] == 21 && r[47] == 21 && r[48] == 16 &&
	      r[49] == 0, "-n 1:0:0:50: 48 x 21 and 16, the last one empty");
	memset(r, 0, sizeof(r));
	CHECK(dir_runs(1024, 1000, r, 2048) == 512 && r[0] == 2 && r[511] == 2 && r[512] == 0,
	      "-n 1:0:0:1000: 512 directories of 2");
	memset(r, 0, sizeof(r));
	CHECK(dir_runs(1024, 2000, r, 2048) == 1024 && r[1023] == 1 && r[1024] == 0,
	      "-n 1:0:0:2000: 1024 directories of 1");
	memset(r, 0, sizeof(r));
	CHECK(dir_runs(1024, 0, r, 2048) == 1 && r[0] == 1024, "no -n :::dirs: one directory");
}

int main(void)
{
	/* File tests on a busy ext4 spend their time in the inode allocator,
	 * so the many small runs here use tmpfs (/dev/shm) when it exists. */
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	tmp = tmp && *tmp ? tmp : "/tmp";
	snprintf(disk, sizeof(disk), "%s/test_bonnie_XXXXXX", tmp);
	snprintf(base, sizeof(base), "%s/test_bonnie_XXXXXX",
		 stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0
			 ? "/dev/shm" : tmp);
	if (!mkdtemp(base) || !mkdtemp(disk)) {
		perror("mkdtemp");
		return 1;
	}
	test_dir_counts();
	test_basic();
	test_skips_and_links();
	test_copies();
	test_stop_and_errors();
	test_precise();
	rmdir(base);
	rmdir(disk);
	return check_done("bonnie_run");
}
