/*
 * verify_async's pool (verify_async.h): a ring of tickets, N workers taking
 * them in order, the job thread retiring them in order. One mutex guards
 * the ring's three counters; the tickets between `head` and `next` belong
 * to the workers until they are marked done.
 */
#include "workload/verify/verify_async_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/assert.h"

struct vasync {
	const struct verify_cfg *cfg;
	bool fatal, dump;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct vaitem *ring;
	unsigned cap;
	uint64_t head, next, tail; /* retire from head, workers take next, submit at tail */
	bool quit;
	pthread_t *thr;
	unsigned nthr;
	uint64_t bufsize;
};

static void add_fail(struct vaitem *it, const struct vexpect *e, const struct vresult *r,
		     const uint8_t *keep, uint64_t n)
{
	if (it->nfails == it->capf) {
		unsigned cap = it->capf ? 2 * it->capf : 4;
		struct vafail *p = realloc(it->fails, cap * sizeof(*p));
		if (p) {
			it->fails = p;
			it->capf = cap;
		} else if (it->nfails) {
			/* no memory for one more: keep the count, lose the last's detail */
			it->lost++;
			free(it->fails[it->nfails - 1].keep);
			it->nfails--;
		} else {
			it->lost++;
			return;
		}
	}
	struct vafail *f = &it->fails[it->nfails++];
	f->e = *e;
	f->r = *r;
	f->keep = NULL;
	if (keep && (f->keep = malloc(n)))
		memcpy(f->keep, keep, n);
}

/* The inline check's work on one read, without its side effects. */
static void check_item(struct vasync *va, struct vaitem *it, uint8_t *scratch, uint8_t *keep)
{
	struct vresult r;
	struct vexpect e = it->e;
	it->nfails = 0;
	it->lost = 0;
	it->chunks = 0;
	if (it->trimmed) {
		if (!it->check_zero)
			return;
		it->chunks = 1;
		uint64_t n = it->result > 0 ? (uint64_t)it->result : 0, i = 0;
		while (i < n && !it->buf[i])
			i++;
		if (i == n)
			return;
		memset(&r, 0, sizeof(r));
		r.kind = VFAIL_STALE;
		r.first_diff = (int64_t)i;
		r.got_byte = it->buf[i];
		if (va->cfg->header && n >= va->cfg->hdr_off + VHDR_SIZE)
			r.hdr_valid = vhdr_decode(it->buf + va->cfg->hdr_off, &r.found);
		if (r.hdr_valid && r.found.seed == va->cfg->seed && r.found.seq > it->e.seq &&
		    r.found.offset == it->off)
			return; /* a newer write of the job's: accepted, as inline */
		snprintf(r.why, sizeof(r.why), "trimmed (trim_percentage, trim_verify_zero=1) but it "
			 "does not read back as zeros");
		e = (struct vexpect){ .offset = it->off, .len = it->len };
		add_fail(it, &e, &r, NULL, 0);
		return;
	}
	if ((uint64_t)it->result < it->len) {
		memset(&r, 0, sizeof(r));
		r.kind = VFAIL_SHORT;
		r.first_diff = -1;
		snprintf(r.why, sizeof(r.why), "only %lld of %llu bytes could be read",
			 (long long)it->result, (unsigned long long)it->len);
		e.offset = it->off;
		e.len = it->len;
		add_fail(it, &e, &r, NULL, 0);
		return;
	}
	for (uint64_t pos = 0, n; pos < it->len; pos += n) {
		n = verify_chunk_len(va->cfg, it->len, pos);
		IOB_ASSERT(n > 0 && n <= it->len - pos);
		e.offset = it->off + pos;
		e.len = n;
		it->chunks++;
		if (va->dump)
			memcpy(keep, it->buf + pos, n);
		if (verify_check_chunk(va->cfg, it->buf + pos, &e, scratch, &r) == VFAIL_NONE)
			continue;
		add_fail(it, &e, &r, va->dump ? keep : NULL, n);
		if (va->fatal)
			break;
	}
}

static void *worker(void *arg)
{
	struct vasync *va = arg;
	uint8_t *scratch = malloc(va->bufsize ? va->bufsize : 1);
	uint8_t *keep = va->dump ? malloc(va->bufsize ? va->bufsize : 1) : NULL;
	pthread_mutex_lock(&va->lock);
	for (;;) {
		while (va->next == va->tail && !va->quit)
			pthread_cond_wait(&va->work, &va->lock);
		if (va->next == va->tail)
			break;
		struct vaitem *it = &va->ring[va->next++ % va->cap];
		pthread_mutex_unlock(&va->lock);
		if (scratch && (!va->dump || keep)) {
			check_item(va, it, scratch, keep);
		} else {
			struct vresult r = { .kind = VFAIL_SHORT, .first_diff = -1 };
			snprintf(r.why, sizeof(r.why), "verify_async: no memory to check the block");
			struct vexpect e = { .offset = it->off, .len = it->len };
			it->nfails = 0;
			add_fail(it, &e, &r, NULL, 0);
		}
		pthread_mutex_lock(&va->lock);
		it->done = true;
		pthread_cond_broadcast(&va->done);
	}
	pthread_mutex_unlock(&va->lock);
	free(scratch);
	free(keep);
	return NULL;
}

