/*
 * The verify block format (verify.h): the 112-byte header, how an I/O is cut
 * into chunks, what a chunk's payload is, and the check of one chunk as read
 * back, which classifies a failure as bad magic, corrupted header,
 * misplaced, stale, torn or corrupted and locates the first differing byte
 * by regenerating what the write put there. Pure functions of their
 * arguments; the runner (verify_run.c) supplies buffers and expectations.
 *
 * On-disk header, little-endian: 0 magic, 4 version, 5 csum type,
 * 6 header length, 8 chunk length, 12 zero, 16 offset, 24 seed, 32 sequence,
 * 40 payload checksum (32 bytes, zero-padded), 72 crc32c of bytes 0..71,
 * 76 zero.
 */
#include "util/array.h"
#include "verify/verify.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/assert.h"
#include "util/rand.h"

static void put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return le64toh(v);
}

void vhdr_encode(struct vhdr *h, uint8_t out[VHDR_SIZE])
{
	memset(out, 0, VHDR_SIZE);
	put32(out + 0, h->magic);
	out[4] = h->version;
	out[5] = h->csum_type;
	out[6] = (uint8_t)h->hdr_len;
	out[7] = (uint8_t)(h->hdr_len >> 8);
	put32(out + 8, h->len);
	put64(out + 16, h->offset);
	put64(out + 24, h->seed);
	put64(out + 32, h->seq);
	memcpy(out + 40, h->csum, CSUM_MAX_LEN);
	h->hdr_crc = crc32c(out, VHDR_CRC_OFF);
	put32(out + VHDR_CRC_OFF, h->hdr_crc);
}

bool vhdr_decode(const uint8_t in[VHDR_SIZE], struct vhdr *h)
{
	h->magic = get32(in + 0);
	h->version = in[4];
	h->csum_type = in[5];
	h->hdr_len = (uint16_t)(in[6] | in[7] << 8);
	h->len = get32(in + 8);
	h->offset = get64(in + 16);
	h->seed = get64(in + 24);
	h->seq = get64(in + 32);
	memcpy(h->csum, in + 40, CSUM_MAX_LEN);
	h->hdr_crc = get32(in + VHDR_CRC_OFF);
	return h->magic == VHDR_MAGIC && h->version == VHDR_VERSION && h->hdr_len == VHDR_SIZE &&
	       h->csum_type < CSUM_NR && h->hdr_crc == crc32c(in, VHDR_CRC_OFF);
}

int verify_cfg_init(struct verify_cfg *cfg, const struct job_spec *s, uint64_t interval,
		    uint64_t seed, char *why, size_t whylen)
{
	static const enum csum_type csums[] = {
		[VERIFY_CRC32C] = CSUM_CRC32C, [VERIFY_CRC32] = CSUM_CRC32,
		[VERIFY_CRC64] = CSUM_CRC64, [VERIFY_MD5] = CSUM_MD5,
		[VERIFY_SHA256] = CSUM_SHA256, [VERIFY_XXHASH] = CSUM_XXHASH,
		[VERIFY_SHA1] = CSUM_SHA1, [VERIFY_SHA512] = CSUM_SHA512,
		[VERIFY_SHA3_224] = CSUM_SHA3_224, [VERIFY_SHA3_256] = CSUM_SHA3_256,
		[VERIFY_SHA3_384] = CSUM_SHA3_384, [VERIFY_SHA3_512] = CSUM_SHA3_512,
		[VERIFY_CRC16] = CSUM_CRC16, [VERIFY_CRC7] = CSUM_CRC7,
	};
	memset(cfg, 0, sizeof(*cfg));
	cfg->type = s->verify;
	cfg->csum = s->verify < ARRAY_SIZE(csums) ? csums[s->verify] : CSUM_NONE;
	cfg->header = s->verify != VERIFY_PATTERN && s->verify != VERIFY_NULL;
	cfg->check = s->verify != VERIFY_NULL;
	cfg->interval = s->verify_interval ? s->verify_interval : interval;
	cfg->hdr_off = cfg->header ? s->verify_offset : 0;
	cfg->zero_payload = s->zero_buffers;
	cfg->seed = seed;
	if (s->verify_pattern && vpattern_parse(s->verify_pattern, &cfg->pat, why, whylen) < 0)
		return -EINVAL;
	if (s->verify == VERIFY_PATTERN && !cfg->pat.len) {
		snprintf(why, whylen, "verify=pattern needs verify_pattern");
		return -EINVAL;
	}
	if (cfg->header && cfg->interval < verify_min_chunk(cfg)) {
		snprintf(why, whylen, "verify_interval %llu is too small for the %u-byte verify header%s",
			 (unsigned long long)cfg->interval, VHDR_SIZE,
			 cfg->hdr_off ? " at verify_offset" : "");
		verify_cfg_release(cfg);
		return -EINVAL;
	}
	return 0;
}

