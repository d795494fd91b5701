/*
 * Verification (src/workload/verify_*.c) on hand-made buffers: header
 * encoding, chunk layout, verify_pattern parsing as fio 3.33 does it, every
 * checksum type writing a chunk that checks clean, and each failure kind
 * (bad magic, corrupted header, misplaced, stale by sequence, seed and
 * checksum type, torn, corrupted) classified right with the first differing
 * byte where the damage was done, with and without verify_offset; state
 * files round-trip.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "spec/options.h"
#include "util/array.h"
#include "verify/verify.h"

#define BS 4096

static struct job_spec spec;

static void cfg_for(struct verify_cfg *c, enum verify_type t, const char *pattern, uint64_t voff,
		    uint64_t seed)
{
	char why[256] = "";
	job_spec_defaults(&spec);
	spec.verify = t;
	spec.verify_offset = voff;
	spec.verify_pattern = pattern ? strdup(pattern) : NULL;
	int rc = verify_cfg_init(c, &spec, BS, seed, why, sizeof(why));
	CHECK(rc == 0, "cfg init: %s", why);
	job_spec_release(&spec);
}

static struct vexpect expect(uint64_t off, uint64_t seed, uint64_t seq)
{
	struct vexpect e = { .offset = off, .len = BS, .seed_known = true, .seed = seed,
			     .seq_known = true, .seq = seq, .seq_max = seq };
	return e;
}

static uint8_t buf[BS], scratch[BS];

static enum vfail_kind check(const struct verify_cfg *c, const struct vexpect *e, struct vresult *r)
{
	return verify_check_chunk(c, buf, e, scratch, r);
}

static void test_header(void)
{
	struct vhdr h = { .magic = VHDR_MAGIC, .version = VHDR_VERSION, .csum_type = CSUM_MD5,
			  .hdr_len = VHDR_SIZE, .len = 4096, .offset = 0x123456789aULL,
			  .seed = 0xfeedfacecafebeefULL, .seq = 77 };
	h.csum[0] = 0xab;
	h.csum[31] = 0xcd;
	uint8_t raw[VHDR_SIZE];
	vhdr_encode(&h, raw);
	CHECK(raw[0] == 0x49 && raw[1] == 0x4f && raw[2] == 0x42 && raw[3] == 0x56, "magic reads IOBV on disk");
	CHECK(raw[16] == 0x9a && raw[20] == 0x12, "offset little-endian at byte 16");
	struct vhdr d;
	CHECK(vhdr_decode(raw, &d), "a fresh header decodes");
	CHECK(d.offset == h.offset && d.seed == h.seed && d.seq == 77 && d.len == 4096 &&
	      d.csum_type == CSUM_MD5 && d.csum[0] == 0xab && d.csum[31] == 0xcd, "fields round-trip");
	for (unsigned i = 0; i < VHDR_SIZE; i += 7) {
		raw[i] ^= 0x20;
		bool ok = vhdr_decode(raw, &d);
		raw[i] ^= 0x20;
		CHECK(!ok || i >= VHDR_CRC_OFF + 4, "flipped header byte %u is caught", i);
	}
}

static void test_layout(void)
{
	struct verify_cfg c;
	cfg_for(&c, VERIFY_CRC32C, NULL, 0, 1);
	CHECK(verify_chunk_len(&c, 65536, 0) == 4096 && verify_chunk_len(&c, 65536, 61440) == 4096,
	      "64k block in 4k chunks");
	CHECK(verify_chunk_len(&c, 4096 + 50, 0) == 4146, "a tail too short for a header joins the chunk before");
	CHECK(verify_chunk_len(&c, 4096 + 500, 0) == 4096 && verify_chunk_len(&c, 4596, 4096) == 500,
	      "a tail that holds a header is a chunk");
	CHECK(verify_min_chunk(&c) == VHDR_SIZE, "min chunk is the header");
	verify_cfg_release(&c);
	char why[256];
	job_spec_defaults(&spec);
	spec.verify = VERIFY_CRC32C;
	spec.verify_interval = 64;
	CHECK(verify_cfg_init(&c, &spec, BS, 1, why, sizeof(why)) == -EINVAL && strstr(why, "too small"),
	      "interval below the header size refused: %s", why);
	spec.verify_interval = 0;
	spec.verify = VERIFY_PATTERN;
	CHECK(verify_cfg_init(&c, &spec, BS, 1, why, sizeof(why)) == -EINVAL && strstr(why, "verify_pattern"),
	      "verify=pattern without a pattern refused: %s", why);
	job_spec_release(&spec);
}

static int pat_is(const char *text, const uint8_t *want, size_t n)
{
	struct vpattern p;
	char why[128];
	if (vpattern_parse(text, &p, why, sizeof(why)) < 0) {
		printf("  '%s': %s\n", text, why);
		return 0;
	}
	uint8_t out[64];
	vpattern_fill(&p, 0x1000, out, n);
	int ok = p.len == n && !memcmp(out, want, n);
	vpattern_release(&p);
	return ok;
}

static void test_pattern(void)
{
	/* byte layouts taken from fio 3.33's output for the same patterns */
	const uint8_t full[] = { 0xff, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 'a', 'b', 'c', 'd', 0xf4, 0xff, 0xff, 0xff };
	CHECK(pat_is("0xff%o\"abcd\"-12", full, sizeof(full)), "0xff%%o\"abcd\"-12 as fio");
	CHECK(pat_is("0x12345", (const uint8_t[]){ 0x01, 0x23, 0x45 }, 3), "odd hex digits");
	CHECK(pat_is("0xdeadbeefcafe", (const uint8_t[]){ 0xde, 0xad, 0xbe, 0xef, 0xca, 0xfe }, 6), "long hex");
	CHECK(pat_is("300", (const uint8_t[]){ 0x2c, 0x01 }, 2), "decimal in 2 bytes");
	CHECK(pat_is("70000", (const uint8_t[]){ 0x70, 0x11, 0x01 }, 3), "decimal in 3 bytes");
	CHECK(pat_is("12", (const uint8_t[]){ 0x0c }, 1), "decimal in 1 byte");
	CHECK(pat_is("0", (const uint8_t[]){ 0 }, 1), "zero is 1 byte");
	CHECK(pat_is("-1", (const uint8_t[]){ 0xff, 0xff, 0xff, 0xff }, 4), "negative in 4 bytes");
	CHECK(pat_is("\"a\"12", (const uint8_t[]){ 'a', 0x0c }, 2), "string then number");
	struct vpattern p;
	char why[128];
	const char *bad[] = { "'ab'", "\"ab", "4294967295", "0x", "0xff 0xee", "", "abc" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(vpattern_parse(bad[i], &p, why, sizeof(why)) == -EINVAL, "'%s' refused", bad[i]);
	/* repetition over a buffer, %o per chunk */
	CHECK(vpattern_parse("%o\"xyz\"", &p, why, sizeof(why)) == 0, "parse %%o\"xyz\"");
	uint8_t out[100];
	vpattern_fill(&p, 0x0102030405060708ULL, out, sizeof(out));
	CHECK(out[0] == 8 && out[7] == 1 && out[8] == 'x' && out[11] == 8 && out[19] == 'x' &&
	      out[99] == out[99 % 11], "pattern repeats with the offset");
	vpattern_release(&p);
}

