/*
 * verify_dump=1, as fio 3.33: when a chunk fails verification, the bytes
 * read and the bytes expected are written to BASENAME.OFFSET.received and
 * BASENAME.OFFSET.expected in the current directory (BASENAME is the file's
 * last path component, OFFSET the chunk's file offset), and each is named on
 * stderr ("received data dumped as ..."). The expected bytes are what the
 * write with the expected (or, unknown, the found) sequence number wrote.
 */
#include "verify/verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"

static void dump_one(const char *name, const char *what, const uint8_t *buf, uint64_t len)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		error_errno(-errno, "verify_dump: cannot create '%s'", name);
		return;
	}
	for (uint64_t done = 0; done < len;) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n <= 0) {
			error_errno(n < 0 ? -errno : -EIO, "verify_dump: cannot write '%s'", name);
			close(fd);
			return;
		}
		done += (uint64_t)n;
	}
	close(fd);
	fprintf(stderr, "       %s data dumped as %s\n", what, name);
}

void verify_dump_chunk(const struct verify_cfg *cfg, const char *path, const struct vexpect *e,
		       const struct vresult *r, const uint8_t *received)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	char name[4096];
	snprintf(name, sizeof(name), "%s.%llu.received", base, (unsigned long long)e->offset);
	dump_one(name, "received", received, e->len);
	uint8_t *want = malloc(e->len);
	if (!want) {
		error_errno(-ENOMEM, "verify_dump: no memory for the expected %llu bytes",
			    (unsigned long long)e->len);
		return;
	}
	uint64_t seq = e->seq_known ? e->seq : r->hdr_valid ? r->found.seq : 1;
	verify_fill_chunk(cfg, want, e->len, e->offset, seq);
	snprintf(name, sizeof(name), "%s.%llu.expected", base, (unsigned long long)e->offset);
	dump_one(name, "expected", want, e->len);
	free(want);
}
