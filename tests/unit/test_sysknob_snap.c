/*
 * Queue snapshots and the knob lock (sys/sysknob_snap.h, sys/sysknob_lock.h,
 * the journal's qsnap entry) on a fake sysfs tree. A model of the kernel's
 * side effects stands in for the writer (as measured on loop devices: a
 * scheduler switch resets nr_requests and the iosched/ knobs, nr_requests
 * resets iosched/async_depth, max_sectors_kb and rotational reset
 * read_ahead_kb): after the scheduler, max_sectors_kb and rotational are
 * changed, the restore writes only what differs, in the order scheduler,
 * nr_requests, iosched/, max_sectors_kb, the rest, read_ahead_kb, and every
 * value reads as saved; a second restore writes nothing; a value the model
 * does not keep and a write it refuses are named with why; a disk whose
 * name now has another number is not written; a read-only file is left
 * out and listed. The lock: the holder's pid inside, a child of the holder
 * passes, another holder is refused with its pid, a dead holder's file
 * blocks nothing, a folder others can write is refused. The journal's
 * qsnap entry puts the queue back after a "crash", and it and a knob entry
 * of the queue stay pending while another process holds the device's lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "sweep/sweep_int.h"
#include "sys/sysknob.h"
#include "sys/sysknob_lock.h"
#include "sys/sysknob_snap.h"
#include "util/array.h"
#include "util/error.h"

static char dir[] = "/tmp/iobench-test-knobsnap.XXXXXX";
static char sysfs[256];

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/block/loop7/%s", sysfs, rel);
	FILE *f = fopen(p, "w");
	if (f) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

static char *get(const char *rel, char *buf, size_t len)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/block/loop7/%s", sysfs, rel);
	buf[0] = '\0';
	FILE *f = fopen(p, "r");
	if (f) {
		if (!fgets(buf, (int)len, f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void fake_tree(void)
{
	char p[PATH_MAX];
	snprintf(sysfs, sizeof(sysfs), "%s/sys", dir);
	const char *dirs[] = { "", "/block", "/block/loop7", "/block/loop7/queue",
			       "/block/loop7/queue/iosched" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(p, sizeof(p), "%s%s", sysfs, dirs[i]);
		mkdir(p, 0755);
	}
	put("dev", "7:7");
	put("queue/scheduler", "mq-deadline");
	put("queue/nr_requests", "64");
	put("queue/iosched/async_depth", "64");
	put("queue/iosched/fifo_batch", "5");
	put("queue/iosched/read_expire", "300");
	put("queue/max_sectors_kb", "512");
	put("queue/rotational", "1");
	put("queue/read_ahead_kb", "300");
	put("queue/max_hw_sectors_kb", "1280");
	snprintf(p, sizeof(p), "%s/block/loop7/queue/max_hw_sectors_kb", sysfs);
	chmod(p, 0444);
}

/* The model kernel: the write, its side effects, and a log of the names. */
struct model {
	char log[1024];
	const char *ignore; /* a knob whose writes do not stick */
	const char *refuse; /* a knob whose writes fail with EINVAL */
};

static int model_write(void *arg, const char *root, const char *file, const char *val, char *why,
		       size_t whylen)
{
	struct model *m = arg;
	const char *q = strstr(file, "/queue/");
	const char *name = q ? q + 7 : file;
	size_t l = strlen(m->log);
	snprintf(m->log + l, sizeof(m->log) - l, "%s%s", l ? " " : "", name);
	if (m->refuse && !strcmp(name, m->refuse)) {
		snprintf(why, whylen, "cannot write '%s' to '%s': %s", val, file, strerror(EINVAL));
		return -EINVAL;
	}
	if (m->ignore && !strcmp(name, m->ignore))
		return 0;
	int rc = sysknob_write_in(root, file, val, why, whylen);
	if (rc < 0)
		return rc;
	if (!strcmp(name, "scheduler")) {
		put("queue/nr_requests", !strcmp(val, "none") ? "128" : "256");
		put("queue/iosched/async_depth", "256");
		put("queue/iosched/fifo_batch", "16");
		put("queue/iosched/read_expire", "500");
	} else if (!strcmp(name, "nr_requests")) {
		put("queue/iosched/async_depth", val);
	} else if (!strcmp(name, "max_sectors_kb") || !strcmp(name, "rotational")) {
		put("queue/read_ahead_kb", "2560");
	}
	return 0;
}