void verify_cfg_release(struct verify_cfg *cfg)
{
	vpattern_release(&cfg->pat);
}

uint64_t verify_min_chunk(const struct verify_cfg *cfg)
{
	return cfg->header ? cfg->hdr_off + VHDR_SIZE : 1;
}

uint64_t verify_chunk_len(const struct verify_cfg *cfg, uint64_t io_len, uint64_t pos)
{
	IOB_ASSERT(pos < io_len);
	uint64_t rem = io_len - pos;
	if (rem <= cfg->interval || rem - cfg->interval < verify_min_chunk(cfg))
		return rem;
	return cfg->interval;
}

/* The keyed random payload: a splitmix64 stream keyed by the write. */
static void fill_keyed(uint8_t *buf, uint64_t len, uint64_t seed, uint64_t offset, uint64_t seq)
{
	uint64_t x = seed ^ (offset * 0x9e3779b97f4a7c15ULL) ^ (seq * 0xc2b2ae3d27d4eb4fULL);
	uint64_t key = splitmix64(&x);
	uint64_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t v = htole64(splitmix64(&key));
		memcpy(buf + i, &v, 8);
	}
	if (i < len) {
		uint64_t v = htole64(splitmix64(&key));
		memcpy(buf + i, &v, len - i);
	}
}

/* The payload bytes [0, len) before the header goes over the first ones. */
static void fill_payload(const struct verify_cfg *cfg, uint8_t *buf, uint64_t len,
			 uint64_t seed, uint64_t offset, uint64_t seq)
{
	if (cfg->pat.len)
		vpattern_fill(&cfg->pat, offset, buf, len);
	else if (cfg->zero_payload)
		memset(buf, 0, len);
	else
		fill_keyed(buf, len, seed, offset, seq);
}

/* The chunk as written, header at the start (logical layout). */
static void build_chunk(const struct verify_cfg *cfg, uint8_t *buf, uint64_t len,
			uint64_t seed, uint64_t offset, uint64_t seq)
{
	fill_payload(cfg, buf, len, seed, offset, seq);
	if (!cfg->header)
		return;
	/* the header and its verify_offset fit (verify_init refuses smaller
	 * blocks), and the length fits the header's 32-bit field */
	IOB_ASSERT(len >= verify_min_chunk(cfg) && len <= UINT32_MAX);
	struct vhdr h = {
		.magic = VHDR_MAGIC, .version = VHDR_VERSION, .csum_type = (uint8_t)cfg->csum,
		.hdr_len = VHDR_SIZE, .len = (uint32_t)len, .offset = offset, .seed = seed, .seq = seq,
	};
	if (cfg->csum != CSUM_NONE)
		csum(cfg->csum, buf + VHDR_SIZE, len - VHDR_SIZE, h.csum);
	vhdr_encode(&h, buf);
}

/* verify_offset: move the header from the start to hdr_off (a rotation of
 * the first hdr_off + VHDR_SIZE bytes), or back. */
static void move_header(const struct verify_cfg *cfg, uint8_t *buf, bool to_disk)
{
	uint64_t o = cfg->hdr_off;
	uint8_t tmp[VHDR_SIZE];
	if (!cfg->header || !o)
		return;
	IOB_ASSERT(o <= cfg->interval - VHDR_SIZE); /* the header ends inside the chunk */
	if (to_disk) {
		memcpy(tmp, buf, VHDR_SIZE);
		memmove(buf, buf + VHDR_SIZE, o);
		memcpy(buf + o, tmp, VHDR_SIZE);
	} else {
		memcpy(tmp, buf + o, VHDR_SIZE);
		memmove(buf + VHDR_SIZE, buf, o);
		memcpy(buf, tmp, VHDR_SIZE);
	}
}

/* Where logical byte p (header first) lies in the chunk as on disk. */
static uint64_t disk_pos(const struct verify_cfg *cfg, uint64_t p)
{
	uint64_t o = cfg->hdr_off;
	if (!cfg->header || !o || p >= o + VHDR_SIZE)
		return p;
	return p < VHDR_SIZE ? p + o : p - VHDR_SIZE;
}

void verify_fill_chunk(const struct verify_cfg *cfg, uint8_t *buf, uint64_t len,
		       uint64_t offset, uint64_t seq)
{
	build_chunk(cfg, buf, len, cfg->seed, offset, seq);
	move_header(cfg, buf, true);
}

void verify_fill_io(const struct verify_cfg *cfg, uint8_t *buf, uint64_t len,
		    uint64_t offset, uint64_t seq)
{
	for (uint64_t pos = 0, n; pos < len; pos += n) {
		n = verify_chunk_len(cfg, len, pos);
		verify_fill_chunk(cfg, buf + pos, n, offset + pos, seq);
	}
}

