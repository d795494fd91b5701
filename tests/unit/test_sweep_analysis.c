/*
 * The sweep analysis (sweep/sweep_analysis.h) on synthetic designs with
 * known effects: an additive factor takes about all the share and is
 * ranked first, its best level found, with no interaction; a pure
 * interaction (the sign of one factor's effect flips with the other) gets
 * the share of the pair, nothing as main effects, and a note that the
 * main effect misleads; a lower-is-better goal; an unbalanced design and
 * runs without labels or figures; confounded factors whose shares
 * overlap; a constant goal; a balanced full
 * factorial's shares adding up to 100%; the JSON's keys; pure noise making
 * an interaction "matter" no more often than its F test's 5%; a factor
 * nested in one fs (mkfs.xfs only at fs=xfs): every run analysed, the
 * crossed factors over all of them, the nested one's levels and its
 * nested sum of squares within fs=xfs, no pair with its parent, the text
 * and JSON saying "within fs=xfs".
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sweep/sweep_analysis.h"
#include "util/array.h"
#include "util/rand.h"

static double normal(struct rng *g)
{
	double u1 = rng_double(g), u2 = rng_double(g);
	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static void add_run(struct cmp_runs *rs, const char *const *keys, const char *const *vals,
		    size_t nk, double bw, double p99)
{
	struct cmp_run *r = cmp_runs_push(rs);
	r->id = (int64_t)rs->n;
	for (size_t i = 0; i < nk; i++)
		cmp_kvs_add(&r->labels, keys[i], vals[i]);
	cmp_run_add_fig(r, "job", "write", "bw_bytes", bw);
	cmp_run_add_fig(r, "job", "write", "clat_ns.p99", p99);
	cmp_run_add_fig(r, "job", "write", "io_bytes", 1 << 20);
}

static struct sweep_goal goal(const char *text)
{
	struct sweep_goal g;
	char why[128];
	if (sweep_goal_parse(text, &g, why, sizeof(why)) < 0)
		abort();
	return g;
}

static bool has_note(const struct sweep_analysis *a, const char *needle)
{
	for (size_t i = 0; i < a->nr_notes; i++)
		if (strstr(a->notes[i], needle))
			return true;
	return false;
}

static const char *const fk[] = { "fs", "ra", "sched" };

static void additive(void)
{
	/* fs: +0, +50, +100 MB/s; ra and sched do nothing; 3 repetitions */
	struct rng g;
	rng_seed(&g, 7);
	struct cmp_runs rs = { 0 };
	const char *fsl[] = { "ext4", "xfs", "btrfs" }, *ral[] = { "128", "4096" },
		   *scl[] = { "none", "mq-deadline" };
	double eff[] = { 0, 50e6, 100e6 };
	for (int rep = 0; rep < 3; rep++)
		for (int f = 0; f < 3; f++)
			for (int r = 0; r < 2; r++)
				for (int s = 0; s < 2; s++) {
					const char *v[] = { fsl[f], ral[r], scl[s] };
					add_run(&rs, fk, v, 3, 200e6 + eff[f] + 2e6 * normal(&g), 1000);
				}
	struct sweep_goal gl = goal("write bw");
	struct sweep_analysis a;
	int rc = sweep_analyse(rs.v, rs.n, fk, 3, &gl, &a);
	CHECK(rc == 0, "analyse: %d", rc);
	CHECK(a.nr_runs == 36 && a.nr_points == 12, "runs %zu points %zu", a.nr_runs, a.nr_points);
	CHECK(a.balanced, "a balanced full factorial");
	CHECK(a.rank[0] == 0, "fs ranked first: %zu", a.rank[0]);
	CHECK(a.factors[0].share > 0.98, "fs share %.4f", a.factors[0].share);
	CHECK(a.factors[1].share < 0.01 && a.factors[2].share < 0.01, "ra %.4f sched %.4f",
	      a.factors[1].share, a.factors[2].share);
	for (size_t p = 0; p < a.nr_pairs; p++)
		CHECK(!a.pairs[p].matters && a.pairs[p].share < 0.01, "pair %zu share %.4f", p,
		      a.pairs[p].share);
	CHECK(!strcmp(a.factors[0].levels[a.factors[0].best].name, "btrfs"), "best fs %s",
	      a.factors[0].levels[a.factors[0].best].name);
	CHECK(!strcmp(a.points[0].levels[0], "btrfs"), "best point %s", a.points[0].name);
	CHECK(!strcmp(a.points[a.nr_points - 1].levels[0], "ext4"), "worst point %s",
	      a.points[a.nr_points - 1].name);
	double sum = a.share_higher + a.share_noise;
	for (size_t f = 0; f < 3; f++)
		sum += a.factors[f].share;
	for (size_t p = 0; p < a.nr_pairs; p++)
		sum += a.pairs[p].share;
	CHECK(fabs(sum - 1) < 1e-9 && !a.overlap, "balanced shares add to 1: %.12f", sum);
	/* the level means with their interval */
	const struct sweep_level *b = &a.factors[0].levels[2];
	CHECK(b->n == 12 && fabs(b->mean - 300e6) < 2e6 && b->ci.conf == 0.95 && b->ci.lo < b->mean &&
	      b->ci.hi > b->mean, "btrfs mean %.0f [%.0f, %.0f]", b->mean, b->ci.lo, b->ci.hi);
	/* pooled over the 36 - 12 = 24 df of the repetitions: t(24) 2.064 *
	 * 2e6 / sqrt(12), about +-1.2e6 */
	CHECK(a.error_df == 24 && b->ci.hi - b->ci.lo < 4e6 && b->ci.hi - b->ci.lo > 1e6,
	      "pooled interval: df %zu width %.0f", a.error_df, b->ci.hi - b->ci.lo);
	/* a point of 3 runs has no 95% median interval: [min, max] at 75% */
	CHECK(a.points[0].n == 3 && a.points[0].ci.conf == 0.75, "3 runs: confidence %.3f",
	      a.points[0].ci.conf);
	CHECK(!has_note(&a, "misleading"), "no misleading main effect");
	CHECK(a.factors[0].p < 1e-6, "fs's F test: p %g", a.factors[0].p);

	/* the JSON */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(sweep_report_json(&a, m) == 0, "json written");
	fclose(m);
	struct json_object *root = json_tokener_parse(buf), *v, *x;
	CHECK(root != NULL, "json parses");
	static const char *const keys[] = { "goal", "runs", "skipped", "factors", "balanced",
					    "grand_mean", "points", "best", "main_effects",
					    "importance", "notes" };
	for (size_t i = 0; root && i < ARRAY_SIZE(keys); i++)
		CHECK(json_object_object_get_ex(root, keys[i], &v), "key %s", keys[i]);
	if (root && json_object_object_get_ex(root, "importance", &v) &&
	    json_object_object_get_ex(v, "ranking", &x))
		CHECK(!strcmp(json_object_get_string(json_object_array_get_idx(x, 0)), "fs"),
		      "ranking[0] fs");
	if (root && json_object_object_get_ex(root, "points", &v)) {
		x = json_object_array_get_idx(v, 0);
		struct json_object *lv, *fs;
		CHECK(json_object_object_get_ex(x, "levels", &lv) &&
		      json_object_object_get_ex(lv, "fs", &fs) &&
		      !strcmp(json_object_get_string(fs), "btrfs"), "points[0].levels.fs");
	}
	json_object_put(root);
	free(buf);
	/* the text */
	buf = NULL;
	m = open_memstream(&buf, &len);
	sweep_report_text(&a, m);
	fclose(m);
	CHECK(strstr(buf, "goal: write bw (higher is better), 36 run(s), 12 point(s)") != NULL,
	      "text header: %.80s", buf);
	CHECK(strstr(buf, "  fs (best: btrfs)") && strstr(buf, "interactions that matter (>= 5% of the variance, p < 0.05): none"),
	      "text body");
	free(buf);
	sweep_analysis_release(&a);
	cmp_runs_release(&rs);
}