static void change(struct model *m, const char *name, const char *val)
{
	char file[PATH_MAX], why[512];
	snprintf(file, sizeof(file), "%s/block/loop7/queue/%s", sysfs, name);
	CHECK(model_write(m, sysfs, file, val, why, sizeof(why)) == 0, "change %s: %s", name, why);
}

static bool same_as_start(void)
{
	char b[8][64];
	return !strcmp(get("queue/scheduler", b[0], 64), "mq-deadline") &&
	       !strcmp(get("queue/nr_requests", b[1], 64), "64") &&
	       !strcmp(get("queue/iosched/async_depth", b[2], 64), "64") &&
	       !strcmp(get("queue/iosched/fifo_batch", b[3], 64), "5") &&
	       !strcmp(get("queue/iosched/read_expire", b[4], 64), "300") &&
	       !strcmp(get("queue/max_sectors_kb", b[5], 64), "512") &&
	       !strcmp(get("queue/rotational", b[6], 64), "1") &&
	       !strcmp(get("queue/read_ahead_kb", b[7], 64), "300");
}

static void test_take(struct sysknob_snap *s)
{
	char why[512];
	CHECK(sysknob_snap_take(sysfs, "loop7", s, why, sizeof(why)) == 0, "take: %s", why);
	const char *want[] = { "scheduler", "nr_requests", "iosched/async_depth",
			       "iosched/fifo_batch", "iosched/read_expire", "max_sectors_kb",
			       "rotational", "read_ahead_kb" };
	CHECK(s->n == 8, "8 writable knobs, got %zu", s->n);
	for (size_t i = 0; i < 8 && i < s->n; i++)
		CHECK(!strcmp(s->v[i].name, want[i]), "knob %zu in restore order is %s, got %s", i,
		      want[i], s->v[i].name);
	CHECK(s->major == 7 && s->minor == 7, "its device number 7:7");
	CHECK(s->excluded && strstr(s->excluded, "max_hw_sectors_kb (read-only)"),
	      "the read-only file left out and listed: %s", s->excluded ? s->excluded : "(none)");
	CHECK(sysknob_snap_take(sysfs, "../x", s + 1, why, sizeof(why)) == -EINVAL,
	      "a disk name with a slash is refused");
	char *id = sysknob_snap_id(s), *text = sysknob_snap_text(s);
	struct sysknob_snap back;
	CHECK(!strcmp(id, "loop7@7:7"), "its id: %s", id);
	CHECK(strstr(text, "scheduler=mq-deadline\n") && strstr(text, "iosched/fifo_batch=5\n"),
	      "its text: %s", text);
	CHECK(sysknob_snap_parse(id, text, &back, why, sizeof(why)) == 0 && back.n == s->n &&
	      !strcmp(back.v[2].name, "iosched/async_depth") && !strcmp(back.v[7].val, "300"),
	      "parsed back the same: %s", why);
	sysknob_snap_release(&back);
	CHECK(sysknob_snap_parse(id, "../../x=1\n", &back, why, sizeof(why)) == -EINVAL,
	      "a name outside queue/ is refused");
	CHECK(sysknob_snap_parse("loop7", text, &back, why, sizeof(why)) == -EINVAL,
	      "an id without @MAJ:MIN is refused");
	free(id);
	free(text);
}

