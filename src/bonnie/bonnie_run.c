/*
 * bonnie_run: one test of the bonnie++ suite. Checks the spec and the
 * scratch directory (-d must be a directory; --readonly refuses, since
 * every test writes), picks the seed (-z, the first four bytes of -Z's file
 * in network byte order, or a random one, reported as bonnie++ does), starts
 * one thread per copy (bonnie_copy.c) and waits for them, then adds the
 * copies up: a phase's aggregate work and rate are the sums of the copies',
 * its time and CPU those of the longest copy (all copies start each phase
 * together, so the longest one's window holds the others), its latency
 * histogram the merge. Whatever happens, each copy's working directory is
 * removed before returning.
 */
#include "bonnie/bonnie.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dev/devres.h"
#include "sys/dev/guardopen.h"
#include "util/timeutil.h"
#include "util/xmalloc.h"
#include "bonnie/bonnie_int.h"

static int set_error(struct bonnie_result *res, int err, char *msg)
{
	if (!res->error) {
		res->error = -err;
		res->error_msg = msg;
	} else {
		free(msg);
	}
	return err;
}

static int check_dir(const struct bonnie_spec *s, struct bonnie_result *res)
{
	struct stat st;
	if (s->guard.readonly_by)
		return set_error(res, -EROFS,
				 xasprintf("%s: refusing to write: read-only mode (set by %s)", s->dir,
					   s->guard.readonly_by));
	if (stat(s->dir, &st) < 0) {
		int err = -errno;
		return set_error(res, err, xasprintf("%s: cannot use as the scratch directory: %s",
						     s->dir, strerror(-err)));
	}
	if (S_ISDIR(st.st_mode)) {
		/* the copies make their working directories and files in it:
		 * never in /dev's own filesystem (devguard_may_create) */
		char *probe = xasprintf("%s/Bonnie", s->dir), why[512];
		int rc = devguard_may_create(AT_FDCWD, probe, why, sizeof(why));
		free(probe);
		if (rc == -ENOENT && why[0])
			return set_error(res, -EPERM,
					 xasprintf("%s: is /dev's own filesystem, where iobench creates no "
						   "files; give a directory on a mounted filesystem",
						   s->dir));
		return 0;
	}
	/* Not a directory: bonnie++ needs one. Say what the guard knows about a
	 * device, so the user sees what is on it. */
	char why[512] = "";
	if (S_ISBLK(st.st_mode) &&
	    devguard_check(s->dir, DEVGUARD_WRITE, &s->guard, why, sizeof(why)) == 0)
		why[0] = 0;
	return set_error(res, -ENOTDIR,
			 xasprintf("%s: not a directory: the bonnie++ tests need a directory on a mounted filesystem%s%s",
				   s->dir, why[0] ? "; " : "", why));
}

static int choose_seed(const struct bonnie_spec *s, struct bonnie_result *res, uint64_t *seed)
{
	if (s->have_seed) {
		*seed = s->seed;
		return 0;
	}
	unsigned char b[4];
	if (s->random_file) {
		int fd = open(s->random_file, O_RDONLY | O_CLOEXEC);
		ssize_t r = fd < 0 ? -1 : read(fd, b, sizeof(b));
		int err = r < 0 ? -errno : -EIO;
		if (fd >= 0)
			close(fd);
		if (r != (ssize_t)sizeof(b))
			return set_error(res, err, xasprintf("%s: cannot read a seed: %s", s->random_file,
							     r < 0 ? strerror(-err) : "file too short"));
	} else if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		uint64_t x = now_ns() ^ ((uint64_t)getpid() << 32);
		memcpy(b, &x, sizeof(b));
	}
	*seed = (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 | (uint64_t)b[2] << 8 | b[3];
	return 0;
}

static void phase_finish(struct bonnie_phase *q)
{
	q->max_lat_ns = q->lat.count ? q->lat.max : 0;
	q->rate = q->elapsed_ns ? (double)q->work * 1e9 / (double)q->elapsed_ns : 0.0;
}

