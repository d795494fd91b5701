/*
 * Checksums for data verification, behind one small interface: the caller
 * names a type and gets its digest as bytes (CRCs and xxhash little-endian,
 * the md5, sha and sha3 digests in their usual byte order). Every algorithm comes from a
 * maintained implementation: crc32c from the CPU's SSE4.2 crc32 instruction
 * when it has one, else ISA-L; crc32 (IEEE, as zlib/gzip) and crc64
 * (ECMA-182 reflected, CRC-64/XZ) from ISA-L; md5, sha1, sha256, sha512
 * and sha3-224/256/384/512 from nettle;
 * xxhash (XXH64, seed 0) from libxxhash; crc16 (CRC-16/ARC) and crc7
 * (CRC-7/MMC), fio's two small CRCs, from crc_small.c's tables.
 */
#ifndef IOBENCH_UTIL_CSUM_H
#define IOBENCH_UTIL_CSUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum csum_type {
	CSUM_NONE = 0,
	CSUM_CRC32C,
	CSUM_CRC32,
	CSUM_CRC64,
	CSUM_MD5,
	CSUM_SHA256,
	CSUM_XXHASH,
	CSUM_SHA1,
	CSUM_SHA512,
	CSUM_SHA3_224,
	CSUM_SHA3_256,
	CSUM_SHA3_384,
	CSUM_SHA3_512,
	CSUM_CRC16,
	CSUM_CRC7,
	CSUM_NR,
};

/* The longest digest (sha512, sha3-512). */
#define CSUM_MAX_LEN 64

/* Digest length in bytes of a type (0 for CSUM_NONE or an unknown type). */
size_t csum_len(enum csum_type t);
/* The type's name as fio spells it ("crc32c", "md5", ...); "none" for CSUM_NONE. */
const char *csum_name(enum csum_type t);
/* Compute the digest of buf[0..len) into out (csum_len(t) bytes). */
void csum(enum csum_type t, const void *buf, size_t len, uint8_t *out);

/* crc32c (Castagnoli, as iSCSI/ext4: "123456789" -> 0xe3069283). */
uint32_t crc32c(const void *buf, size_t len);
/* The two crc32c implementations, for tests: hardware (only when
 * csum_crc32c_has_hw()) and the library one. */
bool csum_crc32c_has_hw(void);
uint32_t crc32c_hw(const void *buf, size_t len);
uint32_t crc32c_lib(const void *buf, size_t len);

/* crc16 as fio's verify=crc16 (CRC-16/ARC: "123456789" from 0 -> 0xbb3d) and
 * crc7 as its verify=crc7 (CRC-7/MMC: -> 0x75), continuing from crc (0 to
 * start); crc_small.c. */
uint16_t crc16_arc(uint16_t crc, const void *buf, size_t len);
uint8_t crc7_mmc(uint8_t crc, const void *buf, size_t len);

#endif