static void test_clean(void)
{
	static const enum verify_type types[] = { VERIFY_CRC32C, VERIFY_CRC32, VERIFY_CRC64, VERIFY_MD5,
						  VERIFY_SHA256, VERIFY_XXHASH, VERIFY_META };
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		for (uint64_t voff = 0; voff <= 1000; voff += 1000) {
			struct verify_cfg c;
			struct vresult r;
			cfg_for(&c, types[i], NULL, voff, 42);
			verify_fill_chunk(&c, buf, BS, 8192, 5);
			struct vexpect e = expect(8192, 42, 5);
			CHECK(check(&c, &e, &r) == VFAIL_NONE, "%s verify_offset=%llu checks clean: %s",
			      verify_type_name(types[i]), (unsigned long long)voff, r.why);
			verify_cfg_release(&c);
		}
	/* with a pattern: the payload is the pattern, %o rendered per chunk */
	struct verify_cfg c;
	struct vresult r;
	cfg_for(&c, VERIFY_CRC32C, "%o", 0, 1);
	verify_fill_chunk(&c, buf, BS, 0x3000, 1);
	CHECK(buf[VHDR_SIZE] == 0x00 && buf[VHDR_SIZE + 1] == 0x30 && buf[BS - 8] == 0 && buf[BS - 7] == 0x30,
	      "payload holds the offset pattern");
	struct vexpect e = expect(0x3000, 1, 1);
	CHECK(check(&c, &e, &r) == VFAIL_NONE, "pattern payload checks clean");
	verify_cfg_release(&c);
}

