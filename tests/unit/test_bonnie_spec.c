/*
 * The bonnie++ suite's spec: bonnie++ 2.00a's defaults, its checks with
 * bonnie++'s one-line messages (chunk sizes, the 2×RAM rule and -r lowering
 * RAM, directories, file sizes), and the CPU% and "+++++" rules.
 */
#include "bonnie/bonnie.h"

#include "check.h"

#include <errno.h>
#include <string.h>

#define MIB (1024ull * 1024ull)

static int bad(struct bonnie_spec *s, const char *want)
{
	char why[256] = "";
	int rc = bonnie_spec_validate(s, why, sizeof(why));
	CHECK(rc == -EINVAL, "rc %d for '%s'", rc, want);
	CHECK(strstr(why, want) != NULL, "message '%s' lacks '%s'", why, want);
	CHECK(!strchr(why, '\n'), "one line: '%s'", why);
	bonnie_spec_init(s);
	return rc;
}

int main(void)
{
	struct bonnie_spec s;
	char why[256];

	bonnie_spec_init(&s);
	CHECK(!strcmp(s.dir, "."), "default dir '%s'", s.dir);
	CHECK(s.chunk_size == 8192 && s.seeks == 8192 && s.seekers == 5, "-s defaults");
	CHECK(s.putc_size == 3 * MIB, "per-char default %llu (2.00a does 3 MiB)",
	      (unsigned long long)s.putc_size);
	CHECK(s.num_files == 16 && s.file_chunk_size == 8192 && s.max_size == 0, "-n defaults");
	CHECK(s.concurrency == 1 && s.repeats == 1, "-c and -x defaults");
	CHECK(bonnie_spec_validate(&s, why, sizeof(why)) == 0, "defaults are valid: %s", why);

	/* bonnie++ 2.00a with -s 100 on a 24104M machine */
	s.file_size = 100 * MIB;
	s.ram_mb = 24104;
	bad(&s, "File size should be double RAM for good results, RAM is 24104M.");
	s.file_size = 100 * MIB;
	s.ram_mb = 50; /* -r 50 lowers RAM: 100M is double */
	CHECK(bonnie_spec_validate(&s, why, sizeof(why)) == 0, "-r 50 -s 100: %s", why);
	s.ram_mb = 60; /* -s 100 -r 60: too small for one copy ... */
	bad(&s, "File size should be double RAM for good results, RAM is 60M.");
	s.concurrency = 2; /* ... but -c 2 makes two files of 100M, as bonnie++ counts */
	CHECK(bonnie_spec_validate(&s, why, sizeof(why)) == 0, "-s 100 -r 60 -c 2: %s", why);
	s.concurrency = 1;
	s.ram_mb = 0; /* no check at all */
	s.file_size = 8 * MIB;
	CHECK(bonnie_spec_validate(&s, why, sizeof(why)) == 0, "ram 0: %s", why);

	s.file_size = 10 * MIB;
	s.chunk_size = 3000; /* -s 10:3000 */
	bad(&s, "chunk size of 3000, it must be a power of 2 between 256 and 1048576");
	s.file_size = 10 * MIB;
	s.chunk_size = 128;
	bad(&s, "chunk size of 128");
	s.file_size = 10 * MIB;
	s.chunk_size = 2 * MIB;
	bad(&s, "chunk size of 2097152");
	s.file_size = 10 * MIB;
	s.chunk_size = 256;
	CHECK(bonnie_spec_validate(&s, why, sizeof(why)) == 0, "chunk 256: %s", why);
	s.chunk_size = 3000; /* no I/O tests: the chunk is not used */
	s.file_size = 0;
	CHECK(bonnie_spec_validate(&s, why, sizeof(why)) == 0, "-s 0 ignores the chunk: %s", why);
	bonnie_spec_init(&s);
	s.file_size = 8 * MIB;
	s.seekers = 0;
	bad(&s, "seek processes");

	s.num_files = 1;
	s.num_dirs = 100000;
	bad(&s, "Can't have more than 99,999 directories.");
	s.max_size = 10;
	s.min_size = 20; /* -n 1:10:20 */
	bad(&s, "Minimum file size 20 is larger than the maximum 10");
	s.max_size = -3;
	bad(&s, "maximum file size of -3");
	s.file_chunk_size = 300;
	bad(&s, "file chunk size of 300");
	s.max_size = BONNIE_HARD_LINKS;
	CHECK(bonnie_spec_validate(&s, why, sizeof(why)) == 0, "hard links: %s", why);
	s.max_size = BONNIE_SOFT_LINKS;
	CHECK(bonnie_spec_validate(&s, why, sizeof(why)) == 0, "soft links: %s", why);
	s.concurrency = 0;
	bad(&s, "concurrency of 0");

	struct bonnie_phase p = { .ran = true, .elapsed_ns = 2000000000ull, .cpu_ns = 500000000ull };
	CHECK(bonnie_phase_cpu_pct(&p) > 24.99 && bonnie_phase_cpu_pct(&p) < 25.01, "25%% CPU");
	CHECK(!bonnie_phase_too_short(&p), "2 s is long enough");
	p.elapsed_ns = BONNIE_MIN_TIME_NS - 1;
	CHECK(bonnie_phase_too_short(&p), "just under 0.5 s is +++++");
	p.ran = false;
	CHECK(bonnie_phase_cpu_pct(&p) == 0.0, "no CPU for a phase that did not run");
	return check_done("bonnie_spec");
}