static void test_restore(const struct sysknob_snap *s)
{
	struct model m = { 0 };
	char *report;
	change(&m, "scheduler", "none");
	change(&m, "max_sectors_kb", "1280");
	change(&m, "rotational", "0");
	char b[64];
	CHECK(!strcmp(get("queue/read_ahead_kb", b, sizeof(b)), "2560") &&
	      !strcmp(get("queue/iosched/fifo_batch", b, sizeof(b)), "16"),
	      "the model reset read_ahead_kb and fifo_batch");
	m.log[0] = '\0';
	int rc = sysknob_snap_restore_by(sysfs, s, model_write, &m, &report);
	CHECK(rc == 0 && !report, "restored: %d %s", rc, report ? report : "");
	CHECK(same_as_start(), "every value as saved, the reset ones too");
	CHECK(!strcmp(m.log, "scheduler nr_requests iosched/fifo_batch iosched/read_expire "
		      "max_sectors_kb rotational read_ahead_kb"),
	      "written once each, only what differed, in order: %s", m.log);
	free(report);
	m.log[0] = '\0';
	CHECK(sysknob_snap_restore_by(sysfs, s, model_write, &m, &report) == 0 && !m.log[0],
	      "a second restore writes nothing: '%s'", m.log);
	free(report);

	/* what does not stick is named, with why */
	change(&m, "rotational", "0");
	change(&m, "nr_requests", "32");
	m.ignore = "rotational";
	m.refuse = "nr_requests";
	rc = sysknob_snap_restore_by(sysfs, s, model_write, &m, &report);
	CHECK(rc == -EIO && report && strstr(report, "rotational reads '0', it was '1'") &&
	      strstr(report, "recomputed"), "a value not kept is said: %s", report ? report : "");
	CHECK(report && strstr(report, "nr_requests reads '32', it was '64'") &&
	      strstr(report, "Invalid argument"), "a refused write is said: %s",
	      report ? report : "");
	CHECK(!strcmp(get("queue/read_ahead_kb", b, sizeof(b)), "300"),
	      "the rest still went back: read_ahead_kb %s", b);
	free(report);
	m.ignore = m.refuse = NULL;
	CHECK(sysknob_snap_restore_by(sysfs, s, model_write, &m, &report) == 0 && same_as_start(),
	      "then put back");
	free(report);

	/* another device under the name: nothing written */
	put("dev", "7:8");
	change(&m, "read_ahead_kb", "4096");
	m.log[0] = '\0';
	rc = sysknob_snap_restore_by(sysfs, s, model_write, &m, &report);
	CHECK(rc == -ESTALE && !m.log[0] && report && strstr(report, "now device 7:8"),
	      "a disk that is another device now is not written: %s", report ? report : "");
	free(report);
	put("dev", "7:7");
	CHECK(sysknob_snap_restore(sysfs, s, &report) == 0 && same_as_start(),
	      "through sysknob_write_in: %s", report ? report : "");
	free(report);
}

