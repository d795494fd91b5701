/*
 * The I/O generator: which direction, file, block size and offset the next
 * I/O has. Random offsets come from a keyed permutation of the file's blocks
 * (every block exactly once per pass, O(1) memory) unless norandommap or a
 * non-uniform random_distribution is asked for. Sequential offsets advance
 * per direction and apply the rw=MODE:N modifier (a skip, negative to go
 * backwards); random offsets with :N issue N sequential I/Os per random one
 * (rw_sequencer=identical: the same offset N times). percentage_random sends
 * its share of a random job's I/Os on from the direction's last one, zoned
 * distributions pick a zone by its share and then a block in it uniformly,
 * and random_generator=lfsr keeps the permutation even with norandommap.
 * zonemode=strided confines offsets to the current zone (zones.c).
 * Files are served as file_service_type says (round robin, one I/O each,
 * by default), and with openfiles= a file is closed once its I/O is done
 * and the next one opened when the I/O reaches it, as in fio.
 */
#include "workload/job/job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/assert.h"
#include "util/error.h"
#include "workload/replay/replay.h"
#include "workload/files/files.h"
#include "workload/io/io.h"
#include "workload/iogen/iogen.h"
#include "workload/iogen/iogen_int.h"

/* fio keeps repeatable runs different per clone; the constant is arbitrary. */
#define SEED_BASE 0x9e3779b97f4a7c15ULL

static uint64_t job_seed(const struct job *j)
{
	const struct job_spec *s = j->spec;
	/* allrandrepeat: fio's fixed seeds, whatever randseed and randrepeat say */
	uint64_t seed = s->randseed_set && !s->allrandrepeat ? s->randseed : SEED_BASE;
	if (!s->randrepeat && !s->randseed_set && !s->allrandrepeat)
		seed ^= now_ns() ^ ((uint64_t)(uintptr_t)j << 17);
	return seed + 0x100000001b3ULL * (j->index + 1);
}

static uint64_t min_block(const struct job_spec *s)
{
	uint64_t m = 0;
	/* randtrimwrite: the trims pick the offsets, the writes follow them */
	bool follows = (s->rw & (RW_TRIM | RW_WRITE | RW_RAND)) == (RW_TRIM | RW_WRITE | RW_RAND);
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		bool used = (d == DDIR_READ && (s->rw & RW_READ)) ||
			    (d == DDIR_WRITE && (s->rw & RW_WRITE) && !follows) ||
			    (d == DDIR_TRIM && (s->rw & RW_TRIM));
		if (!used)
			continue;
		uint64_t b = s->blockalign[d] ? s->blockalign[d] : s->min_bs[d];
		for (unsigned i = 0; i < s->nr_bssplit[d]; i++)
			if (s->bssplit[d][i].bs < b)
				b = s->bssplit[d][i].bs;
		if (b && (!m || b < m))
			m = b;
	}
	return m ? m : 4096;
}

static bool bs_varies(const struct job_spec *s)
{
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		if (s->min_bs[d] != s->max_bs[d] || s->nr_bssplit[d] > 1)
			return true;
	return false;
}

static int gen_perm(struct job *j, unsigned fi)
{
	struct file_gen *g = &j->gens[fi];
	uint64_t seed = job_seed(j) ^ ((uint64_t)fi << 40) ^ ((uint64_t)g->pass * 0xff51afd7ed558ccdULL);
	int rc = randperm_init(&g->perm, g->nblocks, seed);
	g->perm_ready = rc == 0;
	if (rc == 0 && bs_varies(j->spec)) {
		size_t words = (size_t)((g->nblocks + 63) / 64);
		if (!g->used && !(g->used = calloc(words, sizeof(*g->used))))
			return -ENOMEM;
		memset(g->used, 0, words * sizeof(*g->used));
	}
	return rc;
}

void job_gens_free(struct job *j)
{
	for (unsigned i = 0; j->gens && i < j->nr_files; i++)
		free(j->gens[i].used);
	free(j->gens);
	j->gens = NULL;
}

static bool block_used(const struct file_gen *g, uint64_t b)
{
	return g->used[b / 64] >> (b % 64) & 1;
}