struct vasync *vasync_start(unsigned n, const struct verify_cfg *cfg, uint64_t bufsize,
			    bool fatal, bool dump, const cpu_set_t *cpus)
{
	struct vasync *va = calloc(1, sizeof(*va));
	if (!va)
		return NULL;
	va->cfg = cfg;
	va->fatal = fatal;
	va->dump = dump;
	va->bufsize = bufsize;
	va->cap = 4 * n + 4;
	va->ring = calloc(va->cap, sizeof(*va->ring));
	va->thr = calloc(n, sizeof(*va->thr));
	if (!va->ring || !va->thr)
		goto fail;
	pthread_mutex_init(&va->lock, NULL);
	pthread_cond_init(&va->work, NULL);
	pthread_cond_init(&va->done, NULL);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	int arc = cpus ? pthread_attr_setaffinity_np(&attr, sizeof(*cpus), cpus) : 0;
	for (; !arc && va->nthr < n; va->nthr++) {
		int rc = pthread_create(&va->thr[va->nthr], &attr, worker, va);
		if (rc) {
			arc = rc;
			break;
		}
	}
	pthread_attr_destroy(&attr);
	if (arc) {
		vasync_stop(va, NULL, NULL);
		errno = arc;
		return NULL;
	}
	return va;
fail:
	free(va->ring);
	free(va->thr);
	free(va);
	errno = ENOMEM;
	return NULL;
}

/* Retire the done tickets at the head (all of them with wait); locked. */
static void retire_locked(struct vasync *va, bool wait, void (*retire)(void *, struct vaitem *),
			  void *arg)
{
	while (va->head < va->tail) {
		struct vaitem *it = &va->ring[va->head % va->cap];
		if (!it->done) {
			if (!wait)
				return;
			pthread_cond_wait(&va->done, &va->lock);
			continue;
		}
		pthread_mutex_unlock(&va->lock);
		if (retire)
			retire(arg, it);
		for (unsigned k = 0; k < it->nfails; k++)
			free(it->fails[k].keep);
		it->nfails = 0;
		pthread_mutex_lock(&va->lock);
		it->done = false;
		va->head++;
	}
}

int vasync_submit(struct vasync *va, struct job_file *f, uint64_t off, uint64_t len,
		  int64_t result, const void *buf, const struct vexpect *e, bool trimmed,
		  bool check_zero, void (*retire)(void *arg, struct vaitem *it), void *arg)
{
	pthread_mutex_lock(&va->lock);
	retire_locked(va, false, retire, arg);
	while (va->tail - va->head == va->cap) {
		/* full: wait for the oldest ticket, then retire what is done */
		struct vaitem *old = &va->ring[va->head % va->cap];
		while (!old->done)
			pthread_cond_wait(&va->done, &va->lock);
		retire_locked(va, false, retire, arg);
	}
	struct vaitem *it = &va->ring[va->tail % va->cap];
	pthread_mutex_unlock(&va->lock);
	/* the slot is neither the workers' nor waiting to retire: fill it */
	if (it->cap < len) {
		uint8_t *p = realloc(it->buf, len);
		if (!p)
			return -ENOMEM;
		it->buf = p;
		it->cap = len;
	}
	uint64_t n = result > 0 ? ((uint64_t)result < len ? (uint64_t)result : len) : 0;
	memcpy(it->buf, buf, n);
	it->f = f;
	it->off = off;
	it->len = len;
	it->result = result;
	it->e = *e;
	it->trimmed = trimmed;
	it->check_zero = check_zero;
	it->done = false;
	pthread_mutex_lock(&va->lock);
	va->tail++;
	pthread_cond_signal(&va->work);
	pthread_mutex_unlock(&va->lock);
	return 0;
}

void vasync_drain(struct vasync *va, void (*retire)(void *arg, struct vaitem *it), void *arg)
{
	pthread_mutex_lock(&va->lock);
	retire_locked(va, true, retire, arg);
	pthread_mutex_unlock(&va->lock);
}

void vasync_stop(struct vasync *va, void (*retire)(void *arg, struct vaitem *it), void *arg)
{
	if (!va)
		return;
	vasync_drain(va, retire, arg);
	pthread_mutex_lock(&va->lock);
	va->quit = true;
	pthread_cond_broadcast(&va->work);
	pthread_mutex_unlock(&va->lock);
	for (unsigned i = 0; i < va->nthr; i++)
		pthread_join(va->thr[i], NULL);
	for (unsigned i = 0; i < va->cap; i++) {
		free(va->ring[i].buf);
		free(va->ring[i].fails);
	}
	pthread_mutex_destroy(&va->lock);
	pthread_cond_destroy(&va->work);
	pthread_cond_destroy(&va->done);
	free(va->ring);
	free(va->thr);
	free(va);
}
