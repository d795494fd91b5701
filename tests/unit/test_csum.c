/*
 * Checksums (src/util/csum.c) against published check values: the CRC
 * catalogue's "123456789" checks for crc32c, crc32 and crc64 (CRC-64/XZ),
 * RFC 1321 and FIPS 180-2 vectors for md5("abc") and sha256("abc"), and
 * xxHash's own XXH64 vectors; both crc32c implementations agree on every
 * length and alignment. crc16 and crc7 (fio's CRC-16/ARC and CRC-7/MMC) meet
 * the catalogue's check values, a bit-by-bit computation of their
 * polynomials on every length up to 300, and what fio 3.33 stored in the
 * headers of blocks it wrote with verify_pattern (see fio_vectors()).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/csum.h"

static void hex(const uint8_t *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static int digest_is(enum csum_type t, const char *in, size_t len, const char *want)
{
	uint8_t out[CSUM_MAX_LEN];
	char h[2 * CSUM_MAX_LEN + 1];
	memset(out, 0xee, sizeof(out));
	csum(t, in, len, out);
	hex(out, csum_len(t), h);
	if (strcmp(h, want))
		printf("  %s: got %s, want %s\n", csum_name(t), h, want);
	return !strcmp(h, want);
}

/* bit by bit, straight from the polynomials: CRC-16/ARC reflected 0xa001,
 * CRC-7/MMC 0x09 most significant bit first */
static uint16_t crc16_bits(const uint8_t *p, size_t n)
{
	uint16_t c = 0;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (uint16_t)((c >> 1) ^ 0xa001) : (uint16_t)(c >> 1);
	}
	return c;
}

static uint8_t crc7_bits(const uint8_t *p, size_t n)
{
	uint8_t c = 0;
	while (n--) {
		uint8_t b = *p++;
		for (int k = 7; k >= 0; k--) {
			unsigned top = (c >> 6) & 1, bit = (b >> k) & 1;
			c = (uint8_t)((c << 1) & 0x7f);
			if (top ^ bit)
				c ^= 0x09;
		}
	}
	return c;
}

/*
 * fio 3.33's own values: `fio --name=v --filename=F --size=4k --bs=4k
 * --rw=write --verify=crc16|crc7 --verify_pattern=P --do_verify=0` writes one
 * block whose payload is the pattern laid from the block's start, after a
 * 40-byte header and the checksum (2 bytes for crc16, 1 for crc7), and
 * stores the payload's checksum at byte 40: crc16 0x54f2 (P=0x5a) and 0xfc2f
 * (P=0xdeadbeef), crc7 0x5b and 0x0c.
 */
static void fio_vectors(void)
{
	uint8_t *blk = malloc(4096);
	memset(blk, 0x5a, 4096);
	CHECK(crc16_arc(0, blk + 42, 4096 - 42) == 0x54f2, "crc16 of fio's 0x5a block");
	CHECK(crc7_mmc(0, blk + 41, 4096 - 41) == 0x5b, "crc7 of fio's 0x5a block");
	static const uint8_t dead[4] = { 0xde, 0xad, 0xbe, 0xef };
	for (size_t i = 0; i < 4096; i++)
		blk[i] = dead[i % 4];
	CHECK(crc16_arc(0, blk + 42, 4096 - 42) == 0xfc2f, "crc16 of fio's 0xdeadbeef block");
	CHECK(crc7_mmc(0, blk + 41, 4096 - 41) == 0x0c, "crc7 of fio's 0xdeadbeef block");
	free(blk);
}

