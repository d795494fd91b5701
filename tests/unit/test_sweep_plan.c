/*
 * The sweep plan parser and the designs (sweep/sweep_plan_int.h,
 * sweep/sweep_design_int.h): the issue's example plan parses as written, with
 * each factor's kind and levels; full gives every combination once, with
 * the factors of another filesystem left out (16 points, not 24); ofat
 * the baseline and one change at a time; lhs:N each level equally often;
 * the order follows the seed; a race needs a goal, which is checked; bad
 * plans fail with file:line:col messages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "check.h"
#include "sweep/sweep_design_int.h"
#include "sweep/sweep_plan_int.h"
#include "util/error.h"

static char dir[] = "/tmp/iobench-test-sweep.XXXXXX";

static int parse(const char *text, struct sweep_plan *p, struct error_capture *cap)
{
	char *name = NULL;
	if (asprintf(&name, "%s/t.plan", dir) < 0)
		return -ENOMEM;
	memset(cap, 0, sizeof(*cap));
	error_capture_begin(cap);
	int rc = sweep_plan_parse(name, text, strlen(text), p);
	error_capture_end();
	free(name);
	return rc;
}

static bool said(const struct error_capture *c, const char *where, const char *what)
{
	for (size_t i = 0; i < c->nr; i++)
		if (strstr(c->msgs[i], where) && strstr(c->msgs[i], what))
			return true;
	return false;
}

static const char issue_plan[] =
	"[target]\n"
	"image = /var/tmp/sweep/disk.img\n"
	"image_size = 4g\n"
	"\n"
	"[factors]\n"
	"fs = ext4 | xfs | btrfs\n"
	"mkfs.xfs = -d su=64k,sw=7 -i size=512 | -d su=256k,sw=7\n"
	"read_ahead_kb = 128 | 4096\n"
	"scheduler = none | mq-deadline\n"
	"\n"
	"[workload]\n"
	"job = random-write-test.fio\n"
	"repeat = auto:5%\n"
	"\n"
	"[design]\n"
	"type = full\n"
	"goal = write bw\n";

static void test_issue_plan(void)
{
	struct sweep_plan p;
	struct error_capture cap;
	int rc = parse(issue_plan, &p, &cap);
	CHECK(rc == 0, "the issue's plan parses (%d, %zu messages: %s)", rc, cap.nr,
	      cap.nr ? cap.msgs[0] : "");
	error_capture_release(&cap);
	if (rc)
		return;
	CHECK(p.target == SWT_IMAGE && p.nr_paths == 1 && !strcmp(p.paths[0], "/var/tmp/sweep/disk.img"),
	      "one image target");
	CHECK(p.image_size == 4ull << 30 && p.direct_io, "4 GiB, direct I/O by default");
	CHECK(p.nr_factors == 4, "four factors (%zu)", p.nr_factors);
	CHECK(p.factors[0].kind == SWF_FS && p.factors[0].nr_levels == 3, "fs: 3 filesystems");
	CHECK(p.factors[1].kind == SWF_MKFS && !strcmp(p.factors[1].fsname, "xfs") &&
	      p.factors[1].nr_levels == 2 && !strcmp(p.factors[1].levels[0], "-d su=64k,sw=7 -i size=512"),
	      "mkfs.xfs: two option sets of xfs, blanks inside kept");
	CHECK(p.factors[2].kind == SWF_QUEUE && !strcmp(p.factors[2].levels[1], "4096"),
	      "read_ahead_kb: a queue knob");
	CHECK(p.factors[3].kind == SWF_SCHED, "scheduler");
	CHECK(p.workload == SWW_JOB && p.nr_jobs == 1 && strstr(p.jobs[0], dir) &&
	      !strcmp(p.repeat, "auto:5%"), "the job file (relative to the plan), repeat auto:5%%");
	CHECK(p.design == SWD_FULL && !strcmp(p.goal, "write bw"), "full, goal kept as text");

	struct sweep_points a, b, c;
	CHECK(sweep_design(&p, 1, &a) == 0, "full design");
	CHECK(a.n == 16, "3 fs x 2 x 2, xfs twice more for its mkfs levels: 16 points (%zu)", a.n);
	size_t na = 0, xfs = 0;
	for (size_t i = 0; i < a.n; i++) {
		const char *fs = sweep_point_fs(&p, &a, i);
		bool has = sweep_point_level(&p, &a, i, 1) != NULL;
		na += !has;
		xfs += !strcmp(fs, "xfs");
		CHECK(has == !strcmp(fs, "xfs"), "mkfs.xfs applies at xfs points only (point %zu: %s)", i, fs);
		for (size_t j = 0; j < i; j++)
			CHECK(memcmp(&a.lvl[i * a.nf], &a.lvl[j * a.nf], a.nf * sizeof(size_t)),
			      "points %zu and %zu differ", i, j);
	}
	CHECK(xfs == 8 && na == 8, "8 xfs points, 8 without mkfs.xfs");
	CHECK(sweep_design(&p, 1, &b) == 0 && !memcmp(a.lvl, b.lvl, a.n * a.nf * sizeof(size_t)),
	      "the same seed gives the same order");
	CHECK(sweep_design(&p, 2, &c) == 0 && c.n == 16 && memcmp(a.lvl, c.lvl, a.n * a.nf * sizeof(size_t)),
	      "another seed another order");
	char *t = sweep_point_text(&p, &a, 0);
	CHECK(strstr(t, "fs=") == t && strstr(t, " read_ahead_kb=") && strstr(t, " scheduler="),
	      "a point's text: its labels in plan order (%s)", t);
	free(t);
	sweep_points_release(&a);
	sweep_points_release(&b);
	sweep_points_release(&c);
	sweep_plan_release(&p);
}

static const char knob_plan[] =
	"[target]\ndir = /tmp\n[factors]\n"
	"read_ahead_kb = 128 | 256 | 512 | 1024 | 2048 | 4096\nnr_requests = 32 | 64 | 128\nvm.dirty_ratio = 10 | 20\n"
	"[workload]\nquick = --size=1m\n[design]\ntype = %s\nseed = 5\n";

static void test_ofat_lhs(void)
{
	char text[512];
	struct sweep_plan p;
	struct error_capture cap;
	snprintf(text, sizeof(text), knob_plan, "ofat");
	int rc = parse(text, &p, &cap);
	CHECK(rc == 0, "a dir plan with knob factors parses (%s)", cap.nr ? cap.msgs[0] : "");
	error_capture_release(&cap);
	if (rc)
		return;
	CHECK(p.factors[2].kind == SWF_VM && p.seed == 5 && p.seed_given, "vm.NAME, seed 5");
	struct sweep_points pts;
	CHECK(sweep_design(&p, p.seed, &pts) == 0 && pts.n == 1 + 5 + 2 + 1,
	      "ofat: the baseline and each other level once: 9 points (%zu)", pts.n);
	size_t off = 0;
	for (size_t i = 0; i < pts.n; i++) {
		size_t changed = 0;
		for (size_t f = 0; f < pts.nf; f++)
			changed += pts.lvl[i * pts.nf + f] != 0;
		CHECK(changed <= 1, "point %zu changes at most one factor from the baseline", i);
		off += changed == 0;
	}
	CHECK(off == 1, "one baseline point");
	sweep_points_release(&pts);
	sweep_plan_release(&p);

	snprintf(text, sizeof(text), knob_plan, "lhs:6");
	rc = parse(text, &p, &cap);
	error_capture_release(&cap);
	CHECK(rc == 0 && p.design == SWD_LHS && p.lhs_n == 6, "lhs:6");
	if (rc)
		return;
	/* read_ahead_kb's 6 levels each once: no two points can be equal */
	CHECK(sweep_design(&p, 9, &pts) == 0 && pts.n == 6, "lhs:6 gives 6 points (%zu)", pts.n);
	if (pts.n == 6) {
		size_t cnt[3][6] = { { 0 } };
		for (size_t i = 0; i < pts.n; i++)
			for (size_t f = 0; f < 3; f++)
				cnt[f][pts.lvl[i * pts.nf + f]]++;
		bool once = true;
		for (size_t l = 0; l < 6; l++)
			once &= cnt[0][l] == 1;
		CHECK(once, "read_ahead_kb's 6 levels once each");
		CHECK(cnt[1][0] == 2 && cnt[1][1] == 2 && cnt[1][2] == 2, "nr_requests's 3 levels twice each");
		CHECK(cnt[2][0] == 3 && cnt[2][1] == 3, "vm.dirty_ratio's 2 levels 3 times each");
		struct sweep_points again;
		CHECK(sweep_design(&p, 10, &again) == 0 &&
		      memcmp(pts.lvl, again.lvl, pts.n * pts.nf * sizeof(size_t)),
		      "another seed pairs the levels otherwise");
		sweep_points_release(&again);
	}
	sweep_points_release(&pts);
	sweep_plan_release(&p);
}

