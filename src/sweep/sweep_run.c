/*
 * The sweep's course (sweep_run.h): plan, guard, restore, store, targets,
 * the points with progress and ETA, the restore at the end or on a signal.
 */
#include "sweep/sweep_int.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "store/store_sweep.h"
#include "sweep/sweep_operands_int.h"
#include "sys/signals.h"
#include "util/error.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fmt_dur(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

int sweep_restore(const char *db, FILE *out)
{
	char *path = sweep_journal_path(db);
	bool had;
	int rc = sweep_journal_restore(path, &had);
	if (rc == 0)
		fprintf(out, had ? "sweep: restored what the journal '%s' held\n"
				 : "sweep: nothing to restore ('%s' holds nothing)\n", path);
	free(path);
	return rc == 0 ? 0 : 1;
}

/* The plan of a new sweep, or the stored one of --resume with its seed. */
static int load_plan(const struct sweep_opts *o, struct sweep_plan *p, struct store_sweep *s)
{
	memset(s, 0, sizeof(*s));
	if (!o->resume_id)
		return sweep_plan_load(o->plan_path, p);
	if (!o->store)
		return error("--resume needs the results database");
	int rc = store_sweep_get(o->store, o->resume_id, s);
	if (rc == -ENOENT)
		return error("there is no sweep %" PRId64 " in '%s'", o->resume_id, o->db);
	if (rc < 0)
		return rc;
	if ((rc = sweep_plan_parse(s->plan_path, s->plan, strlen(s->plan), p)) < 0)
		return error("sweep %" PRId64 ": its stored plan does not parse any more",
			     o->resume_id);
	p->seed = s->seed;
	p->seed_given = true;
	return 0;
}

static char **point_texts(const struct sweep_plan *p, const struct sweep_points *pts)
{
	char **t = xcalloc(pts->n ? pts->n : 1, sizeof(*t));
	for (size_t i = 0; i < pts->n; i++)
		t[i] = sweep_point_text(p, pts, i);
	return t;
}

static void free_texts(char **t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i]);
	free(t);
}

/* Which points --resume still runs: not done or failed before. */
static int resume_todo(const struct sweep_opts *o, char **texts, size_t n, bool *todo)
{
	struct store_sweep_point *v;
	size_t nv;
	int rc = store_sweep_points(o->store, o->resume_id, &v, &nv);
	if (rc < 0)
		return rc;
	if (nv != n)
		rc = error("sweep %" PRId64 ": its plan now gives %zu points, it stored %zu",
			   o->resume_id, n, nv);
	for (size_t i = 0; !rc && i < n; i++) {
		if (strcmp(v[i].point, texts[i]))
			rc = error("sweep %" PRId64 ": point %zu is now '%s', it stored '%s'",
				   o->resume_id, i + 1, texts[i], v[i].point);
		todo[i] = strcmp(v[i].state, STORE_POINT_DONE) && strcmp(v[i].state, STORE_POINT_FAILED);
	}
	store_sweep_points_free(v, nv);
	return rc;
}

static void ctx_release(struct sweep_ctx *c)
{
	for (size_t i = 0; i < c->ndev; i++)
		free(c->devs[i]);
	free(c->devs);
	for (size_t i = 0; i < c->ndisk; i++)
		free(c->disks[i]);
	free(c->disks);
	free(c->allow_v);
	free(c->mnt);
	free(c->exe);
	sweep_knobs_end(c);
}

static void dry_header(const struct sweep_ctx *c, size_t n)
{
	const struct sweep_plan *p = c->p;
	fprintf(c->out, "sweep plan %s: design %s, %zu point%s, seed %" PRIu64 "%s%s\n", p->path,
		p->design_text, n, n == 1 ? "" : "s", p->seed, p->goal ? ", goal " : "",
		p->goal ? p->goal : "");
	fprintf(c->out, "dry run: nothing is changed; a sweep would run these steps in this "
		"order\n");
}