/* The random map with varying block sizes: len cut to the untouched
 * blocks from b on (fio's map does the same), and those marked touched. */
static void map_claim(struct file_gen *g, uint64_t b, uint64_t *len)
{
	uint64_t want = (*len + g->block - 1) / g->block, n = 0;
	while (n < want && b + n < g->nblocks && !block_used(g, b + n)) {
		g->used[(b + n) / 64] |= UINT64_C(1) << ((b + n) % 64);
		n++;
	}
	if (n * g->block < *len)
		*len = n * g->block;
}

int job_gens_init(struct job *j)
{
	const struct job_spec *s = j->spec;
	uint64_t seed = job_seed(j);
	j->seed = seed; /* verify headers carry it */
	rng_seed(&j->rng_off, seed);
	rng_seed(&j->rng_bs, seed * 3 + 1);
	rng_seed(&j->rng_mix, seed * 5 + 2);
	rng_seed(&j->rng_buf, seed * 7 + 3);
	j->trimwrite = (s->rw & (RW_TRIM | RW_WRITE)) == (RW_TRIM | RW_WRITE);
	/* as fio, trimwrite's trims and writes draw their sizes from two
	 * streams seeded alike: with one bsrange or bssplit for both, the k-th
	 * write is as long as the k-th trim and writes just the block trimmed */
	rng_seed(&j->rng_bs_trim, seed * 3 + 1);
	j->gens = calloc(j->nr_files, sizeof(*j->gens));
	if (!j->gens)
		return -ENOMEM;
	uint64_t blk = min_block(s);
	for (unsigned i = 0; i < j->nr_files; i++) {
		struct file_gen *g = &j->gens[i];
		struct job_file *f = &j->files[i];
		g->block = blk;
		g->nblocks = f->io_size / blk;
		for (int d = 0; d < DDIR_RWDIR_CNT; d++)
			f->last_pos[d] = f->io_offset;
		g->tw_trim_off = g->tw_write_off = UINT64_MAX;
		if (!g->nblocks)
			return error("job '%s': file '%s' has %llu usable bytes, less than one block of %llu",
				     s->name, f->path, (unsigned long long)f->io_size,
				     (unsigned long long)blk);
		/* lfsr is full-period: every block once a pass, map or no map */
		if (spec_is_rand(s) && (!s->norandommap || s->random_generator == RANDGEN_LFSR) &&
		    s->random_distribution == DIST_RANDOM) {
			int rc = gen_perm(j, i);
			if (rc)
				return error_errno(rc, "job '%s': cannot set up the random map", s->name);
		}
	}
	if (s->file_service >= FSRV_ZIPF && j->nr_files > 1) {
		static const enum distrib_kind fk[] = {
			[FSRV_ZIPF] = DISTRIB_ZIPF, [FSRV_PARETO] = DISTRIB_PARETO,
			[FSRV_NORMAL] = DISTRIB_NORMAL,
		};
		int rc = distrib_init(&j->fdist, fk[s->file_service], s->fsrv_param, j->nr_files,
				      seed ^ 0x6a09e667f3bcc908ULL);
		if (rc)
			return error_errno(rc, "job '%s': bad file_service_type parameter %g",
					   s->name, s->fsrv_param);
		j->use_fdist = true;
	}
	if (spec_is_rand(s) && s->random_distribution >= DIST_ZIPF && s->random_distribution <= DIST_NORMAL) {
		static const enum distrib_kind kinds[] = {
			[DIST_ZIPF] = DISTRIB_ZIPF, [DIST_PARETO] = DISTRIB_PARETO,
			[DIST_NORMAL] = DISTRIB_NORMAL,
		};
		/* One distribution over the smallest file's blocks, reused per file. */
		uint64_t n = j->gens[0].nblocks;
		for (unsigned i = 1; i < j->nr_files; i++)
			if (j->gens[i].nblocks < n)
				n = j->gens[i].nblocks;
		int rc = distrib_init(&j->dist, kinds[s->random_distribution], s->dist_param, n, seed);
		if (rc)
			return error_errno(rc, "job '%s': bad random_distribution parameter %g",
					   s->name, s->dist_param);
		if (s->dist_center >= 0)
			distrib_set_center(&j->dist, s->dist_center);
		j->use_distrib = true;
	}
	return 0;
}

