/*
 * verify_dump=1, as fio 3.33: when a chunk fails verification, the bytes
 * read and the bytes expected are written to BASENAME.OFFSET.received and
 * BASENAME.OFFSET.expected in the current directory, or in --aux-path's
 * (BASENAME is the file's last path component, OFFSET the chunk's file
 * offset), and each is named on stderr ("received data dumped as ...").
 * The expected bytes are what the write with the expected (or, unknown,
 * the found) sequence number wrote. Like every file iobench writes, each
 * goes through the device guard's open (devguard_fopen): never a device.
 */
#include "verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/dev/guardopen.h"
#include "util/error.h"
#include "workload/verify/verify_int.h"

static void dump_one(const char *name, const char *what, const uint8_t *buf, uint64_t len)
{
	FILE *f;
	char why[512];
	if (devguard_fopen(name, false, NULL, &f, why, sizeof(why)) < 0) {
		error("verify_dump: cannot create '%s': %s", name, why);
		return;
	}
	size_t n = fwrite(buf, 1, len, f);
	if (fclose(f) != 0 || n != len) {
		error("verify_dump: cannot write '%s' (%zu of %llu bytes)", name, n,
		      (unsigned long long)len);
		return;
	}
	fprintf(stderr, "       %s data dumped as %s\n", what, name);
}

void verify_dump_chunk(const struct verify_cfg *cfg, const char *dir, const char *path,
		       const struct vexpect *e, const struct vresult *r, const uint8_t *received)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	char name[4096];
	snprintf(name, sizeof(name), "%s%s%s.%llu.received", dir ? dir : "", dir ? "/" : "", base,
		 (unsigned long long)e->offset);
	dump_one(name, "received", received, e->len);
	uint8_t *want = malloc(e->len);
	if (!want) {
		error_errno(-ENOMEM, "verify_dump: no memory for the expected %llu bytes",
			    (unsigned long long)e->len);
		return;
	}
	uint64_t seq = e->seq_known ? e->seq : r->hdr_valid ? r->found.seq : 1;
	verify_fill_chunk(cfg, want, e->len, e->offset, seq);
	snprintf(name, sizeof(name), "%s%s%s.%llu.expected", dir ? dir : "", dir ? "/" : "", base,
		 (unsigned long long)e->offset);
	dump_one(name, "expected", want, e->len);
	free(want);
}