static void interaction(void)
{
	/* y = 100 + 20 when fs and ra "agree", 100 - 20 when not: no main effects */
	struct rng g;
	rng_seed(&g, 11);
	struct cmp_runs rs = { 0 };
	const char *fsl[] = { "ext4", "xfs" }, *ral[] = { "128", "4096" };
	for (int rep = 0; rep < 4; rep++)
		for (int f = 0; f < 2; f++)
			for (int r = 0; r < 2; r++) {
				const char *v[] = { fsl[f], ral[r] };
				add_run(&rs, fk, v, 2, 100 + (f == r ? 20 : -20) + normal(&g), 5);
			}
	struct sweep_goal gl = goal("write bw");
	struct sweep_analysis a;
	CHECK(sweep_analyse(rs.v, rs.n, fk, 2, &gl, &a) == 0, "analyse");
	CHECK(a.nr_pairs == 1 && a.pairs[0].matters && a.pairs[0].share > 0.9, "fs x ra share %.3f",
	      a.pairs[0].share);
	CHECK(a.factors[0].share < 0.05 && a.factors[1].share < 0.05, "mains %.3f %.3f",
	      a.factors[0].share, a.factors[1].share);
	CHECK(has_note(&a, "makes the main effect of fs misleading") &&
	      has_note(&a, "makes the main effect of ra misleading"), "flagged");
	for (size_t i = 0; i < a.nr_notes; i++)
		printf("# note: %s\n", a.notes[i]);
	sweep_analysis_release(&a);
	cmp_runs_release(&rs);
}

