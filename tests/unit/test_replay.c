/*
 * Replay input (workload/replay/replay.h): fio's iolog versions 2 and 3 read as
 * entries with the replay options applied as fio 3.33 applies them (delays
 * from the timestamps, replay_time_scale, replay_no_stall, v2 waits,
 * replay_skip, replay_scale then replay_align, replay_redirect, read-only
 * mode, lines fio skips, a file used before its add), blktrace records
 * (both byte orders; queue events only; discards, flushes, zero-byte
 * traces and notifies; an open before a device's first I/O and a close per
 * device at the end), and the option parsers' refusals.
 */
#include "check.h"

#include <byteswap.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/blktrace_api.h>

#include "spec/jobspec.h"
#include "spec/options.h"
#include "workload/replay/replay_int.h"

static char dir[] = "/tmp/iobench-test-replay.XXXXXX";

static const char *put(const char *name, const void *data, size_t len)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	fwrite(data, 1, len, f);
	fclose(f);
	return path;
}

static void spec_with(struct job_spec *s, const char *const *kv)
{
	char why[512];
	job_spec_defaults(s);
	for (; kv && kv[0]; kv += 2)
		if (option_set(s, kv[0], kv[1], why, sizeof(why)))
			printf("# %s\n", why);
}

/* All entries of a log as text lines "K F D OFF LEN DELAY", K the kind. */
static int read_all(const char *path, const struct job_spec *s, bool ro, char *out, size_t outlen,
		    struct replay_files *files, uint64_t *skipped)
{
	struct replay_src src;
	int rc = replay_src_open(&src, path, s, ro);
	if (rc < 0)
		return rc;
	struct replay_entry e;
	size_t n = 0;
	out[0] = 0;
	while ((rc = replay_src_next(&src, files, &e)) > 0)
		n += (size_t)snprintf(out + n, outlen - n, "%c%u%c%llu+%llu@%llu ", "AOCIW"[e.kind],
				      e.file, e.kind == RP_IO ? "rwtsd"[e.ddir] : '-',
				      (unsigned long long)e.offset, (unsigned long long)e.len,
				      (unsigned long long)e.delay_us);
	if (skipped)
		*skipped = src.skipped_ro;
	replay_src_close(&src);
	return rc;
}

static void test_v3(void)
{
	const char *log = "fio version 3 iolog\n"
			  "10 /x/a add\n20 /x/a open\n30 /x/a read 0 4096\n"
			  "130 /x/a write 8192 512\n180 /x/a wait 5 0\n"
			  "200 /x/a trim 4096 4096\n300 /x/a sync 8192 0\n"
			  "400 /x/a datasync 0 0\nbogus line\n500 /x/a close\n";
	const char *p = put("v3.log", log, strlen(log));
	struct job_spec s;
	struct replay_files files = { 0 };
	char got[2048];
	spec_with(&s, NULL);
	CHECK(read_all(p, &s, false, got, sizeof(got), &files, NULL) == 0, "v3 reads");
	CHECK(!strcmp(got, "A0-0+0@0 O0-0+0@10 I0r0+4096@10 I0w8192+512@100 I0t4096+4096@20 "
			   "I0s8192+0@100 I0d0+0@100 C0-0+0@100 "), "v3 entries (a skipped line's time still counts, as fio): %s", got);
	CHECK(files.n == 1 && !strcmp(files.names[0], "/x/a") && files.end[0] == 8704 &&
	      files.what[0] == 3, "v3 files: %u, end %llu, what %u", files.n,
	      (unsigned long long)files.end[0], files.what[0]);
	replay_files_free(&files);
	job_spec_release(&s);

	const char *const slow[] = { "replay_time_scale", "50", NULL };
	spec_with(&s, slow);
	read_all(p, &s, false, got, sizeof(got), &files, NULL);
	CHECK(strstr(got, "I0w8192+512@200 "), "replay_time_scale=50 doubles the delays: %s", got);
	replay_files_free(&files);
	job_spec_release(&s);

	const char *const fast[] = { "replay_no_stall", "1", NULL };
	spec_with(&s, fast);
	read_all(p, &s, false, got, sizeof(got), &files, NULL);
	CHECK(!strstr(got, "@1"), "replay_no_stall: no delay at all: %s", got);
	replay_files_free(&files);
	job_spec_release(&s);

	/* readonly: writes and trims are left out and counted */
	uint64_t skipped = 0;
	spec_with(&s, NULL);
	read_all(p, &s, true, got, sizeof(got), &files, &skipped);
	CHECK(skipped == 2 && !strstr(got, "w8192") && !strstr(got, "t4096"),
	      "read-only mode: %llu skipped: %s", (unsigned long long)skipped, got);
	CHECK(files.what[0] == 0, "read-only: nothing written");
	replay_files_free(&files);
	job_spec_release(&s);
}

