/*
 * Data verification (verify=, fio's options). Every written block is cut into
 * chunks of verify_interval bytes; each chunk starts with an 112-byte header
 * (magic, offset, length, job seed, write sequence number, payload checksum,
 * header crc32c) followed by a payload that is a pure function of (seed,
 * offset, sequence) — a keyed random stream, zeros, or verify_pattern — so a
 * failed check can regenerate what should be there and name the first
 * differing byte. Misplaced writes (a valid header for another offset), stale
 * data (an older sequence, another seed or configuration), torn writes (a
 * dense run of wrong payload bytes) and bit flips (a few wrong bytes) are told
 * apart. verify=pattern writes no header and checks the pattern only.
 *
 * Reading back does not store what was written: the runner's offsets come
 * from seeded generators, so the verify phase restores the generators'
 * state from the start of the write pass and replays it, turning each write
 * into a read with its expected sequence number (O(1) memory at any size).
 * verify_backlog keeps a ring of the last N writes instead.
 *
 * verify_hdr.c: header, chunk layout, payload, one-chunk check (pure).
 * verify_msg.c: the one-line description of a failure.
 * spec/verify_pattern.c, spec/verify_opts.c (spec/verify_opts.h): the
 *   verify_pattern syntax and the verify= and verify_pattern= options.
 * workload/verify/verify_run.c: the runner hooks and the read-back phases.
 * verify_state.c: verify_state_save/verify_state_load files.
 */
#ifndef IOBENCH_VERIFY_VERIFY_H
#define IOBENCH_VERIFY_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/csum.h"
#include "spec/jobspec.h"
#include "spec/verify_opts.h"

struct opt_ctx;

/* ---- header (verify_hdr.c) ---- */

#define VHDR_MAGIC 0x56424f49u /* "IOBV" on disk */
#define VHDR_VERSION 2           /* 2: 64-byte checksum room (sha512, sha3-512) */
#define VHDR_SIZE 112
#define VHDR_CRC_OFF 104       /* hdr_crc covers bytes [0, 104) */

/* The header as fields; on disk it is little-endian, VHDR_SIZE bytes. */
struct vhdr {
	uint32_t magic;
	uint8_t version;
	uint8_t csum_type;     /* enum csum_type of the payload checksum */
	uint16_t hdr_len;      /* VHDR_SIZE */
	uint32_t len;          /* chunk bytes, header included */
	uint64_t offset;       /* file offset of the chunk */
	uint64_t seed;         /* the writing job's random seed */
	uint64_t seq;          /* the writing job's write count (1 = first write) */
	uint8_t csum[CSUM_MAX_LEN]; /* payload checksum, zero-padded */
	uint32_t hdr_crc;      /* crc32c of the encoded bytes [0, VHDR_CRC_OFF) */
};

/* Encode h (computing hdr_crc into the output, and into h) into out. */
void vhdr_encode(struct vhdr *h, uint8_t out[VHDR_SIZE]);
/* Decode in into h; returns true when magic, version, length and hdr_crc
 * all hold (h is filled either way). */
bool vhdr_decode(const uint8_t in[VHDR_SIZE], struct vhdr *h);

/* What is written and checked: derived once per job from its spec (the
 * pattern, struct vpattern, is spec/verify_opts.h's). */
struct verify_cfg {
	enum verify_type type;
	enum csum_type csum;   /* payload checksum; CSUM_NONE for meta */
	bool header;           /* chunks carry a header (not pattern, not null) */
	bool check;            /* anything is checked (not null) */
	uint64_t interval;     /* chunk bytes */
	uint64_t hdr_off;      /* verify_offset: header position in the chunk */
	bool zero_payload;     /* zero_buffers */
	struct vpattern pat;   /* pat.len 0: a keyed random payload */
	uint64_t seed;         /* the job's seed, stored in every header */
};

/* Set up cfg from a spec; seed is the job's. Returns 0 or -EINVAL with why. */
int verify_cfg_init(struct verify_cfg *cfg, const struct job_spec *s, uint64_t interval,
		    uint64_t seed, char *why, size_t whylen);
void verify_cfg_release(struct verify_cfg *cfg);
/* The smallest chunk a configuration can use (a header must fit). */
uint64_t verify_min_chunk(const struct verify_cfg *cfg);
/* Length of the chunk at byte pos of an I/O of io_len bytes: interval,
 * except that a tail too short for a header joins the chunk before it. */