static void test_failures(uint64_t voff)
{
	struct verify_cfg c;
	struct vresult r;
	struct vexpect e = expect(4096, 7, 3);
	cfg_for(&c, VERIFY_CRC32C, NULL, voff, 7);
	uint64_t hdr = voff; /* where the header is on disk */
	uint64_t pay = voff ? 0 : VHDR_SIZE + 100; /* a payload byte on disk */

	memset(buf, 0, BS);
	CHECK(check(&c, &e, &r) == VFAIL_BAD_MAGIC && strstr(r.why, "all zeros"), "zeros: bad magic (%s)", r.why);
	CHECK(r.first_diff >= 0 && r.first_diff <= (int64_t)hdr, "zeros: first difference located (%lld)",
	      (long long)r.first_diff);

	verify_fill_chunk(&c, buf, BS, 4096, 3);
	buf[hdr + 57] ^= 0x04; /* inside the stored checksum */
	CHECK(check(&c, &e, &r) == VFAIL_BAD_HEADER, "header bit flip: corrupted header (%s)", vfail_name(r.kind));
	CHECK(r.first_diff == (int64_t)(hdr + 57) && r.ndiff == 1, "header bit flip located at %llu (got %lld)",
	      (unsigned long long)(hdr + 57), (long long)r.first_diff);

	verify_fill_chunk(&c, buf, BS, 4096, 3);
	buf[pay] ^= 0x80;
	CHECK(check(&c, &e, &r) == VFAIL_CORRUPT, "payload bit flip: corrupted (%s)", vfail_name(r.kind));
	CHECK(r.first_diff == (int64_t)pay && r.ndiff == 1, "payload bit flip located at %llu (got %lld, %llu bytes)",
	      (unsigned long long)pay, (long long)r.first_diff, (unsigned long long)r.ndiff);
	CHECK(r.got_byte == (uint8_t)(r.want_byte ^ 0x80), "found and expected bytes differ by the flipped bit");

	verify_fill_chunk(&c, buf, BS, 4096, 3);
	verify_fill_chunk(&c, scratch, BS, 4096, 1);
	memcpy(buf + 2048, scratch + 2048, BS - 2048); /* the tail never made it */
	CHECK(check(&c, &e, &r) == VFAIL_TORN, "old tail: torn (%s)", vfail_name(r.kind));
	CHECK(r.first_diff >= 2048 && r.first_diff < 2048 + 16 && r.ndiff > 1000,
	      "torn from byte 2048 (got %lld, %llu bytes)", (long long)r.first_diff, (unsigned long long)r.ndiff);

	verify_fill_chunk(&c, buf, BS, 12288, 3);
	CHECK(check(&c, &e, &r) == VFAIL_MISPLACED && strstr(r.why, "header says offset 12288"),
	      "another offset's block: misplaced (%s)", r.why);
	CHECK(r.hdr_valid && r.found.offset == 12288, "misplaced: found offset reported");

	verify_fill_chunk(&c, buf, BS, 4096, 2);
	CHECK(check(&c, &e, &r) == VFAIL_STALE && strstr(r.why, "sequence 2 expected 3"),
	      "older sequence: stale (%s)", r.why);
	verify_fill_chunk(&c, buf, BS, 4096, 9);
	CHECK(check(&c, &e, &r) == VFAIL_STALE && strstr(r.why, "newer"), "sequence past the run: stale (%s)", r.why);
	struct vexpect later = e;
	later.seq_max = 10;
	verify_fill_chunk(&c, buf, BS, 4096, 9); /* a check moves the header back in place */
	CHECK(check(&c, &later, &r) == VFAIL_NONE, "a later write of the same run is accepted");

	struct verify_cfg other;
	cfg_for(&other, VERIFY_CRC32C, NULL, voff, 8);
	verify_fill_chunk(&other, buf, BS, 4096, 3);
	CHECK(check(&c, &e, &r) == VFAIL_STALE && strstr(r.why, "seed 0x8 expected 0x7"),
	      "another seed: stale (%s)", r.why);
	verify_cfg_release(&other);
	cfg_for(&other, VERIFY_MD5, NULL, voff, 7);
	verify_fill_chunk(&other, buf, BS, 4096, 3);
	CHECK(check(&c, &e, &r) == VFAIL_STALE && strstr(r.why, "verify=md5"), "another checksum: stale (%s)", r.why);
	verify_cfg_release(&other);

	/* without a known sequence (a read-only job): only offset and payload */
	struct vexpect loose = { .offset = 4096, .len = BS };
	verify_fill_chunk(&c, buf, BS, 4096, 99);
	CHECK(check(&c, &loose, &r) == VFAIL_NONE, "unknown seed and sequence: any write of that offset");
	verify_fill_chunk(&c, buf, BS, 4096, 99);
	buf[BS - 1] ^= 1;
	CHECK(check(&c, &loose, &r) == VFAIL_CORRUPT && r.first_diff == BS - 1, "...but not a flipped last byte");
	verify_cfg_release(&c);
}