static void lower_unbalanced_skipped(void)
{
	struct cmp_runs rs = { 0 };
	const char *v1[] = { "ext4", "128" }, *v2[] = { "xfs", "128" }, *v3[] = { "xfs", "4096" };
	add_run(&rs, fk, v1, 2, 1, 900);
	add_run(&rs, fk, v1, 2, 1, 1000);
	add_run(&rs, fk, v2, 2, 1, 500);
	add_run(&rs, fk, v2, 2, 1, 520);
	add_run(&rs, fk, v3, 2, 1, 700);
	add_run(&rs, fk, v1, 1, 1, 1); /* no ra label */
	struct cmp_run *nofig = cmp_runs_push(&rs);
	cmp_kvs_add(&nofig->labels, "fs", "xfs");
	cmp_kvs_add(&nofig->labels, "ra", "128");
	struct sweep_goal gl = goal("write p99");
	struct sweep_analysis a;
	CHECK(sweep_analyse(rs.v, rs.n, fk, 2, &gl, &a) == 0, "analyse");
	CHECK(a.error_df == 2, "5 runs of 3 points: df %zu", a.error_df);
	CHECK(a.nr_runs == 5 && a.skipped_no_level == 1 && a.skipped_no_value == 1,
	      "runs %zu skipped %zu %zu", a.nr_runs, a.skipped_no_level, a.skipped_no_value);
	CHECK(!strcmp(a.points[0].name, "fs=xfs ra=128"), "lowest latency first: %s",
	      a.points[0].name);
	CHECK(!strcmp(a.factors[0].levels[a.factors[0].best].name, "xfs"), "best fs");
	CHECK(!a.balanced && a.pairs[0].incomplete, "unbalanced, ext4 x 4096 missing");
	CHECK(has_note(&a, "not a balanced full factorial") && has_note(&a, "not every combination")
	      && has_note(&a, "1 run(s) left out: no label") &&
	      has_note(&a, "1 run(s) left out: no figure"), "notes");
	sweep_analysis_release(&a);

	/* confounded factors (each fs with one ra only, as a small lhs may
	 * give): both explain it all alone, the shares overlap */
	struct cmp_runs cf = { 0 };
	const char *c1[] = { "ext4", "128" }, *c2[] = { "xfs", "4096" };
	for (int rep = 0; rep < 3; rep++) {
		add_run(&cf, fk, c1, 2, 100 + rep, 1);
		add_run(&cf, fk, c2, 2, 200 + rep, 1);
	}
	gl = goal("write bw");
	CHECK(sweep_analyse(cf.v, cf.n, fk, 2, &gl, &a) == 0, "analyse confounded");
	CHECK(a.factors[0].share > 0.99 && a.factors[1].share > 0.99 && a.overlap &&
	      a.share_higher == 0 && has_note(&a, "add up to more than 100%"),
	      "confounded: %.3f %.3f overlap %d", a.factors[0].share, a.factors[1].share, a.overlap);
	sweep_analysis_release(&a);
	cmp_runs_release(&cf);

	/* a constant goal */
	gl = goal("write bw");
	CHECK(sweep_analyse(rs.v, rs.n, fk, 2, &gl, &a) == 0, "analyse constant");
	CHECK(a.ss_total == 0 && a.factors[0].share == 0 && has_note(&a, "the same in every run"),
	      "constant");
	sweep_analysis_release(&a);
	/* nothing to analyse */
	const char *nf[] = { "chunk" };
	CHECK(sweep_analyse(rs.v, rs.n, nf, 1, &gl, &a) == -ENOENT, "no run has the factor");
	sweep_analysis_release(&a);
	cmp_runs_release(&rs);
}

