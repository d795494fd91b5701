/*
 * The histogram blobs of store_hist.h: encoding stats/hist.h histograms and
 * fio's json+ bins, decoding both, and their percentiles.
 */
#include "store/store_hist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/xmalloc.h"

/* IOBENCH1 is this bucket scheme; a change to hist.h needs a new layout. */
_Static_assert(HIST_SUB_BITS == 6 && HIST_MAX_MSB == 40,
	       "stats/hist.h changed its buckets: add a store layout for the new ones");

#define PAIR1 12 /* u32 index + u64 count */
#define PAIR2 16 /* u64 value + u64 count */

static void put_le(unsigned char *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

void *store_hist_encode(const struct hist *h, size_t *len)
{
	size_t n = 0;
	*len = 0;
	if (!h->count)
		return NULL;
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++)
		n += hist_count_at(h, i) != 0;
	unsigned char *blob = xmalloc(n * PAIR1 + 1), *p = blob;
	for (unsigned i = 0; i < HIST_NR_BUCKETS; i++) {
		uint64_t c = hist_count_at(h, i);
		if (!c)
			continue;
		put_le(p, i, 4);
		put_le(p + 4, c, 8);
		p += PAIR1;
	}
	*len = n * PAIR1;
	return blob;
}

struct bin {
	uint64_t value, count;
};

static int bin_cmp(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;
	return x->value < y->value ? -1 : x->value > y->value;
}

void *store_hist_encode_bins(uint64_t *values, uint64_t *counts, size_t n, size_t *len)
{
	struct bin *b = xcalloc(n ? n : 1, sizeof(*b));
	for (size_t i = 0; i < n; i++)
		b[i] = (struct bin){ values[i], counts[i] };
	qsort(b, n, sizeof(*b), bin_cmp);
	unsigned char *blob = xmalloc(n * PAIR2 + 1);
	for (size_t i = 0; i < n; i++) {
		put_le(blob + i * PAIR2, b[i].value, 8);
		put_le(blob + i * PAIR2 + 8, b[i].count, 8);
	}
	free(b);
	*len = n * PAIR2;
	return blob;
}

int store_hist_decode(unsigned layout, const void *blob, size_t len, uint64_t count, uint64_t min,
		      uint64_t max, struct store_hist *out)
{
	const unsigned char *p = blob;
	size_t pair = layout == STORE_HIST_IOBENCH1 ? PAIR1 : PAIR2;
	unsigned kbytes = layout == STORE_HIST_IOBENCH1 ? 4 : 8;

	memset(out, 0, sizeof(*out));
	if ((layout != STORE_HIST_IOBENCH1 && layout != STORE_HIST_FIO_BINS) || len % pair)
		return -EINVAL;
	size_t n = len / pair;
	out->layout = layout;
	out->count = count;
	out->min = min;
	out->max = max;
	out->n = n;
	out->keys = xcalloc(n ? n : 1, sizeof(uint64_t));
	out->counts = xcalloc(n ? n : 1, sizeof(uint64_t));
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		out->keys[i] = get_le(p + i * pair, kbytes);
		out->counts[i] = get_le(p + i * pair + kbytes, 8);
		sum += out->counts[i];
		if ((i && out->keys[i] <= out->keys[i - 1]) ||
		    (layout == STORE_HIST_IOBENCH1 && out->keys[i] >= HIST_NR_BUCKETS)) {
			store_hist_release(out);
			return -EINVAL;
		}
	}
	if (sum != count) {
		store_hist_release(out);
		return -EINVAL;
	}
	return 0;
}

int store_hist_to_hist(const struct store_hist *h, struct hist *dst)
{
	if (h->layout != STORE_HIST_IOBENCH1)
		return -EINVAL;
	hist_release(dst);
	if (!h->count)
		return 0;
	/* each bucket's count at its lowest value; then min and max are put right */
	for (size_t i = 0; i < h->n; i++)
		hist_add_n(dst, hist_bucket_low((unsigned)h->keys[i]), h->counts[i]);
	dst->count = h->count;
	dst->min = h->min;
	dst->max = h->max;
	return 0;
}

uint64_t store_hist_percentile(const struct store_hist *h, double p)
{
	if (!h->count || !h->n)
		return 0;
	if (h->layout == STORE_HIST_IOBENCH1) {
		/* hist_percentile's rule on the stored buckets */
		struct hist tmp;
		hist_init(&tmp);
		store_hist_to_hist(h, &tmp);
		uint64_t v = hist_percentile(&tmp, p);
		hist_release(&tmp);
		return v;
	}
	/* fio: the first bin where the running count reaches p% of all */
	double want = p / 100.0 * (double)h->count;
	uint64_t sum = 0;
	for (size_t i = 0; i < h->n; i++) {
		sum += h->counts[i];
		if ((double)sum >= want)
			return h->keys[i];
	}
	return h->keys[h->n - 1];
}

void store_hist_release(struct store_hist *h)
{
	free(h->keys);
	free(h->counts);
	memset(h, 0, sizeof(*h));
}