static void test_pattern_mode(void)
{
	struct verify_cfg c;
	struct vresult r;
	cfg_for(&c, VERIFY_PATTERN, "0xdeadbeef", 0, 1);
	CHECK(!c.header, "verify=pattern writes no header");
	verify_fill_chunk(&c, buf, BS, 0, 1);
	CHECK(buf[0] == 0xde && buf[4] == 0xde && buf[BS - 1] == 0xef, "pattern fills the block");
	struct vexpect e = { .offset = 0, .len = BS };
	CHECK(check(&c, &e, &r) == VFAIL_NONE, "pattern checks clean");
	buf[1000] = 0;
	CHECK(check(&c, &e, &r) == VFAIL_CORRUPT && r.first_diff == 1000 && r.want_byte == 0xde,
	      "pattern mismatch at 1000 (%lld)", (long long)r.first_diff);
	verify_cfg_release(&c);
}

static void test_describe(void)
{
	struct verify_cfg c;
	struct vresult r;
	cfg_for(&c, VERIFY_CRC32C, NULL, 0, 7);
	struct vexpect e = expect(4096, 7, 3);
	verify_fill_chunk(&c, buf, BS, 4096, 3);
	buf[1000] ^= 1;
	check(&c, &e, &r);
	char msg[1024];
	verify_describe(&c, "/x/f.dat", &e, &r, msg, sizeof(msg));
	CHECK(strstr(msg, "'/x/f.dat' offset 4096 length 4096: corrupted:") &&
	      strstr(msg, "expected offset=4096 len=4096 seed=0x7 seq=3") &&
	      strstr(msg, "found offset=4096 len=4096 seed=0x7 seq=3") &&
	      strstr(msg, "first differing byte at offset 5096 (+1000 in the block)"), "message: %s", msg);
	verify_cfg_release(&c);
}