/* Pure noise, 3 x 2 levels, 2 runs a point: the pair's share is often 5%
 * or more by chance; its F test keeps "matters" near its 5% level. */
static void noise_interactions(void)
{
	const char *fsl[] = { "ext4", "xfs", "btrfs" }, *ral[] = { "128", "4096" };
	struct sweep_goal gl = goal("write bw");
	size_t seeds = 300, big = 0, matters = 0;
	for (uint64_t seed = 1; seed <= seeds; seed++) {
		struct rng g;
		rng_seed(&g, 100 + seed);
		struct cmp_runs rs = { 0 };
		for (int rep = 0; rep < 2; rep++)
			for (int f = 0; f < 3; f++)
				for (int r = 0; r < 2; r++) {
					const char *v[] = { fsl[f], ral[r] };
					add_run(&rs, fk, v, 2, 100 + normal(&g), 5);
				}
		struct sweep_analysis a;
		if (sweep_analyse(rs.v, rs.n, fk, 2, &gl, &a) == 0) {
			big += a.pairs[0].share >= SWEEP_INTERACTION_SHARE;
			matters += a.pairs[0].matters;
			sweep_analysis_release(&a);
		}
		cmp_runs_release(&rs);
	}
	double rate = (double)matters / (double)seeds;
	printf("# pure noise 3x2, 2 runs a point: pair share >= 5%% in %zu of %zu, matters in %zu\n",
	       big, seeds, matters);
	CHECK(big > seeds / 4, "noise alone gives shares >= 5%%: %zu", big);
	CHECK(rate <= 0.05 + 3 * sqrt(0.05 * 0.95 / (double)seeds), "matters by noise: %.3f", rate);
}

/* fs = ext4 | xfs | btrfs, mkfs.xfs = A | B (at xfs only), ra = 128 | 4096,
 * sched = none | mq-deadline: (1 + 2 + 1) x 2 x 2 = 16 points (not 24), 3
 * runs each. fs: +0, +50, +100; at xfs B is +40 over A; ra and sched
 * nothing. */