static pid_t holder(int *go)
{
	int up[2], down[2];
	if (pipe(up) < 0 || pipe(down) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		struct sysknob_lock l;
		char why[512], c = 'x';
		close(up[0]);
		close(down[1]);
		if (sysknob_lock_disk(sysfs, "loop7", &l, why, sizeof(why)) < 0 || l.fd < 0)
			c = 'n';
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(up[1]);
	close(down[0]);
	char c = 0;
	if (read(up[0], &c, 1) != 1 || c != 'x')
		pid = -1;
	close(up[0]);
	*go = down[1];
	return pid;
}

static void test_lock(void)
{
	struct sysknob_lock l, l2;
	char why[1024], lockdir[PATH_MAX], lockfile[PATH_MAX + 32], text[64] = "";
	sysknob_lock_dir(sysfs, lockdir, sizeof(lockdir));
	snprintf(lockfile, sizeof(lockfile), "%s/knobs-7:7.lock", lockdir);
	CHECK(sysknob_lock_disk(sysfs, "loop7", &l, why, sizeof(why)) == 0 && l.fd >= 0,
	      "taken: %s", why);
	FILE *f = fopen(lockfile, "r");
	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	CHECK(atoi(text) == getpid(), "the holder's pid inside: '%s'", text);
	CHECK(sysknob_lock_disk(sysfs, "loop7", &l2, why, sizeof(why)) == 0 && l2.fd < 0,
	      "held by this process: passes, not taken again");
	pid_t kid = fork();
	if (kid == 0)
		_exit(sysknob_lock_disk(sysfs, "loop7", &l2, why, sizeof(why)) == 0 && l2.fd < 0 ? 0 : 1);
	int st = 0;
	waitpid(kid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a child of the holder passes");
	sysknob_lock_release(&l);

	int go = -1;
	pid_t other = holder(&go);
	CHECK(other > 0, "another process holds it");
	char pidtext[32];
	snprintf(pidtext, sizeof(pidtext), "pid %d", (int)other);
	CHECK(sysknob_lock_disk(sysfs, "loop7", &l, why, sizeof(why)) == -EBUSY &&
	      strstr(why, pidtext) && strstr(why, "loop7 (7:7)"),
	      "another holder: refused naming the device and its pid: %s", why);
	/* the journal's qsnap entry waits for the device too */
	struct sysknob_snap s;
	CHECK(sysknob_snap_take(sysfs, "loop7", &s, why, sizeof(why)) == 0, "take");
	char *id = sysknob_snap_id(&s), *stext = sysknob_snap_text(&s);
	char jp[PATH_MAX];
	snprintf(jp, sizeof(jp), "%s/r.db-sweep-journal", dir);
	struct sweep_journal j;
	char kf[PATH_MAX];
	snprintf(kf, sizeof(kf), "%s/block/loop7/queue/read_ahead_kb", sysfs);
	CHECK(sweep_journal_open(&j, jp) == 0 && sweep_journal_add(&j, "qsnap", id, stext, NULL) == 0 &&
	      sweep_journal_add(&j, "knob", kf, "300", NULL) == 0, "journaled");
	sweep_journal_close(&j, false); /* as a SIGKILL leaves it */
	put("queue/scheduler", "none");
	put("queue/iosched/fifo_batch", "16");
	put("queue/read_ahead_kb", "2560");
	CHECK(sweep_journal_open(&j, jp) == 0, "reopened");
	j.sysfs = sysfs;
	struct error_capture cap = { 0 };
	error_capture_begin(&cap);
	int rc = sweep_journal_rollback(&j, 0);
	error_capture_end();
	bool said = false;
	for (size_t i = 0; i < cap.nr; i++)
		said |= strstr(cap.msgs[i], pidtext) != NULL;
	CHECK(rc < 0 && sweep_journal_pending(&j) == 2 && said,
	      "the restore (the queue and the knob entry) waits while another process holds the "
	      "device, saying who");
	error_capture_release(&cap);
	char c = 'q';
	if (write(go, &c, 1) != 1)
		c = 0;
	close(go);
	waitpid(other, &st, 0);
	CHECK(sweep_journal_rollback(&j, 0) == 0 && sweep_journal_pending(&j) == 0 &&
	      same_as_start(), "once it is gone the journal puts the queue back");
	sweep_journal_close(&j, true);
	free(id);
	free(stext);
	sysknob_snap_release(&s);

	CHECK(sysknob_lock_disk(sysfs, "loop7", &l, why, sizeof(why)) == 0 && l.fd >= 0,
	      "a dead holder's lock file blocks nothing: %s", why);
	f = fopen(lockfile, "r");
	text[0] = '\0';
	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	CHECK(atoi(text) == getpid(), "its pid rewritten: '%s'", text);
	sysknob_lock_release(&l);
	chmod(lockdir, 0777);
	CHECK(sysknob_lock_disk(sysfs, "loop7", &l, why, sizeof(why)) == -EPERM &&
	      strstr(why, "mode 0777"), "a lock folder others can write is refused: %s", why);
	chmod(lockdir, 0755);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	fake_tree();
	struct sysknob_snap s[2];
	memset(s, 0, sizeof(s));
	test_take(s);
	test_restore(&s[0]);
	sysknob_snap_release(&s[0]);
	test_lock();
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return check_done("test_sysknob_snap");
}
