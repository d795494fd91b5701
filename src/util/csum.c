/*
 * Checksum implementations (csum.h). Only crc32c has code of its own: a loop
 * over the SSE4.2 crc32 instruction, chosen at run time when the CPU has it
 * (the same instruction ISA-L and the kernel use); everything else calls a
 * maintained library: ISA-L (crc32c fallback, crc32, crc64), nettle (md5,
 * sha256) and libxxhash (XXH64); crc16 and crc7 are crc_small.c's.
 */
#include "util/csum.h"

#include <string.h>

#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha3.h>
#include <nettle/sha2.h>
#include <xxhash.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

size_t csum_len(enum csum_type t)
{
	switch (t) {
	case CSUM_CRC32C: return 4;
	case CSUM_CRC32: return 4;
	case CSUM_CRC64: return 8;
	case CSUM_MD5: return MD5_DIGEST_SIZE;
	case CSUM_SHA256: return SHA256_DIGEST_SIZE;
	case CSUM_XXHASH: return 8;
	case CSUM_SHA1: return SHA1_DIGEST_SIZE;
	case CSUM_SHA512: return SHA512_DIGEST_SIZE;
	case CSUM_SHA3_224: return SHA3_224_DIGEST_SIZE;
	case CSUM_SHA3_256: return SHA3_256_DIGEST_SIZE;
	case CSUM_SHA3_384: return SHA3_384_DIGEST_SIZE;
	case CSUM_SHA3_512: return SHA3_512_DIGEST_SIZE;
	case CSUM_CRC16: return 2;
	case CSUM_CRC7: return 1;
	default: return 0;
	}
}

const char *csum_name(enum csum_type t)
{
	static const char *const names[CSUM_NR] = {
		[CSUM_NONE] = "none", [CSUM_CRC32C] = "crc32c", [CSUM_CRC32] = "crc32",
		[CSUM_CRC64] = "crc64", [CSUM_MD5] = "md5", [CSUM_SHA256] = "sha256",
		[CSUM_XXHASH] = "xxhash", [CSUM_SHA1] = "sha1", [CSUM_SHA512] = "sha512",
		[CSUM_SHA3_224] = "sha3-224", [CSUM_SHA3_256] = "sha3-256",
		[CSUM_SHA3_384] = "sha3-384", [CSUM_SHA3_512] = "sha3-512",
		[CSUM_CRC16] = "crc16", [CSUM_CRC7] = "crc7",
	};
	return (unsigned)t < CSUM_NR ? names[t] : "?";
}

#if defined(__x86_64__)
bool csum_crc32c_has_hw(void)
{
	return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2")))
uint32_t crc32c_hw(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t c = 0xffffffffu;
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
	}
	uint32_t c32 = (uint32_t)c;
	for (; len; p++, len--)
		c32 = _mm_crc32_u8(c32, *p);
	return ~c32;
}
#else
bool csum_crc32c_has_hw(void)
{
	return false;
}

uint32_t crc32c_hw(const void *buf, size_t len)
{
	return crc32c_lib(buf, len);
}
#endif

uint32_t crc32c_lib(const void *buf, size_t len)
{
	/* ISA-L takes an int length: feed it in pieces below 2 GiB */
	const unsigned char *p = buf;
	uint32_t c = 0xffffffffu;
	while (len) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;
		c = crc32_iscsi((unsigned char *)p, (int)n, c);
		p += n;
		len -= n;
	}
	return ~c;
}

uint32_t crc32c(const void *buf, size_t len)
{
	return csum_crc32c_has_hw() ? crc32c_hw(buf, len) : crc32c_lib(buf, len);
}

static void put_le(uint8_t *out, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

void csum(enum csum_type t, const void *buf, size_t len, uint8_t *out)
{
	switch (t) {
	case CSUM_CRC32C:
		put_le(out, crc32c(buf, len), 4);
		break;
	case CSUM_CRC32:
		put_le(out, crc32_gzip_refl(0, buf, len), 4);
		break;
	case CSUM_CRC64:
		put_le(out, crc64_ecma_refl(0, buf, len), 8);
		break;
	case CSUM_MD5: {
		struct md5_ctx c;
		md5_init(&c);
		md5_update(&c, len, buf);
		md5_digest(&c, MD5_DIGEST_SIZE, out);
		break;
	}
	case CSUM_SHA256: {
		struct sha256_ctx c;
		sha256_init(&c);
		sha256_update(&c, len, buf);
		sha256_digest(&c, SHA256_DIGEST_SIZE, out);
		break;
	}
	case CSUM_XXHASH:
		put_le(out, XXH64(buf, len, 0), 8);
		break;
	case CSUM_CRC16:
		put_le(out, crc16_arc(0, buf, len), 2);
		break;
	case CSUM_CRC7:
		out[0] = crc7_mmc(0, buf, len);
		break;
/* nettle's init/update/digest triple of one hash */
#define NETTLE_HASH(ctx, pre, size) { struct ctx c; pre##_init(&c); pre##_update(&c, len, buf); \
		pre##_digest(&c, size, out); break; }
	case CSUM_SHA1: NETTLE_HASH(sha1_ctx, sha1, SHA1_DIGEST_SIZE)
	case CSUM_SHA512: NETTLE_HASH(sha512_ctx, sha512, SHA512_DIGEST_SIZE)
	case CSUM_SHA3_224: NETTLE_HASH(sha3_224_ctx, sha3_224, SHA3_224_DIGEST_SIZE)
	case CSUM_SHA3_256: NETTLE_HASH(sha3_256_ctx, sha3_256, SHA3_256_DIGEST_SIZE)
	case CSUM_SHA3_384: NETTLE_HASH(sha3_384_ctx, sha3_384, SHA3_384_DIGEST_SIZE)
	case CSUM_SHA3_512: NETTLE_HASH(sha3_512_ctx, sha3_512, SHA3_512_DIGEST_SIZE)
#undef NETTLE_HASH
	default:
		break;
	}
}