/* command = : the whole line (';' and all) as the template; repeat = N
 * only; one command; not mixed with another workload. */
static void test_command(void)
{
	struct sweep_plan p;
	struct error_capture cap;
	static const char ok_plan[] =
		"[target]\nimage = x.img\nimage_size = 1g\n[factors]\nfs = ext4 | xfs\n"
		"[workload]\ncommand = dd if=/dev/zero of={mnt}/f bs=1M count=8 conv=fsync; sync\n"
		"repeat = 2\n[design]\ngoal = elapsed\n";
	CHECK(parse(ok_plan, &p, &cap) == 0, "a command plan parses");
	CHECK(p.workload == SWW_COMMAND && p.command &&
	      !strcmp(p.command, "dd if=/dev/zero of={mnt}/f bs=1M count=8 conv=fsync; sync"),
	      "the command as written: '%s'", p.command ? p.command : "(null)");
	sweep_plan_release(&p);
	error_capture_release(&cap);
	static const char autorep[] =
		"[target]\nimage = x.img\nimage_size = 1g\n[factors]\nfs = ext4 | xfs\n"
		"[workload]\ncommand = sync\nrepeat = auto:5%\n";
	CHECK(parse(autorep, &p, &cap) == -EINVAL && said(&cap, "t.plan:1:1", "not implemented yet"),
	      "repeat = auto with a command is refused as not implemented");
	error_capture_release(&cap);
	static const char twice[] =
		"[target]\nimage = x.img\nimage_size = 1g\n[factors]\nfs = ext4 | xfs\n"
		"[workload]\ncommand = sync\ncommand = true\nquick =\n";
	CHECK(parse(twice, &p, &cap) == -EINVAL && said(&cap, "t.plan:8:1", "given twice") &&
	      said(&cap, "t.plan:9:1", "not a mix"), "two commands, and a command with quick");
	error_capture_release(&cap);
}

