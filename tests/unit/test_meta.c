/*
 * The metadata workload (src/meta/meta.h): mdtest's counting of the
 * tree and items (-z -b -n -I -L), the names of directories and items,
 * and runs of one process in a scratch directory: every phase's item
 * count, the files and directories really made (counted on disk between
 * phases through the sync hook), the hook's calls, the clean-up after a
 * failure agreed through the hook, and the refusals.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "meta/meta.h"

static int plan(struct meta_spec *s, struct meta_tree *t)
{
	char err[256];
	int rc = meta_spec_check(s, t, err, sizeof(err));
	if (rc)
		printf("# %s\n", err);
	return rc;
}

static void test_counts(void)
{
	struct meta_tree t;
	/* mdtest: -z 2 -b 3 -n 1300 gives 13 directories of 100 */
	struct meta_spec s = { .dir = "/x", .items = 1300, .depth = 2, .branch = 3 };
	CHECK(plan(&s, &t) == 0, "plan");
	CHECK(t.num_dirs == 13, "%llu dirs", (unsigned long long)t.num_dirs);
	CHECK(t.per_dir == 100 && t.items == 1300, "%llu per dir", (unsigned long long)t.per_dir);
	CHECK(s.files && s.dirs && s.ops == META_OP_ALL, "defaults");
	/* rounded down: 1305 -> 1300 */
	s = (struct meta_spec){ .dir = "/x", .items = 1305, .depth = 2, .branch = 3 };
	CHECK(plan(&s, &t) == 0 && t.items == 1300, "%llu", (unsigned long long)t.items);
	/* depth 0: one directory, all items in it */
	s = (struct meta_spec){ .dir = "/x", .items = 7 };
	CHECK(plan(&s, &t) == 0 && t.num_dirs == 1 && t.per_dir == 7 && t.first_dir == 0, "flat");
	/* b = 1: a chain of z + 1 */
	s = (struct meta_spec){ .dir = "/x", .items = 10, .depth = 4, .branch = 1 };
	CHECK(plan(&s, &t) == 0 && t.num_dirs == 5 && t.per_dir == 2, "chain %llu",
	      (unsigned long long)t.num_dirs);
	/* -I per directory: items = I × dirs */
	s = (struct meta_spec){ .dir = "/x", .items_per_dir = 4, .depth = 1, .branch = 2 };
	CHECK(plan(&s, &t) == 0 && t.num_dirs == 3 && t.items == 12, "-I");
	/* -L: the 9 leaves of -z 2 -b 3 only, after the 4 inner ones */
	s = (struct meta_spec){ .dir = "/x", .items = 95, .depth = 2, .branch = 3, .leaf_only = true };
	CHECK(plan(&s, &t) == 0 && t.first_dir == 4 && t.per_dir == 10 && t.items == 90, "-L");
	CHECK(meta_item_dir(&t, 0) == 4 && meta_item_dir(&t, 89) == 12, "leaf dirs");
	uint64_t first = 0;
	CHECK(!meta_dir_items(&t, 3, &first), "inner dir holds none");
	CHECK(meta_dir_items(&t, 5, &first) && first == 10, "dir 5 starts at item %llu",
	      (unsigned long long)first);
	char name[96];
	meta_item_name(&t, "file", 2, 0, name, sizeof(name));
	CHECK(!strcmp(name, "file.mdtest.2.40"), "-L name %s", name); /* 4 dirs × 10 skipped */
	/* refusals */
	char err[256];
	s = (struct meta_spec){ .dir = "/x", .items = 5, .items_per_dir = 5 };
	CHECK(meta_spec_check(&s, &t, err, sizeof(err)) == -EINVAL && strstr(err, "not both"), "%s", err);
	s = (struct meta_spec){ .dir = "/x" };
	CHECK(meta_spec_check(&s, &t, err, sizeof(err)) == -EINVAL && strstr(err, "no items"), "%s", err);
	s = (struct meta_spec){ .dir = "/x", .items = 5, .depth = 2, .branch = 3 };
	CHECK(meta_spec_check(&s, &t, err, sizeof(err)) == -EINVAL && strstr(err, "fewer items"), "%s", err);
	s = (struct meta_spec){ .dir = "/x", .items = 5, .depth = 40, .branch = 10 };
	CHECK(meta_spec_check(&s, &t, err, sizeof(err)) == -EINVAL && strstr(err, "more than"), "%s", err);
	s = (struct meta_spec){ .dir = "/x", .items = 5, .depth = 2 };
	CHECK(meta_spec_check(&s, &t, err, sizeof(err)) == -EINVAL && strstr(err, "-b 0"), "%s", err);
	s = (struct meta_spec){ .dir = "/x", .items = 5, .dirs = true, .write_bytes = 3 };
	CHECK(meta_spec_check(&s, &t, err, sizeof(err)) == -EINVAL && strstr(err, "-D only"), "%s", err);
}

