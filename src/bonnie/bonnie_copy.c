/*
 * One copy of the bonnie++ suite (a thread; -c N runs N of them): its
 * working directory, then the I/O tests (per-char output, block output,
 * rewrite, per-char input, block input, seeks) and the file tests
 * (sequential then random create, stat, delete), in bonnie++'s order.
 *
 * Every copy goes through every phase boundary, even after an error or a
 * stop (it then skips the work), so the barrier that starts each phase for
 * all copies at once (bonnie++'s semaphores) never waits for a copy that
 * left. The last copy to reach a boundary samples the disks under -d, so a
 * phase's disk statistics cover exactly the phase. --precise repeats an I/O
 * pass, or a stat pass over the files, inside its phase until the passes
 * last 0.5 s; create and delete need each other, so the file tests repeat
 * whole cycles (see bonnie_files.c) as long as any copy votes for one more.
 */
#include "bonnie/bonnie_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "util/xmalloc.h"

static bool active(const struct bon_copy *c)
{
	return !c->error && !bon_stopped(c);
}

static bool wait_serial(struct bon_shared *sh)
{
	return pthread_barrier_wait(&sh->barrier) == PTHREAD_BARRIER_SERIAL_THREAD;
}

static void phase_begin(struct bon_copy *c, unsigned idx, bool runs)
{
	struct bon_shared *sh = c->sh;
	if (wait_serial(sh)) {
		if (runs && c->spec->before_phase)
			c->spec->before_phase(c->spec->before_phase_arg, idx);
		diskres_begin(&sh->disks);
		sh->pd[idx].t0_ns = now_ns();
	}
	wait_serial(sh);
}

/* Add the deltas of this pass to the phase's (a --precise cycle repeats). */
static void disks_add(struct bon_phase_disks *pd, struct disk_result *d, size_t n)
{
	if (!pd->d) {
		pd->d = d;
		pd->n = n;
		return;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < pd->n; k++) {
			struct disk_result *a = &pd->d[k];
			const struct disk_result *b = &d[i];
			if (strcmp(a->name, b->name))
				continue;
			a->read_ios += b->read_ios;
			a->write_ios += b->write_ios;
			a->read_merges += b->read_merges;
			a->write_merges += b->write_merges;
			a->read_sectors += b->read_sectors;
			a->write_sectors += b->write_sectors;
			a->read_ticks += b->read_ticks;
			a->write_ticks += b->write_ticks;
			a->in_queue += b->in_queue;
			a->io_ticks += b->io_ticks;
			a->elapsed_ms += b->elapsed_ms;
			a->util = a->elapsed_ms ? 100.0 * (double)a->io_ticks / (double)a->elapsed_ms : 0.0;
			if (a->util > 100.0)
				a->util = 100.0;
		}
	free(d);
}

static void phase_end(struct bon_copy *c, unsigned idx)
{
	struct bon_shared *sh = c->sh;
	if (wait_serial(sh)) {
		struct disk_result *d;
		size_t n;
		diskres_end(&sh->disks, (now_ns() - sh->pd[idx].t0_ns) / NSEC_PER_MSEC, &d, &n);
		disks_add(&sh->pd[idx], d, n);
		if (c->spec->after_phase)
			c->spec->after_phase(c->spec->before_phase_arg, idx);
	}
}

/* Does any copy want another cycle? Every copy gets the same answer. */
static bool vote(struct bon_copy *c, bool more)
{
	struct bon_shared *sh = c->sh;
	if (more)
		atomic_store(&sh->vote, 1);
	wait_serial(sh);
	bool again = atomic_load(&sh->vote) != 0;
	if (wait_serial(sh))
		atomic_store(&sh->vote, 0); /* nobody votes again before the next barrier */
	return again;
}

typedef int (*io_pass)(struct bon_copy *c, struct bonnie_phase *p);