static void test_errors(void)
{
	struct sweep_plan p;
	struct error_capture cap;
	static const char bad[] =
		"[target]\nimage = x.img\n[factors]\nfs = ext4 || xfs\nfrobnicate = 1 | 2\n"
		"kernel.mitigations = off | auto\nmd.chunk_size = 64 | 256\n"
		"[workload]\nbonnie = -s 64\n[design]\ntype = race\n[extra]\n";
	CHECK(parse(bad, &p, &cap) == -EINVAL, "a bad plan fails with -EINVAL");
	CHECK(said(&cap, "t.plan:4:12", "empty level"), "the empty level at 4:12 (after the first '|')");
	CHECK(said(&cap, "t.plan:6:1", "out of scope"), "a kernel boot parameter: out of scope, at 6:1");
	CHECK(said(&cap, "t.plan:7:1", "made again at each point"),
	      "md's chunk size: the array must be re-made (test_sweep_md.c has more)");
	CHECK(said(&cap, "t.plan:12:1", "unknown section [extra]"), "an unknown section");
	error_capture_release(&cap);

	static const char unknown[] = "[target]\nimage = x.img\nimage_size = 1g\n[factors]\nfs = ext4\n"
				      "frobnicate = 1 | 2\n[workload]\nquick =\n";
	CHECK(parse(unknown, &p, &cap) == -EINVAL && said(&cap, "t.plan:6:1", "unknown factor 'frobnicate'"),
	      "an unknown factor, not used by a template, is refused at 6:1");
	error_capture_release(&cap);

	static const char templ[] = "[target]\nimage = x.img\nimage_size = 1g\n[factors]\nfs = ext4\n"
				    "chunk_kb = 64 | 256\nsetup = echo {chunk_kb} > /dev/null\n"
				    "[workload]\nquick =\n";
	int rc = parse(templ, &p, &cap);
	CHECK(rc == 0 && p.nr_factors == 2 && p.factors[1].kind == SWF_PARAM && p.nr_setup == 1,
	      "a factor a setup template uses is a parameter (%s)", cap.nr ? cap.msgs[0] : "");
	error_capture_release(&cap);
	if (rc == 0)
		sweep_plan_release(&p);

	static const char race[] = "[target]\ndir = /tmp\n[factors]\nvm.dirty_ratio = 10 | 20\n"
				   "[workload]\nquick =\n[design]\ntype = race\n%s";
	char text[512];
	snprintf(text, sizeof(text), race, "");
	CHECK(parse(text, &p, &cap) == -EINVAL && said(&cap, "t.plan", "a race needs the figure"),
	      "a race without a goal is refused");
	error_capture_release(&cap);
	snprintf(text, sizeof(text), race, "goal = write bandwidth\n");
	CHECK(parse(text, &p, &cap) == -EINVAL && said(&cap, "t.plan:9:8", "unknown figure 'bandwidth'"),
	      "a goal sweep_goal_parse refuses is reported at its value (%s)", cap.nr ? cap.msgs[0] : "");
	error_capture_release(&cap);
	snprintf(text, sizeof(text), race, "goal = write bw\nmax_repeat = 6\n");
	rc = parse(text, &p, &cap);
	CHECK(rc == 0 && p.design == SWD_RACE && p.race_min == 3 && p.race_max == 6,
	      "a race with a goal: min_repeat 3 by default, max_repeat as given (%s)",
	      cap.nr ? cap.msgs[0] : "");
	error_capture_release(&cap);
	if (rc == 0) {
		struct sweep_points pts;
		CHECK(sweep_design(&p, 1, &pts) == 0 && pts.n == 2, "the race's points: the full design's");
		sweep_points_release(&pts);
		sweep_plan_release(&p);
	}

	static const char none[] = "[factors]\nread_ahead_kb = 128 | 256\n";
	CHECK(parse(none, &p, &cap) == -EINVAL && said(&cap, "t.plan:1:1", "no target") &&
	      said(&cap, "t.plan", "no workload"), "a plan without target and workload says both");
	error_capture_release(&cap);
}