static void test_names(void)
{
	struct meta_tree t;
	struct meta_spec s = { .dir = "/x", .items = 1300, .depth = 2, .branch = 3 };
	plan(&s, &t);
	char buf[256];
	CHECK(meta_dir_path(&t, "mdtest_tree", 0, buf, sizeof(buf)) == 0 && !buf[0], "root '%s'", buf);
	CHECK(meta_dir_path(&t, "mdtest_tree", 2, buf, sizeof(buf)) > 0 &&
	      !strcmp(buf, "mdtest_tree.2"), "%s", buf);
	/* the children of 1 are 4, 5, 6; of 3 are 10, 11, 12 */
	meta_dir_path(&t, "mdtest_tree", 4, buf, sizeof(buf));
	CHECK(!strcmp(buf, "mdtest_tree.1/mdtest_tree.4"), "%s", buf);
	meta_dir_path(&t, "mdtest_tree.3", 12, buf, sizeof(buf));
	CHECK(!strcmp(buf, "mdtest_tree.3.3/mdtest_tree.3.12"), "%s", buf);
	CHECK(meta_dir_path(&t, "mdtest_tree", 12, buf, 10) == -ENAMETOOLONG, "too long");
	CHECK(meta_item_dir(&t, 0) == 0 && meta_item_dir(&t, 99) == 0 && meta_item_dir(&t, 100) == 1 &&
	      meta_item_dir(&t, 1299) == 12, "item dirs");
	meta_item_name(&t, "dir", 1, 1234, buf, sizeof(buf));
	CHECK(!strcmp(buf, "dir.mdtest.1.1234"), "%s", buf);
	char root[64], base[64];
	meta_tree_names(&s, 3, root, sizeof(root), base, sizeof(base));
	CHECK(!strcmp(root, "mdtest_tree.0") && !strcmp(base, "mdtest_tree"), "%s %s", root, base);
	s.unique_dir = true;
	meta_tree_names(&s, 3, root, sizeof(root), base, sizeof(base));
	CHECK(!strcmp(root, "mdtest_tree.3.0") && !strcmp(base, "mdtest_tree.3"), "%s %s", root, base);
	CHECK(!strcmp(meta_phase_title(META_FILE_CREATE), "File creation") &&
	      !strcmp(meta_phase_key(META_TREE_REMOVE), "tree_remove"), "titles");
}

/* Counting what is on disk below a directory. */
static long nfiles, ndirs;
static int count_cb(const char *p, const struct stat *st, int type, struct FTW *f)
{
	if (type == FTW_F)
		nfiles++;
	else if (type == FTW_D || type == FTW_DP)
		ndirs++;
	return 0;
}
static void count(const char *dir)
{
	nfiles = ndirs = 0;
	nftw(dir, count_cb, 32, FTW_PHYS);
}

/* A hook that counts its calls, records what is on disk at each, and can
 * fail at call number fail_at. */
struct probe {
	const char *dir;
	int calls, fail_at;
	long files[32], dirs[32];
};
static int probe_fn(void *arg, int rc)
{
	struct probe *p = arg;
	if (p->calls < 32) {
		count(p->dir);
		p->files[p->calls] = nfiles;
		p->dirs[p->calls] = ndirs;
	}
	p->calls++;
	if (p->calls == p->fail_at)
		return -EIO;
	return rc;
}

