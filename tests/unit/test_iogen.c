/*
 * The I/O generator: a random job without norandommap touches every block
 * exactly once per pass; norandommap does not; sequential offsets advance,
 * honour the rw=MODE:N skip and wrap; mixed jobs honour rwmixread; bssplit
 * picks sizes in proportion; the byte budget ends the pass exactly;
 * trimwrite and randtrimwrite give fio's sequence.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/xmalloc.h"
#include "workload/job/job.h"
#include "workload/iogen/iogen.h"

static void setup(struct job *j, struct job_spec *s, struct job_file *f, uint64_t size)
{
	memset(j, 0, sizeof(*j));
	memset(f, 0, sizeof(*f));
	f->path = (char *)"x";
	f->fd = -1;
	f->io_offset = 0;
	f->io_size = size;
	j->spec = s;
	j->files = f;
	j->nr_files = 1;
	j->bytes_total = size;
}

int main(void)
{
	struct job_spec s;
	struct job j;
	struct job_file f;
	struct io_unit u;

	/* random map: every block once */
	job_spec_defaults(&s);
	s.rw = RW_READ | RW_RAND;
	s.bs[0] = s.min_bs[0] = s.max_bs[0] = 4096;
	uint64_t nb = 3001;
	setup(&j, &s, &f, nb * 4096);
	CHECK(job_gens_init(&j) == 0, "gens init");
	unsigned char *seen = calloc(nb, 1);
	uint64_t n = 0;
	int dups = 0, bad = 0;
	while (job_next_io(&j, &u)) {
		j.bytes_issued += u.buflen;
		uint64_t b = u.offset / 4096;
		bad += !(u.offset % 4096 == 0 && b < nb && u.buflen == 4096);
		if (b < nb)
			dups += seen[b]++ ? 1 : 0;
		n++;
	}
	CHECK(n == nb, "one pass is %llu I/Os, got %llu", (unsigned long long)nb, (unsigned long long)n);
	CHECK(dups == 0, "%d blocks repeated", dups);
	CHECK(bad == 0, "%d misaligned or out-of-range I/Os", bad);
	free(seen);
	job_gens_free(&j);

	/* norandommap repeats some blocks (birthday bound) */
	s.norandommap = true;
	setup(&j, &s, &f, nb * 4096);
	CHECK(job_gens_init(&j) == 0, "gens init norandommap");
	seen = calloc(nb, 1);
	dups = 0;
	while (job_next_io(&j, &u)) {
		j.bytes_issued += u.buflen;
		dups += seen[u.offset / 4096]++ ? 1 : 0;
	}
	CHECK(dups > 0, "norandommap never repeated a block");
	free(seen);
	job_gens_free(&j);

	/* sequential with a skip: rw=read:4k reads every other block */
	job_spec_release(&s);
	job_spec_defaults(&s);
	s.rw = RW_READ;
	s.rw_seq_skip = 4096;
	setup(&j, &s, &f, 64 * 4096);
	j.bytes_total = 8 * 4096;
	CHECK(job_gens_init(&j) == 0, "gens init seq");
	uint64_t expect = 0;
	bad = 0;
	while (job_next_io(&j, &u)) {
		j.bytes_issued += u.buflen;
		bad += u.offset != expect;
		expect += 8192;
	}
	CHECK(bad == 0 && expect == 8 * 8192, "rw=read:4k offsets (%d wrong)", bad);
	job_gens_free(&j);

	/* sequential wraps when io_size exceeds the file */
	s.rw_seq_skip = 0;
	setup(&j, &s, &f, 4 * 4096);
	j.bytes_total = 10 * 4096;
	CHECK(job_gens_init(&j) == 0, "gens init wrap");
	n = 0;
	bad = 0;
	while (job_next_io(&j, &u)) {
		j.bytes_issued += u.buflen;
		bad += u.offset != (n % 4) * 4096;
		n++;
	}
	CHECK(n == 10 && bad == 0, "10 wrapping I/Os, got %llu (%d wrong)", (unsigned long long)n, bad);
	job_gens_free(&j);

	/* rwmixread=70 */
	job_spec_release(&s);
	job_spec_defaults(&s);
	s.rw = RW_READ | RW_WRITE | RW_RAND;
	s.rwmix[0] = 70;
	s.rwmix[1] = 30;
	setup(&j, &s, &f, 20000 * 4096ULL);
	CHECK(job_gens_init(&j) == 0, "gens init mix");
	uint64_t reads = 0, total = 0;
	while (job_next_io(&j, &u)) {
		j.bytes_issued += u.buflen;
		reads += u.ddir == DDIR_READ;
		total++;
	}
	CHECK(reads * 100 / total >= 68 && reads * 100 / total <= 72, "read share %llu%%",
	      (unsigned long long)(reads * 100 / total));
	job_gens_free(&j);

	/* bssplit 4k/75:64k/25 */
	job_spec_release(&s);
	job_spec_defaults(&s);
	s.rw = RW_READ | RW_RAND;
	s.nr_bssplit[0] = 2;
	s.bssplit = xcalloc(DDIR_RWDIR_CNT, sizeof(*s.bssplit));
	s.bssplit[0][0] = (struct bssplit){ 4096, 75 };
	s.bssplit[0][1] = (struct bssplit){ 65536, 25 };
	s.min_bs[0] = 4096;
	s.max_bs[0] = 65536;
	setup(&j, &s, &f, 1ULL << 30);
	CHECK(job_gens_init(&j) == 0, "gens init bssplit");
	uint64_t small = 0;
	total = 0;
	bad = 0;
	for (int i = 0; i < 20000 && job_next_io(&j, &u); i++) {
		j.bytes_issued += u.buflen;
		small += u.buflen == 4096;
		total++;
		bad += u.offset + u.buflen > (1ULL << 30);
	}
	CHECK(bad == 0, "%d I/Os past the end", bad);
	CHECK(small * 100 / total >= 73 && small * 100 / total <= 77, "4k share %llu%%",
	      (unsigned long long)(small * 100 / total));
	job_gens_free(&j);

	/* rw=trimwrite, 64k trims and 16k writes over 1 MiB (fio 3.33's
	 * write_iolog): trim 0, write 0, trim 64k, then writes until one starts
	 * where the last trim did, then the next trim; the pass ends when the
	 * 17th trim would start at the end: 16 trims, 61 writes */
	job_spec_release(&s);
	job_spec_defaults(&s);
	s.rw = RW_TRIM | RW_WRITE;
	s.bs[DDIR_WRITE] = s.min_bs[DDIR_WRITE] = s.max_bs[DDIR_WRITE] = 16384;
	s.bs[DDIR_TRIM] = s.min_bs[DDIR_TRIM] = s.max_bs[DDIR_TRIM] = 65536;
	setup(&j, &s, &f, 1 << 20);
	CHECK(job_gens_init(&j) == 0, "gens init trimwrite");
	uint64_t ntrim = 0, nwrite = 0, wpos = 0, tpos = 0, lastt = UINT64_MAX, lastw = UINT64_MAX;
	bad = 0;
	while (job_next_io(&j, &u)) {
		enum ddir want = lastt == lastw ? DDIR_TRIM : DDIR_WRITE;
		bad += u.ddir != want;
		if (u.ddir == DDIR_TRIM) {
			bad += u.offset != tpos || u.buflen != 65536;
			lastt = u.offset;
			tpos += 65536;
			ntrim++;
		} else {
			bad += u.offset != wpos || u.buflen != 16384;
			lastw = u.offset;
			wpos += 16384;
			nwrite++;
			j.bytes_issued += u.buflen; /* as jobthread.c: trims count no bytes */
		}
	}
	CHECK(bad == 0, "trimwrite: %d I/Os out of fio's sequence", bad);
	CHECK(ntrim == 16 && nwrite == 61, "trimwrite: %llu trims, %llu writes, want 16 and 61",
	      (unsigned long long)ntrim, (unsigned long long)nwrite);
	job_gens_free(&j);

	/* rw=randtrimwrite, one size: trim a random block, write it; every
	 * block trimmed once in the pass, which ends with the random map even
	 * with a larger byte budget */
	s.rw = RW_TRIM | RW_WRITE | RW_RAND;
	s.bs[DDIR_WRITE] = s.min_bs[DDIR_WRITE] = s.max_bs[DDIR_WRITE] = 65536;
	setup(&j, &s, &f, 1 << 20);
	j.bytes_total = 2 << 20;
	CHECK(job_gens_init(&j) == 0, "gens init randtrimwrite");
	seen = calloc(16, 1);
	n = 0;
	bad = 0;
	dups = 0;
	uint64_t trim_off = UINT64_MAX;
	while (job_next_io(&j, &u)) {
		bad += u.buflen != 65536 || u.offset % 65536 || u.offset >= (1 << 20);
		if (n++ % 2 == 0) {
			bad += u.ddir != DDIR_TRIM;
			trim_off = u.offset;
			dups += seen[(u.offset / 65536) % 16]++ ? 1 : 0;
		} else {
			bad += u.ddir != DDIR_WRITE || u.offset != trim_off;
			j.bytes_issued += u.buflen;
		}
	}
	CHECK(bad == 0 && dups == 0 && n == 32, "randtrimwrite: %d bad, %d repeated, %llu I/Os (want 32)",
	      bad, dups, (unsigned long long)n);
	free(seen);
	job_gens_free(&j);
	job_spec_release(&s);
	return check_done("test_iogen");
}