uint64_t verify_chunk_len(const struct verify_cfg *cfg, uint64_t io_len, uint64_t pos);

/* Fill buf[0..len) — one chunk at file offset `offset` — as the write with
 * sequence number seq writes it (header placed at verify_offset). */
void verify_fill_chunk(const struct verify_cfg *cfg, uint8_t *buf, uint64_t len,
		       uint64_t offset, uint64_t seq);
/* The same for a whole I/O, chunk by chunk. */
void verify_fill_io(const struct verify_cfg *cfg, uint8_t *buf, uint64_t len,
		    uint64_t offset, uint64_t seq);

/* Kinds of verify failure, most specific first. */
enum vfail_kind {
	VFAIL_NONE = 0,
	VFAIL_BAD_MAGIC,   /* no header where one should be (never written, overwritten) */
	VFAIL_BAD_HEADER,  /* a header whose own checksum fails: the header is corrupted */
	VFAIL_MISPLACED,   /* a valid header for another offset: a misdirected write */
	VFAIL_STALE,       /* a valid header from an older write, another run or configuration */
	VFAIL_TORN,        /* header right, a dense run of payload bytes is not what was written */
	VFAIL_CORRUPT,     /* header right, a few payload bytes differ (bit flips) */
	VFAIL_SHORT,       /* the read returned fewer bytes than the block */
	VFAIL_KIND_CNT,
};
const char *vfail_name(enum vfail_kind k);

/* What a chunk should hold; unknown fields are not checked. */
struct vexpect {
	uint64_t offset;       /* chunk offset in the file */
	uint64_t len;          /* chunk bytes */
	bool seed_known;
	uint64_t seed;
	bool seq_known;
	uint64_t seq;
	uint64_t seq_max;      /* a newer valid header up to this sequence was
				  written later in the same run: accepted */
};

struct vresult {
	enum vfail_kind kind;
	bool hdr_valid;        /* found a header whose checksum holds */
	struct vhdr found;     /* decoded as found (meaningful with hdr_valid or
				  a matching magic) */
	char why[160];         /* kind-specific detail: "header says offset 8192" */
	int64_t first_diff;    /* chunk byte (as on disk) of the first difference, -1 unknown */
	uint64_t ndiff;        /* differing bytes, when first_diff >= 0 */
	uint8_t want_byte, got_byte;
};

/*
 * Check one chunk buf[0..e->len) as read. buf is modified (the header is
 * moved back from verify_offset); scratch needs e->len bytes. Returns the
 * kind (VFAIL_NONE when good) and fills r.
 */
enum vfail_kind verify_check_chunk(const struct verify_cfg *cfg, uint8_t *buf,
				   const struct vexpect *e, uint8_t *scratch, struct vresult *r);
/* One-line description of a failure at file `path`, for the error message:
 * "'path' offset 12288 length 4096: torn write: ...; expected ..., found ...;
 * first differing byte at offset 12800 (+512 in the block): 0x3f, expected 0x9c". */
void verify_describe(const struct verify_cfg *cfg, const char *path, const struct vexpect *e,
		     const struct vresult *r, char *out, size_t outlen);

/* ---- state files (verify_state.c) ---- */

struct verify_saved {
	uint64_t seed;
	unsigned loop;         /* loop the job was in when it stopped (0-based) */
	uint64_t writes;       /* writes issued and completed in that loop */
	uint64_t seq;          /* total writes of the job */
	bool complete;         /* the job ran all its loops */
};

/* "local-NAME-INDEX-verify.state" in the current directory, as fio. */
void verify_state_path(const char *dir, const char *name, unsigned index, char *out,
		       size_t outlen);
/* 0, or -errno with why saying what failed (the file is opened through the
 * guarded open: a name leading to a block device is refused). */
int verify_state_save(const char *path, const char *name, unsigned index,
		      const struct verify_saved *v, char *why, size_t whylen);
/* 0, -ENOENT when there is no file, -EINVAL (why says) when it is not one of ours. */
int verify_state_load(const char *path, const char *name, unsigned index,
		      struct verify_saved *v, char *why, size_t whylen);

#endif
