/*
 * The job's replay of read_iolog=: setup reads the log (replay_src.c,
 * blktrace.c) and makes the files it names the job's own, planned as
 * files.c plans its files (the device guard on each file the log writes
 * or trims, a block device's size against the log's largest offset, a
 * missing file created empty when the log writes it, as fio's open does,
 * refused when the log only reads it); the run then takes the entries one
 * by one (replay_next_io). Timing is fio's: each entry waits its delay
 * after the previous issue, less the time that has gone by since, and a
 * sleep that overshoots is taken off the next delay; a version 2 "wait N"
 * waits until N ms after the job's start, as fio 3.33's code does. A log's
 * close closes the file (draining the queue first) and its open opens it
 * again through the guarded open; syncs are issued and counted in the
 * job's sync figures. fio replays a log once: loops and time_based do not
 * repeat it.
 */
#include "workload/job/job.h"
#include "workload/replay/replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/devguard.h"
#include "sys/dev/devres.h"
#include "util/error.h"
#include "util/strutil.h"
#include "util/xmalloc.h"
#include "workload/files/files.h"
#include "workload/io/io.h"
#include "workload/logs/iolog.h"
#include "workload/replay/replay_int.h"

struct replay {
	struct replay_files files;
	struct replay_entry *ents;  /* all of them, unless chunked */
	size_t n, next;
	struct replay_src src;      /* chunked: the log read again as the replay goes */
	bool chunked, src_open;
	char *path;                 /* the log of this clone */
	uint64_t max_len;
	uint64_t last_issue_ns;     /* fio's last_issue */
	uint64_t time_offset_ns;    /* what the last sleep overshot */
};

/* The clone's log: the jobnum-th of read_iolog's names (round robin), or
 * the merged blktrace. */
static char *log_path(const struct job_spec *s)
{
	if (s->merge_blktrace_file)
		return xstrdup(s->merge_blktrace_file);
	char **names;
	size_t n = str_split_escaped(s->read_iolog, ':', &names);
	char *p = xstrdup(n ? names[s->jobnum % n] : s->read_iolog);
	str_list_free(names);
	return p;
}

