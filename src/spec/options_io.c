/*
 * Parse callbacks for the options that describe the I/O itself: rw and its
 * ":N" modifier, rwmixread/rwmixwrite, the block-size family (bs, bsrange,
 * bssplit, blockalign, each per direction), direct/buffered, sync and
 * ioengine.
 */
#include "spec/options_cb_int.h"
#include "spec/extengine.h"
#include "engines/engine.h"
#include "util/strutil.h"
#include "util/units.h"
#include "util/xmalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* rw=MODE[:N]: MODE is one of the row's words (options_table.c) */
int opt_cb_rw(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *colon = strchr(val, ':');
	size_t n = colon ? (size_t)(colon - val) : strlen(val);
	const struct opt_posval *mode = optdef_word_n(c->opt, val, n);
	if (!mode)
		return optdef_word_fail(c->opt, val, c);
	unsigned bits = (unsigned)mode->value;
	int64_t skip = 0;
	uint64_t nr = 1;
	if (colon) {
		const char *why = NULL;
		if (bits & RW_RAND) {
			if (parse_uint(colon + 1, s->kb_base, &nr, &why) || nr < 1 || nr > UINT32_MAX)
				return opt_fail(c, -EINVAL, "modifier", colon + 1,
						why ? why : "must be from 1 to 4294967295");
		} else if (parse_ssize(colon + 1, s->kb_base, &skip, &why)) {
			return opt_fail(c, -EINVAL, "modifier", colon + 1, why);
		}
	}
	/* trimwrite's trims count towards no size: going back, fio 3.33 trims
	 * one block over and over and never ends */
	if ((bits & (RW_TRIM | RW_WRITE | RW_RAND)) == (RW_TRIM | RW_WRITE) && skip < 0)
		return opt_fail(c, -EINVAL, "modifier", colon + 1,
				"a backward skip with trimwrite is not implemented yet (fio 3.33 "
				"trims the same block forever there)");
	s->rw = bits;
	s->rw_seq_skip = skip;
	s->rw_seq_nr = (unsigned)nr;
	return 0;
}

static int rwmix(struct job_spec *s, const char *val, struct opt_ctx *c, int which)
{
	uint64_t v;
	const char *why = NULL;
	if (parse_uint(val, 1000, &v, &why))
		return opt_fail(c, -EINVAL, "percentage", val, why);
	if (v > 100)
		return opt_fail(c, -ERANGE, "percentage", val, "must be from 0 to 100");
	s->rwmix[which] = (unsigned)v;
	s->rwmix[!which] = 100 - (unsigned)v;
	return 0;
}

int opt_cb_rwmixread(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	return rwmix(s, val, c, 0);
}

int opt_cb_rwmixwrite(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	return rwmix(s, val, c, 1);
}

/* Copy one per-direction part into a NUL-terminated buffer. */
static const char *part_str(const struct dir_parts *dp, int d, char *buf, size_t len)
{
	size_t n = dp->len[d] < len - 1 ? dp->len[d] : len - 1;
	memcpy(buf, dp->part[d], n);
	buf[n] = '\0';
	return buf;
}

int opt_cb_bs(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct dir_parts dp;
	const char *why = NULL;
	uint64_t v[DDIR_RWDIR_CNT];
	char buf[128];
	if (split_per_dir(val, &dp, &why))
		return opt_fail(c, -EINVAL, "block size", val, why);
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!dp.set[d])
			continue;
		part_str(&dp, d, buf, sizeof(buf));
		if (parse_size(buf, s->kb_base, &v[d], &why))
			return opt_fail(c, -EINVAL, "block size", buf, why);
		if (!v[d] || v[d] > UINT32_MAX)
			return opt_fail(c, -ERANGE, "block size", buf, "must be from 1 byte to 4 GiB");
	}
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		if (dp.set[d]) {
			s->bs[d] = s->min_bs[d] = s->max_bs[d] = v[d];
			s->nr_bssplit[d] = 0;
		}
	return 0;
}

int opt_cb_bsrange(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct dir_parts dp;
	const char *why = NULL;
	uint64_t lo[DDIR_RWDIR_CNT], hi[DDIR_RWDIR_CNT];
	char buf[128];
	if (split_per_dir(val, &dp, &why))
		return opt_fail(c, -EINVAL, "block size range", val, why);
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!dp.set[d])
			continue;
		part_str(&dp, d, buf, sizeof(buf));
		if (parse_size_range(buf, s->kb_base, &lo[d], &hi[d], &why))
			return opt_fail(c, -EINVAL, "block size range", buf, why);
		if (!lo[d] || hi[d] > UINT32_MAX)
			return opt_fail(c, -ERANGE, "block size range", buf,
					"sizes must be from 1 byte to 4 GiB");
	}
	for (int d = 0; d < DDIR_RWDIR_CNT; d++)
		if (dp.set[d]) {
			s->min_bs[d] = s->bs[d] = lo[d];
			s->max_bs[d] = hi[d];
			s->nr_bssplit[d] = 0;
		}
	return 0;
}

