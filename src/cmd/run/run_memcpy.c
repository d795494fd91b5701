/*
 * run's --memcpytest[=TYPE[,TYPE...]]: fio's memory-copy table. Each copy
 * method (memcpy, memmove, simple: a byte at a time, hybrid: memcpy below
 * 64 bytes, the byte loop from 64 up, as fio 3.33 defines it) copies a
 * 32 MiB buffer of random bytes in pieces of 8 bytes to 512 KiB; each line
 * is the rate of one piece size, in fio's format ("\t8 bytes:\t 1234.56
 * MiB/sec"). fio copies the buffer 64 times for each line (minutes for the
 * byte loop); iobench copies it for about 100 ms a line, so the whole table
 * takes seconds. Unknown names are ignored when one is known; none known,
 * or "help"/"list", prints the names and exits 1, as fio does.
 */
#include "cmd/run/run_cmdline_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

enum { MC_BUF = 32 << 20, MC_HYBRID_SIMPLE_FROM = 64 };
static const double mc_line_ns = 100e6;

static const size_t mc_sizes[] = { 8, 16, 96, 128, 256, 512, 2048, 8192, 131072, 262144, 524288 };

enum mc_kind { MC_MEMCPY, MC_MEMMOVE, MC_SIMPLE, MC_HYBRID, MC_NR };
static const char *const mc_names[MC_NR] = { "memcpy", "memmove", "simple", "hybrid" };

/* A byte at a time; the compiler must not turn the loop into memcpy. */
__attribute__((noinline, optimize("no-tree-loop-distribute-patterns")))
static void byte_copy(void *dst, const void *src, size_t len)
{
	volatile unsigned char *d = dst;
	const unsigned char *s = src;
	while (len--)
		*d++ = *s++;
}

static void copy_piece(enum mc_kind k, void *dst, const void *src, size_t len, size_t piece)
{
	switch (k) {
	case MC_MEMCPY:
		memcpy(dst, src, len);
		break;
	case MC_MEMMOVE:
		memmove(dst, src, len);
		break;
	case MC_SIMPLE:
		byte_copy(dst, src, len);
		break;
	case MC_HYBRID:
		if (piece >= MC_HYBRID_SIMPLE_FROM)
			byte_copy(dst, src, len);
		else
			memcpy(dst, src, len);
		break;
	case MC_NR:
		break;
	}
}

/* Copy the buffer in pieces of `piece` bytes for about `ns` (whole MiBs,
 * at least one); returns the bytes copied and sets *took. */
static uint64_t copy_for(enum mc_kind k, uint8_t *dst, const uint8_t *src, size_t piece,
			 double ns, uint64_t *took)
{
	uint64_t t0 = now_ns(), bytes = 0, t;
	size_t off = 0;
	do {
		size_t stop = off + (1 << 20);
		while (off < stop) {
			size_t n = piece < stop - off ? piece : stop - off;
			copy_piece(k, dst + off, src + off, n, piece);
			off += n;
		}
		bytes += 1 << 20;
		if (off == MC_BUF)
			off = 0;
		t = now_ns();
	} while ((double)(t - t0) < ns);
	*took = t - t0;
	return bytes;
}

static int list_types(void)
{
	for (int k = 0; k < MC_NR; k++)
		printf("%s\n", mc_names[k]);
	return 1;
}

int run_memcpytest(const char *what)
{
	bool want[MC_NR] = { false }, any = false;
	if (!what) {
		for (int k = 0; k < MC_NR; k++)
			want[k] = any = true;
	} else if (!strcmp(what, "help") || !strcmp(what, "list")) {
		return list_types();
	} else {
		char *list = xstrdup(what), *p = list, *t;
		while ((t = strsep(&p, ",")))
			for (int k = 0; k < MC_NR; k++)
				if (!strcmp(t, mc_names[k]))
					want[k] = any = true;
		free(list);
	}
	if (!any) {
		error("--memcpytest: no copy method '%s'; the methods are:", what);
		return list_types();
	}
	uint8_t *src = xmalloc(MC_BUF), *dst = xmalloc(MC_BUF);
	memset(dst, 0, MC_BUF);
	uint64_t x = 0x8989;
	for (size_t i = 0; i < MC_BUF; i += 8) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(src + i, &x, 8);
	}
	for (int k = 0; k < MC_NR; k++) {
		if (!want[k])
			continue;
		uint64_t took;
		/* touch both buffers and wake the CPU before the first line */
		copy_for((enum mc_kind)k, dst, src, mc_sizes[0], mc_line_ns, &took);
		printf("%s\n", mc_names[k]);
		for (size_t j = 0; j < ARRAY_SIZE(mc_sizes); j++) {
			uint64_t bytes = copy_for((enum mc_kind)k, dst, src, mc_sizes[j], mc_line_ns,
						  &took);
			printf("\t%zu bytes:\t%8.2f MiB/sec\n", mc_sizes[j],
			       (double)bytes / (1 << 20) / ((double)took / 1e9));
		}
		fflush(stdout);
	}
	free(src);
	free(dst);
	return fflush(stdout) ? 1 : 0;
}
