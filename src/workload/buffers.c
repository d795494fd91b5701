/*
 * I/O unit buffers and what is written from them. The buffers are one
 * private anonymous mapping per job, page aligned (enough for O_DIRECT on
 * every device we know) or aligned to iomem_align when larger; a mapping
 * that cannot be had is an error (-ENOMEM), never an abort. Contents follow
 * fio's options: random data by default, zero_buffers for zeros,
 * buffer_compress_percentage for data that compresses by about that much
 * (refilled before every write, as fio does below 100%), refill_buffers to
 * regenerate before every write, and scramble_buffers (the default) to
 * stamp each 512-byte sector of a write with its offset and a counter so
 * deduplicating storage cannot fold the blocks. buffer_pattern writes its
 * pattern from each buffer's start (unscrambled), and dedupe_percentage
 * repeats earlier buffers for that share of the writes (dedupe_mode,
 * dedupe_working_set_percentage, dedupe_global).
 */
#include "workload/job/job.h"
#include "workload/replay/replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sys/sysmem.h"
#include "util/assert.h"
#include "util/error.h"
#include "verify/verify.h"
#include "workload/runtime_int.h"
#include "workload/verify/verify_run.h"

#define SCRAMBLE_SECTOR 512

static void fill_random(struct rng *r, unsigned char *p, uint64_t len)
{
	uint64_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t v = rng_next(r);
		memcpy(p + i, &v, 8);
	}
	if (i < len) {
		uint64_t v = rng_next(r);
		memcpy(p + i, &v, len - i);
	}
}

/* Fill so that about `pct` percent of each chunk is compressible: zeros,
 * or buffer_pattern's bytes when there is one (as fio). */
static void fill_compressible(struct rng *r, unsigned char *p, uint64_t len,
			      unsigned pct, uint64_t chunk, const struct vpattern *pat)
{
	if (!chunk)
		chunk = 512;
	for (uint64_t off = 0; off < len; off += chunk) {
		uint64_t n = len - off < chunk ? len - off : chunk;
		uint64_t zeros = n * pct / 100;
		fill_random(r, p + off, n - zeros);
		if (pat)
			vpattern_fill(pat, 0, p + off + (n - zeros), zeros);
		else
			memset(p + off + (n - zeros), 0, zeros);
	}
}

static void fill_with(struct job *j, struct rng *r, unsigned char *p, uint64_t len)
{
	const struct job_spec *s = j->spec;
	if (s->zero_buffers)
		memset(p, 0, len);
	else if (s->buffer_compress_percentage)
		fill_compressible(r, p, len, s->buffer_compress_percentage,
				  s->buffer_compress_chunk, j->bpat);
	else if (j->bpat)
		vpattern_fill(j->bpat, 0, p, len);
	else
		fill_random(r, p, len);
}

static void fill_one(struct job *j, unsigned char *p, uint64_t len)
{
	fill_with(j, &j->rng_buf, p, len);
}

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* dedupe_percentage: a share of the writes get the contents of an earlier
 * buffer (the last unique one, or one of the working set), the others new
 * ones. A buffer is its seed, so nothing but seeds is kept. */
static void fill_dedupe(struct job *j, struct io_unit *u)
{
	const struct job_spec *s = j->spec;
	uint64_t seed;
	if (!j->dedupe_ws_n && s->dedupe_working_set) {
		uint64_t size = 0;
		for (unsigned i = 0; i < j->nr_files; i++)
			size += j->files[i].io_size;
		uint64_t n = size / 100 * s->dedupe_working_set_percentage / (u->buflen ? u->buflen : 1);
		j->dedupe_ws_n = n ? n : 1;
		/* dedupe_global: the same set in every job that asks for it */
		j->dedupe_ws_base = s->dedupe_global ? 0x5851f42d4c957f2dULL : mix64(j->seed ^ 0xd6e8feb86659fd93ULL);
	}
	bool dup = rng_below(&j->rng_dedupe, 100) < s->dedupe_percentage;
	if (dup && s->dedupe_working_set) {
		seed = mix64(j->dedupe_ws_base + rng_below(&j->rng_dedupe, j->dedupe_ws_n));
	} else if (dup && j->dedupe_have) {
		seed = j->dedupe_seed;
	} else {
		seed = rng_next(&j->rng_buf);
		j->dedupe_seed = seed;
		j->dedupe_have = true;
	}
	struct rng r;
	rng_seed(&r, seed);
	fill_with(j, &r, u->buf, u->buflen);
}