/* Every knob name is checked for its shape when the plan is read, with its
 * line and column (not when a point writes it). */
static void test_knob_names(void)
{
	struct sweep_plan p;
	struct error_capture cap;
	static const char plan[] = "[target]\nimage = x.img\nimage_size = 1g\n[factors]\n"
				   "vm.../kernel/x = 1 | 2\n"   /* 5 */
				   "vm.dirty..ratio = 1 | 2\n"  /* 6 */
				   "vm. = 1 | 2\n"              /* 7 */
				   "vm/dirty_ratio = 1 | 2\n"   /* 8 */
				   "iosched.../x = 1 | 2\n"     /* 9 */
				   "iosched.fifo_batch = 8 | 16\n"
				   "queue/nomerges = 0 | 1\n"   /* 11 */
				   "queue.frob = 0 | 1\n"       /* 12 */
				   "vm.dirty_ratio = 10 | 20\n"
				   "vm.Dirty = 1 | 2\n"         /* 14 */
				   "iosched. = 1 | 2\n"         /* 15 */
				   "[workload]\nquick =\n";
	CHECK(parse(plan, &p, &cap) == -EINVAL, "bad knob names fail the plan");
	CHECK(said(&cap, "t.plan:5:4:", "'vm.../kernel/x' is not a vm sysctl"),
	      "vm.../kernel/x refused at its first '.' after vm. (5:4)");
	CHECK(said(&cap, "t.plan:6:9:", "not a vm sysctl"), "vm.dirty..ratio at its '..' (6:9)");
	CHECK(said(&cap, "t.plan:7:4:", "not a vm sysctl"), "an empty vm. (7:4)");
	CHECK(said(&cap, "t.plan:8:3:", "not a vm sysctl"), "vm/ (8:3)");
	CHECK(said(&cap, "t.plan:9:9:", "not an I/O scheduler knob"), "iosched.../x (9:9)");
	CHECK(said(&cap, "t.plan:11:1:", "without its folder: nomerges"), "queue/nomerges: its name");
	CHECK(said(&cap, "t.plan:12:1:", "not a queue knob"), "queue.frob: not a known queue knob");
	CHECK(said(&cap, "t.plan:14:4:", "not a vm sysctl"), "upper case (14:4)");
	CHECK(said(&cap, "t.plan:15:9:", "not an I/O scheduler knob"), "an empty iosched. (15:9)");
	CHECK(!said(&cap, "t.plan:10:", "") && !said(&cap, "t.plan:13:", ""),
	      "iosched.fifo_batch and vm.dirty_ratio are accepted");
	error_capture_release(&cap);
}

