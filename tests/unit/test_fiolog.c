/*
 * fio's log formats (workload/logs/fiolog.h) and the log ring (workload/logs/logring_int.h):
 * text lines as fio 3.33 prints them (samples measured from fio), the binary
 * sample of a .fz log, fiolog_inflate on a file of several zlib streams and
 * on files fio wrote itself, its refusals, the ring's bound and wrap, and
 * the histogram bin of a latency as fio numbers its 1856 bins.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "stats/hist.h"
#include "workload/logs/fiolog.h"
#include "workload/logs/logring_int.h"

static void test_format(void)
{
	char b[FIOLOG_LINE_MAX];
	struct fiolog_sample s = { .time_ms = 31, .value = 440974, .ddir = 0, .bs = 4096,
				   .offset = 4046848 };
	fiolog_format(b, &s, true, false);
	CHECK(!strcmp(b, "31, 440974, 0, 4096, 4046848, 0\n"), "per-I/O with offset: '%s'", b);
	s.prio = 2 << 13 | 3;
	fiolog_format(b, &s, true, true);
	CHECK(!strcmp(b, "31, 440974, 0, 4096, 4046848, 0x4003\n"), "log_prio: '%s'", b);
	fiolog_format(b, &s, false, false);
	CHECK(!strcmp(b, "31, 440974, 0, 4096, 0\n"), "best-effort class prints 0: '%s'", b);
	s.prio = 1 << 13;
	fiolog_format(b, &s, false, false);
	CHECK(!strcmp(b, "31, 440974, 0, 4096, 1\n"), "realtime class prints 1: '%s'", b);
	struct fiolog_sample avg = { .time_ms = 100, .value = 39, .ddir = 1 };
	size_t n = fiolog_format(b, &avg, false, false);
	CHECK(!strcmp(b, "100, 39, 1, 0, 0\n") && n == strlen(b), "averaged line: '%s'", b);
	struct fiolog_sample big = { .time_ms = UINT64_MAX, .value = UINT64_MAX, .ddir = 2,
				     .bs = UINT64_MAX, .offset = UINT64_MAX, .prio = 0xffff };
	n = fiolog_format(b, &big, true, true);
	CHECK(n < FIOLOG_LINE_MAX && !strcmp(b, "18446744073709551615, -1, 2, 18446744073709551615, "
				 "18446744073709551615, 0xffff\n"), "widest line: '%s'", b);
}

static void test_encode(void)
{
	unsigned char b[FIOLOG_BIN_SIZE_OFFSET];
	/* fio's first sample of a log_offset=1 log_prio=1 clat log (measured) */
	struct fiolog_sample s = { .time_ms = 4, .value = 4896840, .ddir = 0, .prio = 0x4003,
				   .bs = 4096, .offset = 4046848 };
	CHECK(fiolog_encode(b, &s, true, true) == 40, "40 bytes with an offset");
	static const unsigned char want[40] = {
		4, 0, 0, 0, 0, 0, 0, 0,                0x48, 0xb8, 0x4a, 0, 0, 0, 0, 0,
		0, 0, 0, 0xc0,  0x03, 0x40, 0, 0,       0, 0x10, 0, 0, 0, 0, 0, 0,
		0, 0xc0, 0x3d, 0, 0, 0, 0, 0,
	};
	CHECK(!memcmp(b, want, 40), "fio's layout, little endian");
	CHECK(fiolog_encode(b, &s, false, false) == 32 && b[19] == 0 && b[18] == 0,
	      "32 bytes and no flags without offset and log_prio");
}