static void nested(void)
{
	static const char *const nk[] = { "fs", "mkfs.xfs", "ra", "sched" };
	struct rng g;
	rng_seed(&g, 11);
	struct cmp_runs rs = { 0 };
	const char *fsl[] = { "ext4", "xfs", "btrfs" }, *mkl[] = { "A", "B" },
		   *ral[] = { "128", "4096" }, *scl[] = { "none", "mq-deadline" };
	double eff[] = { 0, 50, 100 };
	double sum_l[2] = { 0 }, sum_xfs = 0;
	size_t n_l[2] = { 0 }, n_xfs = 0;
	for (int rep = 0; rep < 3; rep++)
		for (int f = 0; f < 3; f++)
			for (int m = 0; m < (f == 1 ? 2 : 1); m++)
				for (int r = 0; r < 4; r++) {
					double y = 200 + eff[f] + (f == 1 && m == 1 ? 40 : 0) +
						   2 * normal(&g);
					if (f == 1) {
						const char *v[] = { fsl[f], mkl[m], ral[r % 2],
								    scl[r / 2] };
						add_run(&rs, nk, v, 4, y, 1);
						sum_l[m] += y;
						n_l[m]++;
						sum_xfs += y;
						n_xfs++;
					} else {
						/* no mkfs.xfs label, as a sweep stores them */
						const char *keys[] = { "fs", "ra", "sched" };
						const char *v[] = { fsl[f], ral[r % 2], scl[r / 2] };
						add_run(&rs, keys, v, 3, y, 1);
					}
				}
	struct sweep_goal gl = goal("write bw");
	struct sweep_analysis a;
	CHECK(sweep_analyse(rs.v, rs.n, nk, 4, &gl, &a) == 0, "analyse nested");
	CHECK(a.nr_runs == 48 && a.skipped_no_level == 0, "every run analysed: %zu, %zu left out",
	      a.nr_runs, a.skipped_no_level);
	CHECK(a.nr_points == 16 && a.balanced, "16 points, balanced: %zu %d", a.nr_points,
	      a.balanced);
	const struct sweep_factor_effect *fs = &a.factors[0], *mk = &a.factors[1], *ra = &a.factors[2];
	CHECK(fs->parent == SIZE_MAX && ra->parent == SIZE_MAX && mk->parent == 0, "parents");
	CHECK(mk->within && !strcmp(mk->within, "fs=xfs") &&
	      !strcmp(mk->label, "mkfs.xfs (within fs=xfs)"), "within: %s / %s",
	      mk->within ? mk->within : "-", mk->label);
	CHECK(fs->nr_levels == 3 && fs->levels[0].n == 12 && fs->levels[1].n == 24 &&
	      fs->levels[2].n == 12, "fs levels over all runs: %zu %zu %zu", fs->levels[0].n,
	      fs->levels[1].n, fs->levels[2].n);
	CHECK(ra->levels[0].n == 24 && ra->levels[1].n == 24, "ra over all runs");
	CHECK(mk->nr_levels == 2 && mk->levels[0].n == 12 && mk->levels[1].n == 12 &&
	      !strcmp(mk->levels[mk->best].name, "B"), "mkfs.xfs within xfs, best B");
	CHECK(fabs(mk->levels[0].mean - sum_l[0] / (double)n_l[0]) < 1e-9, "A's mean");
	/* the nested term by hand: sum n_l (mean_l - mean at xfs)^2 */
	double mx = sum_xfs / (double)n_xfs, ss_n = 0;
	for (int m = 0; m < 2; m++)
		ss_n += (double)n_l[m] * pow(sum_l[m] / (double)n_l[m] - mx, 2);
	CHECK(fabs(mk->share - ss_n / a.ss_total) < 1e-9, "nested share %.4f, by hand %.4f",
	      mk->share, ss_n / a.ss_total);
	CHECK(a.rank[0] == 0 && a.rank[1] == 1, "fs, mkfs.xfs first");
	CHECK(fs->share > 0.5 && mk->share > 0.1 && ra->share < 0.02, "shares %.3f %.3f %.3f",
	      fs->share, mk->share, ra->share);
	CHECK(a.nr_pairs == 5, "no fs x mkfs.xfs pair: %zu pairs", a.nr_pairs);
	double tot = a.share_noise + a.share_higher;
	for (size_t f = 0; f < 4; f++)
		tot += a.factors[f].share;
	for (size_t p = 0; p < a.nr_pairs; p++) {
		tot += a.pairs[p].share;
		CHECK(!(a.pairs[p].a == 0 && a.pairs[p].b == 1), "no pair with the parent");
		CHECK(!a.pairs[p].incomplete, "pair %zu complete", p);
	}
	CHECK(fabs(tot - 1) < 1e-6 && !a.overlap, "balanced nested: shares sum to %.6f", tot);
	CHECK(strstr(a.points[0].name, "fs=btrfs") && !strstr(a.points[0].name, "mkfs.xfs") &&
	      a.points[0].levels[1] == NULL, "best point %s", a.points[0].name);
	CHECK(has_note(&a, "mkfs.xfs is nested: it has levels only where fs=xfs (24 of 48 runs)"),
	      "nested note");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	sweep_report_text(&a, m);
	fclose(m);
	CHECK(strstr(buf, "mkfs.xfs (within fs=xfs) (best: B)") != NULL, "text says within");
	free(buf);
	m = open_memstream(&buf, &len);
	CHECK(sweep_report_json(&a, m) == 0, "json");
	fclose(m);
	struct json_object *j = json_tokener_parse(buf), *me, *e, *v, *pts;
	CHECK(j && json_object_object_get_ex(j, "main_effects", &me), "json main effects");
	e = json_object_array_get_idx(me, 1);
	CHECK(json_object_object_get_ex(e, "within", &v) &&
	      !strcmp(json_object_get_string(v), "fs=xfs") &&
	      json_object_object_get_ex(e, "label", &v) &&
	      !strcmp(json_object_get_string(v), "mkfs.xfs (within fs=xfs)"), "json within");
	CHECK(json_object_object_get_ex(j, "points", &pts) &&
	      json_object_object_get_ex(json_object_array_get_idx(pts, 0), "levels", &v) &&
	      json_object_object_get_ex(v, "mkfs.xfs", &e) && e == NULL, "json null level");
	json_object_put(j);
	free(buf);
	sweep_analysis_release(&a);
	cmp_runs_release(&rs);
}

int main(void)
{
	additive();
	interaction();
	lower_unbalanced_skipped();
	noise_interactions();
	nested();
	return check_done("test_sweep_analysis");
}
