/*
 * The restore journal (sweep_journal.h): appending and fsync'ing entries,
 * reading a journal back (after checking who owns it and its folder), and
 * undoing the entries that need no proof (knob, sweep, procs); the others
 * are sweep_jproof.c's.
 */
#include "sweep/sweep_journal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "store/store_sweep.h"
#include "sweep/sweep_exec_int.h"
#include "sweep/sweep_group_int.h"
#include "sweep/sweep_journal_int.h"
#include "sweep/sweep_int.h"
#include "sys/dev/devres.h"
#include "sys/dev/guardopen.h"
#include "sys/sysknob.h"
#include "util/error.h"
#include "util/xmalloc.h"

char *sweep_journal_path(const char *db)
{
	return xasprintf("%s-sweep-journal", db);
}

static void encode(FILE *f, const char *s)
{
	if (!*s) {
		fputs("%", f); /* an empty argument: a lone '%' */
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p == '%' || *p >= 0x7f)
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
}

static char *decode(const char *s, size_t n)
{
	char *out = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			out[k++] = s[i];
		} else if (i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
			   isxdigit((unsigned char)s[i + 2])) {
			char hex[3] = { s[i + 1], s[i + 2], 0 };
			out[k++] = (char)strtol(hex, NULL, 16);
			i += 2;
		}
	}
	out[k] = '\0';
	return out;
}

static void push(struct sweep_journal *j, char *kind, char *a, char *b)
{
	j->v = xgrow(j->v, &j->alloc, j->n + 1, sizeof(*j->v));
	j->v[j->n++] = (struct sweep_jentry){ .kind = kind, .a = a, .b = b };
}

/* Read the entries of the journal open on fd (from its start). */
static int load(struct sweep_journal *j)
{
	FILE *f = fdopen(dup(j->fd), "r");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	off_t good = 0; /* the end of the last whole line */
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n') {
			/* torn by a crash while it was written: never acted on, and
			 * cut off so the next line starts where it did */
			if (ftruncate(j->fd, good) < 0) {
				free(line);
				fclose(f);
				return -errno;
			}
			break;
		}
		good += len;
		line[--len] = '\0';
		char *w[3] = { 0 };
		size_t nw = 0;
		for (char *save, *t = strtok_r(line, " ", &save); t && nw < 3;
		     t = strtok_r(NULL, " ", &save))
			w[nw++] = t;
		if (!nw)
			continue;
		if (!strcmp(w[0], "made") && nw == 3) {
			char *end;
			unsigned long e = strtoul(w[1], &end, 10);
			if (!*end && e < j->n && !j->v[e].proof)
				j->v[e].proof = decode(w[2], strlen(w[2]));
			push(j, xstrdup("made"), NULL, NULL);
			j->v[j->n - 1].undone = true;
			continue;
		}
		if (!strcmp(w[0], "undo") && nw == 2) {
			unsigned long e = strtoul(w[1], NULL, 10);
			if (e < j->n)
				j->v[e].undone = true;
			push(j, xstrdup("undo"), NULL, NULL);
			j->v[j->n - 1].undone = true;
			continue;
		}
		push(j, xstrdup(w[0]), nw > 1 ? decode(w[1], strlen(w[1])) : NULL,
		     nw > 2 ? decode(w[2], strlen(w[2])) : NULL);
	}
	free(line);
	fclose(f);
	return 0;
}

/* The owner's name for a message: "root (uid 0)". */
static void owner_text(uid_t uid, char *buf, size_t len)
{
	struct passwd pw, *r = NULL;
	char tmp[1024];
	if (getpwuid_r(uid, &pw, tmp, sizeof(tmp), &r) == 0 && r)
		snprintf(buf, len, "%s (uid %u)", r->pw_name, (unsigned)uid);
	else
		snprintf(buf, len, "uid %u", (unsigned)uid);
}

