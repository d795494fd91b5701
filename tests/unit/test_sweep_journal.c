/*
 * The sweep's restore journal (sweep/sweep_journal.h) on files of its own:
 * entries written before the change survive the process (read back after
 * a close without undoing, as after a SIGKILL), arguments with blanks and
 * '%' come back as written, undoing goes newest first and each undone
 * entry is marked so a second restore does nothing, a forgotten entry is
 * not undone, a torn last line is ignored, a second open of a held journal
 * is refused, and restore removes the journal once everything is undone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "sweep/sweep_journal.h"

static char dir[] = "/tmp/iobench-test-journal.XXXXXX";

static bool exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char jp[256], sub[256], img[256], keep[256], cmdout[256], cmd[600];
	snprintf(jp, sizeof(jp), "%s/r.db-sweep-journal", dir);
	snprintf(sub, sizeof(sub), "%s/a dir%%x", dir);
	snprintf(img, sizeof(img), "%s/a dir%%x/disk.img", dir);
	snprintf(keep, sizeof(keep), "%s/keep.img", dir);
	snprintf(cmdout, sizeof(cmdout), "%s/order", dir);
	char *db = NULL;
	if (asprintf(&db, "%s/r.db", dir) < 0)
		return 1;
	char *p = sweep_journal_path(db);
	CHECK(!strcmp(p, jp), "the journal sits next to the database (%s)", p);
	free(p);
	free(db);

	struct sweep_journal j, j2;
	CHECK(sweep_journal_open(&j, jp) == 0 && j.n == 0, "a new journal is empty");
	size_t e_keep;
	CHECK(sweep_journal_add(&j, "mkdir", sub, NULL, NULL) == 0 && mkdir(sub, 0700) == 0, "mkdir");
	CHECK(sweep_journal_add(&j, "image", img, NULL, NULL) == 0, "image");
	int fd = open(img, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0, "the image made");
	close(fd);
	CHECK(sweep_journal_add(&j, "image", keep, NULL, &e_keep) == 0, "an image that was there");
	fd = open(keep, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	CHECK(sweep_journal_forget(&j, e_keep) == 0, "... forgotten: not ours to remove");
	snprintf(cmd, sizeof(cmd), "echo first >> '%s'", cmdout);
	CHECK(sweep_journal_add(&j, "cmd", cmd, NULL, NULL) == 0, "a teardown command");
	snprintf(cmd, sizeof(cmd), "echo second >> '%s'", cmdout);
	CHECK(sweep_journal_add(&j, "cmd", cmd, NULL, NULL) == 0, "another (undone first)");
	CHECK(sweep_journal_pending(&j) == 4, "4 entries to undo (%zu)", sweep_journal_pending(&j));
	CHECK(sweep_journal_open(&j2, jp) == -EBUSY, "a second sweep on the journal is refused");
	sweep_journal_close(&j2, false);
	sweep_journal_close(&j, false); /* as a SIGKILL leaves it */
	CHECK(exists(jp) && exists(img), "the journal and the image stay after the process");

	/* a line torn by a crash while it was written is never acted on */
	fd = open(jp, O_WRONLY | O_APPEND);
	CHECK(fd >= 0 && write(fd, "image /etc/pass", 15) == 15, "a torn line appended");
	close(fd);
	CHECK(sweep_journal_open(&j, jp) == 0, "reopened");
	CHECK(j.n == 6 && sweep_journal_pending(&j) == 4 && !strcmp(j.v[0].a, sub) &&
	      !strcmp(j.v[1].a, img) && j.v[2].undone, "read back: the entries as written, "
	      "blanks and %% kept, the forgotten one marked (%zu entries)", j.n);
	sweep_journal_close(&j, false);

	bool had;
	CHECK(sweep_journal_restore(jp, &had) == 0 && had, "restore");
	CHECK(!exists(img) && !exists(sub), "the image and its directory are gone");
	CHECK(exists(keep), "the forgotten image is not touched");
	FILE *f = fopen(cmdout, "r");
	char a[32] = "", b[32] = "";
	CHECK(f && fscanf(f, "%31s %31s", a, b) == 2 && !strcmp(a, "second") && !strcmp(b, "first"),
	      "the teardown commands ran newest first (%s, %s)", a, b);
	if (f)
		fclose(f);
	CHECK(!exists(jp), "the journal is removed once everything is undone");
	CHECK(sweep_journal_restore(jp, &had) == 0 && !had, "a second restore has nothing to do");

	/* undone entries are recorded: a journal rolled back half-way keeps the rest */
	CHECK(sweep_journal_open(&j, jp) == 0, "a new journal");
	CHECK(sweep_journal_add(&j, "mkdir", sub, NULL, NULL) == 0 && mkdir(sub, 0700) == 0, "mkdir");
	size_t mark = j.n;
	snprintf(cmd, sizeof(cmd), "echo point >> '%s'", cmdout);
	CHECK(sweep_journal_add(&j, "cmd", cmd, NULL, NULL) == 0, "a point's teardown");
	CHECK(sweep_journal_rollback(&j, mark) == 0 && sweep_journal_pending(&j) == 1, "the point undone");
	sweep_journal_close(&j, false);
	CHECK(sweep_journal_open(&j, jp) == 0 && sweep_journal_pending(&j) == 1 && !j.v[0].undone && j.v[1].undone,
	      "read back: only the mkdir is left to undo");
	sweep_journal_close(&j, false);
	CHECK(sweep_journal_restore(jp, &had) == 0 && !exists(sub), "restored");
	f = fopen(cmdout, "r");
	int lines = 0;
	for (int c; f && (c = fgetc(f)) != EOF;)
		lines += c == '\n';
	if (f)
		fclose(f);
	CHECK(lines == 3, "the point's teardown ran once, not again on restore (%d lines)", lines);
	unlink(cmdout);
	unlink(keep);
	rmdir(dir);
	return check_done("test_sweep_journal");
}
