/*
 * Parse callbacks of the verify options whose values are more than a number
 * or a flag: verify= (the block format and checksum) and verify_pattern=
 * (checked here, kept as written, rendered per job by verify_cfg_init). As in
 * fio, a verify_pattern with no verify= set means verify=pattern.
 */
#include "spec/options_cb.h"
#include "spec/verify_opts.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int opt_cb_verify(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	static const struct { const char *name; enum verify_type v; } types[] = {
		{ "0", VERIFY_NONE }, { "none", VERIFY_NONE },
		{ "crc32c", VERIFY_CRC32C }, { "crc32c-intel", VERIFY_CRC32C },
		{ "crc32", VERIFY_CRC32 }, { "crc64", VERIFY_CRC64 }, { "md5", VERIFY_MD5 },
		{ "sha256", VERIFY_SHA256 }, { "xxhash", VERIFY_XXHASH }, { "meta", VERIFY_META },
		{ "pattern", VERIFY_PATTERN }, { "null", VERIFY_NULL },
		{ "sha1", VERIFY_SHA1 }, { "sha512", VERIFY_SHA512 },
		{ "sha3-224", VERIFY_SHA3_224 }, { "sha3-256", VERIFY_SHA3_256 },
		{ "sha3-384", VERIFY_SHA3_384 }, { "sha3-512", VERIFY_SHA3_512 },
		{ "crc16", VERIFY_CRC16 }, { "crc7", VERIFY_CRC7 },
	};
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcasecmp(val, types[i].name)) {
			s->verify = types[i].v;
			return 0;
		}
	return opt_fail(c, -EINVAL, "verify type", val,
			"expected crc32c, crc32c-intel, crc32, crc64, crc16, crc7, md5, sha1, sha256, sha512, sha3-224, "
			"sha3-256, sha3-384, sha3-512, xxhash, meta, pattern, null or 0");
}

const char *verify_type_name(enum verify_type t)
{
	static const char *const names[] = {
		[VERIFY_NONE] = "0", [VERIFY_CRC32C] = "crc32c", [VERIFY_CRC32] = "crc32",
		[VERIFY_CRC64] = "crc64", [VERIFY_MD5] = "md5", [VERIFY_SHA256] = "sha256",
		[VERIFY_XXHASH] = "xxhash", [VERIFY_META] = "meta", [VERIFY_PATTERN] = "pattern",
		[VERIFY_NULL] = "null", [VERIFY_SHA1] = "sha1", [VERIFY_SHA512] = "sha512",
		[VERIFY_SHA3_224] = "sha3-224", [VERIFY_SHA3_256] = "sha3-256",
		[VERIFY_SHA3_384] = "sha3-384", [VERIFY_SHA3_512] = "sha3-512",
		[VERIFY_CRC16] = "crc16", [VERIFY_CRC7] = "crc7",
	};
	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

/* fio's buffer_pattern: verify_pattern's syntax without %o (fio refuses it). */
int opt_cb_buffer_pattern(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct vpattern p;
	char why[128];
	if (strchr(val, '\''))
		return opt_failf(c, -ENOTSUP, "a 'file' part of option '%s' is not implemented yet "
				 "(use 0xHEX, decimal and \"text\")", c->key);
	if (vpattern_parse(val, &p, why, sizeof(why)) < 0)
		return opt_fail(c, -EINVAL, "pattern", val, why);
	unsigned slots = p.nr_slots;
	vpattern_release(&p);
	if (slots)
		return opt_fail(c, -EINVAL, "pattern", val, "%o belongs to verify_pattern only, as in fio");
	free(s->buffer_pattern);
	s->buffer_pattern = xstrdup(val);
	return 0;
}

int opt_cb_dedupe_mode(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	if (!strcasecmp(val, "repeat"))
		s->dedupe_working_set = false;
	else if (!strcasecmp(val, "working_set"))
		s->dedupe_working_set = true;
	else
		return opt_fail(c, -EINVAL, "dedupe mode", val, "use repeat or working_set");
	return 0;
}

int opt_cb_verify_pattern(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct vpattern p;
	char why[128];
	if (vpattern_parse(val, &p, why, sizeof(why)) < 0)
		return opt_fail(c, -EINVAL, "pattern", val, why);
	vpattern_release(&p);
	free(s->verify_pattern);
	s->verify_pattern = xstrdup(val);
	if (s->verify == VERIFY_NONE)
		s->verify = VERIFY_PATTERN;
	return 0;
}