static int run_points(struct sweep_ctx *c, const bool *todo, size_t *done, size_t *failed)
{
	const struct sweep_points *pts = c->pts;
	size_t total = 0, k = 0;
	for (size_t i = 0; i < pts->n; i++)
		total += todo[i];
	double t0 = mono_s();
	for (size_t i = 0; i < pts->n && !signals_caught(); i++) {
		if (!todo[i])
			continue;
		k++;
		char *text = sweep_point_text(c->p, pts, i);
		char eta[32] = "";
		if (k > 1 && !c->dry) {
			char d[24];
			fmt_dur((mono_s() - t0) / (double)(k - 1) * (double)(total - k + 1), d, sizeof(d));
			snprintf(eta, sizeof(eta), ", ETA %s", d);
		}
		if (c->dry)
			fprintf(c->out, "point %zu/%zu: %s\n", k, total, text);
		else
			fprintf(stderr, "sweep %" PRId64 ": point %zu of %zu: %s%s\n", c->sweep_id, k,
				total, text, eta);
		if (c->o->store && !c->dry)
			store_sweep_point_set(c->o->store, c->sweep_id, i, STORE_POINT_RUNNING, NULL,
					      (int64_t)wall_time_ms(), -1);
		char why[2048] = "";
		double ps = mono_s();
		int rc = sweep_point_run(c, i, why, sizeof(why));
		if (!c->dry) {
			bool stopped = signals_caught() != 0;
			const char *state = rc == 0 ? STORE_POINT_DONE
					    : stopped ? STORE_POINT_PENDING : STORE_POINT_FAILED;
			if (c->o->store)
				store_sweep_point_set(c->o->store, c->sweep_id, i, state,
						      rc == 0 || stopped ? NULL : why, -1, (int64_t)wall_time_ms());
			if (rc == 0) {
				(*done)++;
				char d[24];
				fmt_dur(mono_s() - ps, d, sizeof(d));
				fprintf(stderr, "sweep %" PRId64 ": point %zu done in %s\n", c->sweep_id, k, d);
			} else if (!stopped) {
				(*failed)++;
				fprintf(stderr, "sweep %" PRId64 ": point %zu failed: %s\n", c->sweep_id, k,
					why);
			}
		}
		free(text);
	}
	return signals_caught() ? -EINTR : 0;
}