void job_gens_new_pass(struct job *j)
{
	job_files_invalidate(j);
	j->files_done = 0;
	for (unsigned i = 0; i < j->nr_files; i++) {
		struct file_gen *g = &j->gens[i];
		struct job_file *f = &j->files[i];
		for (int d = 0; d < DDIR_RWDIR_CNT; d++)
			f->last_pos[d] = f->io_offset;
		g->next = 0;
		g->seq_left = 0;
		g->issued = 0;
		g->done = false;
		g->tw_trim_off = g->tw_write_off = UINT64_MAX;
		g->pass++;
		zone_strided_reset(g);
		if (g->perm_ready)
			gen_perm(j, i);
	}
}

static enum ddir pick_ddir(struct job *j)
{
	unsigned rw = j->spec->rw;
	if ((rw & RW_READ) && (rw & RW_WRITE))
		return rng_below(&j->rng_mix, 100) < j->spec->rwmix[DDIR_READ] ? DDIR_READ : DDIR_WRITE;
	if (rw & RW_WRITE)
		return DDIR_WRITE;
	if (rw & RW_TRIM)
		return DDIR_TRIM;
	return DDIR_READ;
}

static uint64_t pick_bs(struct job *j, enum ddir d)
{
	const struct job_spec *s = j->spec;
	IOB_ASSERT(d < DDIR_RWDIR_CNT); /* indexes bssplit, min_bs, max_bs, bs */
	struct rng *rng = j->trimwrite && d == DDIR_TRIM ? &j->rng_bs_trim : &j->rng_bs;
	unsigned n = s->nr_bssplit[d];
	if (n) {
		unsigned given = 0, open = 0;
		for (unsigned i = 0; i < n; i++) {
			given += s->bssplit[d][i].perc;
			open += !s->bssplit[d][i].perc;
		}
		unsigned share = open && given < 100 ? (100 - given) / open : 0;
		unsigned r = (unsigned)rng_below(rng, 100), acc = 0;
		for (unsigned i = 0; i < n; i++) {
			acc += s->bssplit[d][i].perc ? s->bssplit[d][i].perc : share;
			if (r < acc)
				return s->bssplit[d][i].bs;
		}
		return s->bssplit[d][n - 1].bs;
	}
	uint64_t lo = s->min_bs[d], hi = s->max_bs[d];
	if (lo >= hi)
		return lo ? lo : s->bs[d];
	uint64_t v = lo + rng_below(rng, hi - lo + 1);
	if (!s->bs_unaligned && (lo & (lo - 1)) == 0)
		v &= ~(lo - 1);
	return v < lo ? lo : v;
}

/* zoned/zoned_abs: a zone by its share of the I/O, then a uniform block in it. */
static uint64_t zoned_block(struct job *j, struct file_gen *g)
{
	const struct job_spec *s = j->spec;
	unsigned r = (unsigned)rng_below(&j->rng_off, 100), acc = 0, i = 0;
	uint64_t start = 0;
	IOB_ASSERT(s->nr_dist_zones > 0 && s->nr_dist_zones <= MAX_DIST_ZONES);
	for (;; i++) {
		const struct dist_zone *z = &s->dist_zones[i];
		uint64_t len = s->random_distribution == DIST_ZONED_ABS ? z->size / g->block
			       : g->nblocks * z->size_pct / 100;
		acc += z->access_pct;
		if (r < acc || i + 1 == s->nr_dist_zones) {
			/* a zone past the file's end, or under one block, shrinks to
			 * what is left of the file (at least its last block) */
			if (start >= g->nblocks)
				start = g->nblocks - 1;
			if (!len)
				len = 1;
			if (len > g->nblocks - start)
				len = g->nblocks - start;
			return start + rng_below(&j->rng_off, len);
		}
		start += len;
	}
}