/* A plan file, a plan's include and its job = file must be regular files:
 * a FIFO is refused at once (it would block the parse forever). */
static void test_not_regular(void)
{
	struct sweep_plan p;
	struct error_capture cap;
	char *fifo = NULL;
	if (asprintf(&fifo, "%s/p.fifo", dir) < 0)
		return;
	CHECK(mkfifo(fifo, 0600) == 0, "a FIFO");
	alarm(10); /* a hang fails the test */
	memset(&cap, 0, sizeof(cap));
	error_capture_begin(&cap);
	int rc = sweep_plan_load(fifo, &p);
	error_capture_end();
	CHECK(rc < 0 && said(&cap, "p.fifo", "a FIFO, not a regular file"), "a FIFO as the plan");
	error_capture_release(&cap);
	static const char inc[] = "[target]\nimage = x.img\nimage_size = 1g\n[factors]\n"
				  "include p.fifo\nfs = ext4\n[workload]\nquick =\n";
	CHECK(parse(inc, &p, &cap) == -EINVAL && said(&cap, "t.plan:5:9:", "is a FIFO"),
	      "include of a FIFO refused at 5:9");
	error_capture_release(&cap);
	static const char job[] = "[target]\nimage = x.img\nimage_size = 1g\n[factors]\n"
				  "fs = ext4\n[workload]\njob = p.fifo\n";
	CHECK(parse(job, &p, &cap) == -EINVAL && said(&cap, "t.plan:7:7:", "is a FIFO"),
	      "job = a FIFO refused at 7:7");
	error_capture_release(&cap);
	alarm(0);
	unlink(fifo);
	free(fifo);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char *job = NULL;
	if (asprintf(&job, "%s/random-write-test.fio", dir) < 0)
		return 1;
	FILE *f = fopen(job, "w");
	if (!f)
		return 1;
	fputs("[w]\nrw=randwrite\nsize=1m\n", f);
	fclose(f);
	test_issue_plan();
	test_ofat_lhs();
	test_errors();
	test_command();
	test_knob_names();
	test_not_regular();
	unlink(job);
	free(job);
	rmdir(dir);
	return check_done("test_sweep_plan");
}
