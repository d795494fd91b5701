/*
 * The sweep's restore journal (sweep/sweep_journal.h) on files of its own:
 * entries written before the change survive the process (read back after
 * a close without undoing, as after a SIGKILL), arguments with blanks and
 * '%' come back as written, undoing goes newest first and each undone
 * entry is marked so a second restore does nothing, a torn last line is
 * ignored, a second open of a held journal is refused. And what a journal
 * may not make root do: a journal or folder that someone else owns or may
 * write is refused whole (nothing read); a `cmd` line never runs; each
 * entry must prove the sweep made what it undoes (an image of the stored
 * plan with the recorded inode, a teardown the stored plan has, a mount at
 * the sweep's mount point), else it is refused and left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"
#include "store/store.h"
#include "store/store_sweep.h"
#include "sweep/sweep_journal.h"
#include "util/array.h"

static char dir[] = "/tmp/iobench-test-journal.XXXXXX";

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

static void devino(const char *path, char *out, size_t len)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		snprintf(out, len, "0:0:0");
	else
		snprintf(out, len, "%u:%u:%llu", major(st.st_dev), minor(st.st_dev),
			 (unsigned long long)st.st_ino);
}

static void make_file(const char *p)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd >= 0)
		close(fd);
}

/* Entries refused by their shape alone. */
static void entry_checks(void)
{
	struct {
		const char *kind, *a, *b, *proof;
		bool ok;
	} cases[] = {
		{ "cmd", "touch /tmp/x", NULL, NULL, false },
		{ "rm", "/tmp/x", NULL, NULL, false },
		{ "image", "relative.img", NULL, NULL, false },
		{ "image", "/tmp/a.img", NULL, "7:1", false },
		{ "image", "/tmp/a.img", NULL, "8:1:1234", true },
		{ "loop", "8:1", "/tmp/a.img", NULL, false },
		{ "loop", "8:1:99", "/tmp/a.img", NULL, true },
		{ "mount", "/tmp/m", NULL, NULL, false },
		{ "teardown", "1", "0", NULL, false },
		{ "teardown", "x", "0:1", NULL, false },
		{ "teardown", "1", "0:1", NULL, true },
		{ "sweep", "1; rm", NULL, NULL, false },
		{ "procs", "12:abc:3", "-", NULL, false },
		{ "procs", "1234:5678:99", "/sys/fs/cgroup/user.slice", NULL, false },
		{ "procs", "1234:5678:99", "/sys/fs/cgroup/../x/iobench-sweep-1-2", NULL, false },
		{ "procs", "1234:5678:99", "-", NULL, true },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sweep_jentry e = { .kind = (char *)cases[i].kind, .a = (char *)cases[i].a,
					  .b = (char *)cases[i].b, .proof = (char *)cases[i].proof };
		char why[512] = "";
		int rc = sweep_journal_entry_check(&e, why, sizeof(why));
		CHECK((rc == 0) == cases[i].ok, "entry '%s %s %s' is %s (%s)", cases[i].kind,
		      cases[i].a ? cases[i].a : "", cases[i].b ? cases[i].b : "",
		      cases[i].ok ? "accepted" : "refused", why);
	}
	struct sweep_jentry cmd = { .kind = "cmd", .a = "true" };
	char why[512];
	sweep_journal_entry_check(&cmd, why, sizeof(why));
	CHECK(strstr(why, "never carries a command") != NULL, "a cmd line is refused saying why (%s)",
	      why);
}