void bonnie_phase_add(struct bonnie_phase *tot, const struct bonnie_phase *q)
{
	if (!q->ran)
		return;
	tot->ran = true;
	tot->work += q->work;
	if (q->elapsed_ns >= tot->elapsed_ns) {
		tot->elapsed_ns = q->elapsed_ns;
		tot->cpu_ns = q->cpu_ns;
	}
	tot->busy_ns += q->busy_ns;
	tot->threads += q->threads;
	if (q->repeats > tot->repeats)
		tot->repeats = q->repeats;
	hist_merge(&tot->lat, &q->lat);
	if (q->max_lat_ns > tot->max_lat_ns)
		tot->max_lat_ns = q->max_lat_ns;
	tot->rate += q->rate;
}

static void attach_disks(struct bonnie_phase *p, const struct bon_phase_disks *pd)
{
	if (!p->ran || !pd->d || !pd->n)
		return;
	p->disks = xmalloc(pd->n * sizeof(*p->disks));
	memcpy(p->disks, pd->d, pd->n * sizeof(*p->disks));
	p->nr_disks = pd->n;
}

static void aggregate(struct bonnie_result *res, struct bon_shared *sh)
{
	for (unsigned i = 0; i < res->nr_copies; i++) {
		struct bonnie_figures *f = &res->copies[i];
		for (int t = 0; t < BON_IO_TESTS; t++) {
			phase_finish(&f->io[t]);
			bonnie_phase_add(&res->total.io[t], &f->io[t]);
			attach_disks(&f->io[t], &sh->pd[t]);
		}
		for (int t = 0; t < BON_FILE_TESTS; t++) {
			phase_finish(&f->file[t]);
			bonnie_phase_add(&res->total.file[t], &f->file[t]);
			attach_disks(&f->file[t], &sh->pd[BON_IO_TESTS + t]);
		}
	}
	for (int t = 0; t < BON_IO_TESTS; t++)
		attach_disks(&res->total.io[t], &sh->pd[t]);
	for (int t = 0; t < BON_FILE_TESTS; t++)
		attach_disks(&res->total.file[t], &sh->pd[BON_IO_TESTS + t]);
}

/* A copy's state; false when its buffer cannot be had (its error is set). */
static bool copy_init(struct bon_copy *c, struct bon_shared *sh, unsigned i, struct bonnie_result *res)
{
	const struct bonnie_spec *s = sh->spec;
	c->sh = sh;
	c->spec = s;
	c->index = i;
	c->wfd = -1;
	c->fig = &res->copies[i];
	if (sh->nr_copies == 1)
		c->workdir = xasprintf("%s/Bonnie.%u", s->dir, sh->pid);
	else
		c->workdir = xasprintf("%s/Bonnie.%u.%u", s->dir, sh->pid, i);
	c->iofile_rel = xasprintf("Bonnie.%u", sh->pid);
	c->iofile = xasprintf("%s/%s", c->workdir, c->iofile_rel);
	rng_seed(&c->rng, sh->seed + 0x9e3779b97f4a7c15ull * i);
	size_t len = s->chunk_size > 4096 ? s->chunk_size : 4096;
	if (!(c->buf = bon_alloc_buf(c, len, "the I/O buffer")))
		return false;
	bon_fill(c, c->buf, len);
	return true;
}

static void copy_release(struct bon_copy *c)
{
	free(c->workdir);
	free(c->iofile);
	free(c->iofile_rel);
	free(c->buf);
	free(c->error_msg);
}

static void open_gate(struct bon_shared *sh, int how)
{
	pthread_mutex_lock(&sh->gate_lock);
	sh->gate = how;
	pthread_cond_broadcast(&sh->gate_cond);
	pthread_mutex_unlock(&sh->gate_lock);
}

/* Start the copies together and wait for them; -errno if a thread could
 * not be started (then none runs). */
