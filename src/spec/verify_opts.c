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
	};
	static const char *const fio_only[] = {
		"crc16", "crc7", "sha1", "sha512", "sha3-224", "sha3-256", "sha3-384", "sha3-512",
	};
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcasecmp(val, types[i].name)) {
			s->verify = types[i].v;
			return 0;
		}
	for (size_t i = 0; i < sizeof(fio_only) / sizeof(fio_only[0]); i++)
		if (!strcasecmp(val, fio_only[i]))
			return opt_failf(c, -ENOTSUP, "verify type '%s' of option '%s' is not implemented "
					 "yet (use crc32c, crc32, crc64, md5, sha256 or xxhash)", val, c->key);
	return opt_fail(c, -EINVAL, "verify type", val,
			"expected crc32c, crc32c-intel, crc32, crc64, md5, sha256, xxhash, meta, pattern, null or 0");
}

const char *verify_type_name(enum verify_type t)
{
	static const char *const names[] = {
		[VERIFY_NONE] = "0", [VERIFY_CRC32C] = "crc32c", [VERIFY_CRC32] = "crc32",
		[VERIFY_CRC64] = "crc64", [VERIFY_MD5] = "md5", [VERIFY_SHA256] = "sha256",
		[VERIFY_XXHASH] = "xxhash", [VERIFY_META] = "meta", [VERIFY_PATTERN] = "pattern",
		[VERIFY_NULL] = "null",
	};
	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
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
