/*
 * The I/O generator: a random job without norandommap touches every block
 * exactly once per pass; norandommap does not; sequential offsets advance,
 * honour the rw=MODE:N skip and wrap; mixed jobs honour rwmixread; bssplit
 * picks sizes in proportion; the byte budget ends the pass exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/xmalloc.h"
#include "workload/job.h"

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
	free(j.gens);

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
	free(j.gens);

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
	free(j.gens);

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
	free(j.gens);

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
	free(j.gens);

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
	free(j.gens);
	job_spec_release(&s);
	return check_done("test_iogen");
}