int main(void)
{
	const char *check = "123456789";
	CHECK(csum_len(CSUM_CRC32C) == 4 && csum_len(CSUM_CRC32) == 4 && csum_len(CSUM_CRC64) == 8 &&
	      csum_len(CSUM_MD5) == 16 && csum_len(CSUM_SHA256) == 32 && csum_len(CSUM_XXHASH) == 8 &&
	      csum_len(CSUM_NONE) == 0, "digest lengths");
	CHECK(!strcmp(csum_name(CSUM_CRC32C), "crc32c") && !strcmp(csum_name(CSUM_XXHASH), "xxhash"), "names");

	CHECK(crc32c(check, 9) == 0xe3069283, "crc32c check value: %08x", crc32c(check, 9));
	CHECK(crc32c_lib(check, 9) == 0xe3069283, "crc32c library check value");
	if (csum_crc32c_has_hw())
		CHECK(crc32c_hw(check, 9) == 0xe3069283, "crc32c hardware check value");
	/* little-endian digests */
	CHECK(digest_is(CSUM_CRC32C, check, 9, "839206e3"), "crc32c digest bytes");
	CHECK(digest_is(CSUM_CRC32, check, 9, "2639f4cb"), "crc32 = 0xcbf43926");
	CHECK(digest_is(CSUM_CRC64, check, 9, "fa3919dfbbc95d99"), "crc64 = 0x995dc9bbdf1939fa (CRC-64/XZ)");
	CHECK(digest_is(CSUM_MD5, "abc", 3, "900150983cd24fb0d6963f7d28e17f72"), "md5(abc)");
	CHECK(digest_is(CSUM_MD5, "", 0, "d41d8cd98f00b204e9800998ecf8427e"), "md5 of nothing");
	CHECK(digest_is(CSUM_SHA256, "abc", 3,
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "sha256(abc)");
	/* FIPS 180-4 and FIPS 202 vectors, nettle's sha1, sha512 and sha3 */
	CHECK(digest_is(CSUM_SHA1, "abc", 3, "a9993e364706816aba3e25717850c26c9cd0d89d"), "sha1(abc)");
	CHECK(digest_is(CSUM_SHA512, "abc", 3,
			"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
			"2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"), "sha512(abc)");
	CHECK(digest_is(CSUM_SHA3_224, "abc", 3, "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"),
	      "sha3-224(abc)");
	CHECK(digest_is(CSUM_SHA3_256, "abc", 3,
			"3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"), "sha3-256(abc)");
	CHECK(digest_is(CSUM_SHA3_384, "abc", 3,
			"ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
			"98d88cea927ac7f539f1edf228376d25"), "sha3-384(abc)");
	CHECK(digest_is(CSUM_SHA3_512, "abc", 3,
			"b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
			"10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"), "sha3-512(abc)");
	CHECK(digest_is(CSUM_XXHASH, "", 0, "99e9d85137db46ef"), "XXH64 of nothing = 0xef46db3751d8e999");
	CHECK(digest_is(CSUM_XXHASH, "abc", 3, "990977adf52cbc44"), "XXH64(abc) = 0x44bc2cf5ad770999");
	CHECK(digest_is(CSUM_CRC16, check, 9, "3dbb"), "crc16 = 0xbb3d (CRC-16/ARC)");
	CHECK(digest_is(CSUM_CRC7, check, 9, "75"), "crc7 = 0x75 (CRC-7/MMC)");
	CHECK(csum_len(CSUM_CRC16) == 2 && csum_len(CSUM_CRC7) == 1 && !strcmp(csum_name(CSUM_CRC7), "crc7"),
	      "crc16 and crc7 lengths and names");
	fio_vectors();

	/* the two crc32c paths agree on every length and alignment */
	unsigned char *buf = malloc(4096 + 16);
	for (size_t i = 0; i < 4096 + 16; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	int bad = 0;
	for (size_t a = 0; a < 8 && csum_crc32c_has_hw(); a++)
		for (size_t n = 0; n < 300; n++)
			bad += crc32c_hw(buf + a, n) != crc32c_lib(buf + a, n);
	CHECK(bad == 0, "crc32c hardware and library agree (%d differ)", bad);
	bad = 0;
	for (size_t n = 0; n < 300; n++)
		bad += crc16_arc(0, buf + 3, n) != crc16_bits(buf + 3, n) ||
		       crc7_mmc(0, buf + 3, n) != crc7_bits(buf + 3, n);
	CHECK(bad == 0, "crc16 and crc7 tables agree with the polynomials bit by bit (%d differ)", bad);
	/* continuing from a crc is the crc of the whole */
	CHECK(crc16_arc(crc16_arc(0, buf, 100), buf + 100, 200) == crc16_arc(0, buf, 300) &&
	      crc7_mmc(crc7_mmc(0, buf, 100), buf + 100, 200) == crc7_mmc(0, buf, 300), "crc16 and crc7 continue");
	/* a flipped bit changes every digest */
	for (int t = CSUM_CRC32C; t < CSUM_NR; t++) {
		uint8_t a[CSUM_MAX_LEN], b[CSUM_MAX_LEN];
		csum(t, buf, 4096, a);
		buf[1234] ^= 0x10;
		csum(t, buf, 4096, b);
		buf[1234] ^= 0x10;
		CHECK(memcmp(a, b, csum_len(t)), "%s sees a flipped bit", csum_name(t));
	}
	free(buf);
	return check_done("csum");
}