static uint64_t random_block(struct job *j, struct file_gen *g)
{
	IOB_ASSERT(g->nblocks > 0); /* job_gens_init refuses a file below one block */
	if (j->spec->nr_dist_zones)
		return zoned_block(j, g);
	if (j->use_distrib) {
		uint64_t b = distrib_next(&j->dist, &j->rng_off);
		return b < g->nblocks ? b : b % g->nblocks;
	}
	while (g->perm_ready) {
		if (g->next >= g->nblocks) {
			/* a time-based job outran the pass, or io_size= is
			 * more than a pass: start a new one */
			j->pass_wrapped |= j->nr_files == 1;
			g->next = 0;
			g->pass++;
			gen_perm(j, (unsigned)(g - j->gens));
		}
		/* the permutation is of this file's blocks, each used once a pass */
		IOB_ASSERT(g->perm.n == g->nblocks && g->next < g->nblocks);
		uint64_t b = randperm_at(&g->perm, g->next++);
		IOB_ASSERT(b < g->nblocks);
		if (g->used && block_used(g, b))
			continue; /* an earlier, longer I/O took it */
		return b;
	}
	uint64_t b = rng_below(&j->rng_off, g->nblocks);
	IOB_ASSERT(b < g->nblocks);
	return b;
}

/* rw=(rand)trimwrite, as fio: a trim when the last trim and the last write
 * of the file started at the same offset (none yet counts as the same),
 * else a write. With one block size each block is trimmed, then written;
 * with a larger trim the writes catch up with it before the next trim. */
static enum ddir tw_ddir(const struct file_gen *g)
{
	return g->tw_write_off == g->tw_trim_off ? DDIR_TRIM : DDIR_WRITE;
}

/* rw=trimwrite: direction d's stream has run off the file's end. fio ends
 * the file's pass there (the other stream does not go on, nor wrap, even
 * with io_size above size), where the other sequential modes wrap. */
static bool tw_seq_ended(const struct job *j, const struct job_file *f, enum ddir d, uint64_t len)
{
	uint64_t end = f->io_offset + f->io_size, pos = f->last_pos[d];
	return pos >= end || (pos + len > end && end - pos < j->gens[0].block);
}

/* rw=(rand)trimwrite: the file's pass is over before this I/O. fio ends
 * it when a sequential stream runs off the end and when randtrimwrite's
 * random map is used up; time_based goes on (the streams wrap). */
static bool tw_file_ended(const struct job *j, const struct job_file *f, const struct file_gen *g,
			  enum ddir d, uint64_t len)
{
	const struct job_spec *s = j->spec;
	if (s->time_based || s->zonemode == ZONEMODE_STRIDED)
		return false;
	if (!spec_is_rand(s))
		return tw_seq_ended(j, f, d, len);
	return d == DDIR_TRIM && g->perm_ready && !g->seq_left && g->next >= g->nblocks;
}

/* Sequential offset for direction d; returns 0 when nothing fits. */
static uint64_t seq_offset(struct job *j, struct job_file *f, enum ddir d, uint64_t *len)
{
	IOB_ASSERT(d < DDIR_RWDIR_CNT); /* indexes last_pos */
	uint64_t end = f->io_offset + f->io_size;
	uint64_t pos = f->last_pos[d];
	if (pos >= end && j->nr_files == 1) /* several: pick_file's new round */
		j->pass_wrapped = true;
	if (pos < f->io_offset || pos >= end)
		pos = f->io_offset;
	if (pos + *len > end) {
		uint64_t left = end - pos;
		uint64_t blk = j->gens[0].block;
		left -= left % blk;
		if (left)
			*len = left;
		else {
			pos = f->io_offset;
			j->pass_wrapped |= j->nr_files == 1;
			if (*len > f->io_size)
				*len = f->io_size - f->io_size % blk;
		}
	}
	int64_t next = (int64_t)(pos + *len) + j->spec->rw_seq_skip;
	if (next < (int64_t)f->io_offset)
		next = (int64_t)(end - *len);
	f->last_pos[d] = (uint64_t)next;
	return pos;
}

/* openfiles=: close the open files whose I/O is done (after the I/O in
 * flight on them), so others may be opened. */