const char *vfail_name(enum vfail_kind k)
{
	static const char *const names[VFAIL_KIND_CNT] = {
		[VFAIL_NONE] = "ok", [VFAIL_BAD_MAGIC] = "bad magic",
		[VFAIL_BAD_HEADER] = "corrupted header", [VFAIL_MISPLACED] = "misplaced",
		[VFAIL_STALE] = "stale", [VFAIL_TORN] = "torn write", [VFAIL_CORRUPT] = "corrupted",
		[VFAIL_SHORT] = "short read",
	};
	return (unsigned)k < VFAIL_KIND_CNT ? names[k] : "?";
}

/* Compare want and got (logical layout) over [from, to): count the
 * differing bytes and find the first one as on disk. Returns the count. */
static uint64_t diff(const struct verify_cfg *cfg, const uint8_t *want, const uint8_t *got,
		     uint64_t from, uint64_t to, struct vresult *r, uint64_t *span)
{
	uint64_t n = 0, first = UINT64_MAX, last = 0;
	for (uint64_t p = from; p < to; p++) {
		if (want[p] == got[p])
			continue;
		uint64_t d = disk_pos(cfg, p);
		if (d < first) {
			first = d;
			r->want_byte = want[p];
			r->got_byte = got[p];
		}
		if (d > last)
			last = d;
		n++;
	}
	r->ndiff = n;
	r->first_diff = n ? (int64_t)first : -1;
	*span = n ? last - first + 1 : 0;
	return n;
}

/* Payload differs: a dense run of differences is a torn (or overwritten)
 * block, a few scattered bytes are corruption. */