/* The journal or its folder: ours and writable by nobody else, or said. */
static int check_owned(const char *what, const char *path, const struct stat *st)
{
	uid_t me = geteuid();
	if (st->st_uid == me && !(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	char owner[160], mine[160];
	owner_text(st->st_uid, owner, sizeof(owner));
	owner_text(me, mine, sizeof(mine));
	error("refusing the sweep's restore journal: %s '%s' is owned by %s with mode %04o; "
	      "a journal tells root what to undo, so it and its folder must be owned by the "
	      "user running iobench, %s, and writable by nobody else: nothing in it was read "
	      "or done",
	      what, path, owner, (unsigned)(st->st_mode & 07777), mine);
	return -EPERM;
}

int sweep_journal_open(struct sweep_journal *j, const char *path)
{
	memset(j, 0, sizeof(*j));
	j->fd = -1;
	j->path = xstrdup(path);
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	const char *base = path;
	if (slash) {
		base = path + (slash - dir) + 1;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	const char *dname = slash ? dir : ".";
	int dfd = open(dname, O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	int rc;
	if (dfd < 0 || fstat(dfd, &st) < 0) {
		rc = error_errno(errno, "cannot open the folder '%s' of the sweep's restore journal",
				 dname);
		goto out;
	}
	if ((rc = check_owned("its folder", dname, &st)) < 0)
		goto out;
	struct devguard_use u = { .kind = DEVGUARD_OWN, .what = DEVGUARD_WRITE };
	struct devguard_fd g;
	char why[512];
	rc = devguard_openat(dfd, base, O_RDWR | O_APPEND | O_NOFOLLOW, 0, &u, &g, why, sizeof(why));
	if (rc == -ENOENT)
		rc = devguard_openat(dfd, base, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW,
				     0600, &u, &g, why, sizeof(why));
	if (rc < 0) {
		rc = error("cannot open the sweep's restore journal '%s': %s", path, why);
		goto out;
	}
	j->fd = g.fd;
	if (fstat(j->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = error("refusing the sweep's restore journal '%s': it is not a regular file", path);
		goto out_close;
	}
	if ((rc = check_owned("the journal", path, &st)) < 0)
		goto out_close;
	if (flock(j->fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		if (e == EWOULDBLOCK)
			rc = (error("another sweep is running on this database (its restore journal "
				    "'%s' is locked)", path), -EBUSY);
		else
			rc = error_errno(e, "cannot lock the sweep's restore journal '%s'", path);
		goto out_close;
	}
	if (g.created) { /* the new name is durable before anything relies on it */
		int sfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sfd >= 0) {
			fsync(sfd);
			close(sfd);
		}
	}
	if ((rc = load(j)) < 0) {
		rc = error_errno(-rc, "cannot read the sweep's restore journal '%s'", path);
		goto out;
	}
	rc = 0;
	goto out;
out_close:
	close(j->fd);
	j->fd = -1;
out:
	if (dfd >= 0)
		close(dfd);
	free(dir);
	return rc;
}

static int append_line(struct sweep_journal *j, const char *text, size_t len)
{
	if (j->fd < 0)
		return 0; /* a dry run's journal, in memory only */
	if (write(j->fd, text, len) != (ssize_t)len || fdatasync(j->fd) < 0)
		return error_errno(errno ? errno : EIO, "cannot write the sweep's restore journal '%s'",
				   j->path);
	return 0;
}

int sweep_journal_add(struct sweep_journal *j, const char *kind, const char *a, const char *b,
		      size_t *entry)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	fputs(kind, m);
	if (a) {
		fputc(' ', m);
		encode(m, a);
	}
	if (b) {
		fputc(' ', m);
		encode(m, b);
	}
	fputc('\n', m);
	fclose(m);
	int rc = append_line(j, buf, len);
	free(buf);
	if (rc < 0)
		return rc;
	push(j, xstrdup(kind), a ? xstrdup(a) : NULL, b ? xstrdup(b) : NULL);
	if (entry)
		*entry = j->n - 1;
	return 0;
}

/* The sweep a killed process left marked running is marked interrupted. */
static int undo_sweep(const struct sweep_journal *j, const char *id)
{
	const char *journal = j->path;
	size_t n = strlen(journal), sl = strlen("-sweep-journal");
	if (!j->store && (n <= sl || strcmp(journal + n - sl, "-sweep-journal")))
		return 0;
	char *db = j->store ? NULL : xstrndup(journal, n - sl);
	struct store *st = j->store; /* a running sweep's own connection */
	struct store_sweep s;
	int rc = st ? 0 : store_open(db, &st);
	if (rc == 0) {
		int64_t sid = strtoll(id, NULL, 10);
		if (store_sweep_get(st, sid, &s) == 0) {
			if (!strcmp(s.state, STORE_SWEEP_RUNNING))
				rc = store_sweep_set_state(st, sid, STORE_SWEEP_INTERRUPTED, -1);
			store_sweep_release(&s);
		}
		if (st != j->store)
			store_close(st);
	}
	free(db);
	return rc;
}

static bool is_uint(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool is_devino(const char *s)
{
	unsigned ma, mi;
	uint64_t ino;
	int used = 0;
	return s && sscanf(s, "%u:%u:%" SCNu64 "%n", &ma, &mi, &ino, &used) == 3 && !s[used];
}

int sweep_journal_entry_check(const struct sweep_jentry *e, char *why, size_t whylen)
{
	const char *k = e->kind, *a = e->a, *b = e->b;
	struct sweep_group g;
	if (!strcmp(k, "cmd")) {
		snprintf(why, whylen, "a journal never carries a command to run (a teardown is "
			 "looked up in the sweep's stored plan): not run");
		return -EINVAL;
	}
	if (!strcmp(k, "undo") || !strcmp(k, "made"))
		return 0;
	if (!strcmp(k, "sweep")) {
		if (!is_uint(a) || (b && !is_uint(b)))
			goto bad;
		return 0;
	}
	if (!strcmp(k, "image") || !strcmp(k, "mkdir")) {
		if (!a || a[0] != '/' || b)
			goto bad;
		if (e->proof && !is_devino(e->proof)) {
			snprintf(why, whylen, "its proof '%s' is not MAJ:MIN:INODE", e->proof);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(k, "loop")) {
		if (!is_devino(a) || !b || b[0] != '/')
			goto bad;
		return 0;
	}
	if (!strcmp(k, "mount")) {
		if (!a || a[0] != '/' || !b || !*b)
			goto bad;
		return 0;
	}
	if (!strcmp(k, "knob")) /* sys/sysknob.h checks what a knob entry may write */
		return a && *a ? 0 : (snprintf(why, whylen, "a knob entry needs its file"), -EINVAL);
	if (!strcmp(k, "qsnap")) { /* writes only queue/ knobs of the disk it names */
		struct sysknob_snap q;
		if (!a || !b)
			goto bad;
		if (sysknob_snap_parse(a, b, &q, why, whylen) < 0)
			return -EINVAL;
		sysknob_snap_release(&q);
		return 0;
	}
	if (!strcmp(k, "teardown")) {
		unsigned long pt, st;
		int used = 0;
		if (!is_uint(a) || !b || sscanf(b, "%lu:%lu%n", &pt, &st, &used) != 2 || b[used] ||
		    !isdigit((unsigned char)b[0]))
			goto bad;
		return 0;
	}
	if (!strcmp(k, "procs"))
		return sweep_group_parse(a, b, &g, why, whylen) < 0 ? -EINVAL : 0;
	snprintf(why, whylen, "unknown kind of entry '%s'", k);
	return -EINVAL;
bad:
	snprintf(why, whylen, "its arguments are not those of a '%s' entry", k);
	return -EINVAL;
}

/* "entry 3 (image /tmp/x)" for messages. */
static void entry_text(const struct sweep_journal *j, size_t i, char *buf, size_t len)
{
	const struct sweep_jentry *e = &j->v[i];
	snprintf(buf, len, "entry %zu (%s%s%s%s%s)", i, e->kind, e->a ? " " : "", e->a ? e->a : "",
		 e->b ? " " : "", e->b ? e->b : "");
}

static int undo_one(struct sweep_journal *j, size_t i)
{
	char why[1024], what[1024];
	const struct sweep_jentry *e = &j->v[i];
	entry_text(j, i, what, sizeof(what));
	if (sweep_journal_entry_check(e, why, sizeof(why)) < 0)
		return error("restore journal '%s': %s refused: %s", j->path, what, why);
	const char *a = e->a ? e->a : "";
	if (!strcmp(e->kind, "knob")) {
		if (access(a, F_OK) < 0 && errno == ENOENT)
			return 0; /* its device is gone, and its knobs with it */
		return sweep_knobs_undo_knob(j->sysfs, a, e->b ? e->b : "");
	} else if (!strcmp(e->kind, "qsnap")) {
		return sweep_knobs_undo(j->sysfs, a, e->b);
	} else if (!strcmp(e->kind, "procs")) {
		struct sweep_group g;
		sweep_group_parse(e->a, e->b, &g, why, sizeof(why));
		if (sweep_group_end(&g, why, sizeof(why)) < 0)
			return error("restore journal '%s': %s: %s", j->path, what, why);
	} else if (!strcmp(e->kind, "sweep")) {
		return undo_sweep(j, a);
	} else if (strcmp(e->kind, "undo") && strcmp(e->kind, "made")) {
		if (sweep_jproof_undo(j, i, why, sizeof(why)) < 0)
			return error("restore journal '%s': %s: %s", j->path, what, why);
	}
	return 0;
}

static int mark_undone(struct sweep_journal *j, size_t entry)
{
	char line[48];
	int len = snprintf(line, sizeof(line), "undo %zu\n", entry);
	int rc = append_line(j, line, (size_t)len);
	j->v[entry].undone = true;
	push(j, xstrdup("undo"), NULL, NULL); /* entries are numbered by line */
	j->v[j->n - 1].undone = true;
	return rc;
}

int sweep_journal_forget(struct sweep_journal *j, size_t entry)
{
	return entry < j->n && !j->v[entry].undone ? mark_undone(j, entry) : 0;
}

int sweep_journal_prove(struct sweep_journal *j, size_t entry, const char *proof)
{
	if (entry >= j->n)
		return -EINVAL;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -ENOMEM;
	fprintf(m, "made %zu ", entry);
	encode(m, proof);
	fputc('\n', m);
	fclose(m);
	int rc = append_line(j, buf, len);
	free(buf);
	if (rc < 0)
		return rc;
	free(j->v[entry].proof);
	j->v[entry].proof = xstrdup(proof);
	push(j, xstrdup("made"), NULL, NULL);
	j->v[j->n - 1].undone = true;
	return 0;
}

int sweep_journal_rollback(struct sweep_journal *j, size_t mark)
{
	int first = 0;
	/* the processes first: nothing is undone under a running command */
	for (int pass = 0; pass < 2; pass++)
	for (size_t i = j->n; i > mark; i--) {
		struct sweep_jentry *e = &j->v[i - 1];
		if (e->undone || (pass == 0) != !strcmp(e->kind, "procs"))
			continue;
		int rc = undo_one(j, i - 1);
		if (rc < 0 && !first)
			first = rc;
		if (rc < 0)
			continue; /* stays to undo: --restore tries again */
		if (mark_undone(j, i - 1) < 0 && !first)
			first = -EIO;
	}
	return first;
}

static void free_entries(struct sweep_journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->v[i].kind);
		free(j->v[i].a);
		free(j->v[i].b);
		free(j->v[i].proof);
	}
	free(j->v);
	j->v = NULL;
	j->n = j->alloc = 0;
}

int sweep_journal_reset(struct sweep_journal *j)
{
	if (sweep_journal_pending(j))
		return -EBUSY;
	if (j->fd >= 0 && (ftruncate(j->fd, 0) < 0 || fdatasync(j->fd) < 0))
		return error_errno(errno, "cannot empty the sweep's restore journal '%s'", j->path);
	free_entries(j);
	sweep_jsweep_free(j->sw);
	j->sw = NULL;
	return 0;
}

size_t sweep_journal_pending(const struct sweep_journal *j)
{
	size_t n = 0;
	for (size_t i = 0; i < j->n; i++)
		n += !j->v[i].undone;
	return n;
}

void sweep_journal_close(struct sweep_journal *j, bool remove)
{
	if (j->fd >= 0) {
		if (remove && j->path)
			unlink(j->path);
		close(j->fd); /* the lock goes with it */
	}
	free_entries(j);
	sweep_jsweep_free(j->sw);
	free(j->path);
	memset(j, 0, sizeof(*j));
	j->fd = -1;
}

int sweep_journal_restore(const char *path, bool *had)
{
	*had = false;
	struct stat st;
	if (stat(path, &st) < 0 && errno == ENOENT)
		return 0;
	struct sweep_journal j;
	int rc = sweep_journal_open(&j, path);
	if (rc < 0) {
		sweep_journal_close(&j, false);
		return rc;
	}
	*had = sweep_journal_pending(&j) > 0;
	rc = sweep_journal_rollback(&j, 0);
	sweep_journal_close(&j, rc == 0);
	return rc;
}