static int close_done(struct job *j)
{
	bool drained = job_inline_sync(j);
	for (unsigned i = 0; i < j->nr_files; i++) {
		if (!j->gens[i].done || !j->is_open[i])
			continue;
		/* the I/O in flight first (the caller holds a unit, so not
		 * async_drain, which wants them all back) */
		while (!drained && j->inflight) {
			unsigned before = j->inflight;
			int rc = async_reap(j, 1);
			if (rc < 0)
				return rc;
			if (j->inflight == before)
				return -EIO; /* nothing comes back */
		}
		drained = true;
		job_file_close_one(j, i);
	}
	return 0;
}

/* May the next I/O go to file i: not done, and open or openable. */
static bool file_usable(const struct job *j, unsigned i)
{
	if (j->gens[i].done)
		return false;
	return j->is_open[i] || !job_files_limited(j) || j->nr_open < j->spec->openfiles;
}

/* The first usable file from i on, round the list; -1 when none is. */
static int usable_from(const struct job *j, unsigned i)
{
	for (unsigned k = 0; k < j->nr_files; k++) {
		unsigned c = (i + k) % j->nr_files;
		if (file_usable(j, c))
			return (int)c;
	}
	return -1;
}

/* file_service_type: the file the next I/O goes to, as fio picks it: the
 * current one for N I/Os (sequential: until it is done), then the next in
 * turn (roundrobin), a random one not done yet (random), or one drawn by
 * zipf/pareto/normal (whose files are never done: the job's size ends
 * them). A file is done when its io_size is issued; when every file is,
 * a job with more to do (io_size= above size) starts a new round. 1 and
 * the file in *fi, 0 when there is none, or -errno. */
static int pick_among(struct job *j, unsigned *fi)
{
	const struct job_spec *s = j->spec;
	unsigned n = j->nr_files, cur = j->next_file;
	if (job_files_limited(j)) {
		int rc = close_done(j);
		if (rc < 0)
			return rc;
	}
	if (j->files_done == n) {
		j->pass_wrapped = true;
		for (unsigned i = 0; i < n; i++) {
			j->gens[i].done = false;
			j->gens[i].issued = 0;
		}
		j->files_done = 0;
	}
	int c = -1;
	if (j->fsrv_started && (s->file_service == FSRV_SEQ || j->fsrv_left) && file_usable(j, cur)) {
		c = (int)cur;
		if (j->fsrv_left)
			j->fsrv_left--;
	} else {
		switch (s->file_service) {
		case FSRV_SEQ:
			c = usable_from(j, cur);
			break;
		case FSRV_RR:
			c = usable_from(j, j->fsrv_started ? cur + 1 : 0);
			break;
		case FSRV_RANDOM:
			c = usable_from(j, (unsigned)rng_below(&j->rng_mix, n));
			break;
		default:
			c = usable_from(j, (unsigned)(distrib_next(&j->fdist, &j->rng_mix) % n));
			break;
		}
		j->fsrv_left = s->fsrv_nr ? s->fsrv_nr - 1 : 0;
	}
	if (c < 0)
		return 0;
	j->fsrv_started = true;
	j->next_file = (unsigned)c;
	if (!j->is_open[c]) {
		int rc = job_file_open_one(j, (unsigned)c);
		if (rc < 0)
			return rc;
	}
	*fi = (unsigned)c;
	return 1;
}

/* A job of one file (most jobs) picks it without the call: the out-of-line
 * pick cost 27 instructions per I/O in a null job before its first test. */
static inline int pick_file(struct job *j, unsigned *fi)
{
	if (__builtin_expect(j->nr_files == 1, 1)) {
		*fi = 0;
		return 1;
	}
	return pick_among(j, fi);
}

int job_next_sync_file(struct job *j, struct job_file **f)
{
	unsigned fi;
	int rc = pick_file(j, &fi);
	if (rc > 0)
		*f = &j->files[fi];
	return rc;
}