static enum vfail_kind classify_payload(const struct verify_cfg *cfg, const uint8_t *want,
					const uint8_t *got, uint64_t from, uint64_t to,
					struct vresult *r)
{
	uint64_t span;
	uint64_t n = diff(cfg, want, got, from, to, r, &span);
	if (!n)
		return VFAIL_NONE;
	if (n >= 16 && 2 * n >= span) {
		r->kind = VFAIL_TORN;
		return VFAIL_TORN;
	}
	r->kind = VFAIL_CORRUPT;
	return VFAIL_CORRUPT;
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Locate the first difference against the chunk the expected write would
 * have left, when the expectation says enough to rebuild it. */
static void locate(const struct verify_cfg *cfg, const struct vexpect *e, const uint8_t *buf,
		   uint8_t *scratch, struct vresult *r)
{
	uint64_t span;
	r->first_diff = -1;
	if (!e->seed_known || !e->seq_known)
		return;
	build_chunk(cfg, scratch, e->len, e->seed, e->offset, e->seq);
	diff(cfg, scratch, buf, 0, e->len, r, &span);
}

/* Point at the first differing byte of one header field when the rest of
 * the chunk cannot be rebuilt. */
static void locate_field(const struct verify_cfg *cfg, unsigned at, uint64_t want, uint64_t got,
			 unsigned width, struct vresult *r)
{
	for (unsigned i = 0; i < width; i++) {
		uint8_t w = (uint8_t)(want >> (8 * i)), g = (uint8_t)(got >> (8 * i));
		if (w != g) {
			r->first_diff = (int64_t)disk_pos(cfg, at + i);
			r->want_byte = w;
			r->got_byte = g;
			r->ndiff = 0;
			return;
		}
	}
}

static enum vfail_kind fail(struct vresult *r, enum vfail_kind k)
{
	r->kind = k;
	return k;
}

enum vfail_kind verify_check_chunk(const struct verify_cfg *cfg, uint8_t *buf,
				   const struct vexpect *e, uint8_t *scratch, struct vresult *r)
{
	memset(r, 0, sizeof(*r));
	r->first_diff = -1;
	if (!cfg->check)
		return VFAIL_NONE;
	if (!cfg->header) {
		vpattern_fill(&cfg->pat, e->offset, scratch, e->len);
		if (classify_payload(cfg, scratch, buf, 0, e->len, r))
			snprintf(r->why, sizeof(r->why), "%llu bytes differ from verify_pattern",
				 (unsigned long long)r->ndiff);
		return r->kind;
	}
	if (e->len < VHDR_SIZE + cfg->hdr_off) {
		snprintf(r->why, sizeof(r->why), "block of %llu bytes cannot hold a verify header",
			 (unsigned long long)e->len);
		return fail(r, VFAIL_SHORT);
	}
	move_header(cfg, buf, false);
	struct vhdr *h = &r->found;
	r->hdr_valid = vhdr_decode(buf, h);
	if (h->magic != VHDR_MAGIC) {
		bool zeros = all_zero(buf, e->len);
		snprintf(r->why, sizeof(r->why), "magic 0x%08x, expected 0x%08x%s", h->magic,
			 VHDR_MAGIC, zeros ? " (the block is all zeros: never written?)" : "");
		locate(cfg, e, buf, scratch, r);
		if (r->first_diff < 0)
			locate_field(cfg, 0, VHDR_MAGIC, h->magic, 4, r);
		return fail(r, VFAIL_BAD_MAGIC);
	}
	if (!r->hdr_valid) {
		if (h->version != VHDR_VERSION || h->hdr_len != VHDR_SIZE)
			snprintf(r->why, sizeof(r->why), "header version %u length %u, expected %u and %u",
				 h->version, h->hdr_len, VHDR_VERSION, VHDR_SIZE);
		else
			snprintf(r->why, sizeof(r->why), "header checksum 0x%08x, computed 0x%08x",
				 h->hdr_crc, crc32c(buf, VHDR_CRC_OFF));
		locate(cfg, e, buf, scratch, r);
		return fail(r, VFAIL_BAD_HEADER);
	}
	if (h->offset != e->offset) {
		snprintf(r->why, sizeof(r->why), "header says offset %llu: this is the block written there",
			 (unsigned long long)h->offset);
		locate(cfg, e, buf, scratch, r);
		if (r->first_diff < 0)
			locate_field(cfg, 16, e->offset, h->offset, 8, r);
		return fail(r, VFAIL_MISPLACED);
	}
	if (h->len != e->len || h->csum_type != cfg->csum) {
		if (h->len != e->len)
			snprintf(r->why, sizeof(r->why), "block length %u, expected %llu (written with "
				 "another block size or verify_interval)", h->len,
				 (unsigned long long)e->len);
		else
			snprintf(r->why, sizeof(r->why), "written with verify=%s, expected verify=%s",
				 csum_name(h->csum_type), csum_name(cfg->csum));
		locate(cfg, e, buf, scratch, r);
		return fail(r, VFAIL_STALE);
	}
	if (e->seed_known && h->seed != e->seed) {
		snprintf(r->why, sizeof(r->why), "seed 0x%llx expected 0x%llx (written by another run or job)",
			 (unsigned long long)h->seed, (unsigned long long)e->seed);
		locate(cfg, e, buf, scratch, r);
		if (r->first_diff < 0)
			locate_field(cfg, 24, e->seed, h->seed, 8, r);
		return fail(r, VFAIL_STALE);
	}
	if (e->seq_known && (h->seq < e->seq || h->seq > e->seq_max)) {
		snprintf(r->why, sizeof(r->why), "sequence %llu expected %llu (%s)",
			 (unsigned long long)h->seq, (unsigned long long)e->seq,
			 h->seq < e->seq ? "an older write" : "newer than any write of this run");
		locate(cfg, e, buf, scratch, r);
		return fail(r, VFAIL_STALE);
	}
	/* the header is right (or a later write of this run): check the payload */
	if (cfg->csum != CSUM_NONE) {
		uint8_t got[CSUM_MAX_LEN];
		size_t n = csum_len(cfg->csum);
		csum(cfg->csum, buf + VHDR_SIZE, e->len - VHDR_SIZE, got);
		if (memcmp(got, h->csum, n)) {
			build_chunk(cfg, scratch, e->len, h->seed, h->offset, h->seq);
			char hw[17] = "", hg[17] = ""; /* the first 8 bytes say enough */
			for (size_t i = 0; i < n && i < 8; i++) {
				sprintf(hw + 2 * i, "%02x", h->csum[i]);
				sprintf(hg + 2 * i, "%02x", got[i]);
			}
			if (!classify_payload(cfg, scratch, buf, VHDR_SIZE, e->len, r))
				r->kind = VFAIL_CORRUPT; /* checksum field itself? header crc said no */
			snprintf(r->why, sizeof(r->why), "%s %s%s, expected %s%s: %llu payload %s",
				 csum_name(cfg->csum), hg, n > 8 ? ".." : "", hw, n > 8 ? ".." : "",
				 (unsigned long long)r->ndiff, r->ndiff == 1 ? "byte differs" : "bytes differ");
			return r->kind;
		}
	} else if (cfg->pat.len) {
		vpattern_fill(&cfg->pat, e->offset, scratch, e->len);
		if (classify_payload(cfg, scratch, buf, VHDR_SIZE, e->len, r)) {
			snprintf(r->why, sizeof(r->why), "%llu payload bytes differ from verify_pattern",
				 (unsigned long long)r->ndiff);
			return r->kind;
		}
	}
	r->first_diff = -1;
	return VFAIL_NONE;
}