static void test_run(void)
{
	char dir[] = "/tmp/test_meta.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	struct meta_tree t;
	struct meta_result res;
	/* -z 1 -b 2 -n 30: 3 dirs × 10, files and dirs, 40-byte files read back */
	struct meta_spec s = { .dir = dir, .items = 30, .depth = 1, .branch = 2, .write_bytes = 40,
			       .read_bytes = 40 };
	CHECK(plan(&s, &t) == 0, "plan");
	struct probe p = { .dir = dir };
	struct meta_sync sync = { probe_fn, &p };
	int rc = meta_run(&s, &t, 0, 1, 0, &sync, &res);
	CHECK(rc == 0 && !res.error, "run: %d %s", rc, res.msg);
	unsigned long expect[META_NR_PHASES] = { 3, 30, 30, 30, 30, 30, 30, 30, 3 };
	for (int k = 0; k < META_NR_PHASES; k++) {
		CHECK(res.ph[k].ran, "%s ran", meta_phase_key(k));
		CHECK(res.ph[k].items == expect[k], "%s: %llu items", meta_phase_key(k),
		      (unsigned long long)res.ph[k].items);
		CHECK(res.ph[k].start_ns <= res.ph[k].end_bb_ns && res.ph[k].end_bb_ns <= res.ph[k].end_ns,
		      "%s times", meta_phase_key(k));
	}
	/* 2 before the phases, 2 per phase (9), 1 after removing the test dir */
	CHECK(p.calls == 21, "%d hook calls", p.calls);
	/* at call 2 + 2·1 (after the tree): dir + test dir + 3 tree dirs */
	CHECK(p.dirs[3] == 5 && p.files[3] == 0, "after tree: %ld dirs %ld files", p.dirs[3], p.files[3]);
	/* after dir create (call 6): + 30 item dirs */
	CHECK(p.dirs[5] == 35, "after dir create: %ld dirs", p.dirs[5]);
	/* after dir remove (call 10): back to 5; after file create (12): 30 files */
	CHECK(p.dirs[9] == 5, "after dir remove: %ld dirs", p.dirs[9]);
	CHECK(p.files[11] == 30, "after file create: %ld files", p.files[11]);
	CHECK(p.files[17] == 0, "after file remove: %ld files", p.files[17]);
	count(dir);
	CHECK(nfiles == 0 && ndirs == 1, "all gone: %ld files %ld dirs", nfiles, ndirs);

	/* -u, files only, -C alone leaves them; then -T -E -r on them */
	s = (struct meta_spec){ .dir = dir, .items = 8, .unique_dir = true, .files = true,
				.ops = META_OP_CREATE, .write_bytes = 5 };
	CHECK(plan(&s, &t) == 0, "plan");
	rc = meta_run(&s, &t, 0, 1, 1, NULL, &res);
	CHECK(rc == 0 && res.ph[META_FILE_CREATE].items == 8 && !res.ph[META_FILE_STAT].ran &&
	      !res.ph[META_TREE_REMOVE].ran, "-C: %d %s", rc, res.msg);
	char path[512];
	snprintf(path, sizeof(path), "%s/test-dir.1-0/mdtest_tree.0.0/file.mdtest.0.7", dir);
	struct stat st;
	CHECK(stat(path, &st) == 0 && st.st_size == 5, "%s", path);
	s.ops = META_OP_STAT | META_OP_READ | META_OP_REMOVE;
	s.read_bytes = 6; /* more than there is */
	rc = meta_run(&s, &t, 0, 1, 1, NULL, &res);
	CHECK(rc == -EIO && strstr(res.msg, "end of file after 5"), "short read: %d %s", rc, res.msg);
	CHECK(res.ph[META_FILE_STAT].items == 8 && res.ph[META_FILE_READ].items == 0, "stat ran");
	count(dir); /* not the run's to remove: it did not create them */
	CHECK(nfiles == 8, "%ld files kept", nfiles);
	s.read_bytes = 5;
	/* as rank 1 (the test directory is rank 0's): its own tree is not there */
	rc = meta_run(&s, &t, 1, 2, 1, NULL, &res);
	CHECK(rc == -ENOENT && strstr(res.msg, "test-dir.1-0/mdtest_tree.1.0"), "rank 1 has no tree: %s", res.msg);
	rc = meta_run(&s, &t, 0, 1, 1, NULL, &res);
	CHECK(rc == 0 && res.ph[META_FILE_REMOVE].items == 8 && res.ph[META_TREE_REMOVE].items == 1,
	      "-T -E -r: %d %s", rc, res.msg);
	count(dir);
	CHECK(nfiles == 0 && ndirs == 1, "removed: %ld %ld", nfiles, ndirs);

	/* a failure agreed at the hook's 12th call (after file create):
	 * everything is cleaned up */
	s = (struct meta_spec){ .dir = dir, .items = 12, .depth = 1, .branch = 3 };
	CHECK(plan(&s, &t) == 0, "plan");
	p = (struct probe){ .dir = dir, .fail_at = 12 };
	sync.arg = &p;
	rc = meta_run(&s, &t, 0, 1, 0, &sync, &res);
	CHECK(rc == -EIO && res.agreed == -EIO && !res.error, "agreed failure %d", rc);
	CHECK(p.files[11] == 12, "files were made: %ld", p.files[11]);
	CHECK(!res.ph[META_FILE_STAT].ran, "stopped");
	count(dir);
	CHECK(nfiles == 0 && ndirs == 1, "cleaned: %ld files %ld dirs", nfiles, ndirs);

	/* an existing test directory is refused, and left alone */
	snprintf(path, sizeof(path), "%s/test-dir.0-0", dir);
	mkdir(path, 0700);
	rc = meta_run(&s, &t, 0, 1, 0, NULL, &res);
	CHECK(rc == -EEXIST && strstr(res.msg, "earlier run"), "%s", res.msg);
	CHECK(stat(path, &st) == 0, "kept");
	rmdir(path);

	/* read-only mode and a missing parent */
	s.guard.readonly_by = "--readonly";
	rc = meta_run(&s, &t, 0, 1, 0, NULL, &res);
	CHECK(rc == -EROFS && strstr(res.msg, "read-only"), "%s", res.msg);
	s.guard.readonly_by = NULL;
	snprintf(path, sizeof(path), "%s/nope", dir);
	s.dir = path;
	rc = meta_run(&s, &t, 0, 1, 0, NULL, &res);
	CHECK(rc == -ENOENT && strstr(res.msg, "nope"), "%s", res.msg);
	s.dir = "/dev";
	rc = meta_run(&s, &t, 0, 1, 0, NULL, &res);
	CHECK(rc == -EPERM && strstr(res.msg, "/dev's own"), "%s", res.msg);
	rmdir(dir);
}