int job_next_io(struct job *j, struct io_unit *u)
{
	if (j->replay)
		return replay_next_io(j, u); /* read_iolog: the log says */
	const struct job_spec *s = j->spec;
	unsigned fi;
	struct job_file *f;
	struct file_gen *g;
	enum ddir d;
	uint64_t len;
	for (;;) {
		int picked = pick_file(j, &fi);
		if (picked <= 0)
			return picked;
		IOB_ASSERT(fi < j->nr_files);
		f = &j->files[fi];
		g = &j->gens[fi];
		d = j->trimwrite ? tw_ddir(g) : pick_ddir(j);
		len = pick_bs(j, d);
		if (!j->trimwrite || !tw_file_ended(j, f, g, d, len))
			break;
		/* this file's pass is over; the others go on, as in fio */
		if (j->nr_files == 1 || ++j->files_done == j->nr_files)
			return 0;
		g->done = true;
	}
	IOB_ASSERT(g->block > 0 && g->nblocks == f->io_size / g->block);

	if (j->bytes_total) {
		uint64_t left = j->bytes_total - j->bytes_issued;
		if (left < len)
			len = left >= g->block ? left - left % g->block : left;
		if (!len)
			return 0;
	}
	uint64_t off;
	bool on_block = false; /* off starts a block of the random map */
	if (s->zonemode == ZONEMODE_STRIDED) {
		if (len > f->io_size)
			len = f->io_size - f->io_size % g->block;
		if (!len || !zone_strided_next(j, f, g, spec_is_rand(s), len, &off))
			return 0;
	} else if (!spec_is_rand(s)) {
		/* as fio: with rw=MODE:N (N > 0) the skipped space counts, and
		 * the pass ends when the next I/O would run past the file's end */
		uint64_t at = f->last_pos[d];
		if (s->rw_seq_skip > 0 && !s->time_based && j->nr_files == 1 && at > f->io_offset &&
		    at + len > f->io_offset + f->io_size)
			return 0;
		off = seq_offset(j, f, d, &len);
	} else if (j->trimwrite && d == DDIR_WRITE) {
		/* randtrimwrite: the write goes where the last trim went, with
		 * its length, whatever the write block size */
		off = g->tw_trim_off;
		len = g->tw_trim_len;
	} else if (g->seq_left) {
		g->seq_left--;
		off = s->rw_seq_identical ? g->seq_off : g->seq_pos;
		if (off + len > f->io_offset + f->io_size) {
			g->seq_left = 0;
			off = f->io_offset + random_block(j, g) * g->block;
			on_block = true;
		}
	} else if (s->perc_random[d] < 100 &&
		   rng_below(&j->rng_mix, 100) >= s->perc_random[d]) {
		/* percentage_random: this one continues where the last I/O ended */
		off = g->dir_pos[d];
		if (off < f->io_offset || off + len > f->io_offset + f->io_size)
			off = f->io_offset;
	} else {
		uint64_t b = random_block(j, g);
		if (g->used && g->perm_ready)
			map_claim(g, b, &len);
		off = f->io_offset + b * g->block;
		on_block = true;
		g->seq_off = off;
		if (s->rw_seq_nr > 1)
			g->seq_left = s->rw_seq_nr - 1;
	}
	uint64_t end = f->io_offset + f->io_size;
	if (off + len > end) {
		if (len > f->io_size)
			len = f->io_size;
		off = end - len;
		off -= (off - f->io_offset) % g->block;
		on_block = true;
	}
	/* every I/O lies inside the file's region; a random one starts on a
	 * block boundary of it (blockalign, or the smallest block size) */
	IOB_ASSERT(len > 0 && len <= f->io_size);
	IOB_ASSERT(off >= f->io_offset && off - f->io_offset <= f->io_size - len);
	IOB_ASSERT(!on_block || (off - f->io_offset) % g->block == 0);
	g->seq_pos = off + len;
	g->dir_pos[d] = off + len;
	if (j->trimwrite && d == DDIR_TRIM) {
		g->tw_trim_off = off;
		g->tw_trim_len = len;
	} else {
		/* randtrimwrite: the next one is a trim, even if it lands where
		 * this write went (fio alternates strictly there) */
		if (j->trimwrite)
			g->tw_write_off = spec_is_rand(s) ? (g->tw_trim_off = UINT64_MAX) : off;
		g->issued += len; /* as fio, a trimwrite's trims count towards no size */
	}
	if (j->nr_files > 1 && !j->use_fdist && g->issued >= f->io_size && !g->done) {
		g->done = true;
		j->files_done++;
	}
	u->ddir = d;
	u->file = f;
	u->offset = off;
	u->buflen = len;
	return 1;
}