/* One direction of bssplit: "bs/perc:bs/perc:..." into out[], *nr. */
static int bssplit_one(const char *text, unsigned kb_base, struct bssplit *out, unsigned *nr,
		       struct opt_ctx *c)
{
	char **items;
	size_t n = str_split_escaped(text, ':', &items);
	unsigned sum = 0;
	int ret = 0;
	if (n > MAX_BSSPLIT) {
		ret = opt_fail(c, -ERANGE, "block size split", text, "more than 64 entries");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *slash = strchr(items[i], '/');
		const char *why = NULL;
		uint64_t bs, perc = 0;
		if (slash)
			*slash = '\0';
		if (parse_size(items[i], kb_base, &bs, &why) || !bs || bs > UINT32_MAX) {
			ret = opt_fail(c, -EINVAL, "block size split", text,
				       why ? why : "block sizes must be from 1 byte to 4 GiB");
			goto out;
		}
		if (slash && slash[1] && (parse_uint(slash + 1, 1000, &perc, &why) || perc > 100)) {
			ret = opt_fail(c, -EINVAL, "block size split", text,
				       why ? why : "percentages must be from 0 to 100");
			goto out;
		}
		sum += (unsigned)perc;
		out[i].bs = bs;
		out[i].perc = (unsigned)perc;
	}
	if (sum > 100) {
		ret = opt_fail(c, -ERANGE, "block size split", text, "percentages add up to more than 100");
		goto out;
	}
	*nr = (unsigned)n;
out:
	str_list_free(items);
	return ret;
}

int opt_cb_bssplit(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	struct dir_parts dp;
	const char *why = NULL;
	struct bssplit split[DDIR_RWDIR_CNT][MAX_BSSPLIT];
	unsigned nr[DDIR_RWDIR_CNT] = { 0 };
	if (split_per_dir(val, &dp, &why))
		return opt_fail(c, -EINVAL, "block size split", val, why);
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!dp.set[d])
			continue;
		char *text = xstrndup(dp.part[d], dp.len[d]);
		int ret = bssplit_one(text, s->kb_base, split[d], &nr[d], c);
		free(text);
		if (ret)
			return ret;
	}
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		if (!dp.set[d])
			continue;
		if (!s->bssplit)
			s->bssplit = xcalloc(DDIR_RWDIR_CNT, sizeof(*s->bssplit));
		memcpy(s->bssplit[d], split[d], nr[d] * sizeof(split[d][0]));
		s->nr_bssplit[d] = nr[d];
		uint64_t lo = UINT64_MAX, hi = 0;
		for (unsigned i = 0; i < nr[d]; i++) {
			lo = split[d][i].bs < lo ? split[d][i].bs : lo;
			hi = split[d][i].bs > hi ? split[d][i].bs : hi;
		}
		s->bs[d] = s->min_bs[d] = lo;
		s->max_bs[d] = hi;
	}
	return 0;
}

int opt_cb_blockalign(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	const char *why = NULL;
	if (parse_size_per_dir(val, s->kb_base, s->blockalign, &why))
		return opt_fail(c, -EINVAL, "alignment", val, why);
	return 0;
}

int opt_cb_buffered(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	bool b = true;
	const char *why = NULL;
	if (val && parse_bool(val, &b, &why))
		return opt_fail(c, -EINVAL, "boolean", val, why);
	s->direct = !b;
	return 0;
}

int opt_word_bool(const char *val, bool *b, struct opt_ctx *c)
{
	const struct opt_posval *w = val ? optdef_word(c->opt, val) : NULL;
	char words[160];
	if (!val) {
		*b = true;
	} else if (w && w->value < 0) {
		return opt_failf(c, -ENOTSUP, "value '%s' of option '%s' is not implemented yet (use %s)",
				 val, c->key, optdef_words(c->opt, words, sizeof(words)));
	} else if (w) {
		*b = w->value != 0;
	} else if (parse_bool(val, b, NULL)) {
		return optdef_word_fail(c->opt, val, c);
	}
	return 0;
}

int opt_cb_sync(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	bool b;
	int rc = opt_word_bool(val, &b, c);
	if (rc)
		return rc;
	s->sync_io = b;
	return 0;
}

int opt_cb_ioengine(void *target, const char *val, struct opt_ctx *c)
{
	struct job_spec *s = target;
	if (engine_find(val)) {
		free(s->ioengine);
		s->ioengine = xstrdup(val);
		s->ext_engine = NULL;
		return 0;
	}
	const struct fio_ext_engine *ext = fio_ext_engine_find(val);
	if (ext) { /* its options are then taken by name (option_set) */
		s->ext_engine = ext;
		char why[256];
		return opt_failf(c, -ENOTSUP, "%s", fio_ext_engine_why(ext, val, why, sizeof(why)));
	}
	const char *const *names = engine_names();
	size_t n = 0;
	while (names && names[n])
		n++;
	const char *near = names ? suggest_nearest(val, names, n) : NULL;
	if (near)
		return opt_failf(c, -EINVAL, "invalid ioengine '%s' for option '%s' (did you mean '%s'?)", val, c->key, near);
	return opt_failf(c, -EINVAL, "invalid ioengine '%s' for option '%s'", val, c->key);
}
