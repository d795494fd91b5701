/*
 * Fuzz target: the replay's log readers (workload/replay/replay.h): fio's text
 * iologs (versions 2 and 3) and blktrace binary files, by their format's
 * detection. Input: a selector byte (bit 0: replay_no_stall, 1: read-only
 * mode, 2: replay_redirect, 3: replay_skip=read,sync, 4: replay_scale=3,
 * 5: replay_align=4096, 6: replay_time_scale=37), then the log (through a
 * memfd, no source change). Every entry names a file the reader listed,
 * has a valid kind and direction, a data I/O lies within the file's end
 * and on replay_align's boundary, nothing skipped comes out, read-only
 * mode gives no write or trim, and redirect gives one file.
 */
#define _GNU_SOURCE
#include "common.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "spec/jobspec.h"
#include "workload/replay/replay_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	unsigned sel = data[0];
	int fd = memfd_create("iolog", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct job_spec s;
	job_spec_defaults(&s);
	s.replay_no_stall = sel & 1;
	bool ro = sel & 2;
	if (sel & 4)
		s.replay_redirect = strdup("/tmp/fuzz-redirect");
	if (sel & 8)
		s.replay_skip = 1u << DDIR_READ | 1u << DDIR_SYNC;
	if (sel & 16)
		s.replay_scale = 3;
	if (sel & 32)
		s.replay_align = 4096;
	if (sel & 64)
		s.replay_time_scale = 37;
	struct replay_src src;
	struct replay_files files = { 0 };
	if (replay_src_open(&src, path, &s, ro) == 0) {
		struct replay_entry e;
		int rc;
		unsigned long n = 0;
		while ((rc = replay_src_next(&src, &files, &e)) > 0 && n++ < 100000) {
			REQUIRE(e.kind <= RP_WAIT);
			if (e.kind == RP_WAIT) {
				REQUIRE(src.version == 2 && !s.replay_no_stall);
				continue;
			}
			REQUIRE(e.file < files.n);
			if (s.replay_no_stall)
				REQUIRE(e.delay_us == 0);
			if (e.kind != RP_IO)
				continue;
			REQUIRE(e.ddir < DDIR_INVAL);
			REQUIRE(!(s.replay_skip & (1u << e.ddir)));
			REQUIRE(!ro || (e.ddir != DDIR_WRITE && e.ddir != DDIR_TRIM));
			if (e.ddir < DDIR_RWDIR_CNT) {
				REQUIRE(e.offset + e.len <= files.end[e.file]);
				REQUIRE(!s.replay_align || e.offset % s.replay_align == 0);
			}
		}
		REQUIRE(rc <= 0 || n > 100000);
		REQUIRE(!s.replay_redirect || files.n <= 1);
		replay_src_close(&src);
	}
	replay_files_free(&files);
	job_spec_release(&s);
	close(fd);
	return 0;
}