static void test_v2_options(void)
{
	const char *log = "fio version 2 iolog\n/x/a add\n/x/b add\n/x/a open\n/x/b open\n"
			  "/x/a write 12288 4096\n/x/b wait 250 0\n/x/b read 5000 1000\n"
			  "/x/a sync 0 0\n/x/b datasync 0 0\n/x/a trim 8192 4096\n"
			  "/x/a frobnicate 0 0\n/x/a close\n/x/b close\n";
	const char *p = put("v2.log", log, strlen(log));
	struct job_spec s;
	struct replay_files files = { 0 };
	char got[2048];
	spec_with(&s, NULL);
	read_all(p, &s, false, got, sizeof(got), &files, NULL);
	CHECK(!strcmp(got, "A0-0+0@0 A1-0+0@0 O0-0+0@0 O1-0+0@0 I0w12288+4096@0 W0-0+0@250 "
			   "I1r5000+1000@0 I0s0+0@0 I1d0+0@0 I0t8192+4096@0 C0-0+0@0 C1-0+0@0 "),
	      "v2 entries (a wait holds its time; a bad action is skipped): %s", got);
	replay_files_free(&files);
	job_spec_release(&s);

	const char *const opts[] = { "replay_skip", "write,sync", "replay_scale", "3",
				     "replay_align", "1024", "replay_no_stall", "1", NULL };
	spec_with(&s, opts);
	CHECK(s.replay_skip == (1u << DDIR_WRITE | 1u << DDIR_SYNC) && s.replay_scale == 3 &&
	      s.replay_align == 1024, "options parsed: skip %x", s.replay_skip);
	read_all(p, &s, false, got, sizeof(got), &files, NULL);
	CHECK(!strcmp(got, "A0-0+0@0 A1-0+0@0 O0-0+0@0 O1-0+0@0 I1r1024+1000@0 I1d0+0@0 "
			   "I0t2048+4096@0 C0-0+0@0 C1-0+0@0 "),
	      "skip write,sync keeps datasync; 5000/3 = 1666 aligned down to 1024; no waits: %s", got);
	replay_files_free(&files);
	job_spec_release(&s);

	const char *const redir[] = { "replay_redirect", "/y/z", NULL };
	spec_with(&s, redir);
	read_all(p, &s, false, got, sizeof(got), &files, NULL);
	CHECK(files.n == 1 && !strcmp(files.names[0], "/y/z") && !strstr(got, "A1") &&
	      !strstr(got, "I1"), "replay_redirect: one file for all: %u files, %s", files.n, got);
	replay_files_free(&files);
	job_spec_release(&s);

	const char *bad = "fio version 2 iolog\n/x/a add\n/x/c read 0 4096\n";
	spec_with(&s, NULL);
	CHECK(read_all(put("bad.log", bad, strlen(bad)), &s, false, got, sizeof(got), &files,
		       NULL) < 0, "a file used before its add is an error");
	replay_files_free(&files);
	const char *v1 = "rw, 0, 4096\n";
	CHECK(read_all(put("v1.log", v1, strlen(v1)), &s, false, got, sizeof(got), &files, NULL) < 0,
	      "a version 1 log is refused");
	CHECK(read_all(put("empty.log", "", 0), &s, false, got, sizeof(got), &files, NULL) < 0,
	      "an empty log is refused");
	job_spec_release(&s);
}

static size_t rec(unsigned char *buf, bool big, uint64_t t, uint64_t sector, uint32_t bytes,
		  uint32_t action, uint16_t pdu)
{
	struct blk_io_trace r = { .magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION, .time = t,
				  .sector = sector, .bytes = bytes, .action = action, .pid = 7,
				  .device = (7u << 20) | 5, .pdu_len = pdu };
	if (big) {
		r.magic = bswap_32(r.magic);
		r.time = bswap_64(r.time);
		r.sector = bswap_64(r.sector);
		r.bytes = bswap_32(r.bytes);
		r.action = bswap_32(r.action);
		r.device = bswap_32(r.device);
		r.pdu_len = bswap_16(r.pdu_len);
	}
	memcpy(buf, &r, sizeof(r));
	memset(buf + sizeof(r), 'x', pdu);
	return sizeof(r) + pdu;
}

