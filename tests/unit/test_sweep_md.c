/*
 * md knobs in a sweep (sys/sysknob.h, sweep/sweep_plan_int.h, the journaled
 * knob writer of sweep/sweep_int.h) on a fake sysfs tree, since this
 * machine has no md driver: an array is told from a disk by its md/
 * directory; md.NAME builds SYSFS/block/mdN/md/NAME for the run-time knobs
 * only; the writer refuses a file outside the block roots (and a fake
 * tree's file when it is not told that tree); sweep_set_knob journals the
 * old stripe_cache_size before it writes the new one, and the rollback,
 * in the same process or after a reopen as after a crash, writes the old
 * value back. A plan with md.stripe_cache_size on image files is refused
 * saying the targets are no md array; md.chunk_size is refused pointing
 * to setup/teardown templates; an unknown md knob lists the known ones;
 * on a device target md.stripe_cache_size is an md factor.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "sweep/sweep_int.h"
#include "sweep/sweep_plan_int.h"
#include "sys/sysknob.h"
#include "util/array.h"
#include "util/error.h"

static char dir[] = "/tmp/iobench-test-md.XXXXXX";

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static char *get(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static int parse(const char *text, struct sweep_plan *p, struct error_capture *cap)
{
	char name[256];
	snprintf(name, sizeof(name), "%s/t.plan", dir);
	memset(cap, 0, sizeof(*cap));
	error_capture_begin(cap);
	int rc = sweep_plan_parse(name, text, strlen(text), p);
	error_capture_end();
	return rc;
}

static bool said(const struct error_capture *c, const char *where, const char *what)
{
	for (size_t i = 0; i < c->nr; i++)
		if (strstr(c->msgs[i], where) && strstr(c->msgs[i], what))
			return true;
	return false;
}

static void fake_tree(char sysfs[256], size_t len)
{
	char p[PATH_MAX];
	snprintf(sysfs, len, "%s/sys", dir);
	const char *dirs[] = { "", "/block", "/block/md3", "/block/md3/md", "/block/loop7",
			       "/block/loop7/queue" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(p, sizeof(p), "%s%s", sysfs, dirs[i]);
		mkdir(p, 0700);
	}
	snprintf(p, sizeof(p), "%s/block/md3/md/stripe_cache_size", sysfs);
	put(p, "256\n");
	snprintf(p, sizeof(p), "%s/block/md3/dev", sysfs); /* its knob lock's key */
	put(p, "9:3\n");
	snprintf(p, sizeof(p), "%s/block/loop7/queue/read_ahead_kb", sysfs);
	put(p, "128\n");
}

static void test_paths(const char *sysfs)
{
	char file[PATH_MAX], want[PATH_MAX], why[256];
	CHECK(sysknob_is_md(sysfs, "md3"), "md3 has an md/ directory: an array");
	CHECK(!sysknob_is_md(sysfs, "loop7"), "loop7 has none: no array");
	CHECK(!sysknob_is_md(sysfs, "../md3"), "a name with a slash is none");
	CHECK(sysknob_md_path(sysfs, "md3", "stripe_cache_size", file, why, sizeof(why)) == 0,
	      "md.stripe_cache_size: %s", why);
	snprintf(want, sizeof(want), "%s/block/md3/md/stripe_cache_size", sysfs);
	CHECK(!strcmp(file, want), "its file: %s", file);
	CHECK(sysknob_md_path(NULL, "md3", "sync_speed_max", file, why, sizeof(why)) == 0 &&
	      !strcmp(file, "/sys/block/md3/md/sync_speed_max"), "under /sys by default: %s", file);
	CHECK(sysknob_md_path(sysfs, "md3", "chunk_size", file, why, sizeof(why)) == -EINVAL &&
	      strstr(why, "not an md knob that changes at run time"), "chunk_size is none: %s", why);
	CHECK(sysknob_md_path(sysfs, "md3", "../../x", file, why, sizeof(why)) == -EINVAL,
	      "nor a path");
	/* the writer's roots */
	CHECK(sysknob_write(want, "512", why, sizeof(why)) == -EPERM,
	      "the /sys writer refuses the fake tree's file: %s", why);
	snprintf(file, sizeof(file), "%s/block/md3/other", sysfs);
	CHECK(sysknob_write_in(sysfs, file, "1", why, sizeof(why)) == -EPERM,
	      "neither queue/ nor md/: refused");
	char buf[64];
	CHECK(sysknob_write_in(sysfs, want, "512", why, sizeof(why)) == 0 &&
	      !strcmp(get(want, buf, sizeof(buf)), "512"), "written under the tree it is told");
	put(want, "256\n");
}

