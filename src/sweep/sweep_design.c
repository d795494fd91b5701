/*
 * Building the designs (sweep_design_int.h): the points are generated as
 * level-index rows, made consistent with their filesystem (a factor of
 * another filesystem gets SWEEP_NA), de-duplicated, and shuffled.
 */
#include "sweep/sweep_design_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/rand.h"
#include "util/xmalloc.h"

struct build {
	const struct sweep_plan *p;
	struct sweep_points *out;
	size_t alloc;
	int fs; /* the fs factor, or -1 */
};

static const char *fs_of_row(const struct sweep_plan *p, int fsf, const size_t *row)
{
	if (fsf >= 0 && row[fsf] != SWEEP_NA)
		return p->factors[fsf].levels[row[fsf]];
	return p->fs;
}

/* Give the factors of another filesystem no level, then keep the row once. */
static int add_row(struct build *b, size_t *row)
{
	const struct sweep_plan *p = b->p;
	size_t nf = p->nr_factors;
	const char *fs = fs_of_row(p, b->fs, row);
	for (size_t f = 0; f < nf; f++)
		if (p->factors[f].fsname && (!fs || strcmp(fs, p->factors[f].fsname)))
			row[f] = SWEEP_NA;
	struct sweep_points *o = b->out;
	for (size_t i = 0; i < o->n; i++)
		if (!memcmp(&o->lvl[i * nf], row, nf * sizeof(*row)))
			return 0;
	if (o->n >= SWEEP_MAX_POINTS)
		return error("the design has more than %u points", SWEEP_MAX_POINTS);
	o->lvl = xgrow(o->lvl, &b->alloc, (o->n + 1) * nf, sizeof(*o->lvl));
	memcpy(&o->lvl[o->n * nf], row, nf * sizeof(*row));
	o->n++;
	return 0;
}

static int full(struct build *b, size_t *row)
{
	const struct sweep_plan *p = b->p;
	size_t nf = p->nr_factors;
	size_t *idx = xcalloc(nf, sizeof(*idx));
	int rc = 0;
	for (;;) {
		memcpy(row, idx, nf * sizeof(*row));
		if ((rc = add_row(b, row)) < 0)
			break;
		size_t f = 0;
		while (f < nf && ++idx[f] == p->factors[f].nr_levels)
			idx[f++] = 0;
		if (f == nf)
			break;
	}
	free(idx);
	return rc;
}

/* The fs level index of factor f's filesystem, or SWEEP_NA. */
static size_t fs_level_for(const struct build *b, size_t f)
{
	const struct sweep_plan *p = b->p;
	if (b->fs < 0 || !p->factors[f].fsname)
		return SWEEP_NA;
	const struct sweep_factor *fs = &p->factors[b->fs];
	for (size_t l = 0; l < fs->nr_levels; l++)
		if (!strcmp(fs->levels[l], p->factors[f].fsname))
			return l;
	return SWEEP_NA;
}

static int ofat(struct build *b, size_t *row)
{
	const struct sweep_plan *p = b->p;
	size_t nf = p->nr_factors;
	memset(row, 0, nf * sizeof(*row));
	int rc = add_row(b, row);
	for (size_t f = 0; !rc && f < nf; f++)
		for (size_t l = p->factors[f].fsname ? 0 : 1; !rc && l < p->factors[f].nr_levels;
		     l++) {
			memset(row, 0, nf * sizeof(*row));
			row[f] = l;
			size_t fl = fs_level_for(b, f);
			if (fl != SWEEP_NA)
				row[b->fs] = fl; /* mkfs.xfs's levels are varied on xfs */
			rc = add_row(b, row);
		}
	return rc;
}

static int lhs(struct build *b, size_t *row, struct rng *r)
{
	const struct sweep_plan *p = b->p;
	size_t nf = p->nr_factors, n = p->lhs_n;
	size_t *perm = xcalloc(nf * n, sizeof(*perm));
	for (size_t f = 0; f < nf; f++) {
		size_t *pf = &perm[f * n];
		for (size_t i = 0; i < n; i++)
			pf[i] = i;
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)rng_below(r, i + 1), t = pf[i];
			pf[i] = pf[j];
			pf[j] = t;
		}
	}
	int rc = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		for (size_t f = 0; f < nf; f++) /* stratum pf[i] of n over L levels */
			row[f] = perm[f * n + i] * p->factors[f].nr_levels / n;
		rc = add_row(b, row);
	}
	free(perm);
	return rc;
}

int sweep_design(const struct sweep_plan *p, uint64_t seed, struct sweep_points *out)
{
	memset(out, 0, sizeof(*out));
	out->nf = p->nr_factors;
	struct build b = { .p = p, .out = out, .fs = sweep_plan_find(p, SWF_FS) };
	size_t *row = xcalloc(out->nf ? out->nf : 1, sizeof(*row));
	struct rng r;
	rng_seed(&r, seed);
	int rc;
	switch (p->design) {
	case SWD_OFAT:
		rc = ofat(&b, row);
		break;
	case SWD_LHS:
		rc = lhs(&b, row, &r);
		break;
	default: /* full; race races the full design's points */
		rc = full(&b, row);
		break;
	}
	free(row);
	if (rc < 0) {
		sweep_points_release(out);
		return -E2BIG;
	}
	size_t nf = out->nf;
	size_t *tmp = xcalloc(nf ? nf : 1, sizeof(*tmp));
	for (size_t i = out->n; i > 1; i--) { /* Fisher-Yates */
		size_t j = (size_t)rng_below(&r, i);
		memcpy(tmp, &out->lvl[(i - 1) * nf], nf * sizeof(*tmp));
		memcpy(&out->lvl[(i - 1) * nf], &out->lvl[j * nf], nf * sizeof(*tmp));
		memcpy(&out->lvl[j * nf], tmp, nf * sizeof(*tmp));
	}
	free(tmp);
	return 0;
}

void sweep_points_release(struct sweep_points *pts)
{
	free(pts->lvl);
	memset(pts, 0, sizeof(*pts));
}

const char *sweep_point_level(const struct sweep_plan *p, const struct sweep_points *pts,
			      size_t i, size_t f)
{
	size_t l = pts->lvl[i * pts->nf + f];
	return l == SWEEP_NA ? NULL : p->factors[f].levels[l];
}

const char *sweep_point_fs(const struct sweep_plan *p, const struct sweep_points *pts, size_t i)
{
	int fsf = sweep_plan_find(p, SWF_FS);
	return fs_of_row(p, fsf, &pts->lvl[i * pts->nf]);
}

char *sweep_point_text(const struct sweep_plan *p, const struct sweep_points *pts, size_t i)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return xstrdup("");
	const char *sep = "";
	for (size_t f = 0; f < p->nr_factors; f++) {
		const char *l = sweep_point_level(p, pts, i, f);
		if (!l)
			continue;
		fprintf(m, "%s%s=%s", sep, p->factors[f].name, l);
		sep = " ";
	}
	fclose(m);
	return buf;
}