static int run_copies(struct bon_shared *sh, struct bon_copy *cp, struct bonnie_result *res)
{
	unsigned n = sh->nr_copies, started = 0;
	int rc = 0;
	for (; started < n; started++) {
		int e = pthread_create(&cp[started].thread, NULL, bon_copy_main, &cp[started]);
		if (e) {
			rc = set_error(res, -e, xasprintf("%s: cannot start the thread of copy %u: %s",
							  sh->spec->dir, started, strerror(e)));
			break;
		}
	}
	open_gate(sh, rc ? -1 : 1);
	for (unsigned i = 0; i < started; i++)
		pthread_join(cp[i].thread, NULL);
	return rc;
}

int bonnie_run(const struct bonnie_spec *s, volatile sig_atomic_t *stop, struct bonnie_result *res)
{
	char why[256];
	int rc;
	memset(res, 0, sizeof(*res));
	res->version = RESULTS_VERSION;
	res->nr_copies = s->concurrency ? s->concurrency : 1;
	res->copies = xcalloc(res->nr_copies, sizeof(*res->copies));
	if ((rc = bonnie_spec_validate(s, why, sizeof(why))) < 0)
		return set_error(res, rc, xstrdup(why));
	if ((rc = check_dir(s, res)) < 0 || (rc = choose_seed(s, res, &res->seed)) < 0)
		return rc;

	struct bon_shared *sh = xcalloc(1, sizeof(*sh));
	sh->spec = s;
	sh->stop = stop;
	sh->seed = res->seed;
	sh->pid = (unsigned)getpid();
	sh->nr_copies = res->nr_copies;
	if (clock_init(&sh->clk, CLOCK_SRC_AUTO) < 0)
		clock_init(&sh->clk, CLOCK_SRC_MONOTONIC);
	diskres_add_path(&sh->disks, s->dir);
	pthread_barrier_init(&sh->barrier, NULL, sh->nr_copies);
	pthread_mutex_init(&sh->gate_lock, NULL);
	pthread_cond_init(&sh->gate_cond, NULL);
	struct bon_copy *cp = xcalloc(sh->nr_copies, sizeof(*cp));
	bool ready = true;
	for (unsigned i = 0; i < sh->nr_copies; i++)
		ready &= copy_init(&cp[i], sh, i, res);

	/* a copy without its buffer has its error set: none runs */
	rc = ready ? run_copies(sh, cp, res) : 0;
	aggregate(res, sh);
	for (unsigned i = 0; i < sh->nr_copies; i++) {
		struct bon_copy *c = &cp[i];
		int crc = bon_cleanup(c);
		if (c->error) {
			set_error(res, -c->error, c->error_msg);
			c->error_msg = NULL;
		} else if (crc < 0) {
			set_error(res, crc, xasprintf("%s: cannot remove it: %s", c->workdir, strerror(-crc)));
		}
		copy_release(c);
	}
	res->interrupted = *stop != 0;
	if (res->error)
		rc = -res->error;
	else if (res->interrupted)
		rc = -EINTR;

	for (int k = 0; k < BON_NR_PHASES; k++)
		free(sh->pd[k].d);
	diskres_release(&sh->disks);
	pthread_barrier_destroy(&sh->barrier);
	pthread_mutex_destroy(&sh->gate_lock);
	pthread_cond_destroy(&sh->gate_cond);
	free(cp);
	free(sh);
	return rc;
}

static void figures_release(struct bonnie_figures *f)
{
	for (int t = 0; t < BON_IO_TESTS; t++) {
		hist_release(&f->io[t].lat);
		free(f->io[t].disks);
	}
	for (int t = 0; t < BON_FILE_TESTS; t++) {
		hist_release(&f->file[t].lat);
		free(f->file[t].disks);
	}
}

void bonnie_result_release(struct bonnie_result *res)
{
	figures_release(&res->total);
	for (unsigned i = 0; i < res->nr_copies && res->copies; i++)
		figures_release(&res->copies[i]);
	free(res->copies);
	free(res->error_msg);
	memset(res, 0, sizeof(*res));
}
