/*
 * The one-line description of a verify failure: file, block offset and
 * length, the kind and its detail, the expected and found header fields, and
 * the first differing byte with its file offset, e.g.
 *   'f.dat' offset 8192 length 4096: misplaced: header says offset 0: this is
 *   the block written there; expected offset=8192 len=4096 seed=0x1f.. seq=3,
 *   found offset=0 len=4096 seed=0x1f.. seq=1; first differing byte at offset
 *   8208 (+16 in the block): 0x00, expected 0x20
 */
#include "verify/verify.h"

#include <stdarg.h>
#include <stdio.h>

struct sbuf {
	char *p;
	size_t len, used;
};

__attribute__((format(printf, 2, 3)))
static void add(struct sbuf *b, const char *fmt, ...)
{
	if (b->used >= b->len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->p + b->used, b->len - b->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->used += (size_t)n;
}

void verify_describe(const struct verify_cfg *cfg, const char *path, const struct vexpect *e,
		     const struct vresult *r, char *out, size_t outlen)
{
	struct sbuf b = { out, outlen, 0 };
	out[0] = 0;
	add(&b, "'%s' offset %llu length %llu: %s: %s", path, (unsigned long long)e->offset,
	    (unsigned long long)e->len, vfail_name(r->kind), r->why);
	if (cfg->header && r->kind != VFAIL_SHORT) {
		add(&b, "; expected offset=%llu len=%llu", (unsigned long long)e->offset,
		    (unsigned long long)e->len);
		if (e->seed_known)
			add(&b, " seed=0x%llx", (unsigned long long)e->seed);
		if (e->seq_known)
			add(&b, " seq=%llu", (unsigned long long)e->seq);
		const struct vhdr *h = &r->found;
		if (h->magic != VHDR_MAGIC)
			add(&b, ", found no header");
		else
			add(&b, ", found%s offset=%llu len=%u seed=0x%llx seq=%llu",
			    r->hdr_valid ? "" : " (header checksum fails)",
			    (unsigned long long)h->offset, h->len, (unsigned long long)h->seed,
			    (unsigned long long)h->seq);
	}
	if (r->first_diff >= 0)
		add(&b, "; first differing byte at offset %llu (+%lld in the block): 0x%02x, expected 0x%02x",
		    (unsigned long long)(e->offset + (uint64_t)r->first_diff), (long long)r->first_diff,
		    r->got_byte, r->want_byte);
	else if (r->kind != VFAIL_SHORT)
		add(&b, "; first differing byte unknown (the expected contents cannot be rebuilt)");
}