static void test_state(void)
{
	char dir[] = "/tmp/iobench-vstate.XXXXXX", path[256], why[128];
	CHECK(mkdtemp(dir) != NULL, "temp dir");
	snprintf(path, sizeof(path), "%s/s.state", dir);
	struct verify_saved v = { .seed = 0xabcdef, .loop = 2, .writes = 1234, .seq = 5000, .complete = false }, w;
	CHECK(verify_state_save(path, "job a", 3, &v, why, sizeof(why)) == 0, "save");
	CHECK(verify_state_load(path, "job a", 3, &w, why, sizeof(why)) == 0 && w.seed == 0xabcdef &&
	      w.loop == 2 && w.writes == 1234 && w.seq == 5000 && !w.complete, "load what was saved");
	CHECK(verify_state_load(path, "job b", 3, &w, why, sizeof(why)) == -EINVAL, "another job's state refused");
	CHECK(verify_state_load(path, "job a", 4, &w, why, sizeof(why)) == -EINVAL, "another index refused");
	unlink(path);
	CHECK(verify_state_load(path, "job a", 3, &w, why, sizeof(why)) == -ENOENT, "missing state: ENOENT");
	rmdir(dir);
	verify_state_path(NULL, "a/b", 1, path, sizeof(path));
	CHECK(!strcmp(path, "local-a_b-1-verify.state"), "state file name: %s", path);
	verify_state_path("/tmp/aux", "a/b", 1, path, sizeof(path));
	CHECK(!strcmp(path, "/tmp/aux/local-a_b-1-verify.state"), "--aux-path state file: %s", path);
}

static void test_options(void)
{
	char why[256];
	struct job_spec s;
	job_spec_defaults(&s);
	CHECK(s.verify == VERIFY_NONE && s.do_verify && s.verify_state_save && !s.verify_only,
	      "defaults as fio: no verify, do_verify=1, verify_state_save=1");
	CHECK(option_set(&s, "verify", "crc32c-intel", why, sizeof(why)) == 0 && s.verify == VERIFY_CRC32C,
	      "crc32c-intel is crc32c");
	CHECK(option_set(&s, "verify", "crc16", why, sizeof(why)) == 0 && s.verify == VERIFY_CRC16 &&
	      option_set(&s, "verify", "crc7", why, sizeof(why)) == 0 && s.verify == VERIFY_CRC7,
	      "crc16 and crc7 are verify types, as in fio");
	CHECK(option_set(&s, "verify", "sha3-512", why, sizeof(why)) == 0 && s.verify == VERIFY_SHA3_512,
	      "sha3-512 is a verify type");
	CHECK(option_set(&s, "verify", "bogus", why, sizeof(why)) == -EINVAL, "unknown type refused: %s", why);
	CHECK(option_set(&s, "verify", "0", why, sizeof(why)) == 0 && s.verify == VERIFY_NONE, "verify=0 is off");
	CHECK(option_set(&s, "verify_pattern", "0xab%o", why, sizeof(why)) == 0 && s.verify == VERIFY_PATTERN &&
	      !strcmp(s.verify_pattern, "0xab%o"), "verify_pattern alone means verify=pattern");
	CHECK(option_set(&s, "verify", "md5", why, sizeof(why)) == 0 && option_set(&s, "verify_pattern", "7", why, sizeof(why)) == 0 &&
	      s.verify == VERIFY_MD5, "verify_pattern keeps a verify type already set");
	CHECK(option_set(&s, "verify_pattern", "0xzz", why, sizeof(why)) == -EINVAL && strstr(why, "verify_pattern"),
	      "bad pattern refused: %s", why);
	CHECK(option_set(&s, "verify_interval", "512", why, sizeof(why)) == 0 && s.verify_interval == 512 &&
	      option_set(&s, "verify_backlog", "32", why, sizeof(why)) == 0 && s.verify_backlog == 32 &&
	      option_set(&s, "verify_fatal", NULL, why, sizeof(why)) == 0 && s.verify_fatal, "numeric and flag options");
	struct job_spec copy;
	job_spec_copy(&copy, &s);
	CHECK(copy.verify_pattern && copy.verify_pattern != s.verify_pattern && !strcmp(copy.verify_pattern, "7"),
	      "the pattern is copied with the spec");
	job_spec_release(&copy);
	job_spec_release(&s);
}

int main(void)
{
	test_options();
	test_header();
	test_layout();
	test_pattern();
	test_clean();
	test_failures(0);
	test_failures(1000); /* verify_offset: the header sits 1000 bytes in */
	test_pattern_mode();
	test_describe();
	test_state();
	return check_done("verify");
}