/* Who owns the journal and its folder, and who may write them. */
static void ownership(void)
{
	char sub[300], jp[320], link[320];
	snprintf(sub, sizeof(sub), "%s/own", dir);
	snprintf(jp, sizeof(jp), "%s/r.db-sweep-journal", sub);
	snprintf(link, sizeof(link), "%s/l.db-sweep-journal", sub);
	mkdir(sub, 0700);
	struct sweep_journal j;
	struct stat st;
	CHECK(sweep_journal_open(&j, jp) == 0 && stat(jp, &st) == 0 && (st.st_mode & 0777) == 0600,
	      "a new journal is made with mode 0600 (%o)", st.st_mode & 0777);
	sweep_journal_add(&j, "mkdir", sub, NULL, NULL);
	sweep_journal_close(&j, false);

	chmod(jp, 0666);
	CHECK(sweep_journal_open(&j, jp) == -EPERM, "a journal others may write is refused");
	sweep_journal_close(&j, false);
	chmod(jp, 0620);
	CHECK(sweep_journal_open(&j, jp) == -EPERM, "a journal its group may write is refused");
	sweep_journal_close(&j, false);
	chmod(jp, 0600);
	if (geteuid() == 0) {
		CHECK(chown(jp, 65534, 65534) == 0, "the journal given to nobody");
		bool had = true;
		CHECK(sweep_journal_restore(jp, &had) == -EPERM && exists(sub),
		      "a journal another user owns is refused, nothing in it done");
		chown(jp, 0, 0);
	}
	chmod(sub, 0777);
	CHECK(sweep_journal_open(&j, jp) == -EPERM, "a folder others may write is refused");
	sweep_journal_close(&j, false);
	chmod(sub, 01777);
	CHECK(sweep_journal_open(&j, jp) == -EPERM, "a world-writable sticky folder too (/tmp)");
	sweep_journal_close(&j, false);
	chmod(sub, 0700);
	CHECK(symlink(jp, link) == 0, "a symbolic link named as a journal");
	CHECK(sweep_journal_open(&j, link) < 0, "is not followed");
	sweep_journal_close(&j, false);
	unlink(link);
	unlink(jp);
	rmdir(sub);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	entry_checks();
	ownership();

	char jp[256], sub[256], img[256], keep[256], order[256], canary[256], victim[256];
	snprintf(jp, sizeof(jp), "%s/r.db-sweep-journal", dir);
	snprintf(sub, sizeof(sub), "%s/a dir%%x", dir);
	snprintf(img, sizeof(img), "%s/a dir%%x/disk.img", dir);
	snprintf(keep, sizeof(keep), "%s/keep.img", dir);
	snprintf(order, sizeof(order), "%s/order", dir);
	snprintf(canary, sizeof(canary), "%s/canary", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	char *db = NULL;
	if (asprintf(&db, "%s/r.db", dir) < 0)
		return 1;
	char *p = sweep_journal_path(db);
	CHECK(!strcmp(p, jp), "the journal sits next to the database (%s)", p);
	free(p);

	/* the sweep as the database stores it: its plan has the image and
	 * two teardown templates */
	char *plan = NULL;
	if (asprintf(&plan, "[target]\nimage = %s\nimage_size = 8m\nfs = ext4\n[factors]\nx = lvl\n"
		     "teardown = echo first-{x} >> '%s'\nteardown = echo second >> '%s'\n"
		     "[workload]\nquick =\n", img, order, order) < 0)
		return 1;
	struct store *st;
	int64_t id = 0;
	const char *points[] = { "x=lvl" };
	const char *factors[] = { "x" };
	struct store_sweep s = { .plan_path = "/tmp/t.plan", .plan = plan, .design = "full",
				 .seed = 1, .factors = (char **)factors, .nr_factors = 1 };
	CHECK(store_open(db, &st) == 0 && store_sweep_new(st, &s, points, 1, &id) == 0 && id == 1,
	      "a stored sweep");
	store_close(st);

	struct sweep_journal j, j2;
	CHECK(sweep_journal_open(&j, jp) == 0 && j.n == 0, "a new journal is empty");
	size_t e, e_keep;
	char proof[64];
	CHECK(sweep_journal_add(&j, "sweep", "1", "4242", NULL) == 0, "the sweep entry");
	CHECK(sweep_journal_add(&j, "mkdir", sub, NULL, &e) == 0 && mkdir(sub, 0700) == 0, "mkdir");
	devino(sub, proof, sizeof(proof));
	CHECK(sweep_journal_prove(&j, e, proof) == 0, "its inode recorded");
	CHECK(sweep_journal_add(&j, "image", img, NULL, &e) == 0, "image");
	make_file(img);
	devino(img, proof, sizeof(proof));
	CHECK(sweep_journal_prove(&j, e, proof) == 0, "its inode recorded");
	CHECK(sweep_journal_add(&j, "image", keep, NULL, &e_keep) == 0, "an image that was there");
	make_file(keep);
	CHECK(sweep_journal_forget(&j, e_keep) == 0, "... forgotten: not ours to remove");
	CHECK(sweep_journal_add(&j, "teardown", "1", "0:1", NULL) == 0 &&
	      sweep_journal_add(&j, "teardown", "1", "0:0", NULL) == 0, "the point's teardowns");
	CHECK(sweep_journal_pending(&j) == 5, "5 entries to undo (%zu)", sweep_journal_pending(&j));
	CHECK(sweep_journal_open(&j2, jp) == -EBUSY, "a second sweep on the journal is refused");
	sweep_journal_close(&j2, false);
	sweep_journal_close(&j, false); /* as a SIGKILL leaves it */
	CHECK(exists(jp) && exists(img), "the journal and the image stay after the process");

	/* a line torn by a crash while it was written is never acted on */
	int fd = open(jp, O_WRONLY | O_APPEND);
	CHECK(fd >= 0 && write(fd, "image /etc/pass", 15) == 15, "a torn line appended");
	close(fd);
	CHECK(sweep_journal_open(&j, jp) == 0, "reopened");
	CHECK(j.n == 9 && sweep_journal_pending(&j) == 5 && !strcmp(j.v[1].a, sub) &&
	      !strcmp(j.v[3].a, img) && j.v[3].proof && j.v[5].undone,
	      "read back: the entries as written, blanks and %% kept, proofs attached, the "
	      "forgotten one marked (%zu entries)", j.n);
	/* what an attacker would plant, each refused */
	make_file(victim);
	devino(victim, proof, sizeof(proof));
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "touch '%s'", canary);
	CHECK(sweep_journal_add(&j, "cmd", cmd, NULL, NULL) == 0, "a planted cmd line");
	CHECK(sweep_journal_add(&j, "image", victim, NULL, &e) == 0 &&
	      sweep_journal_prove(&j, e, proof) == 0, "a planted image line with the right inode");
	CHECK(sweep_journal_add(&j, "teardown", "1", "0:7", NULL) == 0, "a teardown the plan lacks");
	CHECK(sweep_journal_add(&j, "mount", dir, "tmpfs", NULL) == 0, "a mount elsewhere");
	sweep_journal_close(&j, false);

	bool had;
	CHECK(sweep_journal_restore(jp, &had) < 0, "restore fails: entries were refused");
	CHECK(!exists(canary), "the planted command never ran");
	CHECK(exists(victim), "the planted image survives");
	CHECK(!exists(img) && !exists(sub), "the sweep's image and its directory are gone");
	CHECK(exists(keep), "the forgotten image is not touched");
	FILE *f = fopen(order, "r");
	char a[32] = "", b[32] = "";
	CHECK(f && fscanf(f, "%31s %31s", a, b) == 2 && !strcmp(a, "first-lvl") &&
	      !strcmp(b, "second"), "the stored plan's teardowns ran, expanded, in its order "
	      "(%s, %s)", a, b);
	if (f)
		fclose(f);
	CHECK(exists(jp), "the journal stays while refused entries are in it");
	CHECK(sweep_journal_open(&j, jp) == 0 && sweep_journal_pending(&j) == 4,
	      "only the 4 refused entries are left (%zu)", sweep_journal_pending(&j));
	sweep_journal_close(&j, false);
	unlink(jp);

	/* an image of the plan whose inode is not the recorded one: replaced */
	CHECK(sweep_journal_open(&j, jp) == 0, "a new journal");
	sweep_journal_add(&j, "sweep", "1", "4242", NULL);
	mkdir(sub, 0700);
	make_file(img);
	sweep_journal_add(&j, "image", img, NULL, &e);
	devino(img, proof, sizeof(proof));
	sweep_journal_prove(&j, e, proof);
	unlink(img);
	make_file(keep);
	CHECK(link(keep, img) == 0 || (make_file(img), true), "the image replaced by another file");
	CHECK(sweep_journal_rollback(&j, 0) < 0 && exists(img),
	      "an image whose inode is not the recorded one is refused and stays");
	sweep_journal_close(&j, false);
	unlink(jp);
	unlink(img);
	rmdir(sub);

	/* undone entries are recorded: a journal rolled back half-way keeps the rest */
	CHECK(sweep_journal_open(&j, jp) == 0, "a new journal");
	sweep_journal_add(&j, "sweep", "1", "4242", NULL);
	CHECK(sweep_journal_add(&j, "mkdir", sub, NULL, &e) == 0 && mkdir(sub, 0700) == 0, "mkdir");
	devino(sub, proof, sizeof(proof));
	sweep_journal_prove(&j, e, proof);
	size_t mark = j.n;
	CHECK(sweep_journal_add(&j, "teardown", "1", "0:1", NULL) == 0, "a point's teardown");
	CHECK(sweep_journal_rollback(&j, mark) == 0 && sweep_journal_pending(&j) == 2,
	      "the point undone");
	sweep_journal_close(&j, false);
	CHECK(sweep_journal_open(&j, jp) == 0 && sweep_journal_pending(&j) == 2 && !j.v[1].undone &&
	      j.v[3].undone, "read back: only the sweep and the mkdir are left to undo");
	sweep_journal_close(&j, false);
	CHECK(sweep_journal_restore(jp, &had) == 0 && !exists(sub), "restored");
	CHECK(!exists(jp), "the journal is removed once everything is undone");
	CHECK(sweep_journal_restore(jp, &had) == 0 && !had, "a second restore has nothing to do");
	f = fopen(order, "r");
	int lines = 0;
	for (int c; f && (c = fgetc(f)) != EOF;)
		lines += c == '\n';
	if (f)
		fclose(f);
	CHECK(lines == 3, "the point's teardown ran once, not again on restore (%d lines)", lines);
	unlink(order);
	unlink(keep);
	unlink(victim);
	unlink(db);
	char side[300];
	snprintf(side, sizeof(side), "%s-wal", db);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", db);
	unlink(side);
	rmdir(dir);
	free(db);
	free(plan);
	return check_done("test_sweep_journal");
}