static void test_journal(const char *sysfs)
{
	char jp[512], file[PATH_MAX], why[256], buf[64];
	snprintf(jp, sizeof(jp), "%s/r.db-sweep-journal", dir);
	snprintf(file, sizeof(file), "%s/block/md3/md/stripe_cache_size", sysfs);
	struct sweep_ctx c;
	memset(&c, 0, sizeof(c));
	CHECK(sweep_journal_open(&c.j, jp) == 0, "journal open");
	c.j.sysfs = sysfs;
	CHECK(sweep_set_knob(&c, file, "4096", why, sizeof(why)) == 0, "set: %s", why);
	CHECK(!strcmp(get(file, buf, sizeof(buf)), "4096"), "the array's knob is 4096: %s", buf);
	CHECK(c.j.n == 1 && !strcmp(c.j.v[0].kind, "knob") && !strcmp(c.j.v[0].a, file) &&
	      c.j.v[0].b && !strcmp(c.j.v[0].b, "256"), "journaled with its old value 256");
	/* the journal file holds it before the write: read it back */
	FILE *f = fopen(jp, "r");
	char line[1024] = "";
	bool found = false;
	while (f && fgets(line, sizeof(line), f))
		found |= strstr(line, "knob ") && strstr(line, "stripe_cache_size") && strstr(line, "256");
	if (f)
		fclose(f);
	CHECK(found, "the journal file has the knob and its old value");
	CHECK(sweep_journal_rollback(&c.j, 0) == 0, "rollback");
	CHECK(!strcmp(get(file, buf, sizeof(buf)), "256"), "the old value is back: %s", buf);
	sweep_journal_close(&c.j, true);

	/* a crash after the write: a new process opens the journal and undoes it */
	memset(&c, 0, sizeof(c));
	CHECK(sweep_journal_open(&c.j, jp) == 0, "journal open again");
	c.j.sysfs = sysfs;
	CHECK(sweep_set_knob(&c, file, "1024", why, sizeof(why)) == 0, "set 1024");
	sweep_journal_close(&c.j, false); /* as a SIGKILL leaves it */
	struct sweep_journal j2;
	CHECK(sweep_journal_open(&j2, jp) == 0 && sweep_journal_pending(&j2) == 1,
	      "the entry survived");
	j2.sysfs = sysfs;
	CHECK(sweep_journal_rollback(&j2, 0) == 0 &&
	      !strcmp(get(file, buf, sizeof(buf)), "256"), "restored after the crash: %s", buf);
	sweep_journal_close(&j2, true);
}

static void test_plans(void)
{
	struct sweep_plan p;
	struct error_capture cap;
	static const char img[] =
		"[target]\nimage = x.img\nimage_size = 1g\nfs = xfs\n[factors]\n"
		"md.stripe_cache_size = 256 | 4096\n[workload]\nquick =\n";
	CHECK(parse(img, &p, &cap) == -EINVAL && said(&cap, "t.plan:6:1", "not an md array"),
	      "md.stripe_cache_size on image files: refused at its line, saying why");
	error_capture_release(&cap);
	static const char chunk[] =
		"[target]\ndevice = /dev/md3\nfs = xfs\n[factors]\nmd.chunk_size = 64 | 512\n"
		"[workload]\nquick =\n";
	CHECK(parse(chunk, &p, &cap) == -EINVAL && said(&cap, "t.plan:5:1", "made again") &&
	      said(&cap, "t.plan:5:1", "setup = template") && said(&cap, "t.plan:5:1", "teardown ="),
	      "md.chunk_size: the array must be re-made, through setup/teardown templates");
	error_capture_release(&cap);
	static const char bogus[] =
		"[target]\ndevice = /dev/md3\nfs = xfs\n[factors]\nmd.frob = 1 | 2\n"
		"[workload]\nquick =\n";
	CHECK(parse(bogus, &p, &cap) == -EINVAL && said(&cap, "t.plan:5:1", "stripe_cache_size, "),
	      "an unknown md knob: the known ones listed");
	error_capture_release(&cap);
	static const char dev[] =
		"[target]\ndevice = /dev/md3\nfs = xfs\n[factors]\nmd.stripe_cache_size = 256 | 4096\n"
		"[workload]\nquick =\n";
	int rc = parse(dev, &p, &cap);
	CHECK(rc == 0 && p.nr_factors == 1 && p.factors[0].kind == SWF_MD &&
	      !strcmp(p.factors[0].knob, "stripe_cache_size") &&
	      !strcmp(p.factors[0].name, "md.stripe_cache_size"),
	      "on a device target it is an md factor");
	if (rc == 0)
		sweep_plan_release(&p);
	error_capture_release(&cap);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char sysfs[256];
	fake_tree(sysfs, sizeof(sysfs));
	test_paths(sysfs);
	test_journal(sysfs);
	test_plans();
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return check_done("test_sweep_md");
}