int sweep_run(const struct sweep_opts *o)
{
	struct sweep_plan p;
	struct store_sweep stored;
	struct sweep_points pts = { 0 };
	struct sweep_ctx c = { .o = o, .p = &p, .pts = &pts, .dry = o->dry_run, .out = o->out,
			       .stop = NULL };
	c.j.fd = -1;
	int status = 1;
	bool journal_open = false, plan_ok = false;
	char **texts = NULL, **names = NULL;
	bool *todo = NULL;
	if (load_plan(o, &p, &stored) < 0)
		goto out;
	plan_ok = true;
	if (!p.seed_given && getrandom(&p.seed, sizeof(p.seed), 0) != sizeof(p.seed))
		p.seed = wall_time_ms() ^ (uint64_t)getpid() << 32;
	p.seed &= INT64_MAX; /* stored as SQLite's signed integer */
	if (sweep_design(&p, p.seed, &pts) < 0)
		goto out;
	/* no operand handed to a program may name a device not offered */
	if (sweep_operands_check(&p, o->allow) < 0)
		goto out;
	texts = point_texts(&p, &pts);
	names = xcalloc(p.nr_factors ? p.nr_factors : 1, sizeof(*names));
	for (size_t f = 0; f < p.nr_factors; f++)
		names[f] = p.factors[f].name;
	todo = xcalloc(pts.n ? pts.n : 1, sizeof(*todo));
	for (size_t i = 0; i < pts.n; i++)
		todo[i] = true;
	if (o->resume_id && p.design == SWD_RACE) {
		error("--resume of a race is not implemented yet");
		goto out;
	}
	if (o->resume_id && resume_todo(o, texts, pts.n, todo) < 0)
		goto out;
	if (!c.dry && geteuid() != 0) {
		error("a sweep formats, mounts and turns kernel knobs: it needs root (--dry-run "
		      "shows what it would do)");
		goto out;
	}
	/* the targets, before anything changes (the machine's state once an
	 * earlier sweep's leftovers are restored, below) */
	if (sweep_target_check(&c, c.dry) < 0)
		goto out;
	char *jpath = sweep_journal_path(o->db);
	if (c.dry) {
		if (access(jpath, F_OK) == 0)
			fprintf(c.out, "a restore journal '%s' is there: the sweep would restore what "
				"it holds first\n", jpath);
		free(jpath);
	} else {
		int rc = sweep_journal_open(&c.j, jpath);
		free(jpath);
		if (rc < 0)
			goto out;
		journal_open = true;
		c.j.store = o->store;
		if (sweep_journal_pending(&c.j)) {
			fprintf(stderr, "sweep: restoring what an interrupted sweep left (its journal "
				"'%s') first\n", c.j.path);
			if (sweep_journal_rollback(&c.j, 0) < 0) {
				error("the restore failed: nothing of the new sweep was done");
				goto out;
			}
		}
		if (sweep_target_check(&c, true) < 0)
			goto out;
		if (sweep_journal_reset(&c.j) < 0) /* a fresh journal for this sweep */
			goto out;
	}
	char exe[PATH_MAX];
	ssize_t el = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	c.exe = xstrdup(el > 0 ? (exe[el] = '\0', exe) : "/proc/self/exe");
	if (c.dry) {
		dry_header(&c, pts.n);
	} else if (o->resume_id) {
		c.sweep_id = o->resume_id;
		store_sweep_set_state(o->store, c.sweep_id, STORE_SWEEP_RUNNING, -1);
	} else {
		/* the plan's absolute path: --resume reads its relative paths from there */
		char *real = realpath(p.path, NULL);
		struct store_sweep s = { .plan_path = real ? real : p.path, .plan = p.text,
					 .design = p.design_text, .goal = p.goal, .seed = p.seed,
					 .start_ms = (int64_t)wall_time_ms() };
		s.nr_factors = p.nr_factors;
		s.factors = xcalloc(p.nr_factors, sizeof(*s.factors));
		for (size_t f = 0; f < p.nr_factors; f++)
			s.factors[f] = p.factors[f].name;
		int rc = store_sweep_new(o->store, &s, (const char *const *)texts, pts.n, &c.sweep_id);
		free(s.factors);
		free(real);
		if (rc < 0)
			goto out;
		fprintf(stderr, "sweep %" PRId64 ": %zu points (design %s, seed %" PRIu64 ")\n",
			c.sweep_id, pts.n, p.design_text, p.seed);
	}
	if (!c.dry) {
		char id[32], pid[24];
		snprintf(id, sizeof(id), "%" PRId64, c.sweep_id);
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if (sweep_journal_add(&c.j, "sweep", id, pid, NULL) < 0)
			goto out;
		/* what a command leaves when it exits becomes ours to end
		 * (sweep_group_int.h) */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	}
	c.stop = signals_install_restore(); /* the journal is restored at a signal */
	size_t done = 0, failed = 0;
	if (c.dry)
		fprintf(c.out, "setup:\n");
	int rc = sweep_target_setup(&c);
	if (rc == 0)
		rc = sweep_knobs_begin(&c);
	if (rc < 0) {
		if (!c.dry && o->store)
			store_sweep_set_state(o->store, c.sweep_id, STORE_SWEEP_FAILED, (int64_t)wall_time_ms());
	} else if (p.design == SWD_RACE && !c.dry) {
		rc = sweep_race_run(&c, &done, &failed) < 0 && signals_caught() ? -EINTR : 0;
	} else {
		if (c.dry && p.design == SWD_RACE)
			fprintf(c.out, "the race runs each point %u to %u times, dropping those clearly "
				"worse on '%s' after each round; a round is:\n", p.race_min, p.race_max,
				p.goal);
		rc = run_points(&c, todo, &done, &failed);
	}
	if (c.dry) {
		fprintf(c.out, "at the end: the loop devices detached, the images and the mount "
			"point removed\n");
		status = rc < 0 ? 1 : 0;
		goto out;
	}
	/* the saved queues first, checked (the journal's entry for them then finds
	 * nothing to write) */
	int kr = sweep_knobs_restore(&c, true);
	int rr = sweep_journal_rollback(&c.j, 0);
	sweep_knobs_end(&c);
	if (rr < 0)
		error("the sweep could not restore everything: run 'iobench sweep --restore'");
	if (signals_caught()) {
		store_sweep_set_state(o->store, c.sweep_id, STORE_SWEEP_INTERRUPTED, (int64_t)wall_time_ms());
		fprintf(stderr, "sweep %" PRId64 ": stopped by signal %d after %zu points; the "
			"machine is restored; continue with --resume %" PRId64 "\n", c.sweep_id,
			signals_caught(), done + failed, c.sweep_id);
		status = 128 + signals_caught();
	} else if (rc >= 0) {
		store_sweep_set_state(o->store, c.sweep_id,
				      failed ? STORE_SWEEP_FAILED : STORE_SWEEP_DONE, (int64_t)wall_time_ms());
		fprintf(stderr, "sweep %" PRId64 ": %zu point%s done, %zu failed\n", c.sweep_id, done,
			done == 1 ? "" : "s", failed);
		status = failed || rr < 0 || kr < 0 ? 1 : 0;
		if (done && p.goal && o->analyse &&
		    o->analyse(o->store, c.sweep_id, p.goal, (const char *const *)names, 0, o->out) < 0)
			status = 1;
	}
	sweep_journal_close(&c.j, rr == 0 && sweep_journal_pending(&c.j) == 0);
	journal_open = false;
out:
	if (journal_open)
		sweep_journal_close(&c.j, sweep_journal_pending(&c.j) == 0);
	else
		sweep_journal_close(&c.j, false);
	if (texts)
		free_texts(texts, pts.n);
	free(todo);
	free(names);
	sweep_points_release(&pts);
	ctx_release(&c);
	if (plan_ok)
		sweep_plan_release(&p);
	store_sweep_release(&stored);
	return status;
}