static void io_phase(struct bon_copy *c, enum bonnie_io_test t, io_pass pass, bool wanted)
{
	phase_begin(c, t, wanted && active(c));
	if (wanted && active(c)) {
		struct bonnie_phase *p = &c->fig->io[t];
		int rc;
		p->ran = true;
		do {
			uint64_t before = p->work;
			rc = pass(c, p);
			p->repeats++;
			if (p->work == before)
				break; /* nothing to repeat (-s ::0 seeks) */
		} while (rc == 0 && c->spec->precise && p->elapsed_ns < BONNIE_MIN_TIME_NS && active(c));
	}
	phase_end(c, t);
}

static void io_tests(struct bon_copy *c)
{
	const struct bonnie_spec *s = c->spec;
	bool io = s->file_size > 0, chr = io && !s->skip_putc && s->putc_size > 0;
	io_phase(c, BON_PUTC, bon_putc, chr);
	io_phase(c, BON_PUT_BLOCK, bon_put_block, io);
	io_phase(c, BON_REWRITE, bon_rewrite, io);
	io_phase(c, BON_GETC, bon_getc, chr);
	io_phase(c, BON_GET_BLOCK, bon_get_block, io);
	io_phase(c, BON_SEEKS, bon_seeks, io);
	if (c->iofile_exists && unlinkat(c->wfd, c->iofile_rel, 0) < 0 && !c->error)
		bon_fail(c, -errno, c->iofile, "unlink");
	c->iofile_exists = false;
}

typedef int (*file_pass)(struct bon_files *f, struct bonnie_phase *p);

/* first: the cycle's first pass of the phase; only that one is announced
 * (progress line, -y synchronisation), so that every process sees each
 * phase once however many cycles its --precise needs. */
static bool file_phase(struct bon_copy *c, struct bon_files *f, enum bonnie_file_test t,
		       file_pass pass, bool go, bool first)
{
	phase_begin(c, BON_IO_TESTS + t, first && f && go && active(c));
	bool ok = false;
	if (f && go && active(c)) {
		struct bonnie_phase *p = &c->fig->file[t];
		bool again = t == BON_SEQ_STAT || t == BON_RAN_STAT; /* stat leaves the files as they were */
		int rc;
		p->ran = true;
		do {
			uint64_t before = p->work;
			rc = pass(f, p);
			p->repeats++;
			if (p->work == before)
				break;
		} while (rc == 0 && again && c->spec->precise && p->elapsed_ns < BONNIE_MIN_TIME_NS &&
			 active(c));
		ok = rc == 0;
	}
	phase_end(c, BON_IO_TESTS + t);
	return ok;
}

static void file_test(struct bon_copy *c, bool random)
{
	enum bonnie_file_test base = random ? BON_RAN_CREATE : BON_SEQ_CREATE;
	struct bon_files *f = c->spec->num_files && active(c) ? bon_files_new(c, random) : NULL;
	bool again, first = true;
	do {
		bool made = file_phase(c, f, base, bon_files_create, true, first);
		file_phase(c, f, base + 1, bon_files_stat, made, first);
		bool gone = file_phase(c, f, base + 2, bon_files_delete, made, first);
		first = false;
		bool more = false;
		if (f && gone && c->spec->precise && active(c))
			for (int k = 0; k < 3; k++)
				more |= c->fig->file[base + k].elapsed_ns < BONNIE_MIN_TIME_NS;
		again = vote(c, more);
	} while (again);
	bon_files_free(f);
}

static int make_workdir(struct bon_copy *c)
{
	if (mkdir(c->workdir, 0700) < 0)
		return bon_fail(c, -errno, c->workdir, "cannot make the working directory");
	c->workdir_made = true;
	c->wfd = open(c->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->wfd < 0)
		return bon_fail(c, -errno, c->workdir, "open");
	return 0;
}

void *bon_copy_main(void *arg)
{
	struct bon_copy *c = arg;
	struct bon_shared *sh = c->sh;
	pthread_mutex_lock(&sh->gate_lock);
	while (!sh->gate)
		pthread_cond_wait(&sh->gate_cond, &sh->gate_lock);
	int gate = sh->gate;
	pthread_mutex_unlock(&sh->gate_lock);
	if (gate < 0)
		return NULL; /* another copy's thread could not start */
	if (!bon_stopped(c))
		make_workdir(c);
	io_tests(c);
	file_test(c, false);
	file_test(c, true);
	return NULL;
}