static int plan_file(struct job *j, struct replay *r, unsigned i)
{
	const struct job_spec *s = j->spec;
	struct job_file *f = &j->files[i];
	struct job_file_plan *p = &j->plans[i];
	unsigned what = r->files.what[i];
	uint64_t end = r->files.end[i];
	char why[2560];
	struct stat st, lst;
	if (j->eng.ops->flags & ENGINE_NO_FILE) {
		/* the null engine touches no file: nothing to find or guard */
		f->io_size = end ? end : 1;
		return 0;
	}
	p->what = what;
	if (what && devguard_check(f->path, what, &j->guard, why, sizeof(why)) < 0)
		return error("job '%s': refusing to %s '%s' (named by the iolog '%s'): %s", s->name,
			     devguard_verb(what), f->path, r->path, why);
	if (lstat(f->path, &lst) == 0 && S_ISLNK(lst.st_mode))
		p->seen.symlink = true;
	if (stat(f->path, &st) < 0) {
		if (!(what & DEVGUARD_WRITE))
			return error("job '%s': '%s', which the iolog '%s' reads, does not exist",
				     s->name, f->path, r->path);
		if (!s->allow_file_create)
			return error("job '%s': '%s' does not exist and allow_file_create=0", s->name,
				     f->path);
		int rc = devguard_may_create(AT_FDCWD, f->path, why, sizeof(why));
		if (rc < 0)
			return why[0] ? error("job '%s': %s", s->name, why)
				      : error_errno(rc, "job '%s': cannot create '%s'", s->name, f->path);
		/* created empty before the run; the log's writes extend it */
		p->layout = true;
		p->layout_from = p->layout_end = p->layout_need = 0;
	} else if (S_ISBLK(st.st_mode)) {
		f->is_bdev = true;
		p->seen.type = S_IFBLK;
		p->seen.rdev = st.st_rdev;
		int fd = open(f->path, O_RDONLY | O_CLOEXEC);
		int rc = fd < 0 ? -errno : devres_bdev_size(fd, &f->real_size);
		if (fd >= 0)
			close(fd);
		if (rc < 0)
			return error_errno(rc, "job '%s': cannot read the size of '%s'", s->name, f->path);
		if (end > f->real_size)
			return error("job '%s': the iolog '%s' does I/O up to byte %llu of '%s', which "
				     "has %llu (replay_scale= and replay_redirect= fit a log to a "
				     "smaller device)", s->name, r->path, (unsigned long long)end,
				     f->path, (unsigned long long)f->real_size);
	} else if (S_ISDIR(st.st_mode)) {
		return error("job '%s': '%s', named by the iolog '%s', is a directory", s->name,
			     f->path, r->path);
	} else {
		f->real_size = (uint64_t)st.st_size;
		p->seen.type = st.st_mode & S_IFMT;
		p->seen.rdev = S_ISCHR(st.st_mode) ? st.st_rdev : 0;
	}
	f->io_offset = 0;
	f->io_size = end > f->real_size ? end : f->real_size;
	if (!f->io_size)
		f->io_size = r->max_len ? r->max_len : 1;
	int flags = (what ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	if (s->direct)
		flags |= O_DIRECT;
	if (s->sync_io)
		flags |= O_SYNC;
	bool nofollow = what && (!p->seen.type || p->seen.type == S_IFREG) && !p->seen.symlink;
	f->open_flags = flags | (nofollow ? O_NOFOLLOW : 0);
	return 0;
}

/* As fio: a blktrace replay without iodepth= keeps the trace's depth in
 * flight. The job's spec becomes its own copy (its strings still the
 * job list's), with the depth and what follows from it. */
static void use_trace_depth(struct job *j, unsigned depth)
{
	if (!j->own_spec) {
		j->own_spec = xmalloc(sizeof(*j->own_spec));
		*j->own_spec = *j->spec;
		j->spec = j->own_spec;
	}
	struct job_spec *c = j->own_spec;
	if (c->iodepth_low == c->iodepth)
		c->iodepth_low = depth;
	if (c->iodepth_batch == c->iodepth)
		c->iodepth_batch = depth;
	c->iodepth = depth;
	j->eng.params.iodepth = depth;
}

int replay_plan(struct job *j, const struct devguard_allow *guard)
{
	const struct job_spec *s = j->spec;
	(void)guard;
	if (s->verify != VERIFY_NONE)
		return error("job '%s': verify= with read_iolog= is not implemented yet (the replay "
			     "decides what is written, the verifier does not know it)", s->name);
	if (s->merge_blktrace_file) {
		int rc = blktrace_merge(s, &j->guard);
		if (rc < 0)
			return rc;
	}
	struct replay *r = xcalloc(1, sizeof(*r));
	j->replay = r;
	r->path = log_path(s);
	r->chunked = s->read_iolog_chunked;
	if (r->chunked && !strcmp(r->path, "-"))
		return error("job '%s': read_iolog_chunked needs a log iobench can read twice, not "
			     "standard input: the device guard checks every file it names before "
			     "the run starts", s->name);
	struct replay_src src;
	int rc = replay_src_open(&src, r->path, s, j->guard.readonly_by != NULL);
	if (rc < 0)
		return rc;
	struct replay_entry e;
	uint64_t ios = 0;
	size_t cap = 0;
	while ((rc = replay_src_next(&src, &r->files, &e)) > 0) {
		if (e.kind == RP_IO && e.ddir < DDIR_RWDIR_CNT) {
			ios++;
			if (e.len > r->max_len)
				r->max_len = e.len;
		} else if (e.kind == RP_WAIT) {
			ios++;
		}
		if (r->chunked)
			continue;
		if (r->n == cap) {
			cap = cap ? cap * 2 : 1024;
			r->ents = xrealloc(r->ents, cap * sizeof(*r->ents));
		}
		r->ents[r->n++] = e;
	}
	uint64_t skipped = src.skipped_ro;
	unsigned depth = src.version == REPLAY_BLKTRACE ? blktrace_depth(&src) : 0;
	replay_src_close(&src);
	if (rc < 0)
		return rc;
	if (skipped)
		warning("job '%s': %llu writes and trims of the iolog '%s' are not replayed: "
			"read-only mode (%s)", s->name, (unsigned long long)skipped, r->path,
			j->guard.readonly_by);
	if (!ios || !r->files.n)
		return error("job '%s': the iolog '%s' has no I/O to replay%s", s->name, r->path,
			     s->replay_skip ? " (after replay_skip)" : "");
	j->nr_files = r->files.n;
	j->files = xcalloc(j->nr_files, sizeof(*j->files));
	j->plans = xcalloc(j->nr_files, sizeof(*j->plans));
	for (unsigned i = 0; i < j->nr_files; i++) {
		j->files[i].path = xstrdup(r->files.names[i]);
		j->files[i].fd = -1;
	}
	for (unsigned i = 0; i < j->nr_files; i++)
		if ((rc = plan_file(j, r, i)) < 0)
			return rc;
	j->bytes_total = 0; /* the log ends the job, not a byte count */
	if (depth && !s->iodepth_set)
		use_trace_depth(j, depth);
	return 0;
}

uint64_t replay_max_len(const struct job *j)
{
	return j->replay ? j->replay->max_len : 0;
}

void replay_free(struct job *j)
{
	struct replay *r = j->replay;
	if (!r)
		return;
	if (r->src_open)
		replay_src_close(&r->src);
	replay_files_free(&r->files);
	free(r->ents);
	free(r->path);
	free(r);
	j->replay = NULL;
}

static int fetch(struct job *j, struct replay *r, struct replay_entry *e)
{
	if (!r->chunked) {
		if (r->next >= r->n)
			return 0;
		*e = r->ents[r->next++];
		return 1;
	}
	if (!r->src_open) {
		int rc = replay_src_open(&r->src, r->path, j->spec, j->guard.readonly_by != NULL);
		if (rc < 0)
			return rc;
		r->src_open = true;
	}
	unsigned before = r->files.n;
	int rc = replay_src_next(&r->src, &r->files, e);
	if (rc > 0 && e->kind == RP_IO && e->len > r->max_len)
		return error("job '%s': the iolog '%s' changed since the job was set up: an I/O of "
			     "%llu bytes, more than its largest then", j->spec->name, r->path,
			     (unsigned long long)e->len);
	if (rc > 0 && r->files.n != before)
		return error("job '%s': the iolog '%s' changed since the job was set up: it names "
			     "'%s' now", j->spec->name, r->path, r->files.names[before]);
	return rc;
}

/* fio's iolog delay: delay_us after the previous issue, less what went by
 * since and what the last sleep overshot. */
static void replay_delay(struct job *j, struct replay *r, uint64_t delay_us)
{
	uint64_t delay = delay_us * 1000, orig = delay;
	uint64_t now = job_now(j);
	uint64_t since = now - r->last_issue_ns;
	if (delay < r->time_offset_ns) {
		r->time_offset_ns = 0;
		return;
	}
	delay -= r->time_offset_ns;
	if (delay < since)
		return;
	delay -= since;
	job_wait_until(j, now_ns() + delay);
	uint64_t slept = job_now(j) - now;
	r->time_offset_ns = slept > orig ? slept - orig : 0;
}

/* Wait for the I/O in flight (async engines), as async_drain does, while
 * the run loop holds the unit this call fills. */
static int replay_drain(struct job *j)
{
	if (j->eng.ops->flags & ENGINE_SYNC)
		return 0;
	return async_drain_holding(j, 1);
}

static int replay_sync(struct job *j, const struct replay_entry *e)
{
	struct job_file *f = &j->files[e->file];
	int drc = replay_drain(j);
	if (drc < 0)
		return drc;
	if (f->fd < 0) {
		int rc = job_file_open_one(j, e->file);
		if (rc < 0)
			return rc;
	}
	struct io_unit u = { .ddir = (enum ddir)e->ddir, .file = f, .offset = e->offset };
	u.start_ns = u.issue_ns = job_now(j);
	if (j->iolog_f)
		iolog_write_io(j, &u);
	engine_do_sync(&u);
	uint64_t now = job_now(j);
	if (u.result < 0)
		return job_io_error(j, &u, (int)u.result);
	job_account_sync(j, &u, now);
	return 0;
}

int replay_next_io(struct job *j, struct io_unit *u)
{
	struct replay *r = j->replay;
	struct replay_entry e;
	int rc;
	if (!r->last_issue_ns)
		r->last_issue_ns = job_now(j);
	while ((rc = fetch(j, r, &e)) > 0) {
		if (job_stopping(j))
			return 0;
		if (e.kind == RP_WAIT) {
			uint64_t until = j->start_ns + e.delay_us * 1000000ULL;
			if (job_now(j) < until)
				job_wait_until(j, now_ns() + (until - job_now(j)));
			continue;
		}
		if (e.delay_us)
			replay_delay(j, r, e.delay_us);
		if (job_stopping(j))
			return 0;
		struct job_file *f = &j->files[e.file];
		switch (e.kind) {
		case RP_ADD:
			break;
		case RP_OPEN:
			if (f->fd < 0 && !(j->eng.ops->flags & ENGINE_NO_FILE) &&
			    (rc = job_file_open_one(j, e.file)) < 0)
				goto failed;
			break;
		case RP_CLOSE:
			if ((rc = replay_drain(j)) < 0)
				return rc;
			if (f->fd >= 0)
				job_file_close_one(j, e.file);
			break;
		default:
			if (e.ddir >= DDIR_RWDIR_CNT) {
				if ((rc = replay_sync(j, &e)) < 0)
					return rc;
				break;
			}
			if (f->fd < 0 && !(j->eng.ops->flags & ENGINE_NO_FILE) &&
			    (rc = job_file_open_one(j, e.file)) < 0)
				goto failed;
			u->ddir = (enum ddir)e.ddir;
			u->file = f;
			u->offset = e.offset;
			u->buflen = e.len;
			r->last_issue_ns = job_now(j);
			return 1;
		}
		r->last_issue_ns = job_now(j);
	}
	if (rc < 0)
		goto failed;
	return 0;
failed:
	if (rc == -1)
		rc = -EINVAL; /* an error() about the log */
	if (!j->res.error) {
		j->res.error = -rc;
		j->res.error_msg = xasprintf("replaying the iolog '%s' failed: %s", r->path,
					     strerror(-rc));
	}
	return rc;
}