int job_buffers_alloc(struct job *j)
{
	const struct job_spec *s = j->spec;
	uint64_t maxbs = 0;
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (s->max_bs[d] > maxbs)
			maxbs = s->max_bs[d];
		for (unsigned i = 0; i < s->nr_bssplit[d]; i++)
			if (s->bssplit[d][i].bs > maxbs)
				maxbs = s->bssplit[d][i].bs;
	}
	if (j->replay && replay_max_len(j) > maxbs)
		maxbs = replay_max_len(j); /* the log's largest I/O */
	unsigned long page = sys_pagesize();
	if (s->iomem_align > page)
		page = (unsigned long)s->iomem_align;
	j->buf_size = (maxbs + page - 1) / page * page;
	j->nr_units = s->iodepth ? s->iodepth : 1;
	if (job_inline_sync(j))
		j->nr_units = 1;
	void *mem = NULL;
	/* A mapping per job (by default private and anonymous: page aligned,
	 * and pages that nothing writes, a read job on the null engine, are
	 * never allocated, which keeps 64 cloned jobs small); mem= picks
	 * another kind (bufmem.c). */
	size_t len = (size_t)(j->buf_size * j->nr_units) + (page > 4096 ? page : 0);
	int mrc = job_bufmem_map(j, &len, &mem);
	if (mrc < 0)
		return mrc;
	j->buf_map = mem;
	j->buf_map_len = len;
	if (page > 4096) /* iomem_align beyond the page size */
		mem = (void *)(((uintptr_t)mem + page - 1) / page * page);
	/* every unit's buffer is aligned and inside the mapping */
	IOB_ASSERT((uintptr_t)mem % page == 0 && j->buf_size % page == 0 && j->buf_size >= maxbs);
	IOB_ASSERT((char *)mem + j->buf_size * j->nr_units <= (char *)j->buf_map + len);
	j->buf_mem = mem;
	if ((mrc = job_lockmem(j)) < 0)
		return mrc;
	if (s->buffer_pattern) {
		char why[128];
		j->bpat = calloc(1, sizeof(*j->bpat));
		if (!j->bpat)
			return error_errno(-ENOMEM, "cannot allocate the buffer pattern of job '%s'", s->name);
		if (vpattern_parse(s->buffer_pattern, j->bpat, why, sizeof(why)) < 0) {
			free(j->bpat);
			j->bpat = NULL;
			return error("job '%s': buffer_pattern '%s': %s", s->name, s->buffer_pattern, why);
		}
	}
	/* The job's generators are seeded only when its thread starts: seed
	 * the buffer generator here so the first fill is random, not zeros. */
	bool fixed = s->allrandrepeat || s->randrepeat || s->randseed_set;
	rng_seed(&j->rng_buf, (s->randseed_set && !s->allrandrepeat ? s->randseed : 0x2545f4914f6cdd1dULL) +
				      0x9e3779b97f4a7c15ULL * (j->index + 1) + (fixed ? 0 : now_ns()));
	rng_seed(&j->rng_dedupe, mix64(j->rng_buf.s[0] ^ 0x632be59bd9b4e019ULL));
	j->units = calloc(j->nr_units, sizeof(*j->units));
	j->done = calloc(j->nr_units, sizeof(*j->done));
	if (!j->units || !j->done)
		return error_errno(-ENOMEM, "cannot allocate I/O units for job '%s'", s->name);
	for (unsigned i = 0; i < j->nr_units; i++) {
		j->units[i].index = i;
		j->units[i].buf = (char *)mem + (uint64_t)i * j->buf_size;
		/* as fio: only writes need contents; a read job's buffers stay
		 * untouched until the kernel fills them */
		if (s->rw & RW_WRITE)
			fill_one(j, j->units[i].buf, j->buf_size);
	}
	return 0;
}

void job_buffers_free(struct job *j)
{
	if (j->buf_map)
		job_bufmem_unmap(j, j->buf_map, j->buf_map_len);
	j->buf_map = NULL;
	if (j->bpat)
		vpattern_release(j->bpat);
	free(j->bpat);
	j->bpat = NULL;
	free(j->units);
	free(j->done);
	j->buf_mem = NULL;
	j->units = NULL;
	j->done = NULL;
}

/* Called before each write. */
void job_buffer_fill(struct job *j, struct io_unit *u)
{
	const struct job_spec *s = j->spec;
	IOB_ASSERT(u->ddir == DDIR_WRITE && job_unit_ok(j, u));
	if (__builtin_expect(j->vfy != NULL, 0)) {
		/* verify=: headers and a payload the read-back can rebuild */
		verify_fill_write(j, u);
		return;
	}
	if (s->dedupe_percentage) {
		fill_dedupe(j, u);
		return;
	}
	/* as fio: a compression level below 100% refills every write, or
	 * identical neighbouring blocks would compress together far more */
	if (s->refill_buffers || (s->buffer_compress_percentage && !s->zero_buffers &&
				  s->buffer_compress_percentage < 100)) {
		fill_one(j, u->buf, u->buflen);
		return;
	}
	/* a pattern is written as it is, never scrambled (fio) */
	if (!s->scramble_buffers || s->zero_buffers || j->bpat)
		return;
	unsigned char *p = u->buf;
	uint64_t stamp = u->offset ^ (j->ios_issued << 32);
	for (uint64_t off = 0; off + 16 <= u->buflen; off += SCRAMBLE_SECTOR) {
		uint64_t where = u->offset + off;
		memcpy(p + off, &where, 8);
		memcpy(p + off + 8, &stamp, 8);
	}
}