/* A .fz file of `streams` zlib streams holding n samples between them. */
static char *write_fz(unsigned n, unsigned streams, bool off)
{
	char *path = strdup("/tmp/test_fiolog.XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	unsigned char *raw = malloc((size_t)n * 40 + 1);
	size_t len = 0;
	for (unsigned i = 0; i < n; i++) {
		struct fiolog_sample s = { .time_ms = i, .value = 1000 + i, .ddir = i % 2,
					   .bs = 4096, .offset = 8192ULL * i };
		len += fiolog_encode(raw + len, &s, off, false);
	}
	/* cut at arbitrary bytes: a sample may span two streams */
	size_t at = 0;
	for (unsigned k = 0; k < streams; k++) {
		size_t end = k + 1 == streams ? len : len * (k + 1) / streams + 3;
		if (end > len)
			end = len;
		uLongf zl = compressBound((uLong)(end - at));
		unsigned char *z = malloc(zl);
		compress2(z, &zl, raw + at, (uLong)(end - at), 6);
		fwrite(z, 1, zl, f);
		free(z);
		at = end;
	}
	fclose(f);
	free(raw);
	return path;
}

static char *inflate_to_string(const char *path, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	*rc = fiolog_inflate(path, m);
	fclose(m);
	return buf;
}

static void test_inflate(void)
{
	int rc;
	char *p = write_fz(1000, 5, true);
	char *text = inflate_to_string(p, &rc);
	unsigned lines = 0;
	for (char *c = text; *c; c++)
		lines += *c == '\n';
	CHECK(rc == 0 && lines == 1000, "1000 samples over 5 streams: rc %d, %u lines", rc, lines);
	CHECK(!strncmp(text, "0, 1000, 0, 4096, 0, 0\n1, 1001, 1, 4096, 8192, 0\n", 48),
	      "lines: %.60s", text);
	CHECK(strstr(text, "999, 1999, 1, 4096, 8183808, 0\n") != NULL, "last line");
	free(text);
	/* truncate the file inside its last stream */
	FILE *f = fopen(p, "r+");
	fseek(f, 0, SEEK_END);
	long sz = ftell(f);
	fclose(f);
	CHECK(truncate(p, sz - 5) == 0, "truncate");
	free(inflate_to_string(p, &rc));
	CHECK(rc < 0, "a truncated stream is refused (%d)", rc);
	unlink(p);
	free(p);

	p = write_fz(0, 1, false);
	text = inflate_to_string(p, &rc);
	CHECK(rc == 0 && text && !*text, "an empty log (one empty stream) prints nothing");
	free(text);
	f = fopen(p, "w");
	fputs("1, 2, 0, 4096, 0\n", f);
	fclose(f);
	free(inflate_to_string(p, &rc));
	CHECK(rc < 0, "a text log is not a compressed log");
	unlink(p);
	free(p);
}

/* fio's own .fz files read as fio --inflate-log prints them. */
static void test_inflate_fio(void)
{
	if (system("command -v fio >/dev/null 2>&1") != 0) {
		CHECK(0, "needs fio (for a log fio writes): install it with scripts/deps.sh");
		return;
	}
	char dir[] = "/tmp/test_fiolog_fio.XXXXXX";
	if (!mkdtemp(dir))
		return;
	char cmd[1024];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && fio --name=z --ioengine=null --size=8m --bs=4k --rw=randrw "
		 "--write_lat_log=z --log_offset=1 --log_prio=1 --log_compression=4k "
		 "--log_store_compressed=1 --output=/dev/null && "
		 "fio --inflate-log=z_clat.1.log.fz > fio.txt", dir);
	CHECK(system(cmd) == 0, "fio wrote a compressed log: %s", cmd);
	char path[512];
	snprintf(path, sizeof(path), "%s/z_clat.1.log.fz", dir);
	int rc;
	char *ours = inflate_to_string(path, &rc);
	snprintf(path, sizeof(path), "%s/fio.txt", dir);
	FILE *f = fopen(path, "r");
	char *theirs = calloc(1, 1 << 20);
	size_t n = f ? fread(theirs, 1, (1 << 20) - 1, f) : 0;
	if (f)
		fclose(f);
	CHECK(rc == 0 && n > 0 && ours && !strcmp(ours, theirs),
	      "the same text as fio --inflate-log (%zu bytes from fio)", n);
	free(ours);
	free(theirs);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0, "cleanup");
}

static void test_ring(void)
{
	struct logring r;
	logring_init(&r, sizeof(uint64_t), 5);
	CHECK(r.cap == 8, "capacity rounds up to a power of two");
	for (uint64_t i = 0; i < 8; i++) {
		uint64_t *s = logring_slot(&r);
		CHECK(s != NULL, "slot %llu", (unsigned long long)i);
		if (s)
			*s = i;
		logring_publish(&r);
	}
	CHECK(logring_slot(&r) == NULL, "full after cap records: the bound");
	uint64_t next = 0;
	bool ok = true;
	for (unsigned round = 0; round < 100; round++) {
		const uint64_t *v = logring_peek(&r);
		ok &= v && *v == next;
		next++;
		logring_pop(&r);
		uint64_t *s = logring_slot(&r);
		ok &= s != NULL;
		if (s)
			*s = next + 7;
		logring_publish(&r);
	}
	CHECK(ok, "records come out in order across wraps");
	unsigned n = 0;
	while (logring_peek(&r)) {
		logring_pop(&r);
		n++;
	}
	CHECK(n == 8 && logring_peek(&r) == NULL, "drained: %u", n);
	logring_release(&r);
}

/* fio's bins: below 128 one per ns; then for each power of two 2^(e+6) 64
 * bins of 2^e ns, bin (e+1)*64 + the 6 bits below the top one. */
static unsigned fio_bin(uint64_t v)
{
	if (v < 128)
		return (unsigned)v;
	unsigned msb = 63 - (unsigned)__builtin_clzll(v);
	unsigned e = msb - 6;
	return (e + 1) * 64 + (unsigned)((v >> e) & 63);
}

static void test_hist_bins(void)
{
	bool ok = true;
	uint64_t bad = 0;
	for (uint64_t v = 0; v < (1ULL << 34) && fio_bin(v) < FIOLOG_HIST_BINS; v = v < 4096 ? v + 1 : v + v / 97) {
		if (hist_index(v) != fio_bin(v) && ok) {
			ok = false;
			bad = v;
		}
	}
	CHECK(ok, "hist_index is fio's bin (first difference at %llu)", (unsigned long long)bad);
	CHECK(fio_bin((1ULL << 34) - 1) == FIOLOG_HIST_BINS - 1, "1856 bins reach 2^34 ns");
	CHECK(fiolog_hist_bins(0) == 1856 && fiolog_hist_bins(2) == 464 && fiolog_hist_bins(6) == 29,
	      "bins per line by coarseness");
}

int main(void)
{
	test_format();
	test_encode();
	test_inflate();
	test_inflate_fio();
	test_ring();
	test_hist_bins();
	return check_done("test_fiolog");
}