static void test_blktrace(bool big)
{
	unsigned char buf[4096];
	size_t n = 0;
	const uint32_t Q = BLK_TA_QUEUE, C = BLK_TA_COMPLETE;
	n += rec(buf + n, big, 0, 0, 0, BLK_TN_PROCESS, 16);
	n += rec(buf + n, big, 1000000, 8, 4096, Q | BLK_TC_ACT(BLK_TC_WRITE), 0);
	n += rec(buf + n, big, 1050000, 8, 4096, C | BLK_TC_ACT(BLK_TC_WRITE), 0);
	n += rec(buf + n, big, 1300000, 16, 8192, Q | BLK_TC_ACT(BLK_TC_READ), 0);
	n += rec(buf + n, big, 1400000, 64, 4096, Q | BLK_TC_ACT(BLK_TC_DISCARD | BLK_TC_WRITE), 0);
	n += rec(buf + n, big, 1500000, 0, 0, Q | BLK_TC_ACT(BLK_TC_FLUSH | BLK_TC_WRITE), 0);
	n += rec(buf + n, big, 1600000, 3, 0, Q | BLK_TC_ACT(BLK_TC_READ), 0);
	n += rec(buf + n, big, 1700000, 32, 512, Q | BLK_TC_ACT(BLK_TC_READ | BLK_TC_PC), 0);
	n += rec(buf + n, big, 2000000, 24, 4096, Q | BLK_TC_ACT(BLK_TC_READ), 8);
	const char *p = put(big ? "be.bin" : "le.bin", buf, n);
	FILE *f = fopen(p, "r");
	bool swap = !big;
	CHECK(blktrace_detect(f, &swap) && swap == big, "detected, swap %d", swap);
	fclose(f);
	const char *const redir[] = { "replay_redirect", "/dev/null-ish", NULL };
	struct job_spec s;
	struct replay_files files = { 0 };
	char got[2048];
	spec_with(&s, redir);
	CHECK(read_all(p, &s, false, got, sizeof(got), &files, NULL) == 0, "blktrace reads");
	CHECK(!strcmp(got, "O0-0+0@0 I0w4096+4096@0 I0r8192+8192@300 I0t32768+4096@100 "
			   "I0s0+0@100 I0r12288+4096@300 C0-0+0@0 "),
	      "%s blktrace entries (the delay counts from any queue event, a skipped one too): %s", big ? "big-endian" : "native", got);
	CHECK(files.n == 1 && files.end[0] == 36864 && files.what[0] == 3,
	      "blktrace files: %u end %llu", files.n, (unsigned long long)files.end[0]);
	replay_files_free(&files);
	job_spec_release(&s);

	const char *const skip[] = { "replay_redirect", "/r", "replay_skip", "read,trim",
				     "replay_align", "8192", NULL };
	spec_with(&s, skip);
	read_all(p, &s, false, got, sizeof(got), &files, NULL);
	CHECK(!strcmp(got, "O0-0+0@0 I0w0+8192@0 I0s0+0@100 C0-0+0@0 "),
	      "blktrace skip read,trim, align 8192 (bytes rounded up, offsets down): %s", got);
	replay_files_free(&files);
	job_spec_release(&s);
}

static void test_option_refusals(void)
{
	struct job_spec s;
	char why[512];
	job_spec_defaults(&s);
	CHECK(option_set(&s, "replay_skip", "flush", why, sizeof(why)) < 0 && strstr(why, "flush"),
	      "replay_skip=flush is refused, as fio: %s", why);
	CHECK(option_set(&s, "replay_align", "3000", why, sizeof(why)) < 0 &&
	      strstr(why, "power of 2"), "replay_align must be a power of 2: %s", why);
	CHECK(option_set(&s, "merge_blktrace_iters", "1:0", why, sizeof(why)) < 0,
	      "merge_blktrace_iters needs passes >= 1");
	CHECK(option_set(&s, "merge_blktrace_scalars", "50:100", why, sizeof(why)) == 0 &&
	      s.nr_merge_blktrace_scalars == 2 && s.merge_blktrace_scalars[0] == 50.0,
	      "merge_blktrace_scalars=50:100");
	CHECK(option_set(&s, "replay_time_scale", "0", why, sizeof(why)) < 0,
	      "replay_time_scale=0 is refused (min 1, as fio)");
	CHECK(s.replay_time_scale == 100 && s.replay_scale == 1, "fio's defaults");
	job_spec_release(&s);
}

static void test_scaled_delay(void)
{
	CHECK(replay_scaled_delay(1000, 100) == 1000, "scale 100 keeps the gap");
	CHECK(replay_scaled_delay(1000, 50) == 2000, "scale 50 doubles it");
	CHECK(replay_scaled_delay(1000, 200) == 500, "scale 200 halves it");
	CHECK(replay_scaled_delay(UINT64_MAX / 2, 1) == UINT64_MAX,
	      "a clock jump of 2^63 at scale 1 saturates, no overflow");
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	test_v3();
	test_v2_options();
	test_blktrace(false);
	test_blktrace(true);
	test_option_refusals();
	test_scaled_delay();
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd)) {
	}
	return check_done("replay");
}