static void test_figures(void)
{
	struct meta_tree t;
	struct meta_spec s = { .dir = "/x", .items = 1000, .depth = 1, .branch = 4, .unique_dir = true };
	plan(&s, &t); /* 5 dirs × 200 */
	struct meta_result r[2];
	memset(r, 0, sizeof(r));
	/* rank 0: 1000 creates in 1 s before the barrier, 2 s to its end;
	 * rank 1: 1000 in 1.5 s, 1.8 s to its end (it started later) */
	r[0].ph[META_FILE_CREATE] = (struct meta_phase_fig){ true, 1000, 10, 10 + 1000000000ull,
							     10 + 2000000000ull };
	r[1].ph[META_FILE_CREATE] = (struct meta_phase_fig){ true, 1000, 50, 50 + 1500000000ull,
							     50 + 1800000000ull };
	/* tree: each rank made its 5 dirs; rank 0 in 0.5 s */
	r[0].ph[META_TREE_CREATE] = (struct meta_phase_fig){ true, 5, 0, 100, 500000000ull };
	r[1].ph[META_TREE_CREATE] = (struct meta_phase_fig){ true, 5, 0, 100, 900000000ull };
	struct meta_phase_agg a[META_NR_PHASES];
	meta_aggregate(&t, r, 2, a);
	const struct meta_phase_agg *c = &a[META_FILE_CREATE];
	CHECK(c->ran && c->items == 2000 && c->all_items == 2000, "items %llu", (unsigned long long)c->items);
	CHECK(fabs(c->time_s - 2.0) < 1e-9, "time %f", c->time_s);
	CHECK(fabs(c->rate - 1000.0) < 1e-6, "rate = all items / slowest time: %f", c->rate);
	CHECK(fabs(c->rank_min - 1000.0 / 1.5) < 1e-6 && fabs(c->rank_max - 1000.0) < 1e-6 &&
	      fabs(c->rank_mean - (1000.0 + 1000.0 / 1.5) / 2) < 1e-6, "per rank %f %f %f",
	      c->rank_min, c->rank_max, c->rank_mean);
	const struct meta_phase_agg *tr = &a[META_TREE_CREATE];
	CHECK(tr->items == 5 && tr->all_items == 10 && fabs(tr->time_s - 0.5) < 1e-9 &&
	      fabs(tr->rate - 10.0) < 1e-6, "tree: one tree over rank 0's time: %llu %f %f",
	      (unsigned long long)tr->items, tr->time_s, tr->rate);
	CHECK(!a[META_FILE_STAT].ran && a[META_FILE_STAT].rate == 0, "stat did not run");
	struct meta_stat st;
	double v[] = { 10, 20, 30 };
	meta_stat_of(v, 3, &st);
	CHECK(st.max == 30 && st.min == 10 && st.mean == 20 && fabs(st.sd - 10.0) < 1e-12,
	      "sample sd %f", st.sd);
	meta_stat_of(v, 1, &st);
	CHECK(st.max == 10 && st.sd == 0, "one iteration");
}

int main(void)
{
	test_figures();
	test_counts();
	test_names();
	test_run();
	return check_done("test_meta");
}
